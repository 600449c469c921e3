/* case_rv64_script_spad.c — build check: with a linker script whose SPAD
 * region is wrongly 256 KB (and its asserts gone), check-image.sh still refuses data that,
 * with the boot block and the stack, exceeds the 32 KB scratchpad. */
// buildcheck: board=qemu-rv64 expect=fail message=scratchpad needs [0-9]+ bytes .*, it holds 32768
// buildcheck-ldsed: s/LENGTH = 32768 - 512/LENGTH = 262144/;/^ASSERT/d
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char big[30000];
    big[0] = 1;
    kx_put_hex(big[29999]);
    kx_exit(0);
}
