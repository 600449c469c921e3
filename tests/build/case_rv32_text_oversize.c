/* case_rv32_text_oversize.c — build check: More than 8 KB of code does not fit the RV32 instruction window. */
// buildcheck: board=qemu-rv32 expect=fail message=overflow
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".rept 2100\naddi x0, x0, 0\n.endr");
    kx_exit(0);
}
