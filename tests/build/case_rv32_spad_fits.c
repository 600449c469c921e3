/* case_rv32_spad_fits.c — build check: Just under the RV32 scratchpad limit still builds (8192 - 512 boot block - 3072 stack (board/common/rv32.h) - rodata). */
// buildcheck: board=qemu-rv32 expect=pass
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char big[4096];
    big[0] = 1;
    kx_put_hex(big[4095]);
    kx_exit(0);
}
