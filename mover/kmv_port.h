/* kmv_port.h — what each variant's mover port (mover/rv32/port.c: the descriptor form and
 * MVGO, BOARD.md §4; mover/rv64/port.c: the control-region window and MVSTAT, §5) gives the
 * common replay loop in mover/replay.c. Internal to mover/. */
#ifndef KOHAKU_KMV_PORT_H
#define KOHAKU_KMV_PORT_H

#include <stdint.h>
#include "kmv.h"

struct kmv_stat {
    int busy;
    unsigned fault;         /* mover fault code 0..7 (holds until the next GO) */
    unsigned occ_fault;     /* transform occupant fault (RV32 MVGO [11:8]; 0 on RV64) */
    uint64_t raw;           /* the status word as read */
};

/* One chunk of a list: the writes from `p` up to and including the next GO, or fewer when
 * the port's buffer is smaller than the move (then no GO: the move's remaining writes follow
 * in the next chunk, and only the last one starts the mover). */
struct kmv_chunk {
    const struct kd_write *p;
    const struct kd_write *next;    /* first write after the chunk */
    int go;                         /* the chunk ends with the move's GO */
    unsigned mode;                  /* that GO's mode */
    unsigned buf;                   /* port-private: which buffer */
};

void kmv_port_status(struct kmv_stat *s);
/* Prepares the chunk starting at c->p without touching the mover (RV32: copies it into a
 * scratchpad buffer while the previous chunk may still run). May set c->next. */
void kmv_port_stage(struct kmv_chunk *c);
/* Sends the staged chunk to the mover; the mover must be idle. Sets c->next, c->go, c->mode. */
void kmv_port_start(struct kmv_chunk *c);

#endif
