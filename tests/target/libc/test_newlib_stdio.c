/* test_newlib_stdio.c — newlib-nano's stdio on the console (boot/libc/newlib_syscalls.c,
 * docs/libc.md): printf and fputs(stderr) reach the console through _write; stdout is
 * line-buffered (the console is a character device and the heap holds the buffer), so the last
 * printf, without a newline, appears only because exit() flushes stdio before _exit stops the
 * core with word 0. newlib-nano builds, RV64 only: stdout stdio (about 6 KB of code) does not
 * fit RV32's 8 KB window next to the harness (docs/libc.md "Measured"). */
// kohaku-test: libc=newlib-nano
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0
// kohaku-test: expect-console=kohaku-libc: printf -7 ok 0xc0de
// kohaku-test: expect-console=kohaku-libc: stderr fputs
// kohaku-test: expect-console=kohaku-libc: flushed by exit 77
#include <stdio.h>
#include <stdlib.h>
#include "harness.h"

/* Formats in variables: no check name (the stringified expression the harness prints)
 * contains the console text the directives look for. */
static const char *volatile fmt_printf = "kohaku-libc: printf %d %s %#x\n";
static const char *volatile msg_stderr = "kohaku-libc: stderr fputs\n";
static const char *volatile fmt_tail = "kohaku-libc: flushed by exit %d";

int main(void)
{
    EXPECT_EQ(printf(fmt_printf, -7, "ok", 0xC0DEu), 33);   /* its text is 33 bytes */
    EXPECT_TRUE((stdout->_flags & __SLBF) != 0);             /* newlib's line-buffered flag */
    EXPECT_TRUE(fputs(msg_stderr, stderr) >= 0);
    EXPECT_EQ(printf(fmt_tail, 77), 31);
    exit(0);                /* no kt_finish: the flush is exit()'s, and a FAIL line counts */
}
