/* case_rv32_atomic.c — build check: The RV32 core has no A extension: an AMO fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: amoadd
#include "hal/hal.h"

int main(void)
{
    static unsigned v;
    unsigned r;
    __asm__ volatile(".option push\n.option arch, +a\namoadd.w %0, %1, (%2)\n.option pop"
                     : "=r"(r) : "r"(1), "r"(&v) : "memory");
    kx_put_hex(r);
    kx_exit(0);
}
