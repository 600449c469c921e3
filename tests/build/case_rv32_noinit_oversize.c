/* case_rv32_noinit_oversize.c — build check: The never-zeroed section counts against the scratchpad too. */
// buildcheck: board=qemu-rv32 expect=fail message=overflow
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char table[7000] __attribute__((section(".noinit.table")));
    table[0] = 1;
    kx_put_hex(table[6999]);
    kx_exit(0);
}
