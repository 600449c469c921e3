/* bench_multi.c — the several-target figures on the real dispatch layer (dispatch/,
 * docs/dispatch.md "Several targets"), every unit of the default map at once:
 *  - dispatch_multi: one kdp_run of six jobs, 256 instructions each (the four NP units share
 *    one program of 256 MEMSETs, 4 unit cycles each; the two TUs share one of 256 one-cycle
 *    no-ops: the units never make the firmware wait), the whole call from entry to return in
 *    processor cycles; bench.sh divides by 6 x 256. After a warm-up run of the same jobs, so
 *    the measured run starts from the state every later run starts from.
 *  - feed6: bench_feed's workload on all six units in one kdp_run: each NP its own program of
 *    2 MEMSETs + 256 decode-step GEMVs (2,096 unit cycles each, docs/npu.md §5), each TU 258
 *    DELAYs of 2,096 cycles (model/tu.h); per unit its own busy counter (CU_COUNTERS [31:0])
 *    and the span from the call to the firmware seeing its program complete.
 * Every program is checked for its completions before its figure is printed. */
#include "kb.h"

#define MULTI_N 256u
#define GEMVS   256u

static struct kdp_ctx ctx;
static const char *const busy_key[6] = { "feed6_busy_1", "feed6_busy_2", "feed6_busy_3",
                                         "feed6_busy_4", "feed6_busy_5", "feed6_busy_6" };
static const char *const span_key[6] = { "feed6_span_1", "feed6_span_2", "feed6_span_3",
                                         "feed6_span_4", "feed6_span_5", "feed6_span_6" };
static const uint8_t yx6[6] = { KDT_NP(1), KDT_NP(2), KDT_NP(3), KDT_NP(4), KDT_TU1, KDT_TU2 };

static uint64_t multi(struct kdp_job *jobs, const struct kdp_prog *p)
{
    for (unsigned u = 0; u < 6; u++)
        kdt_job(&jobs[u], &p[u < 4 ? 0 : 1], yx6[u]);
    uint64_t c0 = hal_cycles();
    EXPECT_EQ(kdp_run(&ctx, jobs, 6), KS_OK);
    uint64_t cycles = hal_cycles() - c0;
    for (unsigned u = 0; u < 6; u++) {
        EXPECT_EQ(jobs[u].rep.completions, MULTI_N);
        EXPECT_EQ(jobs[u].rep.last_code, 0x01);         /* BATCH_COMPLETE, arg = txn */
        EXPECT_EQ(jobs[u].rep.last_arg, p[u < 4 ? 0 : 1].txn);
    }
    return cycles;
}

int main(void)
{
    kdt_setup(&ctx);
    struct kdp_prog p[6];
    struct kdp_job jobs[6];
    uint64_t (*np)[4] = kb_prog(0), (*tu)[4] = kb_prog(1);
    for (unsigned i = 0; i < MULTI_N; i++) {
        np_payload(np[i], np_memset_shape(i & 7u, 1, 16, 16));
        kdt_tu(tu[i], TU_OP_NOP, i);
    }
    p[0] = (struct kdp_prog){ .payload = np, .n = MULTI_N, .txn = 0x21 };
    p[1] = (struct kdp_prog){ .payload = tu, .n = MULTI_N, .txn = 0x22 };
    multi(jobs, p);                                     /* warm-up */
    kb_raw("multi_cycles", multi(jobs, p));

    /* feed6: NP units 1..4 as bench_feed, the TUs with DELAYs as long as a GEMV */
    uint64_t c0[6];
    for (unsigned u = 0; u < 6; u++) {
        if (u < 4) {
            kdt_feed_job(kb_prog(2 + u), u, GEMVS, &p[u], &jobs[u]);
        } else {
            uint64_t (*t)[4] = kb_prog(2 + u);
            for (unsigned i = 0; i < 2 + GEMVS; i++)
                kdt_tu(t[i], TU_OP_DELAY, 2096);
            p[u] = (struct kdp_prog){ .payload = t, .n = 2 + GEMVS, .txn = (uint8_t)(0x40 + u) };
            kdt_job(&jobs[u], &p[u], yx6[u]);
        }
        c0[u] = kb_counters(&ctx, yx6[u], (uint8_t)(0x80 + u));
    }
    uint64_t t_call = hal_cycles();
    EXPECT_EQ(kdp_run(&ctx, jobs, 6), KS_OK);
    for (unsigned u = 0; u < 6; u++) {
        uint64_t cnt = kb_counters(&ctx, yx6[u], (uint8_t)(0x90 + u));
        uint32_t busy = (uint32_t)cnt - (uint32_t)c0[u];
        uint32_t retired = (uint32_t)(cnt >> 32) - (uint32_t)(c0[u] >> 32);
        /* every instruction retired ([63:32] counts retirements, the report completions);
         * busy: each instruction's cycles plus the one its completion waits to leave
         * (docs/hardware.md §1.1): MEMSET 4, GEMV 2,096 (docs/npu.md §5), DELAY its IMM */
        EXPECT_EQ(jobs[u].rep.completions + (retired << 16), (2 + GEMVS) * 0x10001u);
        EXPECT_EQ(busy, u < 4 ? 2u * (4u + 1u) + GEMVS * (2096u + 1u) : (2 + GEMVS) * (2096u + 1u));
        kb_raw(busy_key[u], busy);
        kb_raw(span_key[u], jobs[u].rep.t_done - t_call);
    }
    kt_finish();
}
