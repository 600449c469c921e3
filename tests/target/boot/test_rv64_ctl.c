/* test_rv64_ctl.c — RV64 control region through the hal (docs/hardware.md §5): DCACHE flush and
 * invalidate complete (bounded poll returns), MVSTAT reads idle with no fault. */
// kohaku-test: boards=qemu-rv64
#include "harness.h"
#include "hal/hal.h"

int main(void)
{
    hal_dcache_flush();
    hal_dcache_inval();
    EXPECT_EQ(*(volatile uint64_t *)0x201C8u & 0x1u, 0);       /* DCACHE [0] busy */

    uint64_t st = hal_mvstat();
    EXPECT_EQ((st >> 32) & 0x1u, 0);                             /* [32] busy */
    EXPECT_EQ((st >> 28) & 0xFu, 0);                             /* [31:28] fault */
    kt_finish();
}
