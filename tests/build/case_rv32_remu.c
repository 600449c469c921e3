/* case_rv32_remu.c — build check: RV32 has no remainder: an inline remu fails
 * the build (as .insn: see case_rv32_div.c). */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: remu \(M extension: 02[0-9a-f]{6}\)$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile(".insn r 0x33, 7, 1, %0, %1, %2" : "=r"(r) : "r"(7), "r"(3));
    kx_put_hex(r);
    kx_exit(0);
}
