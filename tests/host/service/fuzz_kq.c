/* fuzz_kq.c — libFuzzer target over the command queue's parsers of host-supplied data
 * (the command decoder and the step-list interpreter; service/kq_check.c):
 * a queue header, a submission and the memory it points at, checked as the firmware checks
 * them. Invariants beyond "no crash, no sanitizer report": every status is OK or an input
 * code, accepted data stays out of the reserved firmware DRAM, and an accepted RUN list keeps
 * its own rules (re-checked here independently). */
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

    struct kq_env env = {
        { { KQF_DRAM, variant ? KQF_STAGING : 0 }, { variant ? 0 : KQF_RSV_LO, variant ? 0 : KQF_RSV_HI } },
        kqf_units, 3,
        variant ? &kmv_caps_rv64 : &kmv_caps_rv32, kqf_map,
    };
    memcpy(&h, dram, sizeof h);
    (void)kq_setup_check(&env.reach, s.addr & ~0x1Full, &h);

    struct kq_err e;
    unsigned st = kq_sub_check(&s, &env, &e);
    kqf_check_status(st);
    /* accepted data never overlaps the reserved stretch (records: REPLAY 12, DISPATCH and RUN 32) */
    if (st == KS_OK && !variant && s.op >= KQ_OP_REPLAY && s.op <= KQ_OP_RUN &&
        s.addr < KQF_RSV_HI && s.addr + (uint64_t)s.count * (s.op == KQ_OP_REPLAY ? 12u : 32u) > KQF_RSV_LO)
        __builtin_trap();
    if (st != KS_OK || s.op != KQ_OP_RUN)
        return 0;
    const struct kq_step *steps = kqf_map(s.addr);
    st = kq_steps_check(steps, s.count, &env, &e);
    if (st != KS_OK && !KS_IS_INPUT(st))
        __builtin_trap();
    if (st == KS_OK) {
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
    }
    return 0;
}
