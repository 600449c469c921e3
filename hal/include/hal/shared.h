/* shared.h — memory shared with the host (the command queue and command data): how this
 * variant reaches a unit-global address, and the cache maintenance around each shared access
 * (docs/hardware.md §4 cached DRAM window, §5 uncached alias and staging; docs/design.md §4). The variant
 * part is hal_shared.h in hal/rv32/ or hal/rv64/, found by include path.
 *
 *   HAL_UG_DRAM_END        first DRAM local offset this processor cannot reach
 *   HAL_UG_STAGING_BYTES   staging bytes it reaches (0: none)
 *   volatile void *hal_ug_ptr(uint64_t ug)
 *        the processor address of a unit-global address already checked to be reachable
 *        (DRAM, mesh 0, below HAL_UG_DRAM_END; or staging aperture 0 below
 *        HAL_UG_STAGING_BYTES). Never a firmware window: RV32 DRAM maps to 0x8000_0000 +
 *        offset, RV64 DRAM to its uncached alias (bit 38), RV64 staging to itself (bit 39).
 *   void hal_shared_acquire(void)
 *        before reading what the host may have written since the last call (RV32: drop every
 *        cached line; RV64: a fence — the alias is uncached). Flush first what you wrote:
 *        RV32's INVAL drops dirty lines too.
 *   void hal_shared_release(void)
 *        after writing what the host will read (RV32: write every dirty line back; RV64: a fence). */
#ifndef KOHAKU_HAL_SHARED_H
#define KOHAKU_HAL_SHARED_H

#include "hal/hal.h"
#include "hal_shared.h"

#endif
