/* test_npu.c — an NPU program end to end (docs/npu.md §8): MEMSETs of the host
 * base, shapes, weights and e_max, MEMCPY of X (4x32) and W (32x16) in from DRAM, GEMM with
 * findemax, CVO EXP with sub_emax, per-row REDUCE_SUM and SCALE (÷ S), MEMCPY of the
 * probabilities out: 20 instructions dispatched to NP (1,1). The DRAM result is checked against
 * the host reference of tests/host/dispatch/npu_ref.c (double precision, npu_expect.h) within
 * the 3 ulp the model states, and the bytes past it are untouched. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=kick_while_running=0
#include "kdt.h"
#include "npu_expect.h"

#define HOST_UG 0x10800000u            /* unit-global DRAM: X here, W +0x1000, P +0x2000 */

static struct kdp_ctx ctx;

/* docs/npu.md §8, with word 0's host base moved to HOST_UG: (a, b, c) = (0, 0x1080, 0). */
static const uint64_t prog[20] = {
    0x3800000108000000u, 0x3000004002000000u, 0x3010020001000000u, 0x3020004001000200u,
    0x34000203c0000000u, 0x382fc00000000000u, 0x2800000000000000u, 0x2800800000004002u,
    0x1004000002000200u, 0x4000400028001020u, 0x4500500030000400u, 0x4600500028000410u,
    0x4500508030400400u, 0x4600508028400410u, 0x4500510030800400u, 0x4600510028800410u,
    0x4500518030c00400u, 0x4600518028c00410u, 0x3030004001000000u, 0x24000000a0008006u,
};

static volatile uint16_t *dram16(uint32_t off)
{
    uintptr_t base = sizeof(void *) == 4 ? (uintptr_t)(RV32_DRAM_BASE + HOST_UG) : (uintptr_t)HOST_UG;
    return (volatile uint16_t *)(base + off);
}

int main(void)
{
    kdt_setup(&ctx);
    for (unsigned i = 0; i < 4 * 32; i++)
        dram16(0)[i] = npu_x[i];
    for (unsigned i = 0; i < 32 * 16; i++)
        dram16(0x1000)[i] = npu_w[i];
    for (unsigned i = 0; i < 4 * 16 + 16; i++)     /* P, then one guard line */
        dram16(0x2000)[i] = 0xDEAD;
    uint64_t (*pay)[4] = kdt_dram(0);
    for (unsigned i = 0; i < 20; i++) {
        pay[i][0] = pay[i][1] = pay[i][2] = 0;
        pay[i][3] = prog[i];
    }
    hal_dcache_flush();                 /* the NPU reads X and W from DRAM, not our cache */

    struct kdp_prog p = { .payload = pay, .n = 20, .txn = 0x5F };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_NP(1))), KS_OK);
    EXPECT_EQ(r->dispatched, 20);
    EXPECT_EQ(r->completions, 20);
    EXPECT_EQ(r->last_code, 0x01);     /* BATCH_COMPLETE: results are in DRAM (docs/npu.md §7) */
    EXPECT_EQ(r->last_arg, 0x5F);
    kt_note("npu_cycles", r->t_done - t_call);

    hal_dcache_inval();                 /* read what the NPU wrote, not stale lines */
    unsigned bad = 0, worst = 0;
    for (unsigned i = 0; i < 4 * 16; i++) {
        uint16_t got = dram16(0x2000)[i];
        /* positive FP16 values order like their bit patterns: the difference is in ulps */
        unsigned d = got > npu_p[i] ? got - npu_p[i] : npu_p[i] - got;
        if (d > worst)
            worst = d;
        bad += d > 3 || (got & 0x8000u);
    }
    EXPECT_EQ(bad, 0);
    kt_note("npu_worst_ulp", worst);
    unsigned guard = 0;
    for (unsigned i = 4 * 16; i < 4 * 16 + 16; i++)
        guard += dram16(0x2000)[i] != 0xDEAD;
    EXPECT_EQ(guard, 0);
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
