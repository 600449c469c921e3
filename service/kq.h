/* kq.h — the command-queue service (docs/design.md §4, include/kohaku/queue.h): the pure checks
 * (queue setup, ring arithmetic, address ranges, submissions and RUN step lists — kq_check.c,
 * no hal, so they build natively for tests/host/service and fuzzers) and the firmware loop
 * (queue.c). docs/host-interface.md is the long form. */
#ifndef KOHAKU_KQ_H
#define KOHAKU_KQ_H

#include <stdint.h>
#include "boot.h"
#include "kohaku/bootblock.h"
#include "kohaku/cpu_map.h"
#include "kohaku/queue.h"
#include "kohaku/status.h"
#include "kohaku/sum4.h"
#include "kmv.h"

/* Assertion sites of the service (boot/boot.h: a block of 16). */
#define KQ_SITE_QUEUE_BROKEN   (KX_SITE_SERVICE + 0u)   /* the host broke the index rules (KQ_FATAL_QUEUE) */

/* What the processor reaches of its mesh's memory (hal/include/hal/shared.h). */
struct kq_reach {
    /* [0] DRAM: first local offset not reachable (at most 2^32); [1] staging: bytes reachable
     * from offset 0 (0: none; at most 2^32). Indexed by the address's region (kq_range). */
    uint64_t end[2];
    /* DRAM local offsets [rsv[0], rsv[1]) the firmware owns (KQ_FW_OWN_*: RV32 cold code, the
     * copy buffer on both variants): reachable, but a range overlapping it is refused.
     * {0, 0} (left out): nothing reserved. */
    uint32_t rsv[2];
};

/* The outcome of a check or a command: laid out as the completion it becomes (struct kq_cpl),
 * so posting it is a plain copy of eight words. The checks fill status, detail and value. */
struct kq_err {
    uint32_t tag;
    uint16_t status;
    uint16_t rsvd0;
    uint32_t detail;
    uint32_t mover_cycles;
    uint64_t value;
    uint64_t cycles;
};
_Static_assert(sizeof(struct kq_err) == sizeof(struct kq_cpl) &&
               offsetof(struct kq_err, status) == offsetof(struct kq_cpl, status) &&
               offsetof(struct kq_err, detail) == offsetof(struct kq_cpl, detail) &&
               offsetof(struct kq_err, value) == offsetof(struct kq_cpl, value) &&
               offsetof(struct kq_err, mover_cycles) == offsetof(struct kq_cpl, mover_cycles) &&
               offsetof(struct kq_err, cycles) == offsetof(struct kq_cpl, cycles),
               "a check's outcome is its completion");

/* The ranges the firmware owns or is using, which no mover walk may reach (KS_MV_OWNED's
 * detail [15:8] names the slot; docs/host-interface.md §5): its own DRAM range (RV32 cold code
 * and, on both variants, the copy buffer), the queue header, the two rings, the running
 * command's data (a REPLAY's list, a RUN's step list) and the REPLAY step's list being checked
 * or run. {0, 0}: unused. */
enum kq_own {
    KQ_OWN_FW = 0, KQ_OWN_HEADER, KQ_OWN_SQ, KQ_OWN_CQ, KQ_OWN_CMD, KQ_OWN_LIST, KQ_OWN_N
};

/* The records the firmware holds (service/record.c; docs/host-interface.md "Records"): one
 * slot per handle the boot block allows. A slot holds a record exactly when its n is not 0 (a
 * record has at least one step or move): every boot sets every n to 0 and no other word
 * (.noinit, queue.c kq_boot: a restart forgets every record), so a free slot's key, ug and
 * bytes may be anything and every reader (the by-handle lookup in queue.c, kq_rec_check,
 * record.c) tests n first.
 * Generations (handle [31:8]) issued this run lie in [gen_lo, gen_hi) modulo 2^24. */
