/* recover.c — the dispatch layer's failure-only paths (docs/dispatch.md "Failures", "What a
 * unit still owes"): a refused run's status, a unit's FAULT, a timeout, ending a streaming
 * kick early, the after-failure accounting of what each unit still owes. Called by dispatch.c
 * only; calls wait.c (the first-error record, the waits, a unit's CU_STATUS read) and nothing
 * else of dispatch/.
 * Nothing here runs on a run that succeeds with no unit owing from an earlier one, so none of
 * it is on a speed budget: on RV32 this file is meant to run as cold code (interpreted, about
 * 40x slower; docs/rv32-size.md). Hence its shape: entry functions of at most six
 * scalar or pointer arguments, no function pointers, calls to exported functions only (never
 * to dispatch.c's static ones), and every wait measured in processor cycles from hal_cycles(),
 * never in loop turns, so an interpreted wait is as long as a native one. */
#include "kdp_internal.h"
#include "hal/hal.h"

#define KDP_ABORT_BATCH 4u      /* flits released at a time while ending a kick early */
#define KDP_ABORT_QUIET 64u     /* cycles without RX traffic after run fell: the abort is over */

static uint32_t kdp_rnow(void)
{
    return (uint32_t)hal_cycles();
}

/* KS_TIMEOUT of job j awaiting `what` (KDP_AWAIT_CREDIT or _COMPLETION): value = (signals seen
 * << 32) | dispatched. */
static void kdp_wait_fail(struct kdp_ctx *c, const struct kdp_job *j, unsigned what)
{
    kdp_fail(c, KS_TIMEOUT, KDP_DETAIL(what, j->yx),
             ((uint64_t)j->rep.completions << 32) | j->rep.dispatched);
}

void kdp_timeout(struct kdp_ctx *c, struct kdp_job *need, struct kdp_job *pend)
{
    struct kdp_job *j = need ? need : pend;
    /* A kick still running at credit 0 when the wait ran out is a stream stalled on credit its
     * target will not return (a hung unit): only a returned credit or a PROG_CRED write frees
     * it (docs/hardware.md §1.1), and the agent would stay busy for good (no mailbox, no next
     * kick). It is ended here as at the loop's own stall check: kdp_abort records the timeout
     * as CREDIT once what came back is counted, so the value is what reached the unit. (Which
     * of the two sees the wait run out depends only on which of two clock reads in kdp_run's
     * loop crosses the limit: the instructions between them decided the outcome, docs/dispatch.md
     * "Failures".) Top-up kicks never run at credit 0 (seeded KDP_TOPUP_CREDIT). */
    if ((hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN) &&
        KBF_FIELD_GET(KA_PROG_STAT_CRED, hal_agent_rd(KA_PROG_STAT)) == 0) {
        kdp_abort(c, j);
        return;
    }
    kdp_wait_fail(c, j, need ? KDP_AWAIT_CREDIT : KDP_AWAIT_COMPLETION);
}

void kdp_fault(struct kdp_ctx *c, struct kdp_job *j)
{
    /* A FAULT ends the program (a faulting last instruction reports FAULT, never
     * BATCH_COMPLETE: docs/hardware.md §1.1); what is already in flight still retires. Called at every
     * FAULT code read: only the first of a job counts. */
    if (j->rep.status != KS_OK)
        return;
    j->rep.status = KS_UNIT_FAULT;
    j->state = KDP_J_STOP;
    kdp_fail(c, KS_UNIT_FAULT, j->yx, j->rep.last_arg);
}

