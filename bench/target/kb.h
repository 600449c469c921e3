/* kb.h — shared set-up of the bench images (bench/target/bench_*.c, "make bench"): the
 * on-target dispatch tests' set-up (tests/target/dispatch/kdt.h: the default unit map as a
 * host-given table, TU payloads, the agent's coordinate), a DRAM area for programs and lists, the
 * figure lines, and a CU_CTRL read of CU_COUNTERS through the agent's mailbox (docs/hardware.md §1,
 * §1.1). Header-only: bench.mk builds each image from one source. Images print raw counts
 * ("note: <key> 0x<hex>", the harness's form) and never divide (RV32 has no divide); the host
 * side (bench/bench.sh) makes the ratios. */
#ifndef KOHAKU_KB_H
#define KOHAKU_KB_H

#include "../../tests/target/dispatch/kdt.h"
#include "kohaku/agent_regs.h"

/* The CPU's pointer to a unit-global DRAM offset (RV32: the cached window at 0x8000_0000;
 * RV64: unit-global addresses from 0x1000_0000 are the cached map itself, docs/hardware.md §5). */
static inline void *kb_dram(uint32_t ug)
{
    if (sizeof(void *) == 4)
        return (void *)(uintptr_t)(RV32_DRAM_BASE + ug);
    return (void *)(uintptr_t)ug;
}

/* Unit-global offsets used by the images: clear of each other, below 1 GB on both variants
 * (RV64 maps unit-global 0x1000_0000 and up). */
#define KB_UG_PROG   0x10100000u        /* programs: 4,096 payloads = 128 KB each, 4 slots */
#define KB_UG_LIST   0x10400000u        /* descriptor lists */
#define KB_UG_SRC    0x11000000u        /* 1 MB copy source */
#define KB_UG_DST    0x11200000u        /* 1 MB copy destination */

static inline uint64_t (*kb_prog(unsigned k))[4]
{
    return (uint64_t (*)[4])kb_dram(KB_UG_PROG + k * 0x40000u);
}

/* A figure for bench.sh: "note: <key> 0x<hex>". */
#define kb_raw(key, v) kt_note(key, (uint64_t)(v))

/* CU_CTRL read of CU_COUNTERS ([63:32] retired, [31:0] busy unit cycles; docs/hardware.md §1) of the
 * unit at yx through the mailbox, with no program running (docs/hardware.md §1.1). The unit answers
 * behind the completions it has queued, so after a program completed the value covers it.
 * No reply within 100,000 cycles reads 0, which the caller's checks then refuse (lean: the
 * RV32 window holds the multi-target dispatch path beside it). */
static __attribute__((noinline, unused)) uint64_t kb_counters(struct kdp_ctx *c, uint8_t yx, uint8_t txn)
{
    struct kf_flit f, r;
    uint64_t v = 0;
    (void)kdp_quiesce(c);
    uint32_t t0 = (uint32_t)hal_cycles();
    while ((uint32_t)hal_cycles() - t0 < KDP_TX_SETTLE_CYCLES)
        ;
    kdp_flit_ctrl_read(&f, yx, c->agent_yx, KF_CTRL_CU_COUNTERS, txn);
    while (hal_agent_rd32(KA_TX_STATUS) & KA_TX_STATUS_FULL)
        ;
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));
    const uintptr_t *s = (const uintptr_t *)f.w;
    for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
        d[i] = s[i];
    hal_fence();
    hal_agent_wr32(KA_TX_KICK, 1);
    t0 = (uint32_t)hal_cycles();
    while ((uint32_t)hal_cycles() - t0 < 100000u) {
        if (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)
            continue;
        for (unsigned i = 0; i < KF_WORDS; i++)
            r.w[i] = hal_agent_rd(KA_RX_FLIT(i));
        hal_agent_wr32(KA_RX_POP, 1);
        if (kdp_ctrl_reply_match(&r, yx, KF_CTRL_CU_COUNTERS, txn, &v))
            return v;
    }
    return 0;
}

#endif
