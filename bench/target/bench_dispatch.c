/* bench_dispatch.c — bench figure 2 (dispatch_insns_per_flit) on the real dispatch layer
 * (dispatch/, docs/dispatch.md), measured with the processor's own counters (RV32 LCTL
 * CYCLE/INSTRET, RV64 mcycle/minstret through hal_cycles/hal_instret):
 *  - one 4,096-instruction program of one-cycle TU no-ops to one unit (the unit never makes the
 *    firmware wait, so the cost shown is the processor's), the whole kdp_dispatch call from
 *    entry to return, final completion wait included; and a 2,048-instruction one, so bench.sh
 *    can also show the marginal (steady-state) cost per flit.
 * Every program is checked for its completions before its figure is printed. */
#include "kb.h"

static struct kdp_ctx ctx;

static void dispatch_n(uint32_t n, uint8_t txn, const char *insns_key, const char *cycles_key)
{
    uint64_t (*pay)[4] = kb_prog(0);
    struct kdp_prog p = { .payload = pay, .n = n, .txn = txn };
    struct kdp_job job = { .prog = &p, .yx = KDT_TU1 };
    uint64_t c0 = hal_cycles(), i0 = hal_instret();
    unsigned st = kdp_dispatch(&ctx, &job);
    uint64_t insns = hal_instret() - i0, cycles = hal_cycles() - c0;
    EXPECT_EQ(st, KS_OK);
    EXPECT_EQ(job.rep.dispatched, n);
    EXPECT_EQ(job.rep.completions, n);
    EXPECT_EQ(job.rep.last_code, 0x01);     /* BATCH_COMPLETE, arg = txn */
    EXPECT_EQ(job.rep.last_arg, txn);
    kb_raw(insns_key, insns);
    kb_raw(cycles_key, cycles);
}

int main(void)
{
    kdt_setup(&ctx);
    uint64_t (*pay)[4] = kb_prog(0);
    for (unsigned i = 0; i < 4096; i++)
        kdt_tu(pay[i], TU_OP_NOP, i);
    /* A short warm-up run, so both measured runs start from the same state. */
    struct kdp_prog w = { .payload = pay, .n = 16, .txn = 0x01 };
    struct kdp_job wj = { .prog = &w, .yx = KDT_TU1 };
    EXPECT_EQ(kdp_dispatch(&ctx, &wj), KS_OK);
    dispatch_n(4096, 0x09, "dispatch4096_insns", "dispatch4096_cycles");
    dispatch_n(2048, 0x0A, "dispatch2048_insns", "dispatch2048_cycles");
    kt_finish();
}
