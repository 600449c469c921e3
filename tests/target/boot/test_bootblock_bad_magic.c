/* test_bootblock_bad_magic.c — a boot block with a wrong magic stops the core with
 * KX_EXIT_BOOT(KX_BOOT_BAD_MAGIC) = 0xB0070001 before main (docs/design.md §4, exitword.h). */
// kohaku-test: bootblock=--magic 0x12345678
// kohaku-test: expect-stop=exited cause=0 word=0xb0070001
// kohaku-test: expect-console=boot block refused, reason=0x1
#include "harness.h"
#include "hal/hal.h"

int main(void)
{
    /* Reaching main at all is the failure: the summary and exit word say so. */
    EXPECT_TRUE(!"main ran on a bad boot block");
    kt_finish();
}
