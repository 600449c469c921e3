/* case_rv32_script_text.c — build check: with a linker script whose IMEM
 * region is wrongly 64 KB (and its asserts gone), check-image.sh still refuses more than the
 * 8 KB the window holds: the size check does not trust the script. */
// buildcheck: board=qemu-rv32 expect=fail message=text is [0-9]+ bytes, the instruction window holds 8192
// buildcheck-ldsed: s/ORIGIN = 0, LENGTH = 8192/ORIGIN = 0, LENGTH = 65536/;/^ASSERT/d
#include "hal/hal.h"

int main(void)
{
    __asm__ volatile(".rept 2100\naddi x0, x0, 0\n.endr");
    kx_exit(0);
}
