/* test_one.c — a 1-instruction program to a TU (docs/hardware.md §1 "Dispatch"): one
 * flit dispatched, one completion, BATCH_COMPLETE with arg {24'd0, txn}, the agent quiet after.
 * kohaku-test directives below check the model's referee (docs/hardware.md §10.3). */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=stage_overrun=0
// kohaku-test: expect-referee=kick_while_running=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    uint64_t (*pay)[4] = kdt_dram(0);
    kdt_tu(pay[0], TU_OP_NOP, 0x1234);
    struct kdp_prog p = { .payload = pay, .n = 1, .txn = 0x42 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_OK);
    uint64_t t_back = hal_cycles();
    EXPECT_EQ(r->dispatched, 1);
    EXPECT_EQ(r->completions, 1);
    EXPECT_EQ(r->last_code, 0x01);       /* BATCH_COMPLETE (docs/hardware.md §2.5) */
    EXPECT_EQ(r->last_arg, 0x42);        /* {24'd0, txn} */
    EXPECT_TRUE(r->t_done > t_call && r->t_done < t_back);     /* seen complete within the call */
    EXPECT_TRUE(kdt_quiet());
    /* NODE_STATUS[{2,1}] saw exactly one signal, valid, code BATCH_COMPLETE, arg 0x42. */
    uint64_t ns = hal_agent_rd(KA_NODE_STATUS(KDT_TU1));
    EXPECT_EQ(ns >> 56, 0x01);
    EXPECT_EQ((ns >> 24) & 0xFFFFFFFFu, 0x42);
    EXPECT_EQ((ns >> 8) & 0xFFFFu, 1);
    EXPECT_EQ(ns & 1u, 1);
    /* The same program again: a second kick, the count now 2. */
    t_call = hal_cycles();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_OK);
    EXPECT_EQ(r->completions, 1);
    EXPECT_EQ((hal_agent_rd(KA_NODE_STATUS(KDT_TU1)) >> 8) & 0xFFFFu, 2);
    kt_note("cycles", r->t_done - t_call);
    kt_finish();
}
