/* case_rv32_cold_div.c — build check: cold code (run by the interpreter from the scratchpad,
 * docs/kvm.md) is scanned for the instructions the RV32 core lacks as .text is: a divide in
 * a cold file (tests/build/cold_div.c) fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=core lacks in the cold code
// buildcheck-cold: tests/build/cold_div.c:kbc_cold_div
#include <stdint.h>
#include "hal/hal.h"

uint32_t kbc_cold_div(uint32_t a, uint32_t b);

int main(void)
{
    kx_put_hex(kbc_cold_div(7, 3));
    kx_exit(0);
}
