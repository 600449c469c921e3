/* test_bootblock_zero_wait.c — wait_cycles 0 would make every wait time out at once: the
 * block is refused with KX_EXIT_BOOT(KX_BOOT_BAD_TIMEOUT) = 0xB0070006 before main. */
// kohaku-test: bootblock=--wait 0
// kohaku-test: expect-stop=exited cause=0 word=0xb0070006
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran on a bad boot block");
    kt_finish();
}
