/* hal_shared.h — RV64 shared memory (hal/include/hal/shared.h): DRAM through its uncached alias
 * (unit-global | bit 38), staging as it is (bit 39, always uncached) — docs/hardware.md §5. Nothing is
 * cached on these paths, so only ordering is needed around a shared access. */
#ifndef KOHAKU_HAL_SHARED_RV_H
#define KOHAKU_HAL_SHARED_RV_H

#include <stdint.h>
#include "board.h"

#define HAL_UG_DRAM_END       ((uint64_t)BOARD_DRAM_BYTES)
#define HAL_UG_STAGING_BYTES  ((uint64_t)BOARD_STAGING_BYTES)

static inline volatile void *hal_ug_ptr(uint64_t ug)
{
    /* Staging (bit 39) is uncached as it is; DRAM goes through the alias. Either way the
     * address is >= 2^38, far above the local windows below 0x1000_0000. */
    return (volatile void *)(uintptr_t)((ug & KBF_BIT(39)) ? ug : (ug | RV64_UNCACHED));
}

static inline void hal_shared_acquire(void)
{
    hal_fence();
}

static inline void hal_shared_release(void)
{
    hal_fence();
}

#endif