void kdp_hidden(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end, uint32_t d)
{
    d &= 0xFFFFu;           /* the shortfall modulo 2^16, as the counter (kdp_run passes it whole) */
    /* Credit is one counter for every unit: the fault belongs to a job that had signals the
     * mirror never showed (completions counted beyond the reads that found them). One such
     * job: that unit. Several: any of them (UNPLACED); the hardware keeps nothing more. */
    /* A bit per job kept by walking (no pointer difference: a divide by the job's size, a
     * library call on RV32I). */
    uint32_t mask = 0, all = 0, bit = 1, detail = KDP_FAULT_HIDDEN;
    for (struct kdp_job *j = jobs; j != end; j++, bit <<= 1) {
        all |= bit;
        if (j->rep.completions != j->polls) {
            if (mask)
                detail |= KDP_FAULT_UNPLACED;
            else
                detail |= j->yx;
            mask |= bit;
        }
    }
    if (!mask) {            /* a unit outside the contract (a signal it should not send): any */
        mask = all;
        detail |= KDP_FAULT_UNPLACED | jobs->yx;
    }
    bit = 1;
    for (struct kdp_job *j = jobs; j != end; j++, bit <<= 1)
        if ((mask & bit) && j->rep.status == KS_OK)
            j->rep.status = KS_UNIT_FAULT;
    kdp_fail(c, KS_UNIT_FAULT, detail, ((uint64_t)mask << 16) | d);
}

unsigned kdp_refuse(struct kdp_ctx *c, const struct kdp_job *j)
{
    /* kdp_run's one pass stopped at job j (every earlier job passed every check), or at none
     * (NULL) for a job count out of range; the status is j's first failing check in the
     * documented order (EMPTY, BAD_PROG, BAD_TARGET: its unit absent or taken by an earlier
     * job, or the staging RAM too small for the regions). Nothing else changes. kdp_run
     * cleared only the status: detail and value are written here. */
    unsigned st = KS_DISPATCH_BAD_PROG;
    c->detail = 0;
    c->value = 0;
    if (j) {
        const struct kdp_prog *p = j->prog;
        if (!p || p->n == 0)
            st = KS_DISPATCH_EMPTY;
        else if (((uintptr_t)p->payload & 7u) == 0) {
            st = KS_DISPATCH_BAD_TARGET;
            c->detail = j->yx;
        }
    }
    c->status = st;
    return st;
}

bool kdp_owed_start(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n, uint32_t seen)
{
    /* Instructions an earlier failed run left in this run's units that have not retired yet:
     * their first signals are those (a unit retires in order), taken off the count. */
    for (struct kdp_job *j = jobs; j != jobs + n; j++) {
        unsigned ui = j->ui;
        if ((c->owing >> ui) & 1u) {
            int16_t left = (int16_t)kdp_count_since(c->due[ui], j->last_count);
            j->skip = left > 0 ? (uint16_t)left : 0;
        }
    }
    /* A unit outside this run that still owes instructions may still return credit (credit is
     * one counter): then no kick of this run streams on returned credit. */
    bool elsewhere = false;
    uint32_t rest = c->owing & ~seen;       /* bits only below n_units (kdp_settle sets them) */
    for (unsigned u = 0; rest; u++, rest >>= 1)
        if (rest & 1u) {
            uint16_t now = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT,
                                                  hal_agent_rd32(KA_NODE_STATUS(c->units[u].yx)));
            elsewhere |= (int16_t)kdp_count_since(c->due[u], now) > 0;
        }
    return elsewhere;
}

