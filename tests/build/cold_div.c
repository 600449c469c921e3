/* cold_div.c — the cold code of build check case_rv32_cold_div.c: a divide, which the RV32 core
 * lacks, in a file built as cold code (docs/kvm.md). */
#include <stdint.h>

uint32_t kbc_cold_div(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__ volatile(".insn r 0x33, 4, 1, %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
