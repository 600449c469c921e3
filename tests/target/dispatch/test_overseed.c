/* test_overseed.c — the credit rule's referee works: a program kicked by hand
 * with credit 40 to a TU of inst_depth 16 (what the dispatch layer never does) overfills its
 * FIFO, and the model's credit-violation counter, checked by the runner, catches it. */
// kohaku-test: expect-referee=credit_violations>0
#include "kdt.h"

int main(void)
{
    volatile uintptr_t *st = (volatile uintptr_t *)hal_agent_ptr(KA_STAGE_SLOT(0));
    const unsigned words = KF_BYTES / sizeof(uintptr_t);
    for (unsigned i = 0; i < 40; i++) {
        struct kf_flit f;
        uint64_t pay[4];
        kdt_tu(pay, TU_OP_DELAY, 500);
        kdp_flit_inst(&f, pay, 1, i == 39);
        const uintptr_t *s = (const uintptr_t *)f.w;
        for (unsigned w = 0; w < words; w++)
            st[i * words + w] = s[w];
    }
    hal_agent_wr32(KA_PROG_BASE, 0);
    hal_agent_wr32(KA_PROG_LEN, 40);
    hal_agent_wr32(KA_PROG_DST, KDT_TU1);
    hal_agent_wr32(KA_PROG_CRED, 40);
    hal_fence();
    hal_agent_wr32(KA_PROG_KICK, 1);
    uint64_t t0 = hal_cycles();
    while (hal_cycles() - t0 < 100000)
        ;
    EXPECT_TRUE(!(hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN));
    kt_finish();
}