#define KQ_REC_SLOTS  8u
/* A record's digest (docs/service.md "Records"): the sum, modulo 2^bits, of its bytes read as
 * native words (32 bits on RV32, 64 on RV64 and host builds), plus seed. RECORD keeps minus
 * the sum (seed 0); every use by handle adds the words to that over the record's span before
 * anything runs (queue.c, kq_check_cold.c) and wants 0, so a host write or a unit program that
 * changed any one word is seen (the word's difference is not 0 modulo 2^bits) and nothing
 * runs. A sum does not see words swapped or changes that cancel: it finds accidents and stray
 * writes, not a forgery (docs/reliability.md). One load and one add a word, four words a turn:
 * include/kohaku/sum4.h's loop, the one hal_sum4 runs at every use by handle (queue.c), so the
 * host test of this function tests that loop. A Fletcher-style pair (a += w; b += a; a + 2b), which sees
 * swaps, measured 28.13 / 21.44 cycles a write by handle against 23.60 / 19.17 and 12 RV32
 * bytes more (docs/service.md "Records"). bytes: a multiple of 32, not 0. */
typedef uintptr_t kq_sum;
_Static_assert(32u % (4u * sizeof(kq_sum)) == 0, "a record's 32-byte multiple is whole turns");
static inline kq_sum kq_rec_digest(const volatile void *at, uint32_t bytes, kq_sum seed)
{
    const volatile kq_sum *p = (const volatile kq_sum *)at;
    return kx_sum4(seed, p, (const volatile kq_sum *)(const volatile void *)((uintptr_t)at + bytes));
}
struct kq_rec {
    /* the handle ^ (the op that runs it << 3): REPLAY (1) for a descriptor list, RUN (3) for a
     * step list, so one compare checks handle and kind (queue.c); a free slot: KQ_REC_FREE */
    uint32_t key;
    uint32_t n;             /* steps: a descriptor list's record is one REPLAY step, its list after */
    uint32_t ug;            /* unit-global address of its bytes (its steps) in the record area */
    uint32_t bytes;         /* record-area bytes held (multiple of 32) */
    kq_sum sum;             /* minus kq_rec_digest of its first `span` bytes when RECORD kept them */
    /* the handle itself, for RECORDS (cold): key cannot give it back, a list's and a step
     * list's key being alike (REPLAY 1 << 3 and RUN 3 << 3 both leave bit 4 0) */
    uint32_t handle;
    /* the bytes the digest covers, from ug: all of them, or (BOARD_REC_SEALED) its steps
     * only, the sealed moves after them checking themselves as they run (mover/rv64/sealed.c) */
    uint32_t span;
#if UINTPTR_MAX == 0xFFFFFFFFu
    /* to 32 bytes: a slot's address is the handle's slot << 5, one shift as at 16 (at 20 the
     * RV32 lookup took two instructions more; 96 scratchpad bytes bought 8 window bytes) */
    uint8_t rsvd[32u - 6u * sizeof(uint32_t) - sizeof(kq_sum)];
#endif
};
_Static_assert(sizeof(struct kq_rec) == 32, "a slot is a shift of the handle's slot bits");
#define KQ_REC_KEY(h)   ((h) ^ (((h) & KQ_H_STEPS ? KQ_OP_RUN : KQ_OP_REPLAY) << 3))
/* A free slot's key: slot bits of another slot, so no lookup of this slot matches it (a
 * lookup's h ^ op << 3 has the slot's own bits [2:0]). */
#define KQ_REC_FREE(slot)  ((uint32_t)(slot) ^ 1u)
struct kq_recs {
    struct kq_rec r[KQ_REC_SLOTS];
    /* [23:0] gen_lo, [26:24] the slots in use - 1: the boot block's rec_handles - 1 (0, the
     * default, reads as every slot; [31:27] then 1s, read by nothing); set at boot (queue.c
     * kq_boot). One word, so the
     * table leaves the RV32 service state within gp's reach. */
    uint32_t lo_slots;
    uint32_t gen_hi;
};
#define KQ_RECS_SLOTS(t)  ((((t)->lo_slots >> 24) & (KQ_REC_SLOTS - 1u)) + 1u)
_Static_assert(KQ_REC_SLOTS - 1u <= KQ_H_SLOT && KQ_REC_SLOTS <= KQ_REC_MAX_HANDLES, "slot bits");

/* What a submission check needs: the reach, the unit table, the mover caps, and how to read
 * a descriptor list of a RUN REPLAY step (unit-global address -> readable pointer, only
 * called on ranges already checked). */
