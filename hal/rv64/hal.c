/* hal.c — RV64 out-of-line hal: exit, mcycle/minstret, DCACHE register (docs/hardware.md §5). */
#include "hal/hal.h"

void kx_exit(uint64_t word)
{
    hal_fence();                         /* console bytes and results leave before the stop */
    HAL_CTL(RV64_CTL_EXIT) = word;
    /* The EXIT store stops the core. Should it not, clear mtvec and EBREAK: a trap with
     * mtvec unset halts the core (docs/hardware.md §5) — visible, never a silent spin. */
    for (;;)
        __asm__ volatile("csrw mtvec, zero\n\tebreak");
}

uint64_t hal_cycles(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

uint64_t hal_instret(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

/* Starts a cache operation and polls DCACHE busy, bounded: a cache that never finishes is
 * a hardware fault the firmware cannot work around, so it is fatal. */
static void hal_dcache_op(uint64_t op)
{
    hal_fence();
    HAL_CTL(RV64_CTL_DCACHE) = op;
    uint64_t start = hal_cycles();
    while (HAL_CTL(RV64_CTL_DCACHE) & RV64_DCACHE_BUSY) {
        KX_ASSERT(hal_cycles() - start < BOARD_DEFAULT_WAIT_CYCLES, KX_SITE_HAL_DCACHE);
    }
    hal_fence();
}

void hal_dcache_flush(void)
{
    hal_dcache_op(RV64_DCACHE_FLUSH);
}

void hal_dcache_inval(void)
{
    hal_dcache_op(RV64_DCACHE_INVAL);
}
