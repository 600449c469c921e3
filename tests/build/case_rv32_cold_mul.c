/* case_rv32_cold_mul.c — build check: cold code (run by the interpreter,
 * docs/kvm.md) is scanned for M encodings as .text is: a mul in a cold file
 * (tests/build/cold_mul.c) fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=core lacks in the cold code
// buildcheck-cold: tests/build/cold_mul.c:kbc_cold_mul
#include <stdint.h>
#include "hal/hal.h"

uint32_t kbc_cold_mul(uint32_t a, uint32_t b);

int main(void)
{
    kx_put_hex(kbc_cold_mul(7, 3));
    kx_exit(0);
}
