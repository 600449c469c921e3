/* case_rv32_good.c — build check: A plain RV32 image builds and passes every check. */
// buildcheck: board=qemu-rv32 expect=pass
#include "hal/hal.h"

int main(void)
{
    kx_puts("ok\n");
    kx_exit(0);
}
