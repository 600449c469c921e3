/* cold_mul.c — the cold code of build check case_rv32_cold_mul.c: a multiply, which the RV32I
 * core lacks (docs/hardware.md §4), in a file built as cold code (docs/kvm.md). */
#include <stdint.h>

uint32_t kbc_cold_mul(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__ volatile(".insn r 0x33, 0, 1, %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
