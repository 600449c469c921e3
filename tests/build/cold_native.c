/* cold_native.c — the cold code of build check case_rv32_stack_hal_cold.c: a cold entry that
 * calls native code with a large frame. */
#include <stdint.h>

uint32_t kbc_native_big(uint32_t a);

uint32_t kbc_cold_native(uint32_t a)
{
    return kbc_native_big(a) + 1;
}
