/* test_hal.c — hal accessors against the machine (docs/hardware.md §1, §4, §5): counters advance,
 * the agent window reads CAPS/STATUS as docs/hardware.md states them, and a stored register (IRQ_EN,
 * "stored and read back") shows the 64-bit and 32-bit write rules. */
#include "harness.h"
#include "hal/hal.h"
#include "kohaku/agent_regs.h"

int main(void)
{
    uint64_t c0 = hal_cycles(), i0 = hal_instret();
    for (volatile int k = 0; k < 100; k++)
        ;
    uint64_t c1 = hal_cycles(), i1 = hal_instret();
    EXPECT_TRUE(c1 > c0);
    EXPECT_TRUE(i1 - i0 >= 100);          /* at least one instruction per iteration */

    /* CAPS: FLIT_WIDTH 288 in [15:0], POS_WIDTH 4 in [23:16] (docs/hardware.md §1, §7). */
    uint64_t caps = hal_agent_rd(KA_CAPS);
    EXPECT_EQ(caps & 0xFFFFu, 288);
    EXPECT_EQ((caps >> 16) & 0xFFu, 4);
    EXPECT_EQ(hal_agent_rd32(KA_CAPS) & 0xFFFFu, 288);
    /* STATUS [2] mesh ready reads 1, [1] error 0. */
    EXPECT_EQ(hal_agent_rd(KA_STATUS) & 0x6u, 0x4u);

    hal_agent_wr(KA_IRQ_EN, UINT64_C(0x1122334455667788));
    EXPECT_EQ(hal_agent_rd(KA_IRQ_EN), UINT64_C(0x1122334455667788));
    /* A 32-bit write clears [63:32] on both variants. */
    hal_agent_wr32(KA_IRQ_EN, 0xAABBCCDDu);
    EXPECT_EQ(hal_agent_rd(KA_IRQ_EN), 0xAABBCCDDu);
    hal_agent_wr(KA_IRQ_EN, UINT64_C(0xCAFEF00D00000000));
    EXPECT_EQ(hal_agent_rd(KA_IRQ_EN), UINT64_C(0xCAFEF00D00000000));
    hal_agent_wr(KA_IRQ_EN, 0);
    EXPECT_EQ(hal_agent_rd(KA_IRQ_EN), 0);
    /* Unlisted offsets read 0 (docs/hardware.md §1). */
    EXPECT_EQ(hal_agent_rd(0x0030u), 0);
    kt_finish();
}
