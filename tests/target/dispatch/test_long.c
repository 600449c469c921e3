/* test_long.c — 1,000 instructions to one NP, longer than the 128-slot staging RAM (
 * docs/hardware.md §1.1: chunks never run past the last slot): every instruction dispatched
 * and completed, each staged exactly once, BATCH_COMPLETE with the txn at the end; then a TU
 * stream of 1,000 with delays through the same context. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=stage_overrun=0
// kohaku-test: expect-referee=kick_while_running=0
#include "kdt.h"
#include "kohaku/npu_isa.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    uint64_t (*pay)[4] = kdt_dram(0);
    for (unsigned i = 0; i < 1000; i++)     /* MEMSET fmap_shape[i % 64] = (i + 1, 2, 3) */
        np_payload(pay[i], np_memset_shape(i % 64, (uint16_t)(i + 1), 2, 3));
    struct kdp_prog p = { .payload = pay, .n = 1000, .txn = 0x07 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    uint64_t i0 = hal_instret();
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_NP(3))), KS_OK);
    uint64_t insns = hal_instret() - i0;
    EXPECT_EQ(r->dispatched, 1000);
    EXPECT_EQ(r->completions, 1000);
    EXPECT_EQ(r->last_code, 0x01);
    EXPECT_EQ(r->last_arg, 0x07);
    EXPECT_EQ(ctx.staged_flits, 1000);
    EXPECT_TRUE(kdt_quiet());
    kt_note("np1000_cycles", r->t_done - t_call);
    kt_note("np1000_insns", insns);

    for (unsigned i = 0; i < 1000; i++)
        kdt_tu(pay[i], i % 3 ? TU_OP_NOP : TU_OP_DELAY, 5 + i % 7);
    p.txn = 0x08;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU2)), KS_OK);
    EXPECT_EQ(r->completions, 1000);
    EXPECT_EQ(r->last_code, 0x01);
    EXPECT_EQ(r->last_arg, 0x08);
    EXPECT_TRUE(kdt_quiet());

    /* 4,096 one-cycle NOPs: the unit keeps up, so the processor's own cost per flit shows
     * (a figure for the log; make bench owns the budget check). */
    for (unsigned i = 0; i < 4096; i++)
        kdt_tu(pay[i], TU_OP_NOP, i);
    p.n = 4096;
    p.txn = 0x09;
    uint64_t c0 = hal_cycles();
    i0 = hal_instret();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_OK);
    insns = hal_instret() - i0;
    EXPECT_EQ(r->completions, 4096);
    kt_note("nop4096_insns", insns);
    kt_note("nop4096_cycles", hal_cycles() - c0);
    kt_finish();
}
