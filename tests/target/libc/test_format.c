/* test_format.c — formatted output and number parsing from the selected libc (
 * docs/libc.md): snprintf's conversions, flags, widths and truncation, strtol/strtoul, with
 * literal results, against picolibc and newlib-nano. RV64 only here: picolibc's RV32 printf
 * and strtol use the divide instruction the RV32 core lacks (the build's instruction check
 * refuses them); newlib-nano's RV32 printf (built -mno-div) is tested in test_newlib_stdio.c. */
// kohaku-test: boards=qemu-rv64
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

static char out[96];

int main(void)
{
    /* Integer conversions, flags and widths (C11 7.21.6.1). */
    int n = snprintf(out, sizeof out, "%d|%5d|%-4d|%05d|%u|%x|%X|%#x|%lx|%s|%.3s|%c|%%",
                     -42, 42, 7, 42, 4000000000u, 0xbeefu, 0xbeefu, 255u,
                     0x123456789abcdefUL, "kohaku", "abcdef", 'Z');
    EXPECT_TRUE(strcmp(out, "-42|   42|7   |00042|4000000000|beef|BEEF|0xff|123456789abcdef|kohaku|abc|Z|%") == 0);
    EXPECT_EQ(n, 77);
    n = snprintf(out, sizeof out, "%ld %lu %+d % d", -9223372036854775807L - 1,
                 18446744073709551615UL, 5, 6);
    EXPECT_TRUE(strcmp(out, "-9223372036854775808 18446744073709551615 +5  6") == 0);
    EXPECT_EQ(n, 47);

    /* Truncation: the return value is the untruncated length, the output is terminated. */
    memset(out, '#', sizeof out);
    n = snprintf(out, 8, "%s-%d", "0123456789", 12345);
    EXPECT_EQ(n, 16);
    EXPECT_TRUE(memcmp(out, "0123456\0#", 9) == 0);
    EXPECT_EQ(snprintf(NULL, 0, "%x", 0xC0FFEEu), 6);

    /* Parsing. */
    char *end;
    EXPECT_EQ(strtol("  -12345xyz", &end, 10), -12345);
    EXPECT_EQ(*end, 'x');
    EXPECT_EQ(strtoul("0x7E570000", NULL, 16), 0x7E570000u);
    EXPECT_EQ(strtoul("0x7E570000", NULL, 0), 0x7E570000u);
    EXPECT_EQ(strtol("0755", NULL, 0), 493);
    EXPECT_EQ(atoi("2026"), 2026);

    kt_finish();
}
