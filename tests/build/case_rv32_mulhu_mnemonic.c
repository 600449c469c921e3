/* case_rv32_mulhu_mnemonic.c — build check: a multiply written by mnemonic
 * under `.option arch, +m` (the ELF's arch attribute then lists M and objdump names it) fails
 * the build too. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: mulhu \(M extension: 02[0-9a-f]{6}\)$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile(".option push\n.option arch, +m\nmulhu %0, %1, %2\n.option pop"
                     : "=r"(r) : "r"(7), "r"(3));
    kx_put_hex(r);
    kx_exit(0);
}
