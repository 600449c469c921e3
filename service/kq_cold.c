/* kq_cold.c — the service's paths that run once at boot or only on failure (docs/service.md
 * "Cold code"): refusing the queue, enumerating units when the boot block gives no table, a
 * restart's ABORTED completion, and the fatal hook. None is on a measured path (the bench:
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
    e->mover_cycles = 0;
    e->value = 0;
    e->cycles = 0;
}

/* ---- Fatal path: the state line tells the host why the core stopped (queue.c's
 * kx_fatal_hook, boot/fatal.c) ---- */

_Static_assert(offsetof(struct kx_fatal_record, pc) == offsetof(struct kx_fatal_record, cause) + 8 &&
               offsetof(struct kx_fatal_record, addr) == offsetof(struct kx_fatal_record, cause) + 16,
               "cause, pc, addr copy as the state line's cause, pc, tval");

static void cold_fatal(uint64_t word)
{
    volatile struct kq_header *h = kq_hdr;
    if (!h)
        return;
    h->fw.code = KX_EXIT_IS_TRAP(word) ? KQ_FATAL_TRAP
               : word == (KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN) ? KQ_FATAL_QUEUE
               : KQ_FATAL_ASSERT;
    h->fw.cause = kx_fatal_last.cause;
    h->fw.pc = kx_fatal_last.pc;
    h->fw.tval = kx_fatal_last.addr;
    hal_shared_release();           /* the details land before the state that points at them */
    h->fw.state = KQ_STATE_FATAL;
    hal_shared_release();
}

/* ---- Commands no budget measures ---- */

static void cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first);

static void cold_replay_result(struct kq_err *e, unsigned st, const struct kmv_result *r,
                           uint32_t step)
{
    e->status = (uint16_t)st;
    e->detail = r->detail;
    e->value = st == KS_OK || st == KS_XFORM_UNCHECKED ? r->moves
                                                       : ((uint64_t)r->index << 32 | (uint32_t)r->value);
    if (step != KQ_NO_STEP)
        e->value = kq_step_value(step, e->value);
}

/* Copies n records of a list the checks range-checked (n <= KD_MAX_WRITES) into the copy
 * buffer, marks it in use (KQ_OWN_CMD: the command's data, KQ_OWN_LIST: the REPLAY step's
 * list, or {0, 0}) and replays the copy with kmv_replay: validated with kq_caps (the owned
 * ranges) and run from the copy, so what runs is what was checked, however the host rewrites
 * the original meanwhile. RV32: the copy is written through the data cache, which kmv_replay
 * flushes before the mover starts (and the CPU reads the copy from the cache in between). */
static unsigned cold_replay_copy(uint64_t cmd, uint64_t cmd_bytes, uint64_t list, uint32_t n,
                                 struct kmv_result *r)
{
    volatile kq_word *d = (volatile kq_word *)hal_ug_ptr(KX_FW_COPY_OFFSET);
    const volatile kq_word *src = (const volatile kq_word *)hal_ug_ptr(list);
    /* The list as it is in memory now, not as lines cached when it was checked (RV32; RV64's
     * alias is uncached): write back what the firmware wrote, then drop every line. */
    hal_shared_release();
    hal_shared_acquire();
    for (uint32_t i = 0; i < n * KD_RECORD_WORDS; i++)
        d[i] = src[i];
    kq_owned[KQ_OWN_CMD].lo = cmd;
    kq_owned[KQ_OWN_CMD].hi = cmd + cmd_bytes;
    kq_owned[KQ_OWN_LIST].lo = list;
    kq_owned[KQ_OWN_LIST].hi = list == cmd ? list : list + (uint64_t)n * KD_RECORD_BYTES;
    /* kmv_replay's two halves: the image then holds one replay loop, the one by-handle
     * replays (queue.c) run natively. The validator through its native entry (kq_env.validate):
     * on RV32 it gets an interpreted stack of its own (docs/kvm.md "Stack"). */
    r->value = 0;
    unsigned st = kq_env.validate((const struct kd_write *)(uintptr_t)d, n, kmv_caps_use, r);
    if (st == KS_OK)
        st = kmv_replay_validated((const struct kd_write *)(uintptr_t)d, n, kq.dp.wait_cycles, r);
    for (unsigned k = KQ_OWN_CMD; k < KQ_OWN_N; k++)
        kq_owned[k].lo = kq_owned[k].hi = 0;
    return st;
}

