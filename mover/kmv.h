/* kmv.h — the firmware's mover layer (docs/design.md §2.2, docs/hardware.md §3-§5): descriptor
 * list validation and building (pure C, also built natively for host tools, tests and the
 * fuzzer) and replay through the hal (firmware only). docs/mover.md is the long form. */
#ifndef KOHAKU_KMV_H
#define KOHAKU_KMV_H

#include <stdint.h>
#include "kohaku/desc_list.h"
#include "kohaku/mover_regs.h"
#include "kohaku/status.h"

/* ---- What the validator knows of the machine ---- */

/* A range of unit-global byte addresses [lo, hi) that no walk may reach (hi 0: unused). */
struct kmv_span {
    uint64_t lo, hi;
};

struct kmv_caps {
    uint32_t reach_end;     /* first mover offset the writer cannot reach: 0x80 host/RV32, 0x40 RV64 */
    uint16_t xf_ids;        /* bit k set: transform id k has an occupant */
    uint8_t  xf_in_words;   /* an XFORM entry: IN_BITS / 256 source words (8) */
    uint8_t  xf_out_words;  /* ... and OUT_WORDS destination words (4): a power of two */
    /* Memory the firmware owns or is using (docs/mover.md §3 "Owned memory"): every walk's
     * whole extent, a gather's index words and the rows its indices reach are refused with
     * KS_MV_OWNED when they overlap owned[k], k < n_owned. The firmware fills these (service/);
     * the constant caps below own nothing. */
    const struct kmv_span *owned;
    uint32_t n_owned;
    /* Reading a gather's first index word to check the rows it reaches: map(ug) is a pointer
     * the processor reads unit-global DRAM address ug through, for ug + 32 <= map_end (DRAM
     * offsets; 0: the validator cannot read memory and does not check gather rows — host tools
     * without the node's memory). */
    const void *(*map)(uint64_t ug);
    uint64_t map_end;
    /* Index words the firmware copied into memory it owns, [idx_lo, idx_hi) (0, 0: none): a
     * gather's index words wholly inside are not refused as owned (their rows still are
     * checked). The service copies every gather's first index word there (service/kq_cold.c)
     * so the mover reads the indices that were checked. */
    uint64_t idx_lo, idx_hi;
};

/* The reference geometry (docs/hardware.md §3.1 XFORM row, docs/hardware.md §3.2): one
 * occupant at id 1, 2048 bits in, 4 words out. */
extern const struct kmv_caps kmv_caps_rv32;     /* also the host's AUX_CFG reach */
extern const struct kmv_caps kmv_caps_rv64;

/* KS_MV_OWNED / KS_MV_ADDR detail [7:0]: what reaches the range (KS_MV_ADDR [15:8]: why). */
#define KMV_WHAT_SRC        0u      /* the source walk (COPY, XFORM) */
#define KMV_WHAT_DST        1u      /* the destination walk (for XFORM with each entry's burst) */
#define KMV_WHAT_INDEX      2u      /* a gather's index words */
#define KMV_WHAT_ROWS       3u      /* the rows a gather's indices reach */
#define KMV_ADDR_MESH       1u      /* mesh field [37:36] names another mesh: aliases local memory */
#define KMV_ADDR_BIT38      2u      /* bit 38 set: 0 on the wire, aliases */
#define KMV_ADDR_NOWHERE    3u      /* DRAM at or past 4 GB (decodes, hits nothing) */
#define KMV_ADDR_CROSS      4u      /* the range crosses 4 GB (or out of its region) */
#define KMV_ADDR_APERTURE   5u      /* an aperture other than 0 or past the staging store's 2 MB */
#define KMV_ADDR_UNREAD     6u      /* a gather's index word the processor cannot read to check */

/* The outcome of validating or replaying a list: status, a detail whose meaning the status
 * names (docs/mover.md "Statuses"), the index of the write it concerns, and moves counted. */
struct kmv_result {
    uint32_t status;
    uint32_t detail;
    uint32_t index;         /* write index the status concerns (n for a list-level one) */
    uint32_t moves;         /* validate: moves in the list; replay: moves completed fault-free */
    uint64_t value;         /* replay: the mover status word read last (MVGO / MVSTAT) */
};

