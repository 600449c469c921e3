/* test_interleave.c — interleaved programs to five targets in one run: the
 * next region staged while a kick runs (PROG_BASE double buffering), kicks topped up per
 * target within inst_depth; every program completes with its own txn; one program shared by
 * two targets. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=stage_overrun=0
// kohaku-test: expect-referee=kick_while_running=0
#include "kdt.h"
#include "kohaku/npu_isa.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    uint64_t (*a)[4] = kdt_dram(0), (*b)[4] = kdt_dram(1);
    for (unsigned i = 0; i < 300; i++) {
        kdt_tu(a[i], TU_OP_DELAY, 3 + i % 5);
        kdt_tu(b[i], TU_OP_NOP, 0x100 + i);
    }
    for (unsigned i = 300; i < 400; i++)
        np_payload(a[i], np_memset_shape(i % 64, 1, 1, 1));
    struct kdp_prog pa = { .payload = a, .n = 300, .txn = 1 };
    struct kdp_prog pb = { .payload = b, .n = 37, .txn = 2 };
    struct kdp_prog pc = { .payload = a[300], .n = 100, .txn = 3 };
    struct kdp_prog pd = { .payload = a[350], .n = 5, .txn = 4 };
    struct kdp_job jobs[5] = {
        { .prog = &pa, .yx = KDT_TU1 }, { .prog = &pb, .yx = KDT_TU2 },
        { .prog = &pc, .yx = KDT_NP(1) }, { .prog = &pd, .yx = KDT_NP(2) },
        { .prog = &pc, .yx = KDT_NP(4) },
    };
    EXPECT_EQ(kdp_run(&ctx, jobs, 5), KS_OK);
    static const uint32_t n[5] = { 300, 37, 100, 5, 100 };
    static const uint8_t txn[5] = { 1, 2, 3, 4, 3 };
    for (unsigned i = 0; i < 5; i++) {
        EXPECT_EQ(jobs[i].rep.dispatched, n[i]);
        EXPECT_EQ(jobs[i].rep.completions, n[i]);
        EXPECT_EQ(jobs[i].rep.last_code, 0x01);
        EXPECT_EQ(jobs[i].rep.last_arg, txn[i]);
    }
    /* 300 + 37 + 100 + 5 at least; with five programs and four regions some restage. */
    EXPECT_TRUE(ctx.staged_flits >= 442);   /* a region evicted before use is restaged */
    kt_note("staged_flits", ctx.staged_flits);
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
