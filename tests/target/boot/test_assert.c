/* test_assert.c — the fatal path (docs/design.md §6 "Errors"): a failed KX_ASSERT prints, calls the
 * fatal hook once with the exit word, and stops with KX_EXIT_ASSERT_BASE | site
 * (0xDEAD0000 | 0xF0, exitword.h / boot.h). */
// kohaku-test: expect-stop=exited cause=0 word=0xdead00f0
// kohaku-test: expect-console=kohaku-fw: fatal assert cause=0xf0
// kohaku-test: expect-console=kt-hook: word=0xdead00f0 calls=0x1
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"
#include "kt_hook.h"

/* Overrides the weak default: the command queue marks itself fatal here. */
void kx_fatal_hook(uintptr_t word)
{
    kt_hook_note(word);
}

int main(void)
{
    volatile unsigned broken = 1;
    KX_ASSERT(broken == 0, KX_SITE_TEST);
    EXPECT_TRUE(!"KX_ASSERT returned");
    kt_finish();
}
