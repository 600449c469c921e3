/* test_hang.c — a TU that never retires ends in KS_TIMEOUT naming what was awaited (
 * docs/dispatch.md detail codes), the agent is left quiet and the node still dispatches;
 * a later program to the hung unit never overfills it (its two stuck instructions counted). */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=kick_while_running=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    ctx.wait_cycles = 50000;
    uint64_t (*pay)[4] = kdt_dram(0);
    kdt_tu(pay[0], TU_OP_NOP, 1);
    kdt_tu(pay[1], TU_OP_HANG, 0);
    kdt_tu(pay[2], TU_OP_NOP, 2);
    struct kdp_prog p = { .payload = pay, .n = 3, .txn = 5 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    uint64_t c0 = hal_cycles();
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_TIMEOUT);
    uint64_t took = hal_cycles() - c0;
    EXPECT_EQ(ctx.detail, 0x0321);      /* awaited: completion (3), unit {2,1} */
    EXPECT_EQ(ctx.value, 0x100000003u); /* 1 signal seen of 3 dispatched */
    EXPECT_EQ(r->status, KS_TIMEOUT);
    EXPECT_TRUE(took >= 50000 && took < 200000);   /* bounded by wait_cycles */
    EXPECT_TRUE(kdt_quiet());

    kdt_tu(pay[0], TU_OP_NOP, 0x99);
    p.n = 1;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU2)), KS_OK);
    EXPECT_EQ(r->last_arg, 5);

    for (unsigned i = 0; i < 40; i++)
        kdt_tu(pay[i], TU_OP_NOP, i);
    p.n = 40;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_TIMEOUT);
    EXPECT_EQ(ctx.detail, 0x0221);      /* awaited: room in the FIFO (credit), unit {2,1} */
    EXPECT_EQ(r->dispatched, 14);        /* depth 16 less the HANG and the NOP behind it */
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
