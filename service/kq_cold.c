/* kq_cold.c — the service's paths that run once at boot or only on failure (docs/service.md
 * "Cold code"): checking and refusing the queue and starting the records at boot, enumerating
 * units when the boot block gives no table, a restart's ABORTED completion, the commands no
 * budget measures, the failures' completions. None is on a budgeted hot path (boot_insns pays
 * for the boot ones: docs/service.md "Size"), so they are written to be compiled as cold code
 * and interpreted from outside the RV32 instruction window (docs/kvm.md), at ~40x the native
 * cost:
 *   - one typed entry per path (kq_svc.h), each called from queue.c through HAL_COLD (no
 *     native stub: docs/kvm.md "Cold entries"). An entry takes at most 6 scalar or pointer
 *     arguments (a0-a5) and returns at most one scalar;
 *   - no function pointers; they call only exported functions (hal/, boot/, dispatch/, the
 *     cold entries of owned.c, kq_check_cold.c and record.c) with at most 6 argument
 *     registers, and no static function of another file;
 *   - the service's data is reached through kq and kq_hdr (kq_svc.h) or arguments.
 * RV64 boards and host builds compile and run them natively like the rest. */
#include "kq_svc.h"

/* Enumeration (no table in the boot block): cycles to wait for one coordinate's CU_CTRL reply
 * before calling it absent. A unit answers within a few hundred cycles; the boot block's
 * wait_cycles is for work, far too long to spend on every empty coordinate. */
#define KQ_ENUM_COORD_CYCLES   4000u

void kq_cold_refuse(unsigned rule)
{
    if (!rule)
        kx_exit(KX_EXIT_BOOT(KX_BOOT_BAD_UNITS));
    kx_puts("kohaku-fw " BOARD_NAME ": queue refused, rule=0x");
    kx_put_hex_digits(rule);
    kx_puts("\n");
    kx_exit(KX_EXIT_BOOT(KX_BOOT_BAD_QUEUE));
}

void kq_cold_enumerate(void)
{
    uint32_t wait_cycles = kq.dp.wait_cycles;
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    uint32_t coord = wait_cycles < KQ_ENUM_COORD_CYCLES ? wait_cycles : KQ_ENUM_COORD_CYCLES;
    /* No unit found is not fatal: REPLAY still works, DISPATCH says KS_BAD_TARGET. */
    (void)kdp_enumerate(&kq.dp, lo, hi, coord);
}

void kq_cold_aborted(struct kq_err *e)
{
    e->tag = kq_hdr->sq_head.tag;
    e->status = KS_ABORTED;
    e->detail = 0;
    e->mover_cycles = 0;
    e->value = 0;
    e->cycles = 0;
}

/* ---- Commands no budget measures ---- */

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
 * list, or {0, 0}), validates the copy with kq_caps (the owned ranges; through kq_env.validate,
 * the native entry, so the validator gets an interpreted stack of its own), copies a gathering
 * list's index words too (kq_copy_indices, owned.c) and validates the copy again against them, then
 * replays the copy (kmv_replay_validated): what runs is what was checked, however the host
 * rewrites the original meanwhile. RV32: the copies are written through the data cache, which
 * the replay flushes before the mover starts (the CPU reads them from the cache in between). */
