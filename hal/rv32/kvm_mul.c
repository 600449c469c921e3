/* kvm_mul.c — multiplication for the RV32 cold code (docs/kvm.md "Multiply"). The core is
 * RV32I only (docs/hardware.md §4): GCC turns a multiply it cannot do with a few shifts into a call of
 * libgcc's __mulsi3 or __muldi3. Cold code's only such callers are the validators' extent
 * products, so these two run interpreted, as cold entries of their own (mk/firmware.mk
 * FW_COLD_rv32): kvm-cold.sh renames the cold callers' references to kvm_cold___mulsi3/
 * kvm_cold___muldi3, and libgcc's native copies (176 bytes) stay out of the 8 KB instruction
 * window. They have no native stub (mk/firmware.mk FW_COLD_LIBCALLS_rv32): native code that
 * multiplies links libgcc's own; the firmware's native code does not (a hot path uses shifts
 * and adds), test images may. Shift-and-add over the smaller operand's bits: the validators multiply a count
 * (a few bits) by a size or stride, so a product is a handful of turns. */
#include <stdint.h>

uint32_t __mulsi3(uint32_t a, uint32_t b);
uint64_t __muldi3(uint64_t a, uint64_t b);

uint32_t __mulsi3(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    if (b > a) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    for (; b; b >>= 1, a <<= 1)
        if (b & 1)
            r += a;
    return r;
}

uint64_t __muldi3(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    if (b > a) {
        uint64_t t = a;
        a = b;
        b = t;
    }
    for (; b; b >>= 1, a <<= 1)
        if (b & 1)
            r += a;
    return r;
}
