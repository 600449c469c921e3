/* hal.h — the hardware abstraction the layers above use (firmware tree contract; docs/hardware.md §1,
 * §4, §5). The variant's accessors come from hal_variant.h, found by include path
 * (hal/rv32/ or hal/rv64/), so drivers never #ifdef on the variant. */
#ifndef KOHAKU_HAL_H
#define KOHAKU_HAL_H

#include <stdint.h>
#include "board.h"

/* Inline, per variant (hal_variant.h in hal/rv32/ or hal/rv64/):
 *   uint64_t hal_agent_rd(uint32_t off);              64-bit register at a §1 offset
 *   uint32_t hal_agent_rd32(uint32_t off);            bits [31:0], one load
 *   void     hal_agent_wr(uint32_t off, uint64_t v);  full 64-bit write
 *   void     hal_agent_wr32(uint32_t off, uint32_t v);one store of [31:0], clears [63:32]
 *   volatile void *hal_agent_ptr(uint32_t off);       raw pointer (STAGE, TX_FLIT)
 *   void     kx_console_putc(char c);
 *   void     hal_fence(void);                         fence iorw,iorw
 *   uint32_t hal_cycles32(void);                      the cycle counter's low 32 bits, one
 *                                                     read: a wait's elapsed time as a 32-bit
 *                                                     difference (the mover's waits)
 * RV32 only: hal_mvgo, hal_mvgo_status, hal_spad_word, hal_spad_word_index.
 * RV64 only: hal_mover_wr, hal_mover_ptr (the window's base, unchecked), hal_mvstat. */
#include "hal_variant.h"

/* Prints s; returns the byte after its NUL. */
const char *kx_puts(const char *s);
/* "0x" and the value in lower-case hex without leading zeros ("0x0" for zero). */
void kx_put_hex(uint64_t v);
/* The same without the "0x": for the firmware's own lines, whose label strings end in "0x"
 * (data, not code: two console stores fewer in the RV32 window, 20 bytes). */
void kx_put_hex_digits(uint64_t v);
/* Stops the core with `word` through the exit register (RV32: its low 32 bits). */
void kx_exit(uint64_t word) __attribute__((noreturn));

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
