/* exit.c — RV64 stop: the control region's EXIT register (docs/hardware.md §5), in boot/ with
 * the fatal path that needs it (boot.h). */
#include "console.h"

void kx_exit(uintptr_t word)
{
    /* Console bytes and results leave before the stop (fence iorw, iorw). */
    __asm__ volatile("fence iorw, iorw" ::: "memory");
    *(volatile uint64_t *)(uintptr_t)BOARD_EXIT_ADDR = word;
    /* The EXIT store stops the core. Should it not, clear mtvec and EBREAK: a trap with
     * mtvec unset halts the core (docs/hardware.md §5) — visible, never a silent spin. */
    for (;;)
        __asm__ volatile("csrw mtvec, zero\n\tebreak");
}