/* Validates n writes against the caps, tracking the mover's registers across the list.
 * Nothing is written anywhere. Returns res->status, one of:
 *   KS_OK, KS_LIST_TOO_LONG (n > KD_MAX_WRITES), KS_NO_GO (empty, or writes after the last GO),
 *   KS_BAD_OFFSET (offset word not 8-aligned in 0x00..0x7F naming a register),
 *   KS_NO_REACH (offset at or past caps->reach_end; detail = the offset),
 *   KS_MV_FIELD (bits outside the register's fields), KS_MV_MODE (mode 6 or 7),
 *   KS_MV_TRANSPOSE (mode 1), KS_MV_WIDTH (element width 3), KS_MV_DIM (dimension index > 5,
 *   more than 6 dimensions), KS_MV_UNSET (a setting the move needs was not written earlier in
 *   the list), KS_MV_ALIGN, KS_MV_WRAP, KS_MV_SHORT_SRC, KS_MV_GATHER, KS_MV_XFORM. */
unsigned kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                      struct kmv_result *res);
/* ... and, at each GO after the checks above: KS_MV_GATHER_ROWS (a gather whose destination
 * reaches row 8 or later: the erratum, docs/hardware.md §3.1), KS_MV_XFORM detail 5 (an XFORM
 * destination whose 4-word bursts could cross a 4 KB page), KS_MV_WRAP (gather rows past 2^40),
 * KS_MV_ADDR and KS_MV_OWNED (detail layouts above) for every walk's extent — the bounding
 * range of all its elements, bounds ignored — a gather's index words and its rows. */

/* The structural half only (length, offsets, reach, GO framing): for host tools that want to
 * know a list is well-formed before its semantics. */
unsigned kmv_validate_frame(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                            struct kmv_result *res);

/* Status text for the mover's statuses (NULL for others): the TRANSPOSE one says that a
 * transpose is a COPY with the walkers' dimensions reordered. */
const char *kmv_status_text(unsigned status);

/* The index of the write a failed replay names (replay.c): write next - 1 of the list at w,
 * or 0 when next is w (nothing sent). validate.c: cold code on RV32. */
uint32_t kmv_fail_index(const struct kd_write *w, const struct kd_write *next);

/* ---- Builder ---- */

/* One walker: base (unit-global, 40 bits), up to 6 dimensions outermost first, and up to two
 * bound axes. Dimension i walks count[i] elements (1..65535) of stride[i] bytes (signed,
 * multiple of 32); axis[i] (0..3) and astep[i] feed the bound axes (docs/hardware.md §3.1: code 1
 * feeds bound 0, code 2 bound 1). A bound with extent 0 is disabled. */
struct kmv_walk {
    uint64_t base;
    unsigned ndim;
    uint16_t count[KMV_MAX_DIMS];
    int32_t  stride[KMV_MAX_DIMS];
    uint8_t  axis[KMV_MAX_DIMS];
    int16_t  astep[KMV_MAX_DIMS];
    int16_t  bound_base[2];
    uint16_t bound_extent[2];
};

/* A list under construction in caller memory. The builder tracks what it has written, so a
 * setting already in the list (bounds, IMM) is not repeated. */
struct kmv_builder {
    struct kd_write *w;
    uint32_t cap, n;
    uint32_t status;        /* first error, sticky: later calls do nothing */
    uint32_t known;         /* builder's own record of registers already written */
    uint64_t bound_val[2][2];
    uint32_t imm;
};

void kmv_build_init(struct kmv_builder *b, struct kd_write *buf, uint32_t cap);

/* Each appends one move and returns KS_OK or the builder's first error (sticky): KS_MV_ALIGN
 * (a base or stride not a multiple of 32 bytes), KS_MV_FIELD (a value wider than its field,
 * a count of 0, an axis code above 3), KS_MV_DIM (more than 6 dimensions), KS_LIST_TOO_LONG
 * (the buffer is full), KS_MV_WIDTH (width 3). There is no transpose builder: a transpose is
 * kmv_build_copy with the source walker's dimensions reordered; kmv_build_raw refuses a GO
 * with mode TRANSPOSE with KS_MV_TRANSPOSE. width is enum kmv_width.
 * `flags` goes to CTRL[15:8] (e.g. KMV_CTRL_FLAG_COALESCE >> 8). */
unsigned kmv_build_copy(struct kmv_builder *b, const struct kmv_walk *dst,
                        const struct kmv_walk *src, unsigned width, uint32_t pad, unsigned flags);
