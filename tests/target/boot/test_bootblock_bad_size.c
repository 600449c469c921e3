/* test_bootblock_bad_size.c — a size that is not header + entries is refused with
 * KX_EXIT_BOOT(KX_BOOT_BAD_SIZE) = 0xB0070003 before main. */
// kohaku-test: bootblock=--units 2 --size 0x200
// kohaku-test: expect-stop=exited cause=0 word=0xb0070003
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran on a bad boot block");
    kt_finish();
}
