/* case_rv32_stack_hal_cold.c — build check: a call site that enters the interpreter itself
 * (HAL_COLD, hal/rv32/hal_variant.h: no native stub) is followed by the stack check like a
 * stub: main's HAL_COLD call of a cold entry (tests/build/cold_native.c) whose call of native
 * code needs 2,400 bytes runs below kvm_call's frame, past the board's 3 KB stack, and fails
 * the build. (Before the check knew the entry words, this chain ended at kvm_call and passed.) */
// buildcheck: board=qemu-rv32 expect=fail message=stack-check: .*native stack: [0-9]+ of 3072 bytes .*kbc_native_big
// buildcheck-cold: tests/build/cold_native.c:kbc_cold_native
#include <stdint.h>
#include "hal/hal.h"

uint32_t kbc_cold_native(uint32_t a);

/* Called by the cold code only (a native call from the interpreter). */
__attribute__((noinline, used)) uint32_t kbc_native_big(uint32_t a)
{
    volatile unsigned char big[2400];
    big[0] = (unsigned char)a;
    big[sizeof big - 1] = 2;
    return big[0] + big[sizeof big - 1];
}

int main(void)
{
    kx_put_hex(HAL_COLD(kbc_cold_native, 7));
    kx_exit(0);
}
