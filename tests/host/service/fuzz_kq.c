/* fuzz_kq.c — libFuzzer target over the command queue's parsers of host-supplied data
 * (the command decoder and the step-list interpreter; service/kq_check.c):
 * a queue header, a submission and the memory it points at, checked as the firmware checks
 * them. Invariants beyond "no crash, no sanitizer report": every status is OK or an input
 * code, accepted data stays out of the reserved firmware DRAM, and an accepted RUN list keeps
 * its own rules (re-checked here independently). Then the host's rewrite mid-command
 * (checked once, used once): the input's last 16 bytes overwrite part of the accepted step list or of one of its
 * REPLAY lists, and the RUN is walked as service/queue.c kq_run runs it — each step copied and
 * re-checked at use (kq_step_use; a REPLAY step's count and range as kq_cold.c checks them),
 * each REPLAY list copied and validated on the copy with the owned ranges — asserting that whatever passes those checks is safe to run:
 * a known op, a target in the unit table, data inside memory and outside the reserve, a list
 * that ends with a GO, reaches only mover offsets the caps allow and no owned range. */
#include <stdint.h>
#include <string.h>
#include "kq.h"

#define KQF_DRAM    0x10000u        /* the "DRAM" the fuzzer's processor reaches */
#define KQF_STAGING 0x1000u
/* Variant 0 (RV32-like) reserves a stretch of it as the firmware's own DRAM code (kq_reach.rsv,
 * docs/host-interface.md §2.1); variant 1 (RV64-like) reserves nothing. */
#define KQF_RSV_LO  0x8000u
#define KQF_RSV_HI  0x8400u

static uint8_t dram[KQF_DRAM + 64], staging[KQF_STAGING + 64];

/* Only ever called on ranges kq_range accepted, which lie inside the two buffers. */
static const void *kqf_map(uint64_t ug)
{
    return (ug >> 39) & 1 ? (const void *)(staging + (ug & 0xFFFFFFFFu)) : (const void *)(dram + ug);
}

static const struct kx_unit_entry kqf_units[] = {
    { .yx = 0x11, .inst_depth = 16 }, { .yx = 0x12, .inst_depth = 16 }, { .yx = 0x21, .inst_depth = 4 },
};

