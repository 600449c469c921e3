/* test_bootblock_wait_over.c — the first wait_cycles past the limit, 2^31 (KX_BOOT_WAIT_MAX + 1:
 * a count polled every few thousand cycles passes at most 2^31 - 1 before it can wrap), is
 * refused with KX_EXIT_BOOT(KX_BOOT_BAD_WAIT) = 0xB0070008. */
// kohaku-test: bootblock=--wait 0x80000000
// kohaku-test: expect-stop=exited cause=0 word=0xb0070008
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran with wait_cycles 2^31");
    kt_finish();
}
