/* case_rv32_div.c — build check: RV32 has no divide: an inline div fails the
 * build. Written as .insn: the RV32I assembler refuses the mnemonic, and the scan must find the
 * encoding whatever objdump calls it. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: div \(M extension: 02[0-9a-f]{6}\)$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile(".insn r 0x33, 4, 1, %0, %1, %2" : "=r"(r) : "r"(7), "r"(3));
    kx_put_hex(r);
    kx_exit(0);
}
