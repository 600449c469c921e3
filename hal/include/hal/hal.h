/* hal.h — the hardware abstraction the layers above use (firmware tree contract; docs/hardware.md §1,
 * §4, §5). The variant's accessors come from hal_variant.h, found by include path
 * (hal/rv32/ or hal/rv64/), so drivers never #ifdef on the variant. */
#ifndef KOHAKU_HAL_H
#define KOHAKU_HAL_H

#include <stdint.h>
#include "board.h"
#include "boot.h"
#include "console.h"    /* console output and kx_exit: boot/, the layer below (docs/design.md §3) */

/* Inline, per variant (hal_variant.h in hal/rv32/ or hal/rv64/):
 *   uint64_t hal_agent_rd(uint32_t off);              64-bit register at a §1 offset
 *   uint32_t hal_agent_rd32(uint32_t off);            bits [31:0], one load
 *   void     hal_agent_wr(uint32_t off, uint64_t v);  full 64-bit write
 *   void     hal_agent_wr32(uint32_t off, uint32_t v);one store of [31:0], clears [63:32]
 *   volatile void *hal_agent_ptr(uint32_t off);       raw pointer (STAGE, TX_FLIT)
 *   void     hal_fence(void);                         fence iorw,iorw
 *   uint32_t hal_cycles32(void);                      the cycle counter's low 32 bits, one
 *                                                     read: a wait's elapsed time as a 32-bit
 *                                                     difference (the mover's waits)
 *   HAL_COLD(f, args...), HAL_COLD0(f)                 a call of f, a function of a cold file
 *                                                     (docs/kvm.md "Cold entries"): through
 *                                                     the interpreter on RV32, plain on RV64
 *   void     hal_cold_verify(void);                   after a failure: the cold segment is
 *                                                     still the one linked (RV32; RV64 none)
 *   uint64_t hal_instret_boot(void);                  hal_instret for a boot's one read of
 *                                                     it (READY), before it could extend
 * RV32 only: hal_mvgo, hal_mvgo_status, hal_spad_word, hal_spad_word_index.
 * RV64 only: hal_mover_wr, hal_mover_ptr (the window's base, unchecked), hal_mvstat;
 *   uint32_t hal_agent_addr(uint32_t off);            a register's address, kept by a hot
 *   uint64_t hal_agent_rd_at(uint32_t addr);          loop and read in one load (dispatch's
 *                                                     NODE_STATUS polls) */
#include "hal_variant.h"

/* Free-running counters as 64 bits. RV32's LCTL CYCLE/INSTRET are 32-bit: the hal extends
 * them in software, which is exact as long as it is called at least once every 2^32 cycles
 * (4.3 s at 1 GHz). The dispatcher's waits call it; the mover's waits read hal_cycles32,
 * which does not count, so a span of more than 2^32 cycles spent in mover waits alone (a
 * replay of many moves near their timeout) reads 2^32 short on RV32. */
uint64_t hal_cycles(void);
uint64_t hal_instret(void);

/* Data cache maintenance around memory shared with the mover, units or host. Both block
 * until the cache is done (RV32: the LCTL stores block; RV64: bounded poll of DCACHE busy,
 * fatal KX_SITE_HAL_DCACHE on timeout). */
void hal_dcache_flush(void);
void hal_dcache_inval(void);

#endif
