/* hal.h (native stand-in) — the hal API of the firmware tree contract, implemented by
 * tests/host/dispatch/fakehal.c on top of the device model library (model/include/kmodel.h) as
 * an RV64 processor would see it (docs/hardware.md §5 agent window), so dispatch/ runs natively under
 * ASan/UBSan against the real model. Every access costs 1 ns of model time. */
#ifndef KOHAKU_HAL_H
#define KOHAKU_HAL_H

#include <stdint.h>
#include "boot.h"       /* as the real hal.h: the waypoint writers (fakehal.c holds the words) */

uint64_t hal_agent_rd(uint32_t off);
uint32_t hal_agent_rd32(uint32_t off);
/* RV64's kept register address: the processor's address of the register (the agent window's
 * base + off), read through the model like every other access. */
uint32_t hal_agent_addr(uint32_t off);
uint64_t hal_agent_rd_at(uint32_t addr);
void hal_agent_wr(uint32_t off, uint64_t v);
void hal_agent_wr32(uint32_t off, uint32_t v);
/* STAGE and TX_FLIT: a shadow of the window, pushed into the model by hal_fence(). */
volatile void *hal_agent_ptr(uint32_t off);
void hal_fence(void);
uint64_t hal_cycles(void);
uint32_t hal_cycles32(void);        /* hal_cycles' low half, one tick as well */
/* A cold entry (hal.h): nothing is cold here, a plain call as on RV64. */
#define HAL_COLD(f, ...) (f)(__VA_ARGS__)
#define HAL_COLD0(f) (f)()

#endif
