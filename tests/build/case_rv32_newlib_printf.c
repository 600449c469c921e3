/* case_rv32_newlib_printf.c — build check: the same snprintf against newlib-nano,
 * which scripts/build-newlib.sh builds -mno-div for RV32, passes every check (division goes to
 * libgcc's shift-subtract routines). */
// buildcheck: board=qemu-rv32 libc=newlib-nano expect=pass
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