static unsigned cold_replay_copy(uint64_t cmd, uint64_t cmd_bytes, uint64_t list, uint32_t n,
                                 struct kmv_result *r)
{
    struct kd_write *d = (struct kd_write *)(uintptr_t)hal_ug_ptr(KX_FW_COPY_OFFSET);
    const volatile kq_word *src = (const volatile kq_word *)hal_ug_ptr(list);
    /* The list as it is in memory now, not as lines cached when it was checked (RV32; RV64's
     * alias is uncached): write back what the firmware wrote, then drop every line. */
    hal_shared_release();
    hal_shared_acquire();
    for (uint32_t i = 0; i < n * KD_RECORD_WORDS; i++)
        ((volatile kq_word *)d)[i] = src[i];
    kq_cold_owned();
    kq_owned[KQ_OWN_CMD].lo = cmd;
    kq_owned[KQ_OWN_CMD].hi = cmd + cmd_bytes;
    kq_owned[KQ_OWN_LIST].lo = list;
    kq_owned[KQ_OWN_LIST].hi = list == cmd ? list : list + (uint64_t)n * KD_RECORD_BYTES;
    r->value = 0;                       /* a refusal's mover status word: none */
    unsigned st = kq_env.validate(d, n, &kq_caps, r);
    if (st == KS_OK) {
        uint64_t slot_ug = (KX_FW_COPY_OFFSET + (uint64_t)n * KD_RECORD_BYTES + 31u) & ~(uint64_t)31;
        int slots = kq_copy_indices(d, n, slot_ug, KX_FW_COPY_OFFSET + KX_FW_COPY_BYTES);
        if (slots < 0) {
            st = KS_LIST_TOO_LONG;
            r->status = st;
            r->detail = n;
            r->index = n;
            r->value = 0;
        } else if (slots > 0) {
            /* the rows again, from the indices the mover will read */
            kq_caps.idx_lo = slot_ug;
            kq_caps.idx_hi = slot_ug + (uint64_t)slots * KMV_WORD_BYTES;
            st = kq_env.validate(d, n, &kq_caps, r);
            kq_caps.idx_lo = kq_caps.idx_hi = 0;
        }
    }
    if (st == KS_OK)
        st = kmv_replay_validated(d, n, kq.dp.wait_cycles, r);
    for (unsigned k = KQ_OWN_CMD; k < KQ_OWN_N; k++)
        kq_owned[k].lo = kq_owned[k].hi = 0;
    return st;
}

void kq_cold_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (s->op >= KQ_OP_RECORD || (s->flags & KQ_SUB_F_HANDLE)) {
        kq_rec_exec(s, e);                          /* record.c */
    } else if (s->op == KQ_OP_REPLAY) {
        /* a REPLAY command's list was not read at acceptance: copied, validated, run */
        struct kmv_result r;
        unsigned st = cold_replay_copy(s->addr, (uint64_t)s->count * KD_RECORD_BYTES, s->addr,
                                       s->count, &r);
        cold_replay_result(e, st, &r, KQ_NO_STEP);
    } else if (s->op == KQ_OP_UNITS) {
        /* the unit table again, as kq_boot published it (queue.c kq_publish_units): entries,
         * then count; value = count. Cold: the host asks once (units_cmd_cycles, no budget). */
        volatile struct kq_units *u = &kq_hdr->units;
        unsigned n = kq.dp.n_units;
        volatile kq_word *d = (volatile kq_word *)u->entries;
        const kq_word *src = (const kq_word *)kq.dp.units;
        for (unsigned i = 0; i < 2u * n; i++)
            d[i] = src[i];
        u->count = n;
        hal_shared_release();
        e->value = n;
    }
    /* STOP: completed as it is; kq_serve stops after posting it (kq_cold_stop) */
}

void kq_cold_stop(const struct kq_err *e)
{
    if (e->status != KS_OK)
        return;                         /* refused: not a STOP */
    kq_hdr->fw.state = KQ_STATE_STOPPED;
    hal_shared_release();
    kx_exit(KX_EXIT_OK);
}

void kq_cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first)
{
    /* The step of the job whose unit the first error names (a UNIT_FAULT's or a TIMEOUT's
     * detail ends in its {y,x}); else the first job that failed. Not simply the first failed
     * job: after one unit's FAULT nothing more is kicked, so an earlier step's job that was not
     * done fails too, though the error is not its own. */
    unsigned failed = 0, named = n;
    for (unsigned i = n; i-- > 0;) {        /* downwards: the first one of each is kept */
        if (kq.job[i].rep.status != KS_OK)
            failed = i;
        if (kq.job[i].yx == (kq.dp.detail & 0xFFu))
            named = i;
    }
    if (named < n)
        failed = named;
    if (st == KS_REC_CHANGED) {
        /* the group ran; its programs changed the recorded RUN's own record (queue.c
         * kq_group): detail = the handle, value = the first step not run (never 0: a group
         * runs after a DISPATCH step) */
        e->status = KS_REC_CHANGED;
        e->detail = (uint32_t)kq_env.sub->addr;
        e->value = kq_step_value(first + n, 0);
        return;
    }
    e->status = (uint16_t)st;
    e->detail = kq.dp.detail;
    e->value = first != KQ_NO_STEP ? kq_step_value(first + failed, kq.dp.value) : kq.dp.value;
}