struct kq_env {
    struct kq_reach reach;
    const struct kx_unit_entry *units;
    unsigned n_units;
    const struct kmv_caps *caps;
    const void *(*map)(uint64_t ug);
    /* The validator a REPLAY step's list goes through (NULL: kmv_validate). The firmware
     * passes kmv_validate's native entry, so on RV32 the cold validator gets an interpreted
     * stack of its own (docs/kvm.md "Stack"). */
    unsigned (*validate)(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                         struct kmv_result *res);
    /* caps->owned as a table the checks fill (NULL: no owned ranges kept): slots
     * KQ_OWN_CMD and KQ_OWN_LIST are set before a list is validated. */
    struct kmv_span *owned;
    const struct kq_sub *sub;       /* the command being checked or run (its data is in use) */
    /* Called before a list is validated (NULL: nothing to do): the firmware fills `owned` and
     * caps there (kq_cold_owned's native entry), on the cold path (no boot cost). */
    void (*prepare)(void);
    uint32_t at_use;                /* 1 while a step is re-checked on its copy at use
                                     * (kq_step_check: a REPLAY_H step's copy becomes its
                                     * list's REPLAY), 2 while RECORD checks a step list
                                     * (lists: validated on their copies) */
    const struct kq_recs *recs;     /* the records a REPLAY_H step may name (NULL: none) */
    /* Records keep lists as sealed moves (BOARD_REC_SEALED): kmv_sealed_check, which a
     * REPLAY_H step's record passes before anything runs; NULL: lists are kept as they are. */
    uint32_t (*sealed_check)(const volatile uint64_t *img, uint32_t moves, uint32_t bytes,
                             uint32_t *writes);
};

/* ---- Ring arithmetic (indices count "ever" and never wrap in practice: 2^64) ---- */

/* n is a ring size the queue accepts: a power of two, 1..KQ_MAX_ENTRIES. */
static inline int kq_ring_size_ok(uint32_t n)
{
    return n != 0 && n <= KQ_MAX_ENTRIES && (n & (n - 1u)) == 0;
}

/* Entries between a consumer index and a producer index, or -1 when the producer is behind
 * the consumer or more than `entries` ahead (the writer broke the ring rules). Modulo 2^64,
 * so it stays right across the (theoretical) wrap of the counters. */
static inline int64_t kq_ring_used(uint64_t prod, uint64_t cons, uint32_t entries)
{
    uint64_t d = prod - cons;
    return d > entries ? -1 : (int64_t)d;
}

/* The slot of an index in a ring of `entries` (a power of two). */
static inline uint32_t kq_slot(uint64_t index, uint32_t entries)
{
    return (uint32_t)index & (entries - 1u);
}

/* ---- Address ranges ---- */

/* The DRAM range the firmware owns on both variants (cpu_map.h KX_FW_DRAM_*: RV32 cold code
 * and the copy buffer KX_FW_COPY_*), refused as command data (kq_reach.rsv) and as a mover
 * walk (KQ_OWN_FW). */
#define KQ_FW_OWN_LO  KX_FW_DRAM_OFFSET
/* ... and the record area at its largest (KQ_REC_MAX_BYTES after it, whatever the boot
 * block's rec_bytes): no queue or command data can ever lie where a record may go. */
#define KQ_FW_OWN_HI  (KX_FW_REC_OFFSET + KQ_REC_MAX_BYTES)

/* Checks [ug, ug + bytes) for the processor: aligned to `align` (a power of two, at most 32),
 * bits [63:40], 38 and the mesh field [37:36] zero, DRAM below r->end[0] or staging (bit 39,
 * aperture [35:32] 0) below r->end[1], not wrapping. bytes >= 1 (every caller's bytes
 * are bounded by its record maxima: at most 2 MB).
 * Returns KS_OK, KS_BAD_ALIGN or KS_BAD_ADDR; fills e (detail/value per status.h). */
unsigned kq_range(const struct kq_reach *r, uint64_t ug, uint32_t bytes, uint32_t align,
                  struct kq_err *e);

/* Validates the queue as the host set it up: `qaddr` (the boot block's queue_addr) reachable
 * for the 512-byte header and 32-byte aligned; the setup line (magic, version, flags 0, rsvd0
 * 0, ring sizes kq_ring_size_ok, ring addresses 32-byte aligned and reachable, no overlap of
 * header and rings); the firmware's own lines consistent (cq_tail <= sq_head <= cq_tail + 1)
 * and the host's indices within their rules. Returns 0 or the KQ_SETUP_* rule broken first. */
