/* test_bootblock_bad_version.c — a boot block of another version stops the core with
 * KX_EXIT_BOOT(KX_BOOT_BAD_VERSION) = 0xB0070002 before main. */
// kohaku-test: bootblock=--version 2
// kohaku-test: expect-stop=exited cause=0 word=0xb0070002
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran on a bad boot block");
    kt_finish();
}
