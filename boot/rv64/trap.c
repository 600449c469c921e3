/* trap.c — RV64 fatal trap handler (BOARD.md §5: every trap is fatal). Called from
 * kx_trap_entry on the trap stack with mcause, mepc, mtval. */
#include "boot.h"
#include "hal/hal.h"

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval) __attribute__((noreturn));

static volatile unsigned kx_in_trap;

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval)
{
    if (kx_in_trap) {
        /* A trap while reporting a trap (the console or the hook faulted): clear mtvec so
         * anything further halts the core by hardware semantics, and try the exit word
         * once without printing. Never loop through the handler. */
        __asm__ volatile("csrw mtvec, zero");
        hal_exit(KX_EXIT_TRAP(cause));
    }
    kx_in_trap = 1;
    /* Interrupt bit (63) folds to bit 31 of the exit word (exitword.h). */
    uint64_t code = (cause & 0x7FFFFFFFu) | ((cause >> 63) << 31);
    kx_fatal(KX_EXIT_TRAP(code), "trap", cause, epc, tval);
}
