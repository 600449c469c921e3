/* test_console_hex.c — kx_put_hex's format (hal.h: "0x", lower-case hex, no leading zeros,
 * "0x0" for zero) on both variants, 64-bit values included (RV32 prints them from two 32-bit
 * halves), and kx_puts's return value (the byte after the NUL). Each value is printed between
 * '[' and ']' so a console match cannot stop at a prefix; the expected text is written out
 * here, not produced by the code under test. */
// kohaku-test: expect-console=kt-hex: [0x0] [0x1] [0xf] [0x10] [0xa0b0c0d] [0xdead00f0]
// kohaku-test: expect-console=kt-hex: [0x100000000] [0x5452415000000005] [0xffffffffffffffff]
// kohaku-test: expect-console=kt-hex: [0x8000000000000000] [0x1000000010] [0x123456789abcdef0]
// kohaku-test: expect-console=kt-puts: one two end
#include "harness.h"
#include "hal/hal.h"

static void kt_hex_line(const uint64_t *v, unsigned n)
{
    kx_puts("kt-hex:");
    for (unsigned i = 0; i < n; i++) {
        kx_puts(" [");
        kx_put_hex(v[i]);
        kx_puts("]");
    }
    kx_puts("\n");
}

int main(void)
{
    static const uint64_t line1[] = { 0, 1, 0xF, 0x10, 0x0A0B0C0D, 0xDEAD00F0 };
    static const uint64_t line2[] = { UINT64_C(0x100000000), UINT64_C(0x5452415000000005),
                                      UINT64_C(0xFFFFFFFFFFFFFFFF) };
    static const uint64_t line3[] = { UINT64_C(0x8000000000000000), UINT64_C(0x1000000010),
                                      UINT64_C(0x123456789ABCDEF0) };
    static const char run[] = "kt-puts: one\0 two\0 end\n";

    kt_hex_line(line1, 6);
    kt_hex_line(line2, 3);
    kt_hex_line(line3, 3);

    /* kx_puts returns the byte after the NUL: three calls walk the run of strings (checked
     * after the line is out, so the check lines do not split it). */
    const char *p1 = kx_puts(run);
    const char *p2 = kx_puts(p1);
    const char *p3 = kx_puts(p2);
    EXPECT_EQ((uintptr_t)p1, (uintptr_t)(run + 13));
    EXPECT_EQ((uintptr_t)p2, (uintptr_t)(run + 18));
    EXPECT_EQ((uintptr_t)p3, (uintptr_t)(run + sizeof run));
    kt_finish();
}
