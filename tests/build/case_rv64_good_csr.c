/* case_rv64_good_csr.c — build check: RV64 has Zicsr: a CSR read (mcycle) passes its checks. */
// buildcheck: board=qemu-rv64 expect=pass
#include "hal/hal.h"

int main(void)
{
    kx_put_hex(hal_cycles());
    kx_exit(0);
}
