/* test_four.c — one program to four NP units (docs/hardware.md §2.4.3:
 * staged dst/src are don't-care, so one staged copy serves every target): each unit completes
 * all 24 instructions with BATCH_COMPLETE and the txn, and the program was staged once. */
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
    for (unsigned i = 0; i < 24; i++)
        np_payload(pay[i], np_memset_shape(i, 4, 5, (uint16_t)i));
    struct kdp_prog p = { .payload = pay, .n = 24, .txn = 0x33 };
    struct kdp_job jobs[4];
    for (unsigned i = 0; i < 4; i++) {
        jobs[i].prog = &p;
        jobs[i].yx = KDT_NP(i + 1);
    }
    EXPECT_EQ(kdp_run(&ctx, jobs, 4), KS_OK);
    for (unsigned i = 0; i < 4; i++) {
        EXPECT_EQ(jobs[i].rep.dispatched, 24);
        EXPECT_EQ(jobs[i].rep.completions, 24);
        EXPECT_EQ(jobs[i].rep.last_code, 0x01);
        EXPECT_EQ(jobs[i].rep.last_arg, 0x33);
        EXPECT_EQ(jobs[i].rep.status, KS_OK);
        EXPECT_EQ((hal_agent_rd(KA_NODE_STATUS(KDT_NP(i + 1))) >> 8) & 0xFFFFu, 24);
    }
    EXPECT_EQ(ctx.staged_flits, 24);    /* staged once for all four */
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
