/* case_rv32_picolibc_printf.c — build check: picolibc's RV32 snprintf cannot
 * be used on the RV32 core: its default (floating-point) printf is about 16 KB of code, twice the
 * instruction window, and even its integer-only variant contains divide instructions the core
 * lacks (docs/libc.md), so the build refuses the image either way. */
// buildcheck: board=qemu-rv32 expect=fail message=region .IMEM. overflowed|^    [0-9a-f]+: (div|divu|rem|remu)$
#include <stdio.h>
#include "hal/hal.h"

int main(void)
{
    static char buf[16];
    volatile int v = -1234;
    snprintf(buf, sizeof buf, "%d", v);
    kx_puts(buf);
    kx_exit(0);
}
