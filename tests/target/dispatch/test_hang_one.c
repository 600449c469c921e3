/* test_hang_one.c — one target that hangs while a long program streams to it: the stream
 * (credit = the unit's room) stalls once the unit has taken its room, since a hung unit returns
 * no credit and a kick waiting for credit runs until credit comes (docs/hardware.md §1.1). The
 * run must end that kick (the agent left quiet: no program running, RX empty), record
 * KS_TIMEOUT awaiting credit of that unit, and count as dispatched only what reached the unit:
 * its inst_depth (16) less the two instructions an earlier run left in it. On RV32 the stream
 * runs in kdp_run's several-target loop (BOARD_DISPATCH_STREAM_LOOP 0), on RV64 in kdp_stream:
 * the outcome must not depend on which loop, nor on where the wait's limit falls. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=kick_while_running=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    uint64_t (*pay)[4] = kdt_dram(0);
    struct kdp_prog p = { .payload = pay, .txn = 5 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    /* Once per TU, each with another wait bound: the limit falls at another point of the
     * loop. */
    static const uint8_t tu[2] = { KDT_TU1, KDT_TU2 };
    for (unsigned k = 0; k < 2; k++) {
        kdt_setup(&ctx);
        ctx.wait_cycles = 20000u + 1237u * k;
        /* The unit hangs on its second instruction: it keeps that one and the NOP behind it. */
        kdt_tu(pay[0], TU_OP_NOP, 1);
        kdt_tu(pay[1], TU_OP_HANG, 0);
        kdt_tu(pay[2], TU_OP_NOP, 2);
        p.n = 3;
        EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, tu[k])), KS_TIMEOUT);
        EXPECT_EQ(ctx.detail, 0x0300u | tu[k]);     /* awaited: completion (3) */
        EXPECT_EQ(ctx.value, 0x100000003u);         /* 1 signal seen of 3 dispatched */
        EXPECT_TRUE(kdt_quiet());
        /* A program longer than its room, to the hung unit alone. */
        for (unsigned i = 0; i < 40; i++)
            kdt_tu(pay[i], TU_OP_NOP, i);
        p.n = 40;
        EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, tu[k])), KS_TIMEOUT);
        EXPECT_EQ(ctx.detail, 0x0200u | tu[k]);     /* awaited: credit (2) */
        EXPECT_EQ(r->dispatched, 14);       /* depth 16 less the HANG and the NOP behind it */
        EXPECT_EQ(ctx.value, 14u);          /* no signal seen; 14 reached the unit */
        EXPECT_EQ(r->status, KS_TIMEOUT);
        EXPECT_TRUE(kdt_quiet());
    }
    kt_finish();
}
