/* kdp_internal.h — the dispatch layer's internal interface (dispatch.c, recover.c, enum.c): the
 * failure-only paths of recover.c (cold code on RV32: only exported functions are called from
 * there, and each is called from dispatch.c only when something went wrong), the bounded
 * register wait and the waits of a quiesce that found the agent busy. Not for callers of the
 * layer: dispatch.h is its interface. */
#ifndef KOHAKU_KDP_INTERNAL_H
#define KOHAKU_KDP_INTERNAL_H

#include "dispatch.h"

/* Internal (recover.c; enum.c and kdp_drain call it): waits, bounded by wait_cycles, until
 * (agent register `off` & bit) == want, popping RX while it waits on RX_STATUS. KS_OK, or
 * KS_TIMEOUT recorded with `detail` (KDP_DETAIL) and value = the register. */
unsigned kdp_wait_reg(struct kdp_ctx *c, uint32_t off, uint32_t bit, uint32_t want, uint32_t detail);

/* ---- recover.c's failure-only paths (cold code on RV32) ----
 * One entry, kdp_cold, for all of them: each cold entry costs the RV32 window an 8-byte native
 * stub (hal/rv32/kvm_stub.c), a `li` of `what` at a call site 4, and each of these has one
 * call site. `what` picks the path and says which arguments follow (pointers and 32-bit
 * scalars: the variadic words travel in a1..a5 exactly as fixed ones would, so the stub's
 * register pass-through carries them); the typed wrappers below are the API. */
enum kdp_cold_what {
    KDP_COLD_DRAIN,         /* kdp_drain */
    KDP_COLD_TIMEOUT,       /* kdp_timeout */
    KDP_COLD_FAULT,         /* kdp_fault */
    KDP_COLD_REFUSE,        /* kdp_refuse */
    KDP_COLD_OWED_START,    /* kdp_owed_start */
    KDP_COLD_HIDDEN,        /* kdp_hidden */
    KDP_COLD_ABORT,         /* kdp_abort */
    KDP_COLD_SETTLE,        /* kdp_settle */
};
uint32_t kdp_cold(unsigned what, struct kdp_ctx *c, ...);

#ifndef KDP_RECOVER_C
/* kdp_quiesce when the agent was not quiet at once: waits for run to fall, then pops RX until
 * it is empty, each bounded (KS_TIMEOUT, detail RUN or MAILBOX_RX). */
static inline unsigned kdp_drain(struct kdp_ctx *c)
{
    return kdp_cold(KDP_COLD_DRAIN, c);
}

/* KS_TIMEOUT: job `need` waited for room (credit), or, need NULL, job `pend` for its
 * completions; detail names what and the job's unit, value = (signals seen << 32) |
 * dispatched. */
static inline void kdp_timeout(struct kdp_ctx *c, struct kdp_job *need, struct kdp_job *pend)
{
    kdp_cold(KDP_COLD_TIMEOUT, c, need, pend);
}

/* Job j's unit signalled FAULT (rep.last_arg its exec_result): KS_UNIT_FAULT, j stops (unless
 * j failed already: then nothing). */
static inline void kdp_fault(struct kdp_ctx *c, struct kdp_job *j)
{
    kdp_cold(KDP_COLD_FAULT, c, j);
}

/* A kdp_run refused at job j, every earlier job passing (NULL: the job count out of range):
 * records and returns j's first failing check's status (and detail). */
static inline unsigned kdp_refuse(struct kdp_ctx *c, const struct kdp_job *j)
{
    return kdp_cold(KDP_COLD_REFUSE, c, j);
}

/* With c->owing set: each job's skip (its unit's signals still owed from an earlier run);
 * returns whether a unit outside `seen` (this run's table indices) may still return credit. */
static inline bool kdp_owed_start(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n,
                                  uint32_t seen)
{
    return kdp_cold(KDP_COLD_OWED_START, c, jobs, n, seen) != 0;
}

/* The credit check found `d` more signals without credit than NODE_STATUS showed (a FAULT
 * followed by another signal of its unit before the firmware read the mirror): KS_UNIT_FAULT,
 * detail KDP_FAULT_HIDDEN | {y,x} of the one job that had signals unseen (KDP_FAULT_UNPLACED
 * too, and the first such job's {y,x}, when several had), value (jobs that may hold it, a bit
 * per job index) << 16 | d (modulo 2^16). Each such job's status becomes KS_UNIT_FAULT. */
static inline void kdp_hidden(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end,
                              uint32_t d)
{
    kdp_cold(KDP_COLD_HIDDEN, c, jobs, end, d);
}

/* Ends job j's running kick early (after its FAULT, or a stall: then the CREDIT timeout is
 * recorded once what came back is counted). Leaves no kick running. Returns whether it was a
 * stall (the run ends) rather than a FAULT (what was pushed still retires). */
static inline bool kdp_abort(struct kdp_ctx *c, struct kdp_job *j)
{
    return kdp_cold(KDP_COLD_ABORT, c, j) != 0;
}

/* After a failed run, or any run while some unit owes (c->owing), quiet already: what each
 * job's unit still owes (CU_STATUS read when something is unaccounted for; a job done owes
 * nothing), each unfinished job's status, and RX drained again. */
static inline void kdp_settle(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end)
{
    kdp_cold(KDP_COLD_SETTLE, c, jobs, end);
}
#endif

/* Enumeration's row (enum.c; native on every board): sends n (>= 1) CU_CTRL reads of CU_CAPS
 * through the mailbox, the first with header h (dst = the row's first column, txn t0 = its
 * {x,y}), each next one a column on (dst_x + 1, txn + 16), TX_FLIT's payload already written;
 * then reads the row's answers until n have come or coord_cycles pass without one. An answer
 * from the coordinate asked (src = txn, type CU_CTRL) leaves its word 3 in raw[2 col] (low
 * half) and raw[2 col + 1] (high half). Returns answers << 16 | a bit for each such column. */
uint32_t kdp_enum_row(uint32_t h, uint32_t n, uint32_t coord_cycles, uint32_t *raw, uint32_t t0);

#endif