enum kq_setup_rule {
    KQ_SETUP_ADDR = 1,       /* queue_addr misaligned or not reachable */
    KQ_SETUP_MAGIC,
    KQ_SETUP_VERSION,
    KQ_SETUP_FLAGS,          /* flags or rsvd0 not 0 */
    KQ_SETUP_SQ_ENTRIES,
    KQ_SETUP_CQ_ENTRIES,
    KQ_SETUP_SQ_ADDR,        /* misaligned, unreachable */
    KQ_SETUP_CQ_ADDR,
    KQ_SETUP_OVERLAP,        /* header, submission ring and completion ring overlap */
    KQ_SETUP_INDICES,        /* the index lines break the ring rules (a corrupt header) */
};
unsigned kq_setup_check(const struct kq_reach *r, uint64_t qaddr, const struct kq_header *h);

/* ---- Submissions ---- */

/* Checks every field of a submission before anything runs (docs/host-interface.md
 * "Commands"): op, flags, rsvd, count, the data range, targets. RUN step lists are not read
 * here (kq_steps_check). Returns e->status: KS_OK, KS_BAD_OP, KS_BAD_FLAGS, KS_BAD_RSVD,
 * KS_BAD_LEN, KS_BAD_ALIGN, KS_BAD_ADDR, KS_BAD_NTARGETS, KS_BAD_TARGET, KS_DUP_TARGET. */
unsigned kq_sub_check(const struct kq_sub *s, const struct kq_env *env, struct kq_err *e);

/* The common submissions' check in straight code: 1 (accepted, e as kq_sub_check leaves it:
 * KS_OK, detail 0, value 0) only for what kq_sub_check accepts; 0 for everything else, which
 * kq_sub_check then checks (e may hold anything until it has). NOP, UNITS, STOP, REPLAY and
 * RUN by handle, DISPATCH to one target. */
int kq_sub_fast(const struct kq_sub *s, const struct kq_env *env, struct kq_err *e);

/* Checks a RUN step list of n >= 1 steps (n and its range already checked) before any step runs:
 * each op known (KS_BAD_STEP), rsvd fields 0, n in range, data ranges, targets known, each
 * REPLAY step's whole descriptor list (kmv_validate: its statuses), each WAIT satisfiable by
 * the DISPATCH steps before it (KS_UNSATISFIABLE). value[63:48] = the failing step. */
unsigned kq_steps_check(const struct kq_step *st, uint32_t n, const struct kq_env *env,
                        struct kq_err *e);

/* One RUN step, as kq_steps_check checks each (the step's own rows, a WAIT against `tally`,
 * the programs each unit-table entry got from the steps before it; tally NULL: WAITs are not
 * counted; env->at_use 1: a REPLAY step's list is not read, it is checked where it runs, on
 * its own copy). KS_OK or the step's refusal in e. */
unsigned kq_step_check(const struct kq_step *st, const struct kq_env *env, uint32_t *tally,
                       struct kq_err *e);

/* Checked once, used once: RUN runs each step from a copy in firmware memory
 * and checks again, on that copy, every field its execution reads — the op, a DISPATCH's or
 * WAIT's target (the unit-table index RUN shifts by), a DISPATCH's count and data range (a
 * REPLAY step's count, range and list are checked on their own copy, a REPLAY_H step's handle
 * looked up there too, service/kq_cold.c) — so a step list the host rewrites mid-command never
 * runs unchecked. Returns the target's
 * unit-table index (DISPATCH, WAIT), 0 (other steps) or -1 (the step fails: KS_CHANGED). A
 * WAIT's count and the reserved fields are not read at use: a WAIT is met by construction
 * (every program before it has completed when it runs). */
int kq_step_use(const struct kq_step *st, const struct kq_env *env);

/* value of a RUN failure: the step in [63:48], the inner value in [47:0]. */
static inline uint64_t kq_step_value(uint32_t step, uint64_t inner)
{
    return ((uint64_t)step << 48) | (inner & 0xFFFFFFFFFFFFull);
}

