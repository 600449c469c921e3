/* bench_feed.c — bench figure 3 (unit_feed_pct): four NP units each running a long stream of
 * decode-step GEMVs (K = N = 256, 2,096 unit cycles each, docs/npu.md §5), all dispatched by one
 * kdp_run of the real dispatch layer. For each unit the image prints
 *  - busy: the unit's own busy-cycle counter (CU_COUNTERS [31:0], read through the mailbox
 *    before and after): the cycles it was executing, held instructions or had a completion
 *    queued (docs/hardware.md §1.1);
 *  - span: processor cycles from the kdp_run call (every instruction still undispatched) to the
 *    firmware seeing the program complete (rep.t_done - call; cycle = ns = unit cycle).
 * busy / span is the unit's feed. span also holds the hop and polling latency after the last
 * retirement, so the figure is a lower bound of busy / (busy + idle while instructions were
 * still undispatched). */
#include "kb.h"
#include "kohaku/npu_isa.h"

#define GEMVS 256u

static struct kdp_ctx ctx;
static const char *const busy_key[4] = { "feed_busy_1", "feed_busy_2", "feed_busy_3", "feed_busy_4" };
static const char *const span_key[4] = { "feed_span_1", "feed_span_2", "feed_span_3", "feed_span_4" };

int main(void)
{
    kdt_setup(&ctx);
    struct kdp_prog p[4];
    struct kdp_job jobs[4];
    uint32_t busy0[4];
    for (unsigned u = 0; u < 4; u++) {
        kdt_feed_job(kb_prog(u), u, GEMVS, &p[u], &jobs[u]);
        busy0[u] = (uint32_t)kb_counters(&ctx, KDT_NP(u + 1), (uint8_t)(0x80 + u));
    }
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_run(&ctx, jobs, 4), KS_OK);
    /* Checks kept few: the RV32 window holds the whole multi-target dispatch path besides. */
    for (unsigned u = 0; u < 4; u++) {
        uint64_t cnt = kb_counters(&ctx, KDT_NP(u + 1), (uint8_t)(0x90 + u));
        uint32_t busy = (uint32_t)cnt - busy0[u];
        /* Every instruction retired, and busy as docs/npu.md §5 says: MEMSET 4 cycles, GEMV
         * K = N = 256 2,096 cycles with all lanes, each plus the cycle its completion waits to
         * leave (CU_COUNTERS counts the cycles with CU_STATUS.busy set, completions queued
         * included: docs/hardware.md §1.1; the next instruction issues in that same cycle). */
        EXPECT_EQ(jobs[u].rep.completions + ((cnt >> 32) << 16), (2 + GEMVS) * 0x10001u);
        EXPECT_EQ(busy, 2u * (4u + 1u) + GEMVS * (2096u + 1u));
        kb_raw(busy_key[u], busy);
        kb_raw(span_key[u], jobs[u].rep.t_done - t_call);
    }
    kt_finish();
}
