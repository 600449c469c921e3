/* hal.c — RV64 out-of-line hal: mcycle/minstret, DCACHE register (docs/hardware.md §5). */
#include "hal/hal.h"

/* RV64 has no cold code (docs/kvm.md): nothing to check. Out of line because boot/start.c
 * calls it through its own declaration (boot.h). */
uint32_t hal_cold_bad(unsigned full)
{
    (void)full;
    return 0;
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
