/* case_rv64_text_oversize.c — build check: More than 32 KB of code does not fit the RV64 instruction window. */
// buildcheck: board=qemu-rv64 expect=fail message=overflow
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".rept 8300\naddi x0, x0, 0\n.endr");
    kx_exit(0);
}
