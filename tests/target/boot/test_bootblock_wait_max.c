/* test_bootblock_wait_max.c — wait_cycles 0xFFFFFFFF could never be passed by a 32-bit elapsed
 * count (every wait compares now - start with it), so no wait would end: the
 * block is refused with KX_EXIT_BOOT(KX_BOOT_BAD_WAIT) = 0xB0070008 before main. */
// kohaku-test: bootblock=--wait 0xFFFFFFFF
// kohaku-test: expect-stop=exited cause=0 word=0xb0070008
// kohaku-test: expect-console=boot refused, reason=0x8
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran with a wait limit no wait could pass");
    kt_finish();
}
