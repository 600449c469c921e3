/* test_fault.c — a TU fault reported with its exact exec_result (seed
 * docs/hardware.md §2.5, §1.1: a faulting last instruction reports FAULT): the
 * status KS_UNIT_FAULT, detail the unit's {y,x}, value the exec_result; a fault in the middle
 * of a program ends it after what was in flight retired; the node dispatches afterwards. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=kick_while_running=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    uint64_t (*pay)[4] = kdt_dram(0);
    kdt_tu(pay[0], TU_OP_NOP, 1);
    kdt_tu(pay[1], TU_OP_NOP, 2);
    kdt_tu(pay[2], TU_OP_FAULT, 0xBAD5);
    struct kdp_prog p = { .payload = pay, .n = 3, .txn = 9 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_UNIT_FAULT);
    EXPECT_EQ(ctx.detail, 0x21);
    EXPECT_EQ(ctx.value, 0xBAD5);
    EXPECT_EQ(r->status, KS_UNIT_FAULT);
    EXPECT_EQ(r->last_code, 0x04);       /* FAULT */
    EXPECT_EQ(r->completions, 3);
    EXPECT_TRUE(kdt_quiet());

    kdt_tu(pay[0], TU_OP_DELAY, 50);
    kdt_tu(pay[1], TU_OP_FAULT, 0x77);
    kdt_tu(pay[2], TU_OP_DELAY, 400);
    kdt_tu(pay[3], TU_OP_DELAY, 400);
    p.n = 4;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU2)), KS_UNIT_FAULT);
    EXPECT_EQ(ctx.detail, 0x22);
    EXPECT_EQ(ctx.value, 0x77);
    EXPECT_EQ(r->dispatched, 4);
    EXPECT_EQ(r->completions, 4);        /* the two behind the fault retired first */
    EXPECT_TRUE(kdt_quiet());

    /* A fault inside a long streamed program: the rest of the program never reaches the
     * unit (its kick is ended early), what was pushed retires, nothing is dropped or left.
     * The slow instructions after it keep the FAULT visible in NODE_STATUS until polled: a
     * FAULT followed at once by other signals of the unit is seen only as a count
     * (docs/dispatch.md, "Limits"). */
    for (unsigned i = 0; i < 60; i++)
        kdt_tu(pay[i], i == 20 ? TU_OP_FAULT : TU_OP_DELAY, i == 20 ? 0xF20 : i < 20 ? 30 : 3000);
    p.n = 60;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_UNIT_FAULT);
    EXPECT_EQ(ctx.value, 0xF20);
    EXPECT_TRUE(r->dispatched >= 21 && r->dispatched < 60);
    EXPECT_EQ(r->completions, r->dispatched);
    EXPECT_TRUE(kdt_quiet());
    kt_note("dispatched_before_fault_end", r->dispatched);

    /* An unknown TU opcode retires as a fault with TU_FAULT_OPCODE | opcode (docs/model.md). */
    kdt_tu(pay[0], 0xE, 0);
    p.n = 1;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_UNIT_FAULT);
    EXPECT_EQ(ctx.value, 0xBAD0000E);

    kdt_tu(pay[0], TU_OP_NOP, 3);
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU2)), KS_OK);
    EXPECT_EQ(r->last_code, 0x01);
    kt_finish();
}
