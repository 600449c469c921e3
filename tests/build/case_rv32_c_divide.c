/* case_rv32_c_divide.c — build check: C division on the RV32I core calls libgcc's shift-subtract routine: no divide instruction. */
// buildcheck: board=qemu-rv32 expect=pass
#include "hal/hal.h"

int main(void)
{
    volatile unsigned a = 1000, b = 7;
    kx_put_hex(a / b + a % b);
    kx_exit(0);
}
