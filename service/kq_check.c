/* kq_check.c — the command queue's checks (SYSTEM.md §4 "Bad input gets a clear status and
 * changes nothing"; docs/host-interface.md): setup line, address ranges, submissions, RUN step
 * lists. Pure logic: no hal, built natively for tests/host/service and fuzzing. */
#include "kq.h"

#define KQ_UG_BITS_MBZ   (~0ull << 40 | 1ull << 38 | 3ull << 36)   /* above 40 bits, 38, mesh */
#define KQ_UG_STAGING    (1ull << 39)
#define KQ_UG_APERTURE   (0xFull << 32)
#define KQ_UG_DRAM_OFF   ((1ull << 36) - 1u)

/* Not inlined: one copy of the three stores serves every refusal (RV32 image size, issue 8). */
static __attribute__((noinline)) unsigned kq_fail(struct kq_err *e, uint32_t status,
                                                  uint32_t detail, uint64_t value)
{
    e->status = status;
    e->detail = detail;
    e->value = value;
    return status;
}

unsigned kq_range(const struct kq_reach *r, uint64_t ug, uint64_t bytes, uint32_t align,
                  struct kq_err *e)
{
    if (ug & (align - 1u))
        return kq_fail(e, KS_BAD_ALIGN, align, ug);
    uint64_t off, end;
    /* Another mesh's DRAM would alias ours silently (BOARD.md §8) and bit 38 is 0 on the
     * wire: refuse both rather than guess what the host meant. */
    if (ug & KQ_UG_BITS_MBZ)
        goto bad;
    if (ug & KQ_UG_STAGING) {
        if (ug & KQ_UG_APERTURE)        /* only aperture 0 is served; others never answer */
            goto bad;
        off = ug & ~(KQ_UG_STAGING | KQ_UG_APERTURE);
        end = r->staging_end;
    } else {
        off = ug & KQ_UG_DRAM_OFF;
        end = r->dram_end;
    }
    /* off < end first, so end - off cannot underflow; bytes is bounded by the callers'
     * maxima, yet the compare needs no addition and so cannot wrap either. */
    if (off < end && bytes <= end - off)
        return kq_fail(e, KS_OK, 0, 0);
bad:
    return kq_fail(e, KS_BAD_ADDR, (uint32_t)bytes, ug);
}

static int kq_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

unsigned kq_setup_check(const struct kq_reach *r, uint64_t qaddr, const struct kq_header *h)
{
    struct kq_err e;
    if (kq_range(r, qaddr, sizeof *h, KQ_LINE, &e) != KS_OK)
        return KQ_SETUP_ADDR;
    const struct kq_setup *s = &h->setup;
    if (s->magic != KQ_MAGIC)
        return KQ_SETUP_MAGIC;
    if (s->version != KQ_VERSION)
        return KQ_SETUP_VERSION;
    if (s->flags != 0 || s->rsvd0 != 0)
        return KQ_SETUP_FLAGS;
    if (!kq_ring_size_ok(s->sq_entries))
        return KQ_SETUP_SQ_ENTRIES;
    if (!kq_ring_size_ok(s->cq_entries))
        return KQ_SETUP_CQ_ENTRIES;
    uint64_t sq_bytes = (uint64_t)s->sq_entries * KQ_SUB_BYTES;
    uint64_t cq_bytes = (uint64_t)s->cq_entries * KQ_CPL_BYTES;
    if (kq_range(r, s->sq_addr, sq_bytes, KQ_LINE, &e) != KS_OK)
        return KQ_SETUP_SQ_ADDR;
    if (kq_range(r, s->cq_addr, cq_bytes, KQ_LINE, &e) != KS_OK)
        return KQ_SETUP_CQ_ADDR;
    /* All three are reachable, so none wraps and the sums below cannot overflow. */
    if (kq_overlap(qaddr, sizeof *h, s->sq_addr, sq_bytes) ||
        kq_overlap(qaddr, sizeof *h, s->cq_addr, cq_bytes) ||
        kq_overlap(s->sq_addr, sq_bytes, s->cq_addr, cq_bytes))
        return KQ_SETUP_OVERLAP;
    /* The firmware completes in order, one command at a time: at most one taken and not yet
     * completed (a restart finds it and completes it KS_ABORTED). The host's indices must be
     * within their rings too, or nothing it says can be trusted. */
    uint64_t sq_head = h->sq_head.value, cq_tail = h->cq_tail.value;
    if (sq_head - cq_tail > 1u ||
        kq_ring_used(h->sq_tail.value, sq_head, s->sq_entries) < 0 ||
        kq_ring_used(cq_tail, h->cq_head.value, s->cq_entries) < 0)
        return KQ_SETUP_INDICES;
    return 0;
}

int kq_unit_index(const struct kq_env *env, uint8_t yx)
{
    for (unsigned i = 0; i < env->n_units; i++)
        if (env->units[i].yx == yx)
            return (int)i;
    return -1;
}

/* The data a command or step reads: records of rec bytes, at most max of them, align-aligned.
 * Indexed by enum kq_op (REPLAY, DISPATCH, RUN); RUN steps use the REPLAY and DISPATCH rows. */
