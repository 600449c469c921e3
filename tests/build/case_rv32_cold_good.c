/* case_rv32_cold_good.c — build check: an image with cold code (tests/build/cold_add.c, run by
 * the interpreter from the scratchpad, docs/kvm.md) passes every check. */
// buildcheck: board=qemu-rv32 expect=pass
// buildcheck-cold: tests/build/cold_add.c:kbc_cold_add
#include <stdint.h>
#include "hal/hal.h"

uint32_t kbc_cold_add(uint32_t a, uint32_t b);

int main(void)
{
    kx_put_hex(kbc_cold_add(7, 3));
    kx_exit(0);
}