static void kqf_check_status(unsigned st)
{
    if (st != KS_OK && !KS_IS_INPUT(st))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* input: a submission, a variant byte, then "DRAM" (whose first 512 bytes also serve as a
     * queue header) and "staging" */
    struct kq_header h;
    struct kq_sub s;
    if (size < sizeof s + 1)
        return 0;
    memcpy(&s, data, sizeof s);
    unsigned variant = data[sizeof s] & 1u;
    data += sizeof s + 1;
    size -= sizeof s + 1;
    memset(dram, 0, sizeof dram);
    memcpy(dram, data, size < KQF_DRAM ? size : KQF_DRAM);
    if (size > KQF_DRAM)
        memcpy(staging, data + KQF_DRAM, size - KQF_DRAM < KQF_STAGING ? size - KQF_DRAM : KQF_STAGING);

    struct kmv_span owned[KQ_OWN_N] = { { KQF_RSV_LO, KQF_RSV_HI }, { 0x100, 0x300 } };
    struct kmv_caps caps = variant ? kmv_caps_rv64 : kmv_caps_rv32;
    caps.owned = owned;
    caps.n_owned = KQ_OWN_N;
    struct kq_env env = {
        { { KQF_DRAM, variant ? KQF_STAGING : 0 }, { variant ? 0 : KQF_RSV_LO, variant ? 0 : KQF_RSV_HI } },
        kqf_units, 3, &caps, kqf_map, 0, 0, 0, 0, 0, 0, 0,
    };
    env.owned = owned;
    env.sub = &s;
    memcpy(&h, dram, sizeof h);
    (void)kq_setup_check(&env.reach, s.addr & ~0x1Full, &h);

    struct kq_err e;
    unsigned st = kq_sub_check(&s, &env, &e);
    kqf_check_status(st);
    /* RV64's straight path (queue.c calls it first) accepts only what the rows accept, with
     * their outcome */
    struct kq_err f;
    if (kq_sub_fast(&s, &env, &f) &&
        (st != KS_OK || f.status != KS_OK || f.detail != e.detail || f.value != e.value))
        __builtin_trap();
    /* By handle (REPLAY, RUN with KQ_SUB_F_HANDLE) addr is a handle, not data; no record table
     * here (env.recs NULL), so the firmware would answer KS_REC_UNKNOWN: nothing more to see. */
    if (st == KS_OK && (s.flags & KQ_SUB_F_HANDLE)) {
        if ((s.op != KQ_OP_REPLAY && s.op != KQ_OP_RUN) || s.count || (s.addr >> 32))
            __builtin_trap();
        return 0;
    }
    /* accepted data never overlaps the reserved stretch (records: REPLAY 12, DISPATCH and RUN 32;
     * RECORD as REPLAY or, with KQ_SUB_F_STEPS, as RUN) */
    if (st == KS_OK && !variant && s.op == KQ_OP_RECORD && s.addr < KQF_RSV_HI &&
        s.addr + (uint64_t)s.count * ((s.flags & KQ_SUB_F_STEPS) ? 32u : 12u) > KQF_RSV_LO)
        __builtin_trap();
    if (st == KS_OK && !variant && s.op >= KQ_OP_REPLAY && s.op <= KQ_OP_RUN &&
        s.addr < KQF_RSV_HI && s.addr + (uint64_t)s.count * (s.op == KQ_OP_REPLAY ? 12u : 32u) > KQF_RSV_LO)
        __builtin_trap();
    if (st != KS_OK || s.op != KQ_OP_RUN)
        return 0;
    const struct kq_step *steps = kqf_map(s.addr);
    st = kq_steps_check(steps, s.count, &env, &e);
    if (st != KS_OK && !KS_IS_INPUT(st))
        __builtin_trap();
    if (st != KS_OK)
        return 0;
    /* accepted: every op known, every WAIT covered by earlier DISPATCHes to its unit */
    uint32_t seen[256] = { 0 };
    for (uint32_t i = 0; i < s.count; i++) {
        if (steps[i].op < KQ_STEP_DISPATCH || steps[i].op > KQ_STEP_SIGNAL)
            __builtin_trap();
        if (steps[i].op == KQ_STEP_DISPATCH)
            seen[steps[i].target]++;
        if (steps[i].op == KQ_STEP_WAIT && (steps[i].n == 0 || steps[i].n > seen[steps[i].target]))
            __builtin_trap();
    }
    /* The rewrite: 16 bytes of the input's tail at an offset it picks inside the step list or
     * (odd first byte) inside the first REPLAY step's list. */
    if (size < 20)
        return 0;
    const uint8_t *rw = data + size - 16;
    uint8_t *target = (uint8_t *)(uintptr_t)steps;
    uint64_t span = (uint64_t)s.count * KQ_STEP_BYTES;
    if (rw[0] & 1) {
        for (uint32_t i = 0; i < s.count; i++)
            if (steps[i].op == KQ_STEP_REPLAY) {
                target = (uint8_t *)(uintptr_t)kqf_map(steps[i].addr);
                span = (uint64_t)steps[i].n * KD_RECORD_BYTES;
                break;
            }
    }
    uint64_t at = ((uint64_t)rw[1] << 8 | rw[2]) % span;
    for (unsigned k = 0; k < 13 && at + k < span; k++)
        target[at + k] = rw[3 + k];
    /* The run at use: a step runs only from its checked copy. */
    env.at_use = 1;
    static struct kd_write copy[KD_MAX_WRITES];
    for (uint32_t i = 0; i < s.count; i++) {
        struct kq_step cur = steps[i];
        int ui = kq_step_use(&cur, &env);
        if (ui < 0) {
            /* KS_CHANGED: nothing after runs; its detail is what the full check says */
            env.at_use = 1;
            unsigned why = kq_step_check(&cur, &env, 0, &e);
            env.at_use = 0;
            (void)why;
            break;
        }
        if (cur.op == KQ_STEP_REPLAY) {
            struct kq_err re;
            if (cur.n - 1u >= KD_MAX_WRITES ||
                kq_range(&env.reach, cur.addr, cur.n * KD_RECORD_BYTES, 4, &re) != KS_OK)
                break;                          /* kq_cold.c: KS_CHANGED */
        }
        if (cur.op < KQ_STEP_DISPATCH || cur.op > KQ_STEP_SIGNAL)
            __builtin_trap();
        if (cur.op == KQ_STEP_DISPATCH || cur.op == KQ_STEP_WAIT)
            if (kq_unit_index(&env, cur.target) != ui || ui < 0)    /* 1u << ui */
                __builtin_trap();
        if (cur.op == KQ_STEP_DISPATCH || cur.op == KQ_STEP_REPLAY) {
            struct kq_err re;
            uint32_t rec = cur.op == KQ_STEP_DISPATCH ? KQ_PAYLOAD_BYTES : KD_RECORD_BYTES;
            if (cur.n == 0 || cur.n > (cur.op == KQ_STEP_DISPATCH ? KQ_MAX_PROG : KD_MAX_WRITES) ||
                kq_range(&env.reach, cur.addr, cur.n * rec, 4, &re) != KS_OK)
                __builtin_trap();
        }
        if (cur.op == KQ_STEP_REPLAY) {
            /* copied, then validated on the copy (service/kq_cold.c cold_replay_copy) */
            struct kmv_result r;
            memcpy(copy, kqf_map(cur.addr), (size_t)cur.n * KD_RECORD_BYTES);
            if (kmv_validate(copy, cur.n, &caps, &r) != KS_OK) {
                kqf_check_status(r.status);
                break;
            }
            if (!kd_is_go(&copy[cur.n - 1]))
                __builtin_trap();
            for (uint32_t k = 0; k < cur.n; k++)
                if (copy[k].off >= caps.reach_end || (copy[k].off & 7u))
                    __builtin_trap();
        }
    }
    return 0;
}
