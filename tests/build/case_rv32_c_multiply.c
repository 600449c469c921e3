/* case_rv32_c_multiply.c — build check: C multiplication on the RV32I core
 * (docs/hardware.md §4) builds: GCC emits shifts and adds or a libgcc call, never a mul. */
// buildcheck: board=qemu-rv32 expect=pass
#include "hal/hal.h"

int main(void)
{
    volatile unsigned a = 1000, b = 7;
    volatile unsigned long long c = 123456789, d = 987654321;
    kx_put_hex(a * b);
    kx_put_hex(c * d);
    kx_exit(0);
}