/* The two rows no measured path runs (kq_check_cold.c: cold code on RV32), for kq_check.c's
 * rule interpreter. KQ_CHECK_TARGETS: a DISPATCH command's n targets (u8 {y,x}) at f, each in
 * the unit table (else KS_BAD_TARGET), none twice (KS_DUP_TARGET), the first broken one in
 * e->detail, value 0. KQ_CHECK_LIST: a RUN REPLAY step's descriptor list of n writes, its
 * address (u64, range-checked) at f, through kmv_validate: its status, detail, value = the
 * write index. KS_OK leaves e as it is. */
#define KQ_CHECK_TARGETS  0u
#define KQ_CHECK_LIST     1u
#define KQ_CHECK_HANDLE   2u    /* a REPLAY_H step's handle (u32 at f) names a descriptor list
                                 * the firmware holds (kq_rec_check) */
#define KQ_CHECK_SETUP    3u    /* the overlap and index rules of the queue header at f, its
                                 * address in e->value (kq_setup_check's last two rules; n, env
                                 * unused): 0, KQ_SETUP_OVERLAP or KQ_SETUP_INDICES */
unsigned kq_check_cold(unsigned what, const uint8_t *f, uint32_t n, const struct kq_env *env,
                       struct kq_err *e);

/* Does handle h name a record of kind `steps` (KQ_H_STEPS or 0) in env->recs? KS_OK with the
 * record in *rec, or KS_REC_UNKNOWN / KS_REC_STALE / KS_REC_KIND in e (detail = the handle,
 * STALE's value 1 forgotten or reused, 2 lost at a restart). Inline: only cold code (RV32)
 * and host builds call it, from two files, and a cold file calls no other file's function.
 */
/* Handles (queue.h: [2:0] slot, [3] 0, [4] kind, [7:5] 0, [31:8] generation). A handle issued this
 * run has its generation in [gen_lo, gen_hi) (modulo 2^24): it is live when its slot still
 * holds it, else forgotten or its slot reused. One from before this run (a generation below
 * gen_lo, less than 2^23 back, not 0) was lost at a restart; anything else was never issued. */
static inline unsigned kq_rec_check(const struct kq_env *env, uint32_t h, uint32_t steps, struct kq_err *e,
                      const struct kq_rec **rec)
{
    const struct kq_recs *t = env->recs;
    uint32_t slot = h & KQ_H_SLOT, g = h >> KQ_H_GEN_SHIFT;
    uint32_t st = KS_REC_UNKNOWN, v = 0;
    *rec = 0;
    if (t && slot < KQ_RECS_SLOTS(t) && !(h & KQ_H_RSVD)) {
        /* modulo 2^24: lo_slots's top byte drops out */
        uint32_t since = (g - t->lo_slots) & 0xFFFFFFu, issued = (t->gen_hi - t->lo_slots) & 0xFFFFFFu;
        if (since < issued) {
            st = KS_REC_STALE, v = 1;
            if (t->r[slot].key == KQ_REC_KEY(h) && t->r[slot].n) {
                st = (h & KQ_H_STEPS) == steps ? KS_OK : KS_REC_KIND, v = 0;
                *rec = &t->r[slot];
            }
        } else if (g && ((t->lo_slots - g) & 0xFFFFFFu) - 1u < 0x800000u) {
            st = KS_REC_STALE, v = 2;
        }
    }
    if (st != KS_OK) {
        e->status = (uint16_t)st;
        e->detail = h;
        e->value = v;
    }
    return st;
}

/* Index in the unit table of yx, or -1. Inline: kq_check.c (a RUN step's target, natively)
 * and kq_check_cold.c (a DISPATCH command's targets, cold on RV32) both look units up, and
 * neither file calls the other back for it. */
static inline int kq_unit_index(const struct kq_env *env, uint8_t yx)
{
    /* downwards, the table and its count in registers: the last match is the only one (the
     * unit table holds distinct coordinates) */
    const struct kx_unit_entry *u = env->units;
    int i = (int)env->n_units;
    while (--i >= 0 && u[i].yx != yx)
        ;
    return i;
}

/* ---- The service (queue.c, firmware only) ---- */

/* Serves the queue the boot block names until STOP; never returns. */
void kq_serve(void) __attribute__((noreturn));

#endif
