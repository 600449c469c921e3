/* trap.c — RV64 fatal trap handler (docs/hardware.md §5: every trap is fatal). Called from
 * kx_trap_entry on the trap stack with mcause, mepc, mtval. */
#include "boot.h"
#include "hal/hal.h"

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval) __attribute__((noreturn));

/* The first trap's exit word; non-zero once a trap is being reported. */
static volatile uint64_t kx_trap_word;

void kx_trap(uint64_t cause, uint64_t epc, uint64_t tval)
{
    if (kx_trap_word) {
        /* A trap while reporting a trap (the console or the fatal hook faulted): the first
         * report is the root cause, so stop with its word, without printing again. mtvec is
         * cleared first so anything further halts the core by hardware semantics rather
         * than looping through here. */
        __asm__ volatile("csrw mtvec, zero");
        kx_exit(kx_trap_word);
    }
    /* Interrupt bit (63) folds to bit 31 of the exit word (exitword.h). */
    uint64_t code = (cause & 0x7FFFFFFFu) | ((cause >> 63) << 31);
    kx_trap_word = KX_EXIT_TRAP(code);
    kx_fatal(kx_trap_word, "trap", cause, epc, tval);
}
