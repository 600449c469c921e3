/* test_feed.c — four NP units fed at once (the shape of the bench's
 * unit_feed_pct): each runs its own program of 2 MEMSETs and 100 decode-step GEMVs (K = N = 256,
 * 2,096 unit cycles each, docs/npu.md §5), dispatched by one kdp_run. Every program completes
 * with its txn and nothing overfills a unit; the share of each program's time its unit was busy
 * is for the log: its busy cycles over the program's cycles printed (benches own the budget;
 * no division in an RV32 image). */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=kick_while_running=0
// kohaku-test: expect-referee=stage_overrun=0
#include "kdt.h"
#include "kohaku/npu_isa.h"

#define GEMVS 100u

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    struct kdp_prog p[4];
    struct kdp_job jobs[4];
    for (unsigned u = 0; u < 4; u++) {
        kdt_feed_job(kdt_dram(u), u, GEMVS, &p[u], &jobs[u]);
    }
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_run(&ctx, jobs, 4), KS_OK);
    for (unsigned u = 0; u < 4; u++) {
        EXPECT_EQ(jobs[u].rep.completions, 2 + GEMVS);
        EXPECT_EQ(jobs[u].rep.last_code, 0x01);
        EXPECT_EQ(jobs[u].rep.last_arg, 0x40 + u);
        /* the unit was busy 100 x 2,096 + 2 x 4 = 209,608 cycles (docs/npu.md §5) of these */
        /* seen complete after the call began, and after at least the unit's busy cycles */
        EXPECT_TRUE(jobs[u].rep.t_done - t_call >= 100u * 2096u + 2u * 4u);
        kt_note("program_span_cycles", jobs[u].rep.t_done - t_call);
    }
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