bool kdp_abort(struct kdp_ctx *c, struct kdp_job *j)
{
    /* There is no abort register, but PROG_DST is read live at every flit pushed (docs/hardware.md
     * §1.1): with the agent's own coordinate there, the rest of the program lands in the
     * agent's RX and is dropped here; none of it reaches the unit. These are the only PROG_*
     * writes made while run is 1: credit 0 first (a PROG_CRED write wins its cycle), then
     * PROG_DST, then credit released KDP_ABORT_BATCH at a time so RX never holds more than it
     * can take. */
    uint32_t st = hal_agent_rd32(KA_PROG_STAT);     /* credit (small: the low half holds it) */
    hal_agent_wr32(KA_PROG_CRED, 0);
    hal_agent_wr32(KA_PROG_DST, c->agent_yx);
    /* The credit check before the count is lost: a stream whose unit's FAULTs were all hidden
     * stalls once they have eaten its credit, and is then a fault, not a hang. */
    if (c->cred_state == KDP_CRED_ON) {
        /* flits of the kick not pushed yet were counted as kicked: due to come back as well */
        uint32_t d = c->cred_due - (uint32_t)KBF_FIELD_GET(KA_PROG_STAT_CRED, st) +
                     ((st & KA_PROG_STAT_RUN) ? (uint32_t)KBF_FIELD_GET(KA_PROG_STAT_LEFT, st) : 0);
        if ((int16_t)d > 0)
            kdp_hidden(c, j, j + 1, (uint16_t)d);
    }
    c->cred_state = KDP_CRED_OFF;
    st = hal_agent_rd32(KA_PROG_STAT);
    uint32_t left = (st & KA_PROG_STAT_RUN) ? (uint32_t)KBF_FIELD_GET(KA_PROG_STAT_LEFT, st) : 0;
    uint32_t back = 0, released = 0, t = kdp_rnow();
    for (;;) {
        if (!(hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)) {
            hal_agent_wr32(KA_RX_POP, 1);
            back++;
            t = kdp_rnow();
            continue;
        }
        st = hal_agent_rd32(KA_PROG_STAT);
        if (!(st & KA_PROG_STAT_RUN) && back >= left) {
            if (kdp_rnow() - t > KDP_ABORT_QUIET)   /* a flit pushed between the writes may still come */
                break;
            continue;
        }
        /* Credit [32:17] stays small here, so the low half holds it. Release more only once
         * RX has taken what was released (the unit's own returns push flits too). */
        if ((st & KA_PROG_STAT_RUN) && !(st & (uint32_t)KBF_GENMASK(31, 17)) && released <= back) {
            hal_agent_wr32(KA_PROG_CRED, KDP_ABORT_BATCH);
            released += KDP_ABORT_BATCH;
        }
        if (kdp_rnow() - t > c->wait_cycles)
            break;
    }
    j->rep.dispatched -= back < j->rep.dispatched ? back : j->rep.dispatched;
    /* Ended for a stall, not a FAULT: the timeout, recorded after the abort so that its value
     * counts what reached the unit (the kick's len less what came back to RX). */
    bool stall = j->state != KDP_J_STOP;
    if (stall)
        kdp_wait_fail(c, j, KDP_AWAIT_CREDIT);
    c->running = KDP_REGIONS;       /* last: no tail call, one epilogue (cold code size) */
    return stall;
}

void kdp_settle(struct kdp_ctx *c, struct kdp_job *jobs, struct kdp_job *end)
{
    /* Remember what each unit still owes, so the next run neither overfills it nor takes its
     * late signals for its own. A unit that reads idle (CU_STATUS, through the mailbox, quiet
     * now) owes nothing: what it was sent retired and its missing signals were lost, not late —
     * its signals reach the agent before its reply, on one path in order (docs/reliability.md:
     * a dropped completion must not lose the unit for good). The read is one bounded wait (a
     * slowed unit answers on its own clock). */
    for (struct kdp_job *j = jobs; j != end; j++) {
        uint32_t owed = j->skip + (j->rep.dispatched > j->rep.completions ?
                                   j->rep.dispatched - j->rep.completions : 0);
        uint64_t st;
        if (owed && kdp_ctrl_read(c, j->yx, KF_CTRL_CU_STATUS, c->wait_cycles, &st) == 1 &&
            !(st >> 63))                                        /* CU_STATUS [63] busy */
            owed = 0;
        uint32_t bit = UINT32_C(1) << j->ui;
        c->due[j->ui] = (uint16_t)(j->last_count + owed);
        c->owing &= ~bit;
        if (owed)
            c->owing |= bit;
        /* A job not done ends with the run's first error (after a run that succeeded every job
         * is done). */
        if (j->state != KDP_J_DONE && j->rep.status == KS_OK)
            j->rep.status = c->status;
    }
    kdp_drain(c);           /* a reply to a read above that came after its wait (wait.c, not
                             * dispatch.c's kdp_quiesce: recover.c calls nothing there) */
}
