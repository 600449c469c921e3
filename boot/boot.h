/* boot.h — what boot/ gives the layers above (docs/design.md §2.1, §2.4): the checked boot block,
 * the fatal path and assertions (console output and the stop: console.h). boot/ is the bottom
 * layer: it includes only the board header and include/kohaku/ (docs/design.md §3). Pure of the
 * board itself, so host tests of the layers above can include it. */
#ifndef KOHAKU_BOOT_H
#define KOHAKU_BOOT_H

#include <stdint.h>
#include "kohaku/bootblock.h"
#include "kohaku/exitword.h"

/* The waypoint at scratchpad offset KX_WAYPOINT_OFFSET (kohaku/bootblock.h; placed first in
 * .rodata's output section by the linker scripts, which check the address). Written through
 * these two only. Each word has its own symbol (the linker scripts define kx_wait_* as the
 * struct's fields), so each write is one store: GCC does not fold a field's offset into a
 * symbol's low part, and on RV32 the linker then makes every one gp-relative (gp sits less
 * than 2 KB above them): 4 window bytes a word written, no address kept in a register. */
extern volatile struct kx_waypoint kx_waypoint;
extern volatile uint32_t kx_wait_what, kx_wait_since, kx_wait_mover_since;
static inline void kx_wait_mark(uint32_t what, uint32_t since)
{
    kx_wait_what = what;
    kx_wait_since = since;
}
static inline void kx_wait_mark_mover(uint32_t since)
{
    kx_wait_mover_since = since;
}

/* The one call boot makes into a layer above besides main(): at start, before READY, whether
 * the RV32 cold segment in DRAM is this image's (hal/rv32/kvm.c; RV64 has none: hal/rv64/hal.c
 * returns 0). `full` 0 checks its header only (magic, length, build id); 1 also sums every
 * word (kvm_call does that before the first cold instruction of a boot, docs/kvm.md "Guards").
 * Declared here, by the caller, so boot includes no hal header (the link, not the include
 * graph, joins them, as for main). */
uint32_t hal_cold_bad(unsigned full);

/* Validates a boot block as the host wrote it (pure logic: no hal, host-testable).
 * Returns 0 when it is good, else the enum kx_boot_reason of the first rule broken, in this
 * order: KX_BOOT_BAD_MAGIC, KX_BOOT_BAD_VERSION, KX_BOOT_BAD_SIZE (size is not header plus
 * unit_count entries), KX_BOOT_BAD_FLAGS (unknown bits), KX_BOOT_BAD_TIMEOUT (wait_cycles 0),
 * KX_BOOT_BAD_WAIT (wait_cycles above KX_BOOT_WAIT_MAX),
 * KX_BOOT_BAD_RECORDS (rec_handles above KQ_REC_MAX_HANDLES, rec_bytes above
 * KQ_REC_MAX_BYTES or not a multiple of 32), KX_BOOT_BAD_UNITS (table without the flag, more
 * than KX_BOOT_MAX_UNITS, an entry with inst_depth 0 or a coordinate listed twice). queue_addr
 * is left to the command queue. */
unsigned kx_bootblock_check(const struct kx_bootblock *bb);

/* The boot block in the scratchpad, valid once boot has accepted it (main runs only then).
 * Placed by the linker: the scratchpad's first KX_BOOT_RESERVED bytes (linker/rv*.ld.S).
 * Inline, so no native copy is kept for the RV32 cold code that asks for it (12 bytes of the
 * window): a cold caller builds the address itself. */
extern const struct kx_bootblock __kx_bootblock;
static inline const struct kx_bootblock *kx_bootblock(void)
{
    return &__kx_bootblock;
}

/* The fatal path, the one function every unrecoverable error goes through (RV64 traps,
 * assertions on both variants): prints "kohaku-fw: fatal <what> cause=.. pc=.. addr=..",
 * calls kx_fatal_hook(word), then stops the core with `word` through the exit register.
 * word is a native word: RV32's exit words are 32 bits (an assertion's 0xDEAD00ss, the exit
 * register one word), RV64's traps use all 64. */
void kx_fatal(uintptr_t word, const char *what, uint64_t cause, uint64_t pc, uint64_t addr)
    __attribute__((noreturn));

/* Weak hook called once on the fatal path just before the core stops, with kx_fatal's word;
 * the default does nothing. The command queue overrides it to mark itself fatal for the host.
 * It must not fault; a fault inside it on RV64 stops the core without a second report. */
void kx_fatal_hook(uintptr_t word);

/* What kx_fatal was called with, recorded before the hook runs, so a hook can report cause,
 * PC and address (the command queue's FATAL state line) without a wider signature. */
struct kx_fatal_record {
    uint64_t word, cause, pc, addr;
};
extern struct kx_fatal_record kx_fatal_last;

/* Assertion sites: one byte, carried in the exit word KX_EXIT_ASSERT_BASE | site. boot/ owns
 * 0x00-0x0F; other modules take a block of 16 and list it in docs/firmware.md. */
#define KX_SITE_MAIN_RETURNED  0x01u
#define KX_SITE_HAL_DCACHE     0x02u
#define KX_SITE_HAL_MOVER_OFF  0x03u
#define KX_SITE_KVM_INSN       0x04u   /* RV32 cold-code interpreter: encoding it lacks */
#define KX_SITE_KVM_FETCH      0x05u   /* RV32 cold-code interpreter: fetch outside its code */
#define KX_SITE_KVM_MEXT       0x06u   /* RV32 cold-code interpreter: an M encoding (RV32I core) */
#define KX_SITE_KVM_COLD       0x07u   /* RV32: the cold segment changed since boot (found after a
                                        * failure); cause = the exit word it replaced, or 0 */
#define KX_SITE_KVM_STACK      0x08u   /* RV32 cold-code interpreter: sp left its stack */
#define KX_SITE_SERVICE        0x10u   /* 0x10-0x1F: service/ (service/kq.h KQ_SITE_*) */
#define KX_SITE_TEST           0xF0u   /* 0xF0-0xFF: on-target test images */

void kx_assert_fail(unsigned site, unsigned line) __attribute__((noreturn));
#define KX_ASSERT(cond, site) \
    do { if (__builtin_expect(!(cond), 0)) kx_assert_fail((site), __LINE__); } while (0)

#endif
