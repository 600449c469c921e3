/* exit.c — RV32 stop: the LCTL EXIT register (docs/hardware.md §4), in boot/ with the fatal path
 * that needs it (boot.h). */
#include "console.h"

void kx_exit(uintptr_t word)
{
    /* Console bytes and results leave before the stop (fence iorw, iorw). */
    __asm__ volatile("fence iorw, iorw" ::: "memory");
    *(volatile uint32_t *)(uintptr_t)BOARD_EXIT_ADDR = (uint32_t)word;
    /* The EXIT store halts the core. Should it not, ECALL halts it with the word in a0
     * (cause 1): a stop that is still visible, never a silent spin. */
    register uint32_t a0 __asm__("a0") = (uint32_t)word;
    for (;;)
        __asm__ volatile("ecall" : : "r"(a0));
}
