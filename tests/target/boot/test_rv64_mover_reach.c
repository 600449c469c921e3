/* test_rv64_mover_reach.c — the RV64 mover window ends at 0x38 (docs/hardware.md §5): reaching
 * hal_mover_wr with IMM (0x40) is a firmware bug the hal stops on, with assertion site 0x03:
 * exit word 0xDEAD0003, before anything is written. */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0xdead0003
// kohaku-test: expect-console=kohaku-fw: fatal assert cause=0x3
#include "harness.h"
#include "hal/hal.h"

int main(void)
{
    volatile unsigned off = 0x40;    /* IMM: not in the RV64 window */
    hal_mover_wr(off, 0x12345678u);
    EXPECT_TRUE(!"hal_mover_wr accepted offset 0x40");
    kt_finish();
}
