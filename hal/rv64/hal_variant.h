/* hal_variant.h — RV64 accessors: docs/hardware.md §5 (control region, the agent window in 64-bit
 * registers, the mover window 0x00-0x38). Addresses from include/kohaku/cpu_map.h. */
#ifndef KOHAKU_HAL_VARIANT_H
#define KOHAKU_HAL_VARIANT_H

#include <stdint.h>
#include "kohaku/sum4.h"
#include "board.h"
#include "boot.h"
#include "kohaku/mover_regs.h"

#define HAL_CTL(reg)    (*(volatile uint64_t *)(uintptr_t)(BOARD_CTL_BASE + (reg)))

static inline volatile void *hal_agent_ptr(uint32_t off)
{
    return (volatile void *)(uintptr_t)(BOARD_AGENT_BASE + off);
}

static inline uint64_t hal_agent_rd(uint32_t off)
{
    return *(volatile uint64_t *)(uintptr_t)(BOARD_AGENT_BASE + off);
}

/* A register's address in the 32 bits that hold it (the window is below 4 GB), for a loop that
 * reads one register many times: hal_agent_addr(off) once, then hal_agent_rd_at(addr) is one
 * load where hal_agent_rd(off) makes and zero-extends the address at every read (dispatch's
 * NODE_STATUS polls: 5 instructions a poll). */
_Static_assert((uint64_t)BOARD_AGENT_BASE + 0x10000u <= 0x100000000ull, "agent window below 4 GB");
static inline uint32_t hal_agent_addr(uint32_t off)
{
    return (uint32_t)(BOARD_AGENT_BASE + off);
}

static inline uint64_t hal_agent_rd_at(uint32_t addr)
{
    return *(volatile uint64_t *)(uintptr_t)addr;
}

/* One 64-bit load, truncated: the window decodes 64-bit registers. */
static inline uint32_t hal_agent_rd32(uint32_t off)
{
    return (uint32_t)hal_agent_rd(off);
}

static inline void hal_agent_wr(uint32_t off, uint64_t v)
{
    *(volatile uint64_t *)(uintptr_t)(BOARD_AGENT_BASE + off) = v;
}

/* One store with [63:32] = 0: the same register outcome as RV32's low-half store. */
static inline void hal_agent_wr32(uint32_t off, uint32_t v)
{
    hal_agent_wr(off, v);
}

/* mcycle's low 32 bits: for elapsed times taken as a 32-bit difference (hal.h). */
static inline uint32_t hal_cycles32(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return (uint32_t)v;
}

/* The instruction count for the one read of a boot (READY's, service/queue.c): minstret is
 * 64 bits as it reads (hal.c hal_instret). */
uint64_t hal_instret(void);
static inline uint64_t hal_instret_boot(void)
{
    return hal_instret();
}

/* The record digest's loop (service/queue.c kq_rec_changed): include/kohaku/sum4.h's, inline
 * (RV64 has one caller; RV32's is out of line, shared with its cold-segment check). */
static inline uintptr_t hal_sum4(uintptr_t s, const volatile uintptr_t *p, const volatile uintptr_t *end)
{
    return kx_sum4(s, p, end);
}

static inline void hal_fence(void)
{
    __asm__ volatile("fence iorw, iorw" ::: "memory");
}

/* ---- Mover window (docs/hardware.md §5: control 0x80 + k, k = 0x00..0x38) ---- */

/* Writes mover register `off`. Offsets outside the window (IMM 0x40, GATHER 0x50) are not
 * reachable on this variant; the mover layer refuses them with NO_REACH before calling, so
 * reaching here with one is a firmware bug. */
static inline void hal_mover_wr(unsigned off, uint64_t v)
{
    KX_ASSERT(off < KMV_RV64_REACH_END && (off & 7u) == 0, KX_SITE_HAL_MOVER_OFF);
    HAL_CTL(RV64_CTL_MOVER + off) = v;
}

/* The window's base, raw, for hot loops (mover/rv64/port.c): register `off` is the 64-bit
 * word at byte `off` from it. No assertion: the caller keeps its offsets inside 0x00-0x38
 * (the mover port masks each with 0x38, one instruction, where hal_mover_wr's check is a
 * compare and a call a write). */
static inline volatile uint64_t *hal_mover_ptr(void)
{
    return &HAL_CTL(RV64_CTL_MOVER);
}

/* [32] busy, [31:28] fault, [27:0] moves completed. */
static inline uint64_t hal_mvstat(void)
{
    return HAL_CTL(RV64_CTL_MVSTAT);
}

static inline void hal_cold_verify(void)
{
}

/* A cold entry (docs/kvm.md "Cold entries"): nothing is cold on RV64, a plain call. */
#define HAL_COLD(f, ...) (f)(__VA_ARGS__)
#define HAL_COLD0(f) (f)()

#endif
