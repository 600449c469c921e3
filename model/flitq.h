/* flitq.h — a growable FIFO of flits for the device model: the mesh's per-pair in-flight
 * queues and a compute unit's stalled input (docs/model-mesh.md §4). Unbounded by design: the
 * model never drops a flit, and backpressure is modelled by whoever owns the queue. */
#ifndef KM_FLITQ_H
#define KM_FLITQ_H

#include "kohaku/flit.h"

/* Zero-initialised is an empty queue. */
struct km_flitq {
    struct kf_flit *buf;
    unsigned cap, head, count;
};

/* Append a copy of *f, growing the buffer as needed; aborts if memory runs out. */
void km_flitq_push(struct km_flitq *q, const struct kf_flit *f);

/* The oldest flit; the queue must not be empty. */
static inline const struct kf_flit *km_flitq_front(const struct km_flitq *q)
{
    return &q->buf[q->head];
}

/* Remove the oldest flit, returning a copy; the queue must not be empty. */
static inline struct kf_flit km_flitq_pop(struct km_flitq *q)
{
    struct kf_flit f = q->buf[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return f;
}

/* Empty the queue, keeping its buffer. */
static inline void km_flitq_clear(struct km_flitq *q)
{
    q->head = q->count = 0;
}

/* Release the buffer; the queue is empty and reusable afterwards. */
void km_flitq_free(struct km_flitq *q);

#endif
