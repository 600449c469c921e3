/* kq_check_cold.c — the checks (kq_check.c) that no budgeted path runs: the setup line's
 * overlap and index rules for a queue that is not a fresh one in the host library's layout
 * (kq_setup_check accepts those natively at every boot), a DISPATCH command's target list (only that command has a list; a RUN step
 * names one target, which kq_check.c checks itself on every step), a REPLAY_H step's handle and
 * a RUN REPLAY step's descriptor list (its validation, kmv_validate, is cold code already).
 * Written to be cold code on RV32 (docs/service.md "Cold code"; the entry rules of kq_cold.c):
 * one entry, kq_check_cold (the check picked by `what`: kq_check.c's rule table names the
 * cold row it runs, so the row is the argument, not a call site per check). Pure logic like kq_check.c: no hal, built natively for tests/host/service and
 * fuzzing. */
#include "kq.h"

/* 32-bit words of a wider field (as kq_check.c reads them) */
typedef uint32_t __attribute__((may_alias)) kq_u32;

/* Do [a, a + la) and [b, b + lb) overlap? a and b point at the addresses' two words (low
 * first: both targets are little-endian). Both reachable: each in one region (the high word)
 * and ending at or below 2^32 in it, so 32-bit differences are exact. */
static int kq_overlap(const kq_u32 *a, uint32_t la, const kq_u32 *b, uint32_t lb)
{
    uint32_t x = a[0], y = b[0];
    return a[1] == b[1] && (x - y < lb || y - x < la);
}

unsigned kq_check_cold(unsigned what, const uint8_t *f, uint32_t n, const struct kq_env *env,
                       struct kq_err *e)
{
    uint32_t st = KS_OK, detail = 0, value = 0;
    if (what == KQ_CHECK_SETUP) {
        /* f: the queue header at e->value, its setup line's rows met (kq_setup_check). The
         * header, then the two rings. All three are reachable, so each lies in one region
         * (bits [63:32]: DRAM 0 or staging KQ_UG_STAGING_HI) and ends at or below 2^32 in it. */
        const struct kq_header *h = (const struct kq_header *)(const void *)f;
        const struct kq_setup *s = &h->setup;
        uint64_t qaddr = e->value;
        const uint32_t q[2] = { (uint32_t)qaddr, (uint32_t)(qaddr >> 32) };
        const kq_u32 *sq = (const kq_u32 *)(const void *)&s->sq_addr;
        const kq_u32 *cq = (const kq_u32 *)(const void *)&s->cq_addr;
        uint32_t sq_len = (uint32_t)s->sq_entries * KQ_SUB_BYTES;
        uint32_t cq_len = (uint32_t)s->cq_entries * KQ_CPL_BYTES;
        if (kq_overlap(q, sizeof *h, sq, sq_len) || kq_overlap(q, sizeof *h, cq, cq_len) ||
            kq_overlap(sq, sq_len, cq, cq_len))
            return KQ_SETUP_OVERLAP;
        /* The firmware completes in order, one command at a time: at most one taken and not
         * yet completed (a restart finds it and completes it KS_ABORTED). The host's indices
         * must be within their rings too, or nothing it says can be trusted. */
        uint64_t sq_head = h->sq_head.value, cq_tail = h->cq_tail.value;
        if (kq_ring_used(sq_head, cq_tail, 1) < 0 ||
            kq_ring_used(h->sq_tail.value, sq_head, s->sq_entries) < 0 ||
            kq_ring_used(cq_tail, h->cq_head.value, s->cq_entries) < 0)
            return KQ_SETUP_INDICES;
        return 0;
    } else if (what == KQ_CHECK_TARGETS) {
        for (uint32_t i = 0; i < n && st == KS_OK; i++) {
            st = KS_BAD_TARGET;
            detail = f[i];
            if (kq_unit_index(env, f[i]) >= 0) {
                st = KS_OK;
                for (uint32_t k = 0; k < i; k++)
                    if (f[k] == f[i])
                        st = KS_DUP_TARGET;
            }
        }
    } else if (what == KQ_CHECK_HANDLE) {
        const struct kq_rec *r;
        uint32_t h = *(const uint32_t *)(const void *)f;
        st = kq_rec_check(env, h, 0, e, &r);
        /* Its bytes give the digest RECORD kept (and, sealed, every move its own), or they
         * were changed since (a host write, a unit program): refused, at the RUN's check
         * (nothing ran), at use (KS_CHANGED, this step not run) or by a RECORD about to copy
         * them. */
        const struct kq_step *rs = st == KS_OK ? (const struct kq_step *)env->map(r->ug) : 0;
        if (st == KS_OK && (kq_rec_digest(rs, r->span, r->sum) ||
                            (env->sealed_check && env->sealed_check((const volatile uint64_t *)env->map(rs->addr),
                                                             rs->rsvd2, (uint32_t)rs->rsvd3, 0) != rs->rsvd2))) {
            st = KS_REC_CHANGED;
            e->status = KS_REC_CHANGED;
            e->detail = h;
            e->value = 0;
            return st;
        }
        if (st == KS_OK && env->at_use == 1) {
            /* At use (queue.c kq_run: f is in the firmware's own copy of the step): the step
             * becomes the REPLAY of its record's list, which kq_run replays as any REPLAY
             * step (copied, validated, run). The record's first step is that REPLAY. */
            struct kq_step *cur = (struct kq_step *)(uintptr_t)(f - offsetof(struct kq_step, addr));
            cur->op = KQ_STEP_REPLAY;
            cur->n = rs->n;
            cur->addr = rs->addr;
            cur->rsvd2 = rs->rsvd2;         /* sealed (BOARD_REC_SEALED): its moves, bytes */
            cur->rsvd3 = rs->rsvd3;
        }
        return st;
    } else if (!env->at_use) {                      /* KQ_CHECK_LIST */
        /* the address was range-checked by the row before; fields are 8-byte aligned. At use
         * (a RUN running its steps) the list is checked where it runs, on its own copy
         * (kq_cold.c), not here. */
        const uint32_t *w = (const uint32_t *)(const void *)f;
        uint64_t a = w[0] | (uint64_t)w[1] << 32;
        struct kmv_result res;
        if (env->prepare)
            env->prepare();
        if (env->owned) {
            /* In use while the list is checked: the RUN's step list and this list. */
            struct kmv_span *o = env->owned;
            o[KQ_OWN_CMD].lo = env->sub->addr;
            o[KQ_OWN_CMD].hi = env->sub->addr + (uint64_t)env->sub->count * KQ_STEP_BYTES;
            o[KQ_OWN_LIST].lo = a;
            o[KQ_OWN_LIST].hi = a + (uint64_t)n * KD_RECORD_BYTES;
        }
        const struct kd_write *l = (const struct kd_write *)env->map(a);
        /* direct call when no entry is given (host builds): a cold function's address must
         * not be called through (docs/kvm.md) */
        st = env->validate ? env->validate(l, n, env->caps, &res) : kmv_validate(l, n, env->caps, &res);
        detail = res.detail;
        value = res.index;
    }
    if (st != KS_OK) {
        e->status = (uint16_t)st;
        e->detail = detail;
        e->value = value;
    }
    return st;
}

