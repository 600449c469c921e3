/* kq_cold.c — the service's paths that run once at boot or only on failure (docs/service.md
 * "Cold code"): refusing the queue, enumerating units when the boot block gives no table, a
 * restart's ABORTED completion, and the fatal hook. None is on a measured path (issue 8:
 * boot_insns is measured with a unit table given and a good queue; host_vs_fw_ratio and the
 * replay figures never reach these), so they are written to be compiled as cold code and
 * interpreted from outside the RV32 instruction window (docs/rv32-size.md), at ~40x
 * the native cost:
 *   - entry functions take at most 6 scalar or pointer arguments (a0-a5), return at most one
 *     scalar, and are called only from queue.c: one entry, kq_cold (every path, picked by
 *     `what`: kq_svc.h), so one native stub;
 *   - no function pointers; they call only exported functions (hal/, boot/, dispatch/) with
 *     at most 6 argument registers, and no static function of another file;
 *   - the service's data is reached through kq and kq_hdr (kq_svc.h) or arguments.
 * Until the interpreter is in the image they are compiled and run natively like the rest. */
#include <stdarg.h>
#include "kq_svc.h"

/* Enumeration (no table in the boot block): cycles to wait for one coordinate's CU_CTRL reply
 * before calling it absent. A unit answers within a few hundred cycles; the boot block's
 * wait_cycles is for work, far too long to spend on every empty coordinate. */
#define KQ_ENUM_COORD_CYCLES   4000u

static __attribute__((noreturn)) void cold_refuse(unsigned rule)
{
    if (!rule)
        hal_exit(KX_EXIT_BOOT(KX_BOOT_BAD_UNITS));
    hal_puts("kohaku-fw " BOARD_NAME ": queue refused, rule=");
    hal_put_hex(rule);
    hal_puts("\n");
    hal_exit(KX_EXIT_BOOT(KX_BOOT_BAD_QUEUE));
}

static void cold_enumerate(void)
{
    uint32_t wait_cycles = kq.dp.wait_cycles;
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    uint32_t coord = wait_cycles < KQ_ENUM_COORD_CYCLES ? wait_cycles : KQ_ENUM_COORD_CYCLES;
    /* No unit found is not fatal: REPLAY still works, DISPATCH says KS_BAD_TARGET. */
    (void)kdp_enumerate(&kq.dp, lo, hi, coord);
}

static void cold_aborted(struct kq_err *e)
{
    e->tag = kq_hdr->sq_head.tag;
    e->status = KS_ABORTED;
    e->detail = 0;
    e->value = 0;
    e->cycles = 0;
}

/* ---- Commands no budget measures ---- */

static void cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first);

static void cold_replay_result(struct kq_err *e, unsigned st, const struct kmv_result *r,
                           uint32_t step)
{
    e->status = (uint16_t)st;
    e->detail = r->detail;
    e->value = st == KS_OK ? r->moves : ((uint64_t)r->index << 32 | (uint32_t)r->value);
    if (step != KQ_NO_STEP)
        e->value = kq_step_value(step, e->value);
}

static void cold_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (s->op == KQ_OP_REPLAY) {
        /* validates, then runs: a REPLAY command's list was not read at acceptance */
        struct kmv_result r;
        unsigned st = kmv_replay((const struct kd_write *)(uintptr_t)hal_ug_ptr(s->addr), s->count,
                                 kq.dp.wait_cycles, &r);
        cold_replay_result(e, st, &r, KQ_NO_STEP);
    } else if (s->op == KQ_OP_DISPATCH) {
        /* One job per target (distinct, checked): one group, like RUN's (queue.c kq_add_job).
         * Jobs that send the same program are staged once: dispatch/ matches staged regions
         * by content. */
        unsigned n = s->ntargets;
        for (unsigned i = 0; i < n; i++) {
            struct kdp_prog *p = &kq.prog[i];
            p->payload = (const void *)(uintptr_t)hal_ug_ptr(s->addr);
            p->n = s->count;
            p->txn = s->txn;
            p->cap = s->credit_cap;
            kq.job[i].prog = p;
            kq.job[i].yx = s->targets[i];
        }
        unsigned st = kdp_run(&kq.dp, kq.job, n);
        if (st != KS_OK) {
            cold_group_failed(e, st, n, KQ_NO_STEP);
        } else {
            uint32_t sent = 0;
            for (unsigned i = 0; i < s->ntargets; i++)
                sent += kq.job[i].rep.dispatched;
            e->status = KS_OK;
            e->detail = 0;
            e->value = sent;          /* instructions sent, all targets */
        }
    } else if (s->op == KQ_OP_UNITS) {
        /* the table again, as kq_boot published it (queue.c kq_publish_units) */
        volatile struct kq_units *u = &kq_hdr->units;
        unsigned n = kq.dp.n_units;
        for (unsigned i = 0; i < 2u * n; i++)
            ((volatile kq_word *)u->entries)[i] = ((const kq_word *)kq.dp.units)[i];
        u->count = n;
        hal_shared_release();
        e->value = n;
    }
    /* STOP: completed as it is; kq_serve stops after posting it (kq_cold_stop) */
}

static void cold_stop(const struct kq_err *e)
{
    if (e->status != KS_OK)
        return;                         /* refused: not a STOP */
    kq_hdr->fw.state = KQ_STATE_STOPPED;
    hal_shared_release();
    hal_exit(KX_EXIT_OK);
}

static void cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first)
{
    unsigned failed = 0;
    for (unsigned i = n; i-- > 0;)          /* downwards: the first failed job is kept */
        if (kq.job[i].rep.status != KS_OK)
            failed = i;
    e->status = (uint16_t)st;
    e->detail = kq.dp.detail;
    e->value = first != KQ_NO_STEP ? kq_step_value(first + failed, kq.dp.value) : kq.dp.value;
}

/* The one service entry (kq_svc.h): `what` says which path and which words follow. */
uint32_t kq_cold(unsigned what, ...)
{
    va_list ap;
    va_start(ap, what);
    uint32_t ret = 0;
    if (what < KQ_COLD_ENUMERATE)
        cold_refuse(what);
    if (what == KQ_COLD_ENUMERATE) {
        cold_enumerate();
    } else {
        struct kq_err *e = va_arg(ap, struct kq_err *);
        if (what == KQ_COLD_ABORTED) {
            cold_aborted(e);
        } else if (what == KQ_COLD_EXEC) {
            cold_exec(va_arg(ap, const struct kq_sub *), e);
        } else if (what == KQ_COLD_STOP) {
            cold_stop(e);
        } else if (what == KQ_COLD_GROUP_FAILED) {
            unsigned st = va_arg(ap, unsigned);
            unsigned n = va_arg(ap, unsigned);
            cold_group_failed(e, st, n, va_arg(ap, uint32_t));
        } else {                                    /* KQ_COLD_RUN_REPLAY */
            const struct kq_step *step = va_arg(ap, const struct kq_step *);
            uint32_t i = va_arg(ap, uint32_t);
            struct kmv_result r;
            ret = kmv_replay_validated((const struct kd_write *)(uintptr_t)hal_ug_ptr(step->addr),
                                       step->n, kq.dp.wait_cycles, &r);
            if (ret != KS_OK)
                cold_replay_result(e, ret, &r, i);  /* as a REPLAY command's, under step i */
        }
    }
    va_end(ap);
    return ret;
}
