/* start.c — C start for both variants (docs/design.md §2.1): check the boot block the host wrote at
 * the start of the scratchpad, refuse a bad one with KX_EXIT_BOOT(reason), then run main. */
#include "board.h"
#include "boot.h"
#include "hal/hal.h"

int main(void);
void kx_cstart(void) __attribute__((noreturn));

/* Placed by the linker: the scratchpad's first KX_BOOT_RESERVED bytes (linker/rv*.ld.S). */
extern const struct kx_bootblock __kx_bootblock;

const struct kx_bootblock *kx_bootblock(void)
{
    return &__kx_bootblock;
}

void kx_cstart(void)
{
    unsigned reason = kx_bootblock_check(&__kx_bootblock);
    if (reason) {
        /* Never run on garbage: say why on the console, then stop with a word that
         * names the rule broken. Not the fatal path: this is a host error, not ours. */
        hal_puts("kohaku-fw " BOARD_NAME ": boot block refused, reason=");
        hal_put_hex(reason);
        hal_puts("\n");
        /* reason is 1..8 (boot.h): KX_EXIT_BOOT's mask would be an instruction for nothing. */
        hal_exit(KX_EXIT_BOOT_BASE | reason);
    }
    (void)main();
    /* main never returns (it serves until STOP and exits); returning is a firmware bug. */
    kx_assert_fail(KX_SITE_MAIN_RETURNED, __LINE__);
}
