/* case_rv64_newlib_float.c — build check: the checks apply to newlib-nano builds too:
 * a hard-float instruction in an RV64 image is refused (the core has no F/D) whichever C
 * library is linked. */
// buildcheck: board=qemu-rv64 libc=newlib-nano expect=fail message=^    [0-9a-f]+: fmv
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".option push\n.option arch, +d\nfmv.d.x f0, zero\n.option pop");
    kx_exit(0);
}
