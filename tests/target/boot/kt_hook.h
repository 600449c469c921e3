/* kt_hook.h — the fatal hook's stand-in for the boot tests (test_assert.c, test_fatal_once.c):
 * counts its calls and prints "kt-hook: word=<exit word> calls=<count>", the line their
 * expect-console matches, so a test sees how often and with what the fatal path called it. */
#ifndef KT_HOOK_H
#define KT_HOOK_H

#include "boot.h"

static unsigned kt_hook_calls;

/* One call of the hook noted and printed; returns the calls so far (this one included). */
static inline unsigned kt_hook_note(uint64_t word)
{
    kt_hook_calls++;
    kx_puts("kt-hook: word=");
    kx_put_hex(word);
    kx_puts(" calls=");
    kx_put_hex(kt_hook_calls);
    kx_puts("\n");
    return kt_hook_calls;
}

#endif
