/* hal_variant.h — RV32 accessors: docs/hardware.md §4 (local control, MVGO, the agent window in 32-bit
 * halves). Register addresses from include/kohaku/cpu_map.h via the board header. */
#ifndef KOHAKU_HAL_VARIANT_H
#define KOHAKU_HAL_VARIANT_H

#include <stdint.h>
#include "board.h"

#define HAL_LCTL(reg)   (*(volatile uint32_t *)(uintptr_t)(RV32_LCTL_BASE + (reg)))

/* The agent window: each 64-bit register is two 32-bit halves, low at off, high at off + 4. */
static inline volatile uint32_t *hal_agent_word(uint32_t off)
{
    return (volatile uint32_t *)(uintptr_t)(BOARD_AGENT_BASE + off);
}

static inline volatile void *hal_agent_ptr(uint32_t off)
{
    return (volatile void *)(uintptr_t)(BOARD_AGENT_BASE + off);
}

static inline uint32_t hal_agent_rd32(uint32_t off)
{
    return hal_agent_word(off)[0];
}

/* Two loads, low then high: not atomic. Live counters (SIG_DONE, PROG_STAT, NODE_STATUS)
 * keep what the firmware compares in one half, or are read with hal_agent_rd32. */
static inline uint64_t hal_agent_rd(uint32_t off)
{
    uint32_t lo = hal_agent_word(off)[0];
    uint32_t hi = hal_agent_word(off)[1];
    return ((uint64_t)hi << 32) | lo;
}

/* docs/hardware.md §4: the low-half store writes [31:0], clears [63:32] and fires the register's side
 * effect (PROG_KICK, TX_KICK, RX_POP, SIG_DONE clear). */
static inline void hal_agent_wr32(uint32_t off, uint32_t v)
{
    hal_agent_word(off)[0] = v;
}

/* Low half first (clears the high half, fires side effects), then the high half only when
 * non-zero: the high-half store keeps [31:0], so the order gives the full 64-bit value. */
static inline void hal_agent_wr(uint32_t off, uint64_t v)
{
    hal_agent_word(off)[0] = (uint32_t)v;
    if (v >> 32)
        hal_agent_word(off)[1] = (uint32_t)(v >> 32);
}

/* LCTL CYCLE as it is, 32 bits, one load: for elapsed times of less than 2^32 cycles taken
 * as a 32-bit difference (hal.h). Does not extend hal_cycles' count. */
static inline uint32_t hal_cycles32(void)
{
    return HAL_LCTL(RV32_LCTL_CYCLE);
}

/* LCTL INSTRET as it is, for the one read of a boot (READY's instruction count, service/
 * queue.c): what hal_instret returns at its first call since crt0 cleared its state, which has
 * seen no wrap yet to extend. Without the extension's code: 36 bytes of the window. */
static inline uint64_t hal_instret_boot(void)
{
    return HAL_LCTL(RV32_LCTL_INSTRET);
}

static inline void hal_fence(void)
{
    __asm__ volatile("fence iorw, iorw" ::: "memory");
}

/* ---- The cold segment (docs/kvm.md "Guards"; hal/rv32/kvm.c) ---- */

/* hal_cold_bad(full) is declared in boot/boot.h (its one caller outside hal, boot/start.c):
 * nonzero when the cold segment in DRAM is not the one this image was linked with. `full` 0:
 * its header only (magic, length, build id: the boot's check); 1: also every word against
 * the checksum. Reads DRAM as it is now (flushes and drops the data cache first). */

/* After a failure: stops the core (kx_fatal, KX_SITE_KVM_COLD: 0xDEAD0007) when
 * hal_cold_bad(1). kvm_call makes that check before the first cold instruction of a boot
 * (kvm_cold_ok); this clears the flag and runs the header's last word, a `ret`
 * (linker/rv32.ld.S), so that kvm_call's check and its report serve here too. The call is
 * asm: only the entry (a6) is set, the `ret` reads no argument, and C would spend six
 * register loads on arguments (window bytes); kvm_call is an ordinary C function, so every
 * caller-saved register is clobbered. */
extern uint8_t kvm_cold_ok;
extern const uint32_t __kx_cold_ret[];
static inline void hal_cold_verify(void)
{
    register uint32_t entry __asm__("a6") = (uint32_t)(uintptr_t)__kx_cold_ret;
    kvm_cold_ok = 0;
    __asm__ volatile("call kvm_call"
                     : "+r"(entry)
                     :
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3",
                       "a4", "a5", "a7", "memory");
}

/* ---- Mover, descriptor form (docs/hardware.md §4) ---- */

/* Scratchpad word `idx` (the descriptor form addresses the scratchpad in 32-bit words). */
static inline volatile uint32_t *hal_spad_word(uint32_t idx)
{
    return (volatile uint32_t *)(uintptr_t)(BOARD_SPAD_BASE + (idx << 2));
}

/* The word index MVGO takes for a 4-byte aligned scratchpad address. */
static inline uint32_t hal_spad_word_index(const volatile void *p)
{
    return ((uint32_t)(uintptr_t)p - BOARD_SPAD_BASE) >> 2;
}

/* Starts the mover on the descriptor at scratchpad word `spad_word_index`. The descriptor
 * must be complete in the scratchpad first: the fence orders those stores before this one. */
static inline void hal_mvgo(uint32_t spad_word_index)
{
    hal_fence();
    *(volatile uint32_t *)(uintptr_t)RV32_MVGO = spad_word_index;
}

/* [0] busy (descriptor fetch plus move), [7:4] mover fault, [11:8] occupant fault. */
static inline uint32_t hal_mvgo_status(void)
{
    return *(volatile uint32_t *)(uintptr_t)RV32_MVGO;
}

#endif
