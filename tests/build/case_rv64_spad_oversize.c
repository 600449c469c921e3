/* case_rv64_spad_oversize.c — build check: More than 32 KB of data does not fit the RV64 scratchpad. */
// buildcheck: board=qemu-rv64 expect=fail message=overflow
#include "hal/hal.h"

int main(void)
{
    static volatile unsigned char big[30000];
    big[0] = 1;
    kx_put_hex(big[29999]);
    kx_exit(0);
}
