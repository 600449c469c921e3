/* test_string.c — the C library is linked and used: string and memory functions
 * from the selected libc (picolibc or newlib-nano, docs/libc.md) on both QEMU boards, with
 * literal results, and the headers are the library the build says it links. Runs in all four
 * target suites. Copies at every offset against alignment also check that the library never
 * makes a misaligned access (the RV32 core halts on one, docs/hardware.md §4). No strstr: picolibc's
 * (two-way search, 1.7 KB of code) would overflow RV32's 8 KB window next to the harness. */
#include <string.h>
#include "harness.h"
#include "hal/hal.h"

/* -ffreestanding implies -fno-builtin, so each call below is a call into libc.a. Volatile
 * pointers keep the compiler from reasoning about the buffers' contents. */
static char src[24] = "The quick brown fox!";
static char dst[32];
static const char *volatile text = "kohaku-accel:system-node";
static unsigned char big_src[512], big_dst[512];

int main(void)
{
#if defined(KX_LIBC_NEWLIB_NANO)
    /* newlib 3.3.0 built by scripts/build-newlib.sh, not picolibc's newlib-derived headers. */
    EXPECT_TRUE(strcmp(_NEWLIB_VERSION, "3.3.0") == 0);
#ifdef __PICOLIBC__
    EXPECT_TRUE(!"picolibc headers in a newlib-nano build");
#endif
#elif defined(KX_LIBC_PICOLIBC)
    EXPECT_TRUE(strcmp(__PICOLIBC_VERSION__, "1.8") == 0);
#else
    EXPECT_TRUE(!"the build names no C library");
#endif

    EXPECT_EQ(strlen(text), 24);
    EXPECT_EQ(strlen(text + 7), 17);
    EXPECT_EQ(strlen(""), 0);
    EXPECT_TRUE(strcmp(text, "kohaku-accel:system-node") == 0);
    EXPECT_TRUE(strcmp(text, "kohaku-accel:system-nodf") < 0);
    EXPECT_TRUE(strcmp(text, "kohaku") > 0);
    EXPECT_TRUE(strncmp(text, "kohaku-XXXXX", 7) == 0);
    EXPECT_EQ(strchr(text, ':') - text, 12);
    EXPECT_EQ(strrchr(text, '-') - text, 19);
    EXPECT_TRUE(strchr(text, '#') == NULL);
    EXPECT_EQ((const char *)memchr(text, 'a', 24) - text, 3);

    /* memcpy at every source/destination offset pair 0..3 (mixed alignment), 17 bytes, with
     * guard bytes either side that must not change. */
    int copies_ok = 1;
    for (unsigned so = 0; so < 4; so++) {
        for (unsigned d = 0; d < 4; d++) {
            memset(dst, '#', sizeof dst);
            memcpy(dst + 4 + d, src + so, 17);
            if (memcmp(dst + 4 + d, src + so, 17) != 0 || dst[3 + d] != '#' || dst[21 + d] != '#')
                copies_ok = 0;
        }
    }
    EXPECT_TRUE(copies_ok);
    memset(dst, 0, sizeof dst);
    memcpy(dst + 1, src + 4, 11);
    EXPECT_TRUE(memcmp(dst + 1, "quick brown", 12) == 0);      /* dst[12] stayed 0 */

    /* memmove both ways over an overlap. */
    strcpy(dst, "0123456789");
    memmove(dst + 2, dst, 6);
    EXPECT_TRUE(strcmp(dst, "0101234589") == 0);
    strcpy(dst, "0123456789");
    memmove(dst, dst + 3, 7);
    EXPECT_TRUE(strcmp(dst, "3456789789") == 0);

    /* memset of an odd length from an odd address, guards untouched. */
    memset(dst, 'x', sizeof dst);
    memset(dst + 3, 0xA5, 13);
    EXPECT_EQ((unsigned char)dst[3], 0xA5);
    EXPECT_EQ((unsigned char)dst[15], 0xA5);
    EXPECT_EQ(dst[2], 'x');
    EXPECT_EQ(dst[16], 'x');

    /* memcmp compares as unsigned char. */
    EXPECT_TRUE(memcmp("\x80", "\x7f", 1) > 0);

    /* strncpy pads with NULs and does not terminate when the source fills n. */
    memset(dst, 'x', sizeof dst);
    strncpy(dst, "abc", 6);
    EXPECT_TRUE(memcmp(dst, "abc\0\0\0x", 7) == 0);
    strncpy(dst, "abcdefgh", 4);
    EXPECT_TRUE(memcmp(dst, "abcd\0\0x", 7) == 0);

    /* A 512-byte aligned copy and fill, timed for docs/libc.md (note lines on the console:
     * cycles include the call; under QEMU's icount one cycle is one instruction). */
    for (unsigned i = 0; i < sizeof big_src; i++)
        big_src[i] = (unsigned char)(i * 7u + 1u);
    uint64_t t0 = hal_cycles();
    memcpy(big_dst, big_src, sizeof big_dst);
    uint64_t t1 = hal_cycles();
    memset(big_src, 0, sizeof big_src);
    uint64_t t2 = hal_cycles();
    kt_note("cycles memcpy 512 B", t1 - t0);
    kt_note("cycles memset 512 B", t2 - t1);
    EXPECT_EQ(big_dst[0], 1);
    EXPECT_EQ(big_dst[511], 0xFA);        /* (511 * 7 + 1) mod 256 */
    EXPECT_EQ(big_src[300], 0);

    kt_finish();
}