static const struct kq_data {
    uint32_t max;
    uint8_t rec, align;
} kq_data[] = {
    [KQ_OP_REPLAY]   = { KD_MAX_WRITES, KD_RECORD_BYTES, 4u },
    [KQ_OP_DISPATCH] = { KQ_MAX_PROG, KQ_PAYLOAD_BYTES, 8u },
    [KQ_OP_RUN]      = { KQ_MAX_STEPS, KQ_STEP_BYTES, 8u },
};

/* n records of kind `op` at addr: n in 1..max (KS_BAD_LEN), then the range (kq_range). */
static unsigned kq_data_check(unsigned op, uint64_t addr, uint32_t n, const struct kq_env *env,
                              struct kq_err *e)
{
    const struct kq_data *d = &kq_data[op];
    if (n == 0 || n > d->max)
        return kq_fail(e, KS_BAD_LEN, n, 0);
    return kq_range(&env->reach, addr, (uint64_t)n * d->rec, d->align, e);
}

unsigned kq_sub_check(const struct kq_sub *s, const struct kq_env *env, struct kq_err *e)
{
    if (s->op > KQ_OP_STOP)
        return kq_fail(e, KS_BAD_OP, s->op, 0);
    if (s->flags)
        return kq_fail(e, KS_BAD_FLAGS, s->flags, 0);
    for (unsigned i = 0; i < 4; i++)
        if (s->rsvd[i])
            return kq_fail(e, KS_BAD_RSVD, 32u + 8u * i, 0);

    /* NOP, UNITS, STOP: nothing more to check */
    if (s->op < KQ_OP_REPLAY || s->op > KQ_OP_RUN)
        return kq_fail(e, KS_OK, 0, 0);
    if (kq_data_check(s->op, s->addr, s->count, env, e) != KS_OK)
        return e->status;
    if (s->op == KQ_OP_DISPATCH) {
        if (s->ntargets == 0 || s->ntargets > KQ_MAX_TARGETS)
            return kq_fail(e, KS_BAD_NTARGETS, s->ntargets, 0);
        for (unsigned i = 0; i < s->ntargets; i++) {
            if (kq_unit_index(env, s->targets[i]) < 0)
                return kq_fail(e, KS_BAD_TARGET, s->targets[i], 0);
            for (unsigned k = 0; k < i; k++)
                if (s->targets[k] == s->targets[i])
                    return kq_fail(e, KS_DUP_TARGET, s->targets[i], 0);
        }
    }
    return kq_fail(e, KS_OK, 0, 0);
}

/* The checks of one step; e->value holds the inner value (the caller adds the step index). */
static unsigned kq_step_check(const struct kq_step *st, const struct kq_env *env,
                              uint32_t *dispatched, struct kq_err *e)
{
    if (st->op < KQ_STEP_DISPATCH || st->op > KQ_STEP_SIGNAL)
        return kq_fail(e, KS_BAD_STEP, st->op, 0);
    uint32_t rsvd = st->rsvd0 ? 3u : st->rsvd1 ? 6u : st->rsvd2 ? 12u : st->rsvd3 ? 24u : 0u;
    if (rsvd)
        return kq_fail(e, KS_BAD_RSVD, rsvd, 0);

    int ui;
    switch (st->op) {
    case KQ_STEP_DISPATCH:
        if (kq_data_check(KQ_OP_DISPATCH, st->addr, st->n, env, e) != KS_OK)
            return e->status;
        if ((ui = kq_unit_index(env, st->target)) < 0)
            return kq_fail(e, KS_BAD_TARGET, st->target, 0);
        dispatched[ui]++;
        break;
    case KQ_STEP_REPLAY: {
        if (kq_data_check(KQ_OP_REPLAY, st->addr, st->n, env, e) != KS_OK)
            return e->status;
        /* The whole list now, so a bad move at step k cannot leave steps 0..k-1 done. */
        struct kmv_result r;
        if (kmv_validate((const struct kd_write *)env->map(st->addr), st->n, env->caps, &r) != KS_OK)
            return kq_fail(e, r.status, r.detail, r.index);
        break;
    }
    case KQ_STEP_WAIT:
        if ((ui = kq_unit_index(env, st->target)) < 0)
            return kq_fail(e, KS_BAD_TARGET, st->target, 0);
        if (st->n == 0)
            return kq_fail(e, KS_BAD_LEN, 0, 0);
        /* Every program dispatched before this step completes by the time the WAIT runs (or
         * the RUN fails), so a WAIT is satisfiable exactly when enough precede it. */
        if (st->n > dispatched[ui])
            return kq_fail(e, KS_UNSATISFIABLE, st->target, st->n);
        break;
    default:                    /* BARRIER, SIGNAL */
        break;
    }
    return kq_fail(e, KS_OK, 0, 0);
}

unsigned kq_steps_check(const struct kq_step *st, uint32_t n, const struct kq_env *env,
                        struct kq_err *e)
{
    uint32_t dispatched[KX_BOOT_MAX_UNITS];
    for (unsigned i = 0; i < KX_BOOT_MAX_UNITS; i++) {
        dispatched[i] = 0;
        /* keeps GCC from turning the loop into a memset call: no libc in the RV32 image */
        __asm__("" : : "r"(dispatched) : "memory");
    }
    for (uint32_t i = 0; i < n; i++) {
        if (kq_step_check(&st[i], env, dispatched, e) != KS_OK) {
            e->value = kq_step_value(i, e->value);
            return e->status;
        }
    }
    return kq_fail(e, KS_OK, 0, 0);
}
