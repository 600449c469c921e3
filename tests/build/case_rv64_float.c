/* case_rv64_float.c — build check: The RV64 core has no F/D: a float instruction fails the build. */
// buildcheck: board=qemu-rv64 expect=fail message=^    [0-9a-f]+: fmv
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".option push\n.option arch, +d\nfmv.d.x ft0, zero\n.option pop");
    kx_exit(0);
}
