/* case_rv32_mul.c — build check: the RV32 core is RV32I only (docs/hardware.md §4), so
 * an inline mul fails the build. As .insn, which leaves the image's arch attribute RV32I: objdump
 * then prints the word as .4byte, and the scan must still name it from its encoding. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: mul \(M extension: 02[0-9a-f]{6}\)$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile(".insn r 0x33, 0, 1, %0, %1, %2" : "=r"(r) : "r"(7), "r"(3));
    kx_put_hex(r);
    kx_exit(0);
}
