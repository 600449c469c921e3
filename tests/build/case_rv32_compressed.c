/* case_rv32_compressed.c — build check: The RV32 core has no C extension: a compressed instruction fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=compressed instruction
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".option push\n.option arch, +c\nc.nop\nc.nop\n.option pop");
    kx_exit(0);
}
