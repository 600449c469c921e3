/* start.c — C start for both variants (docs/design.md §2.1): check the boot block the host wrote at
 * the start of the scratchpad, refuse a bad one with KX_EXIT_BOOT(reason), then run main. */
#include "board.h"
#include "boot.h"
#include "console.h"

int main(void);

/* Zero in the loaded image; the host reads it whenever it likes (boot.h). */
volatile struct kx_waypoint kx_waypoint __attribute__((used, aligned(16), section(".kx_waypoint")));
void kx_cstart(void) __attribute__((noreturn));

void kx_cstart(void)
{
    unsigned reason = kx_bootblock_check(&__kx_bootblock);
    /* RV32: the cold segment the loader wrote into DRAM must be this image's: its header
     * (magic, length, build id) here; its every word before its first instruction runs
     * (kvm_call). RV64 has none (hal_cold_bad is 0). */
    if (!reason && hal_cold_bad(0))
        reason = KX_BOOT_BAD_COLD;
    if (reason) {
        /* Never run on garbage: say why on the console, then stop with a word that
         * names the rule broken. Not the fatal path: this is a host error, not ours. */
        kx_puts("kohaku-fw " BOARD_NAME ": boot refused, reason=0x");
        kx_put_hex_digits(reason);
        kx_puts("\n");
        /* reason is 1..10 (exitword.h): KX_EXIT_BOOT's mask would be an instruction for nothing. */
        kx_exit(KX_EXIT_BOOT_BASE | reason);
    }
    (void)main();
    /* main never returns (it serves until STOP and exits); returning is a firmware bug. */
    kx_assert_fail(KX_SITE_MAIN_RETURNED, __LINE__);
}
