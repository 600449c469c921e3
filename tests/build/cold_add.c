/* cold_add.c — the cold code of build check case_rv32_cold_good.c. */
#include <stdint.h>

uint32_t kbc_cold_add(uint32_t a, uint32_t b)
{
    return a + b;
}
