/* fakehal.h — what the native replay tests see of the hal stand-in (fakehal.c): the model's
 * mover, a DRAM image, the clock, and a log of what replay did through the hal. */
#ifndef KOHAKU_TEST_MOVER_FAKEHAL_H
#define KOHAKU_TEST_MOVER_FAKEHAL_H

#include <stdint.h>

#define FH_MEM_BYTES (1u << 20)            /* unit-global 0 .. 1 MB; bit 39 set: AXI error */

extern uint8_t fh_mem[FH_MEM_BYTES];

struct fh_log {
    unsigned mvgo, flush, inval, busy_go;  /* calls, and GOs into a busy mover (referee) */
    uint64_t first_flush_t, last_mvgo_t, last_inval_t;
    uint64_t idle_seen_t;                  /* when a status read last saw busy fall */
    uint64_t gap_after_idle[8];            /* per MVGO: time since busy was last seen falling */
    unsigned ngaps;
};
extern struct fh_log fh_log;

void fh_reset(void);                       /* fresh mover, memory zeroed, log cleared */
uint64_t fh_now(void);

#endif