static void cold_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (s->op >= KQ_OP_RECORD) {
        kq_rec_cold(KQ_REC_EXEC, e, s);             /* RECORD, FORGET, RECORDS: record.c */
    } else if (s->op == KQ_OP_REPLAY) {
        /* a REPLAY command's list was not read at acceptance: copied, validated, run */
        struct kmv_result r;
        unsigned st = cold_replay_copy(s->addr, (uint64_t)s->count * KD_RECORD_BYTES, s->addr,
                                       s->count, &r);
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

static void cold_owned(const struct kx_bootblock *bb)
{
    const struct kq_setup *q = &kq.m.setup;
    uint64_t qa = bb->queue_addr;
    /* This variant's own caps, not kmv_caps_use: after a restart in place (kactl restart: no
     * reload) kmv_caps_use still points at kq_caps, which crt0 has zeroed (.bss), and the
     * copy below would give every list KS_NO_REACH. */
    const struct kmv_caps *self = kmv_caps_self();
    /* field by field: a struct copy would pull libc's memcpy into the window */
    kq_caps.reach_end = self->reach_end;
    kq_caps.xf_ids = self->xf_ids;
    kq_caps.xf_in_words = self->xf_in_words;
    kq_caps.xf_out_words = self->xf_out_words;
    kq_caps.owned = kq_owned;
    kq_caps.n_owned = KQ_OWN_N;
    kq_caps.map = kq_env.map;
    kq_caps.map_end = HAL_UG_DRAM_END;
    kq_owned[KQ_OWN_FW].lo = KQ_FW_OWN_LO;
    kq_owned[KQ_OWN_FW].hi = KQ_FW_OWN_HI;
    kq_owned[KQ_OWN_HEADER].lo = qa;
    kq_owned[KQ_OWN_HEADER].hi = qa + sizeof(struct kq_header);
    kq_owned[KQ_OWN_SQ].lo = q->sq_addr;
    kq_owned[KQ_OWN_SQ].hi = q->sq_addr + (uint64_t)q->sq_entries * KQ_SUB_BYTES;
    kq_owned[KQ_OWN_CQ].lo = q->cq_addr;
    kq_owned[KQ_OWN_CQ].hi = q->cq_addr + (uint64_t)q->cq_entries * KQ_CPL_BYTES;
    kmv_caps_use = &kq_caps;
    kq_rec_boot(bb);                                /* records: limits, slot 0, generations */
}

static void cold_changed(struct kq_err *e, const struct kq_err *ce, uint32_t i)
{
    e->status = KS_CHANGED;
    e->detail = ce->status;
    e->value = kq_step_value(i, ce->value);
}

/* The one service entry (kq_svc.h): `what` says which path and which words follow. */
uint32_t kq_cold(unsigned what, ...)
{
    va_list ap;
    va_start(ap, what);
    uint32_t ret = 0;
    if (what < KQ_COLD_ENUMERATE)
        cold_refuse(what);
    if (what == KQ_COLD_FATAL) {
        cold_fatal(va_arg(ap, uint64_t));
    } else if (what == KQ_COLD_ENUMERATE) {
        cold_enumerate();
    } else if (what == KQ_COLD_OWNED) {
        cold_owned(va_arg(ap, const struct kx_bootblock *));
    } else {
        struct kq_err *e = va_arg(ap, struct kq_err *);
        if (what == KQ_COLD_ABORTED) {
            cold_aborted(e);
        } else if (what == KQ_COLD_EXEC) {
            cold_exec(va_arg(ap, const struct kq_sub *), e);
        } else if (what == KQ_COLD_STOP) {
            cold_stop(e);
        } else if (what == KQ_COLD_CHANGED) {
            const struct kq_err *ce = va_arg(ap, const struct kq_err *);
            cold_changed(e, ce, va_arg(ap, uint32_t));
        } else if (what == KQ_COLD_GROUP_FAILED) {
            unsigned st = va_arg(ap, unsigned);
            unsigned n = va_arg(ap, unsigned);
            cold_group_failed(e, st, n, va_arg(ap, uint32_t));
        } else {                                    /* KQ_COLD_RUN_REPLAY */
            const struct kq_step *step = va_arg(ap, const struct kq_step *);
            uint32_t i = va_arg(ap, uint32_t);
            struct kmv_result r;
            const struct kq_sub *sub = kq_env.sub;
            ret = cold_replay_copy(sub->addr, (uint64_t)sub->count * KQ_STEP_BYTES, step->addr,
                                   step->n, &r);
            if (ret == KS_XFORM_UNCHECKED) {
                /* RV64: the moves ran; the RUN goes on and ends saying so */
                e->status = KS_XFORM_UNCHECKED;
                e->detail += r.detail;
                ret = KS_OK;
            } else if (KS_IS_INPUT(ret)) {
                /* accepted in place at the RUN's check, refused on the copy: rewritten */
                struct kq_err ce;
                ce.status = (uint16_t)ret;
                ce.value = (uint64_t)r.index << 32 | r.detail;
                cold_changed(e, &ce, i);
            } else if (ret != KS_OK) {
                cold_replay_result(e, ret, &r, i);  /* as a REPLAY command's, under step i */
            }
        }
    }
    va_end(ap);
    return ret;
}
