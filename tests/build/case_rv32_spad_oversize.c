/* case_rv32_spad_oversize.c — build check: More than 8 KB of data (less the boot block and the stack) does not fit the RV32 scratchpad. */
// buildcheck: board=qemu-rv32 expect=fail message=overflow
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char big[7000];
    big[0] = 1;
    kx_put_hex(big[6999]);
    kx_exit(0);
}
