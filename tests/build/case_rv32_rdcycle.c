/* case_rv32_rdcycle.c — build check: RV32 has no CSRs: the rdcycle pseudo-op fails the build. */
// buildcheck: board=qemu-rv32 expect=fail message=^    [0-9a-f]+: csrrs$
#include "hal/hal.h"

int main(void)
{
    unsigned r;
    __asm__ volatile(".option push\n.option arch, +zicsr\nrdcycle %0\n.option pop" : "=r"(r));
    kx_put_hex(r);
    kx_exit(0);
}
