/* flitq.c — the device model's growable flit FIFO (flitq.h): the buffer doubles when full,
 * the live entries moved to its start in order. */
#include <stdlib.h>

#include "flitq.h"

void km_flitq_push(struct km_flitq *q, const struct kf_flit *f)
{
    if (q->count == q->cap) {
        unsigned ncap = q->cap ? q->cap * 2 : 8;
        struct kf_flit *nb = malloc(sizeof *nb * ncap);
        if (!nb)
            abort();
        for (unsigned i = 0; i < q->count; i++)
            nb[i] = q->buf[(q->head + i) % q->cap];
        free(q->buf);
        q->buf = nb;
        q->cap = ncap;
        q->head = 0;
    }
    q->buf[(q->head + q->count) % q->cap] = *f;
    q->count++;
}

void km_flitq_free(struct km_flitq *q)
{
    free(q->buf);
    q->buf = NULL;
    q->cap = q->head = q->count = 0;
}
