/* hal_shared.h — RV32 shared memory (hal/include/hal/shared.h): DRAM through the cached window
 * 0x8000_0000 + local offset (offsets below 0x7000_0000, docs/hardware.md §4), no staging, and
 * FLUSH/INVAL of the write-back L1 around every shared access. */
#ifndef KOHAKU_HAL_SHARED_RV_H
#define KOHAKU_HAL_SHARED_RV_H

#include <stdint.h>
#include "board.h"

#define HAL_UG_DRAM_END       ((uint64_t)(RV32_DRAM_LIMIT - RV32_DRAM_BASE))
#define HAL_UG_STAGING_BYTES  0u         /* the RV32 map has no staging window */

static inline volatile void *hal_ug_ptr(uint64_t ug)
{
    return (volatile void *)(uintptr_t)(RV32_DRAM_BASE + (uint32_t)ug);
}

static inline void hal_shared_acquire(void)
{
    hal_dcache_inval();
}

static inline void hal_shared_release(void)
{
    hal_dcache_flush();
}

#endif
