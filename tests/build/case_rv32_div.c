/* case_rv32_div.c — build check: RV32 has no divide: an inline div fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: div$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile("div %0, %1, %2" : "=r"(r) : "r"(7), "r"(3));
    hal_put_hex(r);
    hal_exit(0);
}
