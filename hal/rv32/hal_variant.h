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

/* s plus the words p .. end - 1 (end - p a nonzero multiple of 4), modulo 2^32, read as they
 * are in memory. One loop out of line (kvm.c) for the cold segment's check (hal_cold_bad) and
 * the record digest's (service/queue.c kq_rec_changed: the sum of service/kq.h kq_rec_digest,
 * whose order does not matter): two copies of it cost the window more than two calls. RV64's
 * is inline (hal/rv64/hal_variant.h: one caller). */
uintptr_t hal_sum4(uintptr_t s, const volatile uintptr_t *p, const volatile uintptr_t *end);

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

/* ---- Calling a cold entry (docs/kvm.md "Cold entries") ----
 * HAL_COLD(f, args...) calls function f of a cold file (mk/firmware.mk FW_COLD_rv32): f's own
 * prototype checks the arguments and gives the result's type (typeof: f itself is never
 * referenced), and the call is kvm_call with a0.. = the arguments and a6 = f's entry word,
 * kvm_entry_f (hal/rv32/kvm_stub.c: a word of .sdata that gp reaches, so `lw a6, off(gp)`).
 * Per call site that is the entry load and `call kvm_call` (8 bytes), what a call of a native
 * stub costs (4) plus the stub itself (8) for one call site, and no stub: the stub's object
 * is linked for its entry word and --gc-sections drops its code. asm, not a C call of
 * kvm_call, so that the argument registers f does not take are left as they are (C would
 * load six, then the entry). At most six argument words of 32 bits (pointers, integers) and a
 * result of at most 64 bits, the entry rules of docs/kvm.md. An f in no cold file fails the
 * link (no kvm_entry_f). RV64 (hal/rv64/hal_variant.h): a plain call of f. */
#define HAL_COLD(f, ...)                                                                       \
    HAL_COLD_RESULT((f)(__VA_ARGS__), HAL_COLD_N(__VA_ARGS__, 6, 5, 4, 3, 2, 1)(f, __VA_ARGS__))
#define HAL_COLD_N(a, b, c, d, e, g, n, ...) HAL_COLD_##n
/* a0:a1 as the type of call `c` (unevaluated): a 64-bit result whole, any other a0 alone (a
 * bool or a byte is returned extended in a0; a1 is whatever the cold code left there). */
#define HAL_COLD_RESULT(c, r)                                                                  \
    ((__typeof__(c))_Generic((c), uint64_t: (r), int64_t: (r), default: (uint32_t)(r)))
#define HAL_COLD_1(f, x0) HAL_COLD_CALL(f, x0, 0, 0, 0, 0, 0, 1)
#define HAL_COLD_2(f, x0, x1) HAL_COLD_CALL(f, x0, x1, 0, 0, 0, 0, 2)
#define HAL_COLD_3(f, x0, x1, x2) HAL_COLD_CALL(f, x0, x1, x2, 0, 0, 0, 3)
#define HAL_COLD_4(f, x0, x1, x2, x3) HAL_COLD_CALL(f, x0, x1, x2, x3, 0, 0, 4)
#define HAL_COLD_5(f, x0, x1, x2, x3, x4) HAL_COLD_CALL(f, x0, x1, x2, x3, x4, 0, 5)
#define HAL_COLD_6(f, x0, x1, x2, x3, x4, x5) HAL_COLD_CALL(f, x0, x1, x2, x3, x4, x5, 6)
/* An entry with no argument: HAL_COLD0(f). */
#define HAL_COLD0(f) HAL_COLD_RESULT((f)(), HAL_COLD_CALL(f, 0, 0, 0, 0, 0, 0, 0))
/* Argument k (of n): the value as a 32-bit word, or, past n, the register as it is (an
 * empty asm "sets" it: no instruction). */
#define HAL_COLD_ARG(k, n, v)                                                                  \
    register uint32_t hal_a##k __asm__("a" #k);                                                \
    if ((k) < (n)) {                                                                           \
        _Static_assert(sizeof(v) <= 4, "a cold entry's argument is one 32-bit word");         \
        hal_a##k = (uint32_t)(uintptr_t)(v);                                                   \
    } else {                                                                                   \
        __asm__ volatile("" : "=r"(hal_a##k));                                                        \
    }
#define HAL_COLD_CALL(f, x0, x1, x2, x3, x4, x5, n)                                            \
    ({                                                                                         \
        extern volatile uint32_t kvm_entry_##f;                                                \
        HAL_COLD_ARG(0, n, x0) HAL_COLD_ARG(1, n, x1) HAL_COLD_ARG(2, n, x2)                   \
        HAL_COLD_ARG(3, n, x3) HAL_COLD_ARG(4, n, x4) HAL_COLD_ARG(5, n, x5)                   \
        register uint32_t hal_a6 __asm__("a6") = kvm_entry_##f;                                \
        __asm__ volatile("call kvm_call"                                                       \
                         : "+r"(hal_a0), "+r"(hal_a1), "+r"(hal_a2), "+r"(hal_a3),             \
                           "+r"(hal_a4), "+r"(hal_a5), "+r"(hal_a6)                            \
                         :                                                                     \
                         : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a7", "memory");   \
        (uint64_t)hal_a1 << 32 | hal_a0;                                                       \
    })

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
