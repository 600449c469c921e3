/* case_rv32_stack_native.c — build check: the product image's stack budget is
 * computed from the linked code (scripts/stack-check.py): a main whose frame alone is larger
 * than the board's 3 KB stack (BOARD_STACK_BYTES) fails the build, though it links and fits
 * both windows. */
// buildcheck: board=qemu-rv32 expect=fail message=stack-check: .*native stack: [0-9]+ of 3072 bytes
#include "hal/hal.h"

int main(void)
{
    volatile unsigned char big[3200];
    big[0] = 1;
    big[sizeof big - 1] = 2;
    kx_put_hex(big[0] + big[sizeof big - 1]);
    kx_exit(0);
}
