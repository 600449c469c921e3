/* kdp_internal.h — the dispatch layer's internal interface (dispatch.c, recover.c, enum.c,
 * wait.c): the bounded waits of wait.c and the failure-only paths of recover.c (both cold code
 * on RV32: only exported functions are called from there). Calls go one way: dispatch.c ->
 * recover.c -> wait.c, enum.c -> dispatch.c (kdp_quiesce) and wait.c; wait.c calls none of
 * them. Not for callers of the layer: dispatch.h is its interface. */
#ifndef KOHAKU_KDP_INTERNAL_H
#define KOHAKU_KDP_INTERNAL_H

#include "dispatch.h"

/* Internal (wait.c; enum.c, kdp_drain and kdp_ctrl_read call it): waits, bounded by wait_cycles, until
 * (agent register `off` & bit) == want, popping RX while it waits on RX_STATUS. KS_OK, or
 * KS_TIMEOUT recorded with `detail` (KDP_DETAIL) and value = the register. */
unsigned kdp_wait_reg(struct kdp_ctx *c, uint32_t off, uint32_t bit, uint32_t want, uint32_t detail);

/* Internal (wait.c): kdp_quiesce when the agent was not quiet at once: waits for run to
 * fall, then pops RX until it is empty, each bounded (KS_TIMEOUT, detail RUN or MAILBOX_RX). */
unsigned kdp_drain(struct kdp_ctx *c);

/* Internal (wait.c; recover.c calls it too): records an error unless one is recorded already
 * (the first error wins). */
void kdp_fail(struct kdp_ctx *c, uint32_t status, uint32_t detail, uint64_t value);

/* Internal, the failure-only paths of recover.c (cold code on RV32: only exported functions
 * are called from there, and each is called from dispatch.c only when something went wrong). */
/* KS_TIMEOUT: job `need` waited for room (credit), or, need NULL, job `pend` for its
 * completions; detail names what and the job's unit, value = (signals seen << 32) |
 * dispatched. */
void kdp_timeout(struct kdp_ctx *c, struct kdp_job *need, struct kdp_job *pend);
/* Job j's unit signalled FAULT (rep.last_arg its exec_result): KS_UNIT_FAULT, j stops (unless
 * j failed already: then nothing). */
void kdp_fault(struct kdp_ctx *c, struct kdp_job *j);
/* A kdp_run refused at job j, every earlier job passing (NULL: the job count out of range):
 * records and returns j's first failing check's status (and detail). */
unsigned kdp_refuse(struct kdp_ctx *c, const struct kdp_job *j);
/* With c->owing set: each job's skip (its unit's signals still owed from an earlier run);
 * returns whether a unit outside `seen` (this run's table indices) may still return credit. */
bool kdp_owed_start(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n, uint32_t seen);
/* The credit check found `d` more signals without credit than NODE_STATUS showed (a FAULT
 * followed by another signal of its unit before the firmware read the mirror): KS_UNIT_FAULT,
 * detail KDP_FAULT_HIDDEN | {y,x} of the one job that had signals unseen (KDP_FAULT_UNPLACED
 * too, and the first such job's {y,x}, when several had), value (jobs that may hold it, a bit
 * per job index) << 16 | d. Each such job's status becomes KS_UNIT_FAULT. */
void kdp_hidden(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end, uint32_t d);
/* Ends job j's running kick early (after its FAULT, or a stall: then the CREDIT timeout is
 * recorded once what came back is counted). Leaves no kick running. Returns whether it was a
 * stall (the run ends) rather than a FAULT (what was pushed still retires). */
bool kdp_abort(struct kdp_ctx *c, struct kdp_job *j);
/* After a failed run, or any run while some unit owes (c->owing), quiet already: what each
 * job's unit still owes (CU_STATUS read when something is unaccounted for; a job done owes
 * nothing), each unfinished job's status, and RX drained again. */
void kdp_settle(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end);

/* Enumeration's row (enum.c; native on every board): once enum.c has sent the row's n (>= 1)
 * CU_CTRL reads of CU_CAPS through the mailbox (the first to the row's first column, txn t0 =
 * its {x,y}, each next one a column on: txn + 16), reads the row's answers until n have come or
 * coord_cycles pass without one. An answer from the coordinate asked (src = txn, type CU_CTRL)
 * leaves its word 3 in raw[2 col] (low half) and raw[2 col + 1] (high half). Returns answers
 * << 16 | a bit for each such column. */
uint32_t kdp_enum_row(uint32_t n, uint32_t coord_cycles, uint32_t *raw, uint32_t t0);

#endif
