/* kdt.h — shared set-up of the on-target dispatch tests (tests/target/dispatch/test_*.c): the
 * default unit map of the model (docs/model.md; model/mesh.c "grid=4x2;agent@0,1;NP@1,1;
 * NP@2,1;NP@3,1;NP@4,1;TU@1,2;TU@2,2"), a DRAM area for programs, TU instruction payloads
 * (model/tu.h) and the quiet-agent check. Header-only: target.mk builds each test_*.c alone. */
#ifndef KOHAKU_KDT_H
#define KOHAKU_KDT_H

#include "harness.h"
#include "dispatch.h"
#include "hal/hal.h"
#include "kohaku/cpu_map.h"
#include "kohaku/npu_isa.h"
#include "../../../model/tu.h"

#define KDT_AGENT   0x10u               /* agent@0,1: {y,x} = 0x10 */
#define KDT_NP(x)   KDP_YX(x, 1)
#define KDT_TU1     KDP_YX(1, 2)
#define KDT_TU2     KDP_YX(2, 2)
#define KDT_WAIT    1000000u            /* the boot block's default wait_cycles */

/* Programs live in DRAM (a 1,000-instruction program is 32 KB; the RV32 scratchpad is 8 KB):
 * 1 MB into the mesh's DRAM, cached on both variants (docs/hardware.md §4, §5). */
static inline uint64_t (*kdt_dram(unsigned k))[4]
{
    uintptr_t base = sizeof(void *) == 4 ? (uintptr_t)RV32_DRAM_BASE : (uintptr_t)RV64_UG_BASE;
    return (uint64_t (*)[4])(base + 0x100000u + k * 0x40000u);
}

static inline void kdt_tu(uint64_t p[4], unsigned op, uint32_t imm)
{
    p[0] = p[1] = p[2] = 0;
    p[3] = ((uint64_t)op << 60) | imm;
}

/* The default map as a host-given table (what CU_CAPS of each unit says: "NP" 0x4E50 and
 * "TU" 0x5455, version 1, depth 16). */
static inline void kdt_setup(struct kdp_ctx *c)
{
    static const struct kx_unit_entry map[] = {
        { .yx = 0x11, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x12, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x13, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x14, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x21, .type = 0x5455, .version = 1, .inst_depth = 16 },
        { .yx = 0x22, .type = 0x5455, .version = 1, .inst_depth = 16 },
    };
    kdp_init(c, KDT_AGENT, KDT_WAIT, KA_STAGE_FLITS_DEFAULT);
    ASSERT_EQ(kdp_units_set(c, map, 6), KS_OK);
}

/* A single-target job for kdp_dispatch. */
static inline struct kdp_job *kdt_job(struct kdp_job *j, const struct kdp_prog *p, uint8_t yx)
{
    j->prog = p;
    j->yx = yx;
    return j;
}

/* The feed workload (test_feed.c, bench_feed.c; the bench unit_feed_pct) for NP unit u (0..3, at
 * KDT_NP(u + 1)), written into pay: MEMSET the shape (M, N, K) = (1, 256, 256), MEMSET the
 * weights at line 1024, then `gemvs` decode-step GEMVs (L2 line 100 -> 200); txn 0x40 + u. */
static inline void kdt_feed_job(uint64_t (*pay)[4], unsigned u, unsigned gemvs,
                                struct kdp_prog *p, struct kdp_job *j)
{
    np_payload(pay[0], np_memset_shape(0, 1, 256, 256));
    np_payload(pay[1], np_memset_weight(0, 1024, NP_FP16_ONE, 0));
    for (unsigned i = 0; i < gemvs; i++)
        np_payload(pay[2 + i], np_gemv(200, 100, 0, 0, 0, 0));
    p->payload = pay;
    p->n = 2 + gemvs;
    p->txn = (uint8_t)(0x40 + u);
    p->cap = 0;
    kdt_job(j, p, KDT_NP(u + 1));
}

/* No program running and RX empty (the agent is left quiet). */
static inline int kdt_quiet(void)
{
    return !(hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN) &&
           (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY);
}

#endif
