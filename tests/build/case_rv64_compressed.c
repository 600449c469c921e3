/* case_rv64_compressed.c — build check: The RV64 core has no C extension: a compressed instruction fails the build. */
// buildcheck: board=qemu-rv64 expect=fail message=compressed instruction
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".option push\n.option arch, +c\nc.nop\n.option pop");
    kx_exit(0);
}
