/* hal.h (native stand-in) — the slice of the hal API the RV32 mover port and mover/replay.c use
 * (firmware tree contract), implemented by tests/host/mover/fakehal.c over the model's mover
 * alone (model/mover.h) with a fake clock: every call is 1 ns. */
#ifndef KOHAKU_HAL_H
#define KOHAKU_HAL_H

#include <stdint.h>
#include "kohaku/cpu_map.h"
#include "boot.h"       /* as the real hal.h: the waypoint writers (fakehal.c holds the words) */

/* The RV32 board's (board/common/rv32.h): replay starts with the bounded idle wait, one body.
 * RV64's one-read start (kmv_port_idle) is tested on target (tests/target/mover). */
#define BOARD_MOVER_FAST 0

uint64_t hal_cycles(void);
uint32_t hal_cycles32(void);
void hal_fence(void);
void hal_dcache_flush(void);
void hal_dcache_inval(void);
/* RV32 descriptor form (docs/hardware.md §4). */
uint32_t hal_spad_word_index(const volatile void *p);
void hal_mvgo(uint32_t spad_word_index);
uint32_t hal_mvgo_status(void);
/* A cold entry (hal.h): nothing is cold here, a plain call as on RV64. */
#define HAL_COLD(f, ...) (f)(__VA_ARGS__)
#define HAL_COLD0(f) (f)()

#endif
