/* test_ops.c — the cold-code interpreter against the core (docs/kvm.md "Tests"): kvo_ops
 * (kvo_cold.c) run as cold code through its stub and kvm_call, and the same C compiled
 * natively, give the same 48 result words and the same 64-bit return, for operand sets that
 * hit the multiply corners; the hand-worked corners are also checked literally. The cold
 * code's calls of native code (through a pointer, and a tail call) get eight argument words
 * and return their 64-bit results. */
// kohaku-test: boards=qemu-rv32
#include "harness.h"
#include "kvo.h"

static uint32_t kt_args[8], kt_calls;

uint64_t kvo_native_call(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
                         uint32_t a5, uint32_t a6, uint32_t a7)
{
    const uint32_t a[8] = { a0, a1, a2, a3, a4, a5, a6, a7 };
    uint32_t sum = 0;
    for (unsigned i = 0; i < 8; i++) {
        kt_args[i] = a[i];
        sum = sum * 17u + a[i];
    }
    kt_calls++;
    return ((uint64_t)(sum ^ 0xA5A5A5A5u) << 32) | (a7 * 0x01000193u + a0);
}

static void kt_compare(uint32_t a, uint32_t b, int32_t c, uint32_t sel)
{
    uint32_t cold[KVO_OUT_WORDS], native[KVO_OUT_WORDS];
    kt_note("operands a", a);
    kt_note("operands b", b);
    kt_calls = 0;
    uint64_t rn = kvo_native_ops(a, b, c, sel, native);
    uint32_t native_args[8];
    for (unsigned i = 0; i < 8; i++)
        native_args[i] = kt_args[i];
    uint64_t rc = kvo_ops(a, b, c, sel, cold);
    EXPECT_EQ(kt_calls, 4);     /* two native calls each way */
    EXPECT_EQ(rc, rn);
    for (unsigned i = 0; i < KVO_OUT_WORDS; i++)
        if (cold[i] != native[i]) {
            kt_note("result word", i);
            EXPECT_EQ(cold[i], native[i]);
        }
    for (unsigned i = 0; i < 8; i++)
        EXPECT_EQ(kt_args[i], native_args[i]);
    /* a6, a7 reached the native callee (the stub passes six; the interpreter eight). */
    EXPECT_EQ(kt_args[6], 7);
    EXPECT_EQ(kt_args[7], 8);
}

int main(void)
{
    uint32_t out[KVO_OUT_WORDS];

    /* a = INT32_MIN, b = 0xFFFFFFFF (-1): worked by hand.
     * MULH   (-2^31)(-1)        =  2^31                 -> high 0x00000000
     * MULHSU (-2^31)(2^32-1)    = -2^63 + 2^31          -> high 0x80000000
     * MULHU  2^31 (2^32-1)      =  2^63 - 2^31          -> high 0x7FFFFFFF */
    (void)kvo_ops(0x80000000u, 0xFFFFFFFFu, -7, 0, out);
    EXPECT_EQ(out[4], 0x00000000u);
    EXPECT_EQ(out[5], 0x80000000u);
    EXPECT_EQ(out[6], 0x7FFFFFFFu);
    /* Loads of 0x80FF7F01, 0x00008001 (little-endian): LB byte 3, LB byte 0, LH half 1,
     * LH half 2, LBU byte 3, LHU half 1. */
    EXPECT_EQ(out[28], 0xFFFFFF80u);
    EXPECT_EQ(out[29], 0x00000001u);
    EXPECT_EQ(out[30], 0xFFFF80FFu);
    EXPECT_EQ(out[31], 0xFFFF8001u);
    EXPECT_EQ(out[32], 0x00000080u);
    EXPECT_EQ(out[33], 0x000080FFu);
    /* SB byte 1 = (a >> 3) & 0xFF = 0x00, then +1: 0x80FF0002. SH half 3 = (b * 3) & 0xFFFF
     * = 0xFFFD: 0xFFFD8001. */
    EXPECT_EQ(out[34], 0x80FF0002u);
    EXPECT_EQ(out[35], 0xFFFD8001u);
    /* x + y, x - y, sra by 31, slt, sltu for INT32_MIN and -1. */
    EXPECT_EQ(out[7], 0x7FFFFFFFu);
    EXPECT_EQ(out[8], 0x80000001u);
    EXPECT_EQ(out[11], 0xFFFFFFFFu);
    EXPECT_EQ(out[12], 1);
    EXPECT_EQ(out[13], 1);
    EXPECT_EQ(out[40], 0x12345004u);            /* AUIPC 0x12345 four bytes after AUIPC 0 */

    /* a = b = 0xFFFFFFFF: MULH (-1)(-1) = 1 -> 0; MULHSU (-1)(2^32-1) -> 0xFFFFFFFF;
     * MULHU (2^32-1)^2 = 2^64 - 2^33 + 1 -> 0xFFFFFFFE. */
    (void)kvo_ops(0xFFFFFFFFu, 0xFFFFFFFFu, 3, 1, out);
    EXPECT_EQ(out[4], 0x00000000u);
    EXPECT_EQ(out[5], 0xFFFFFFFFu);
    EXPECT_EQ(out[6], 0xFFFFFFFEu);

    kt_compare(0x80000000u, 0xFFFFFFFFu, -7, 0);
    kt_compare(0xFFFFFFFFu, 0xFFFFFFFFu, 3, 1);
    kt_compare(0x12345678u, 0x9ABCDEF1u, 0x7FFFFFFF, 5);
    kt_compare(0x7FFFFFFFu, 0x80000001u, (int32_t)0x80000000, 0xFFFFFFFFu);
    kt_compare(0u, 5u, 0, 2);
    kt_compare(0x00000123u, 0x0000001Fu, 1, 3);
    kt_finish();
}