unsigned kmv_build_fill(struct kmv_builder *b, const struct kmv_walk *dst, unsigned width,
                        uint32_t value, unsigned flags);
unsigned kmv_build_generate(struct kmv_builder *b, const struct kmv_walk *dst, uint64_t seed,
                            unsigned flags);
/* Gather: indices (32-bit, count <= 2048) at idx_base; row r of `words` words at
 * src_base + index[r] * pitch; the destination walk (one dimension, `rows x words` elements,
 * for dst from kmv_walk_linear) sets the element count. The GATHER erratum (docs/hardware.md §3.1: a
 * row starting a new index word takes the previous word's first index) is never produced: a
 * gather of more than 8 rows is emitted as moves of at most 8 rows each, the index base 32
 * bytes (8 indices) and the destination 8 x words x 32 bytes further every time. A
 * destination walk that is not one contiguous dimension with more than 8 rows: KS_MV_GATHER_ROWS. */
unsigned kmv_build_gather(struct kmv_builder *b, const struct kmv_walk *dst, uint64_t src_base,
                          uint64_t idx_base, uint32_t idx_count, uint32_t pitch,
                          uint32_t words, unsigned flags);
/* XFORM through transform `id` with occupant mode `xmode`: the source walk defines the
 * entries, the destination steps once per entry. */
unsigned kmv_build_xform(struct kmv_builder *b, const struct kmv_walk *dst,
                         const struct kmv_walk *src, unsigned id, unsigned xmode, unsigned flags);
/* Any mode, as the caller asks (TRANSPOSE refused); for tests that need an exact list. */
unsigned kmv_build_raw(struct kmv_builder *b, uint32_t off, uint64_t val);

/* A contiguous one-dimensional walk of `words` 32-byte words from base, bounds disabled. */
void kmv_walk_linear(struct kmv_walk *wk, uint64_t base, uint16_t words);

/* ---- Replay (firmware: mover/replay.c over the port in mover/rv32/ or mover/rv64/) ---- */

/* This variant's caps. */
const struct kmv_caps *kmv_caps_self(void);
/* The caps kmv_replay validates with: this variant's (kmv_caps_self) until the firmware's
 * service installs its own, which add the ranges it owns (service/queue.c). */
extern const struct kmv_caps *kmv_caps_use;

/* The list must be 4-byte aligned and readable by the CPU as it stands (RV32: the caller
 * invalidates the data cache after the host wrote it; the queue checks address and length).
 *
 * Validates (kmv_validate with kmv_caps_self()) and, only if the whole list is good, replays
 * it move by move: every GO is waited for, at most timeout_cycles processor cycles per move
 * (counted in 32 bits: a larger timeout waits 2^32 - 1 cycles).
 * Data cache: flushed before the first write (the mover reads what the CPU wrote) and
 * invalidated after the last move (the CPU reads what the mover wrote). Returns res->status:
 *   a validation status (nothing written),
 *   KS_TIMEOUT with detail KS_AWAIT_MOVER_IDLE << 8 (the mover stayed busy before the first
 *   write: an earlier move that timed out is still running; nothing written),
 *   KS_MOVER_FAULT (detail = fault code 1..7; index = the GO's write; the list stops there),
 *   KS_XFORM_FAULT (RV32: occupant fault, detail = its code),
 *   KS_TIMEOUT (detail = KS_WAIT_MOVER; index = the GO's write),
 *   KS_OK. res->moves counts the moves completed without fault. */
unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res);
/* RV64 (docs/hardware.md §3.1): the occupant's fault is not routed to the processor, so a list with
 * XFORM moves that otherwise ends KS_OK ends KS_XFORM_UNCHECKED, detail = its XFORM moves
 * (every move ran; nothing says whether the occupant faulted). RV32 reads it (KS_XFORM_FAULT). */

/* Replays a list kmv_validate accepted earlier — e.g. every REPLAY step of a RUN command,
 * checked when the command was accepted — without validating it again, so a write costs the
 * port's loop alone (the bench budget). It checks in O(1) that n is within KD_MAX_WRITES and
 * the last write is a GO (KS_LIST_TOO_LONG / KS_NO_GO otherwise), so the loops stop inside the
 * list; the RV64 port masks every offset into its window, so a list changed since it was
 * validated can make a wrong move but cannot write outside the mover. Same statuses as
 * kmv_replay otherwise. The fault tests use it to run lists the validator would refuse. */
unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res);

/* Sealed moves (boards with BOARD_REC_SEALED, RV64; docs/mover.md §5.1): a validated list
 * rewritten once, at RECORD, into moves that each carry their own check. 64-bit words, one move
 * after another; a move of k list writes before its GO keeps e of them, all but CTRL writes
 * without GO (the GO write that ends the move sets all of CTRL's fields again, so they change
 * nothing, and no write but the GO may reach CTRL: a changed value there could start a move):
 *   header   [11:0] k, [47:32] the bytes of its groups, [56] 1 when its GO's mode is FILL,
 *            GENERATE or XFORM (the moves replay waits for or reports specially), [63:57] 8 x
 *            the lanes its first group leaves empty (16 - its writes; 0 when e is 0: the byte
 *            offset the loop enters its lanes at), 0 elsewhere: what the replay loop needs,
 *            each field got with one or two instructions and bounded by its width before the
 *            sum has checked it
 *   groups   of 16 writes, the first of e mod 16 (16 when e is a multiple of 16, none when e
 *            is 0): an offsets word (nibble lane L, bits [4L+3:4L]: the register offset / 8 of
 *            the group's write in lane L; a group of g writes uses lanes 16 - g .. 15), its
 *            check word (the offsets word inverted: the loop checks it before the group's first
 *            store, so a changed offsets word never aims a value at CTRL), then the g values
 *   GO       the GO write's value (its register is CTRL)
 *   balance  minus the sum of the words above: a move's words sum to 0 modulo 2^64 (an offsets
 *            word and its check word add up to all ones, which the loop adds once it has
 *            compared them: another valid pair put in their place, values untouched, is not
 *            seen, as two words swapped are not)
 * A move takes 3 + e + 2 ceil(e / 16) words. kmv_seal (mover/seal.c) writes the n writes at w (a
 * validated list: it ends with a GO) sealed at img (NULL: nowhere, to size them) and returns the
 * 64-bit words they take, the list's moves in *moves. kmv_sealed_check: the first of the
 * `moves` sealed moves at img (within `bytes`) whose words do not sum to 0, or `moves` when none (the check a RUN makes of a REPLAY_H step's record before anything
 * runs), the list writes of the moves before it in *writes (unless NULL). kmv_replay_sealed
 * (mover/rv64/sealed.c) runs them: each move's words are checked as they are written to the
 * mover and its GO stored only when they are as sealed; else KS_REC_CHANGED, index = the changed
 * move's first write, moves = the moves done before it (nothing of it ran). Otherwise the
 * statuses of kmv_replay_validated (index: the failed move's GO). */
#define KMV_SEAL_LANES  16u
#define KMV_SEAL_SPECIAL  (UINT64_C(1) << 56)   /* header: a FILL, GENERATE or XFORM move */
#define KMV_SEAL_K      0xFFFu      /* header [11:0]: a move has fewer than KD_MAX_WRITES writes */
_Static_assert(KD_MAX_WRITES - 1u <= KMV_SEAL_K, "a move's write count fits the header");
/* Words a move keeping e writes takes. */
static inline uint32_t kmv_seal_move_words(uint32_t e)
{
    return 3u + e + 2u * ((e + KMV_SEAL_LANES - 1u) / KMV_SEAL_LANES);
}
uint32_t kmv_seal(volatile uint64_t *img, const struct kd_write *w, uint32_t n, uint32_t *moves);
uint32_t kmv_sealed_check(const volatile uint64_t *img, uint32_t moves, uint32_t bytes,
                          uint32_t *writes);
unsigned kmv_replay_sealed(const volatile uint64_t *img, uint32_t moves, uint64_t timeout_cycles,
                           struct kmv_result *res);

/* Processor cycles spent in the mover's waits (kmv_port_wait: the mover busy, the FILL margin)
 * since the service last cleared it: a completion's mover_cycles (queue.h). Wraps at 2^32. */
extern uint32_t kmv_wait_cycles;

/* docs/hardware.md §3.1 last row: after busy falls on a FILL or GENERATE move, replay waits this many
 * processor cycles before reading the fault and before any later write (IMM, SEED). */
#define KMV_FILL_MARGIN_CYCLES  64u

#endif
