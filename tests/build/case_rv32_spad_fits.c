/* case_rv32_spad_fits.c — build check (issue 2 item 3): Just under the RV32 scratchpad limit still builds (8192 - 512 boot block - 1280 stack - rodata). */
// buildcheck: board=qemu-rv32 expect=pass
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char big[6144];
    big[0] = 1;
    hal_put_hex(big[6143]);
    hal_exit(0);
}
