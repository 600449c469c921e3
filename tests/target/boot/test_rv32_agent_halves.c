/* test_rv32_agent_halves.c — RV32 agent-window half rules (docs/hardware.md §4): a low-half store
 * writes [31:0] and clears [63:32]; a high-half store writes [63:32] and keeps [31:0]; a
 * read returns the addressed half. Checked on CTRL ("stored, no effect", docs/hardware.md §1). */
// kohaku-test: boards=qemu-rv32
#include "harness.h"
#include "hal/hal.h"
#include "kohaku/agent_regs.h"

int main(void)
{
    volatile uint32_t *lo = (volatile uint32_t *)hal_agent_ptr(KA_CTRL);
    volatile uint32_t *hi = lo + 1;

    lo[0] = 0x01234567u;
    hi[0] = 0x89ABCDEFu;                 /* keeps [31:0] */
    EXPECT_EQ(lo[0], 0x01234567u);
    EXPECT_EQ(hi[0], 0x89ABCDEFu);
    EXPECT_EQ(hal_agent_rd(KA_CTRL), UINT64_C(0x89ABCDEF01234567));
    lo[0] = 0x0000BEEFu;                 /* clears [63:32] */
    EXPECT_EQ(hi[0], 0);
    EXPECT_EQ(lo[0], 0x0000BEEFu);
    hal_agent_wr32(KA_CTRL, 0);
    EXPECT_EQ(hal_agent_rd(KA_CTRL), 0);
    kt_finish();
}
