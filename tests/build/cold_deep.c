/* cold_deep.c — the cold code of build check case_rv32_stack_cold.c: a frame of 640 bytes, more
 * than the interpreted stack holds. */
#include <stdint.h>

uint32_t kbc_cold_deep(uint32_t a)
{
    volatile uint32_t big[160];
    big[0] = a;
    big[159] = a + 1;
    return big[0] + big[159];
}
