/* case_rv32_stack_cold.c — build check: a cold function (run by the
 * interpreter, docs/kvm.md) whose frame is larger than the interpreted stack (KVM_STACK_BYTES)
 * fails the build (tests/build/cold_deep.c). */
// buildcheck: board=qemu-rv32 expect=fail message=stack-check: .*interpreted stack: [0-9]+ of [0-9]+ bytes
// buildcheck-cold: tests/build/cold_deep.c:kbc_cold_deep
#include <stdint.h>
#include "hal/hal.h"

uint32_t kbc_cold_deep(uint32_t a);

int main(void)
{
    kx_put_hex(kbc_cold_deep(7));
    kx_exit(0);
}
