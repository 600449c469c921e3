/* test_fatal_once.c — the fatal path is one-shot (docs/firmware.md "Fatal path"): an assertion
 * inside the fatal hook (a second entry) stops the core at once with its own word, without
 * calling the hook again. The hook asserts with site 0xF0 + its call count, so a path that
 * entered twice would stop with 0xDEAD00F2 or recurse; once-only stops with 0xDEAD00F1 after
 * one hook call. On RV32 this is the low-half once-flag (boot/fatal.c kx_fatal_entered). */
// kohaku-test: expect-stop=exited cause=0 word=0xdead00f1
// kohaku-test: expect-console=kohaku-fw: fatal assert cause=0xf0
// kohaku-test: expect-console=kt-hook: word=0xdead00f0 calls=0x1
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"
#include "kt_hook.h"

void kx_fatal_hook(uintptr_t word)
{
    kx_assert_fail(KX_SITE_TEST + kt_hook_note(word), __LINE__);
}

int main(void)
{
    volatile unsigned broken = 1;
    KX_ASSERT(broken == 0, KX_SITE_TEST);
    EXPECT_TRUE(!"KX_ASSERT returned");
    kt_finish();
}