static void cold_changed(struct kq_err *e, const struct kq_err *ce, uint32_t i)
{
    e->status = KS_CHANGED;
    e->detail = ce->status;
    e->value = kq_step_value(i, ce->value);
}

/* Names what a step that failed kq_step_use breaks: its full check on the copy (the list of a
 * REPLAY step is not read: at_use). */
void kq_cold_changed(struct kq_err *e, const struct kq_step *st, uint32_t i)
{
    struct kq_err ce;
    kq_env.at_use = 1;
    if (kq_step_check(st, &kq_env, 0, &ce) == KS_OK) {
        ce.status = KS_BAD_ADDR;            /* kq_step_use's range test, stricter by nothing */
        ce.value = st->addr;
    }
    kq_env.at_use = 0;
    cold_changed(e, &ce, i);
}

unsigned kq_cold_run_replay(struct kq_err *e, const struct kq_step *step, uint32_t i)
{
    struct kmv_result r;
    const struct kq_sub *sub = kq_env.sub;
    /* at use, on the step's copy: the count and range of the list it reads; a REPLAY_H step's
     * handle, looked up there (kq_check_cold.c), makes the copy the REPLAY of its record's
     * list (in the record area, which the range test would refuse: checked when it was
     * recorded, copied and validated again below) */
    struct kq_err ce;
    ce.status = KS_BAD_LEN;
    ce.value = 0;
    unsigned hs = KS_OK;
    uint32_t h = 0;                     /* the handle a REPLAY_H step names */
    if (step->op == KQ_STEP_REPLAY_H) {
        h = (uint32_t)step->addr;
        /* the record's digest over memory as it is now, not lines cached before */
        hal_shared_acquire();
        kq_env.at_use = 1;
        hs = kq_step_check(step, &kq_env, 0, &ce);
        kq_env.at_use = 0;
    } else if (step->n - 1u >= KD_MAX_WRITES ||
               kq_range(&kq_env.reach, step->addr, step->n * KD_RECORD_BYTES, 4, &ce) != KS_OK) {
        hs = KS_CHANGED;
    }
    if (hs != KS_OK) {
        cold_changed(e, &ce, i);
        return KS_CHANGED;
    }
    unsigned ret;
    if (BOARD_REC_SEALED && h) {
        /* a record's sealed moves, checked whole just above, check themselves again as they
         * run: run in place (a move changed in between stops there, below as any input
         * status at use: KS_CHANGED, detail 0x2B, value = step | the move's first write) */
        ret = kmv_replay_sealed((const volatile uint64_t *)(uintptr_t)hal_ug_ptr(step->addr),
                                step->rsvd2, kq.dp.wait_cycles, &r);
    } else {
        ret = cold_replay_copy(sub->addr, (uint64_t)sub->count * KQ_STEP_BYTES, step->addr,
                               step->n, &r);
    }
    if (ret == KS_XFORM_UNCHECKED) {
        /* RV64: the moves ran; the RUN goes on and ends saying so */
        e->status = KS_XFORM_UNCHECKED;
        e->detail += r.detail;
        ret = KS_OK;
    } else if (KS_IS_INPUT(ret)) {
        /* accepted in place at the RUN's check, refused on the copy: rewritten */
        ce.status = (uint16_t)ret;
        ce.value = (uint64_t)r.index << 32 | r.detail;
        cold_changed(e, &ce, i);
    } else if (ret != KS_OK) {
        cold_replay_result(e, ret, &r, i);  /* as a REPLAY command's, under step i */
    }
    return ret;
}
