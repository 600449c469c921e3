/* case_rv32_float.c — build check: The RV32 core has no F extension: a float instruction fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: fmv
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".option push\n.option arch, +f\nfmv.w.x ft0, zero\n.option pop");
    kx_exit(0);
}
