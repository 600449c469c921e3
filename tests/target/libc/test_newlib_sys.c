/* test_newlib_sys.c — the firmware's system calls under newlib-nano (boot/libc/newlib_syscalls.c,
 * docs/libc.md): write reaches the console, malloc is served from the bounded heap and
 * refuses beyond it with ENOMEM, the other calls refuse with the documented errno; and
 * snprintf works on RV32 too (this newlib is built without the divide instruction the RV32
 * core lacks). newlib-nano builds only, both boards; no stdout stdio here, which would not fit
 * RV32's 8 KB window next to the harness (test_newlib_stdio.c covers it on RV64). */
// kohaku-test: libc=newlib-nano
// kohaku-test: expect-console=kohaku-libc: raw write
#define _DEFAULT_SOURCE 1      /* read/write/isatty/lseek/close/getpid under -std=c11 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "board.h"

/* In a variable so no check name (the stringified expression the harness prints) contains
 * the console text the directive looks for. */
static const char *volatile msg_write = "kohaku-libc: raw write\n";
static char out[40];

static int in_spad(const void *p)
{
    return (uintptr_t)p >= BOARD_SPAD_BASE && (uintptr_t)p < BOARD_SPAD_BASE + BOARD_SPAD_BYTES;
}

int main(void)
{
    EXPECT_EQ(write(1, msg_write, 23), 23);
    EXPECT_EQ(write(2, msg_write, 0), 0);

    int n = snprintf(out, sizeof out, "%d %u %x %5s", -12345, 3000000000u, 0xdeadbeefu, "ab");
    EXPECT_TRUE(strcmp(out, "-12345 3000000000 deadbeef    ab") == 0);
    EXPECT_EQ(n, 32);

    /* Heap: served from the scratchpad, reused after free, bounded. */
    char *p = malloc(100);
    ASSERT_TRUE(p != NULL);
    EXPECT_TRUE(in_spad(p) && in_spad(p + 99));
    memset(p, 0x5A, 100);
    free(p);
    EXPECT_TRUE(malloc(100) == p);        /* nano malloc: first fit takes the freed chunk */
    errno = 0;
    EXPECT_TRUE(malloc(64 * 1024) == NULL);
    EXPECT_EQ(errno, ENOMEM);

    /* The refusals. */
    errno = 0;
    EXPECT_EQ(write(3, "x", 1), -1);
    EXPECT_EQ(errno, EBADF);
    EXPECT_EQ(read(0, out, 4), 0);        /* the console has no input: end of file */
    errno = 0;
    EXPECT_EQ(read(4, out, 4), -1);
    EXPECT_EQ(errno, EBADF);
    EXPECT_EQ(isatty(1), 1);
    EXPECT_EQ(isatty(2), 1);
    EXPECT_EQ(isatty(5), 0);              /* (newlib's isatty wrapper passes errno on -1 only) */
    EXPECT_EQ(lseek(1, 0, SEEK_SET), -1);
    EXPECT_EQ(errno, ESPIPE);
    EXPECT_EQ(close(1), -1);
    EXPECT_EQ(errno, EPERM);
    EXPECT_EQ(getpid(), 1);

    kt_finish();
}
