/* test_bootblock_bad_units.c — a unit table naming one coordinate twice is refused with
 * KX_EXIT_BOOT(KX_BOOT_BAD_UNITS) = 0xB0070007 before main. */
// kohaku-test: bootblock=--units 3 --dup
// kohaku-test: expect-stop=exited cause=0 word=0xb0070007
#include "harness.h"

int main(void)
{
    EXPECT_TRUE(!"main ran on a bad boot block");
    kt_finish();
}
