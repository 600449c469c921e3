/* test_newlib_exit.c — newlib-nano's exit() on the firmware (boot/libc/newlib_syscalls.c,
 * docs/libc.md): exit(status) runs the atexit handlers, then _exit stops the core with the
 * status as the exit word. newlib-nano builds only, both boards. */
// kohaku-test: libc=newlib-nano
// kohaku-test: expect-stop=exited cause=0 word=0x1234abcd
// kohaku-test: expect-console=kohaku-libc: atexit handler ran
#include <stdlib.h>
#include "hal/hal.h"

static void on_exit_handler(void)
{
    kx_puts("kohaku-libc: atexit handler ran\n");
}

int main(void)
{
    if (atexit(on_exit_handler) != 0)
        kx_exit(0xBAD);
    exit(0x1234abcd);
}
