/* test_reboot.c — crt0 zeroes .bss and never touches .noinit (docs/design.md §2.1; linker/): the
 * first pass dirties both and re-enters the reset entry; the second pass checks. QEMU's RAM
 * starts zeroed, so only a second pass through crt0 can show .bss being cleared. */
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"

#define KT_PASS_MAGIC 0x2EB0071Eu

static uint32_t kt_bss_words[16];                                   /* .bss */
static uint32_t kt_noinit_marker __attribute__((section(".noinit.kt_marker")));
static uint32_t kt_noinit_words[4] __attribute__((section(".noinit.kt_words")));

void _start(void) __attribute__((noreturn));

int main(void)
{
    if (kt_noinit_marker != KT_PASS_MAGIC) {
        for (unsigned i = 0; i < 16; i++)
            kt_bss_words[i] = 0xA5A5A5A5u;
        for (unsigned i = 0; i < 4; i++)
            kt_noinit_words[i] = 0x5A000000u | i;
        kt_noinit_marker = KT_PASS_MAGIC;
        kx_puts("kt-reboot: first pass, re-entering _start\n");
        _start();
    }
    kx_puts("kt-reboot: second pass\n");
    uint32_t any = 0;
    for (unsigned i = 0; i < 16; i++)
        any |= kt_bss_words[i];
    EXPECT_EQ(any, 0);
    EXPECT_EQ(kt_noinit_words[0], 0x5A000000u);
    EXPECT_EQ(kt_noinit_words[3], 0x5A000003u);
    kt_finish();
}
