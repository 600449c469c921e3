/* hal.c — RV32 out-of-line hal: 64-bit counters over the 32-bit LCTL CYCLE/INSTRET, and
 * the cache operations (docs/hardware.md §4 local control). */
#include "hal/hal.h"

/* Extends a free-running 32-bit counter: a wrap since the last call adds 2^32. */
static uint64_t hal_extend(uint32_t now, uint32_t *last, uint32_t *high)
{
    /* high loaded once and stored only on a wrap (-4 RV32 bytes against reading it again after
     * the increment; a carry added instead cost every call two instructions: dispatch's polls) */
    uint32_t h = *high;
    if (now < *last)
        *high = ++h;
    *last = now;
    return ((uint64_t)h << 32) | now;
}

uint64_t hal_cycles(void)
{
    static uint32_t last, high;
    return hal_extend(HAL_LCTL(RV32_LCTL_CYCLE), &last, &high);
}

uint64_t hal_instret(void)
{
    static uint32_t last, high;
    return hal_extend(HAL_LCTL(RV32_LCTL_INSTRET), &last, &high);
}

/* FLUSH and INVAL stores block until the cache is done (docs/hardware.md §4), so no poll. One body
 * for both: each entry point is a register offset and a jump. */
static __attribute__((noinline)) void hal_dcache_op(uint32_t reg)
{
    hal_fence();
    HAL_LCTL(reg) = 1;
    hal_fence();
}

void hal_dcache_flush(void)
{
    hal_dcache_op(RV32_LCTL_FLUSH);
}

void hal_dcache_inval(void)
{
    hal_dcache_op(RV32_LCTL_INVAL);
}
