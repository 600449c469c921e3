/* kdp_flit.h — pure logic of the dispatch layer: flit header and five-word form (docs/hardware.md §2,
 * docs/hardware.md §2.1-§2.5), CU_CTRL requests and replies, CU_CAPS, NODE_STATUS words, the
 * modulo-2^16 completion count and the kick/credit plan (docs/hardware.md §1, §1.1). No hal here: the
 * file builds natively for tests/host/dispatch with sanitizers. */
#ifndef KOHAKU_KDP_FLIT_H
#define KOHAKU_KDP_FLIT_H

#include <stdbool.h>
#include <stdint.h>
#include "kohaku/agent_regs.h"
#include "kohaku/bootblock.h"
#include "kohaku/flit.h"

/* A coordinate as the agent indexes NODE_STATUS and PROG_DST takes it: {y[3:0], x[3:0]}. */
#define KDP_YX(x, y)   ((uint8_t)((((unsigned)(y) & 0xFu) << 4) | ((unsigned)(x) & 0xFu)))
#define KDP_X(yx)      ((unsigned)(yx) & 0xFu)
#define KDP_Y(yx)      (((unsigned)(yx) >> 4) & 0xFu)

/* One instruction payload: 256 bits as payload words 0..3 (word 0 = [63:0], docs/hardware.md §2). */
#define KDP_PAYLOAD_BYTES 32u

/* The header a staged CU_INST carries: dst/src 0 (the dispatcher stamps both, seed
 * docs/hardware.md §2.4.3), type CU_INST, the program's txn, last on the final one only. */
static inline uint32_t kdp_inst_hdr(uint8_t txn, bool last)
{
    return (uint32_t)(KBF_FIELD_PREP(KF_HDR_TYPE, KF_T_CU_INST) | KBF_FIELD_PREP(KF_HDR_TXN, txn) |
                      (last ? KF_HDR_LAST : 0));
}

/* The header of a CU_CTRL request to dst from src (the agent's own coordinate, docs/hardware.md §1.1),
 * last = 1 (CU_CTRL is single-flit, docs/hardware.md §2.2). A reply to it carries src = the unit
 * asked, type CU_CTRL and the txn echoed: the bits KDP_REPLY_MASK selects, compared against
 * kdp_ctrl_hdr(any dst, unit asked, txn). */
static inline uint32_t kdp_ctrl_hdr(uint8_t dst_yx, uint8_t src_yx, uint8_t txn)
{
    return kf_hdr(KDP_X(dst_yx), KDP_Y(dst_yx), KDP_X(src_yx), KDP_Y(src_yx), KF_T_CU_CTRL, txn, 1);
}
#define KDP_REPLY_MASK  (KF_HDR_SRC_X | KF_HDR_SRC_Y | KF_HDR_TYPE | KF_HDR_TXN)
/* Word 3 bits [63:48] of a CU_CTRL reply to a read of `index`: op 0x02, index echoed. */
#define KDP_REPLY_OP_INDEX(index) ((KF_CTRL_OP_REPLY << 8) | (index))

/* Word 3 of a CU_CTRL read of `index` (docs/hardware.md §2.4.6: op READ (0) at [63:56], index at
 * [55:48]; payload words 0..2 are zero). enum.c and wait.c write its last native word into TX_FLIT. */
#define KDP_CTRL_READ_W3(index) \
    (KBF_FIELD_PREP(KF_W3_CTRL_OP, KF_CTRL_OP_READ) | KBF_FIELD_PREP(KF_W3_CTRL_INDEX, (index)))
static inline uint64_t kdp_ctrl_read_w3(uint8_t index)
{
    return KDP_CTRL_READ_W3(index);
}

/* Does a flit whose header word is hdr belong to the CU_CTRL request of `txn` (type CU_CTRL,
 * txn echoed, whatever its src: the reply, another unit's answer to a clamped request, or the
 * request itself clamped onto the agent)? A flit that does not is a late reply to an earlier
 * request. */
static inline bool kdp_ctrl_for_txn(uint32_t hdr, uint8_t txn)
{
    return ((hdr ^ kdp_ctrl_hdr(0, 0, txn)) & (KF_HDR_TYPE | KF_HDR_TXN)) == 0;
}

/* Word 3 [63:48] of a reply to a read of `index`: op REPLY (0x02) and the index echoed. */
static inline bool kdp_ctrl_reply_op(uint64_t w3, uint8_t index)
{
    return (w3 >> 48) == KDP_REPLY_OP_INDEX(index);
}

/* Word 3 of a reply to a read of `index` carrying value[63:16] (kdp_ctrl_read's form: [15:0]
 * read as 0): op REPLY, the index, value[63:16] in [47:0] (docs/hardware.md §2.4.6). enum.c
 * keeps an answer it asked again for in this form, beside the row's answers kept as they came. */
static inline uint64_t kdp_ctrl_reply_w3(uint8_t index, uint64_t value)
{
    return (uint64_t)KDP_REPLY_OP_INDEX(index) << 48 | value >> 16;
}

/* Is (hdr, w3) the reply to the read of `index` with `txn`, from exactly want_yx (a clamped
 * out-of-grid request is answered by another unit with its own src: refused here)? Type
 * CU_CTRL, src, txn, op 0x02 and index. What wait.c's kdp_ctrl_read accepts. */
static inline bool kdp_ctrl_reply_ok(uint32_t hdr, uint64_t w3, uint8_t want_yx, uint8_t index,
                                     uint8_t txn)
{
    return ((hdr ^ kdp_ctrl_hdr(0, want_yx, txn)) & KDP_REPLY_MASK) == 0 &&
           kdp_ctrl_reply_op(w3, index);
}

/* Builders for tests and the bench (the firmware writes the same words straight into the
 * agent window, through the helpers they are made of; scripts/check-kdp-helpers.sh checks that
 * every other tested helper is called by the running code, every .c file of dispatch/): */
/* kdp-builders: kdp_flit_inst kdp_flit_ctrl_read kdp_ctrl_reply_match */
/* Instruction i of a program as a five-word flit. */
static inline void kdp_flit_inst(struct kf_flit *f, const uint64_t payload[4], uint8_t txn, bool last)
{
    for (unsigned i = 0; i < 4; i++)
        f->w[i] = payload[i];
    f->w[KF_HDR_WORD] = kdp_inst_hdr(txn, last);
}

/* A CU_CTRL read of `index` to dst with src = the agent's own coordinate (docs/hardware.md §1.1:
 * never another unit's). last = 1. */
static inline void kdp_flit_ctrl_read(struct kf_flit *f, uint8_t dst_yx, uint8_t agent_yx,
                                      uint8_t index, uint8_t txn)
{
    f->w[0] = f->w[1] = f->w[2] = 0;
    f->w[3] = kdp_ctrl_read_w3(index);
    f->w[KF_HDR_WORD] = kdp_ctrl_hdr(dst_yx, agent_yx, txn);
}

/* kdp_ctrl_reply_ok on a whole flit; on true, *value = the 64-bit register [239:176]. */
static inline bool kdp_ctrl_reply_match(const struct kf_flit *f, uint8_t want_yx, uint8_t index,
                                        uint8_t txn, uint64_t *value)
{
    if (!kdp_ctrl_reply_ok((uint32_t)f->w[KF_HDR_WORD], f->w[3], want_yx, index, txn))
        return false;
    *value = kf_ctrl_value_get(f);
    return true;
}

/* A unit table entry from a CU_CAPS value (docs/hardware.md §1: [63:48] type, [47:40] version,
 * [39:36] buffers, [35:20] inst_depth). Inline: enumeration (enum.c) is its one firmware user,
 * so it goes wherever enum.c goes (cold code on RV32, docs/dispatch.md "Size"). */
static inline void kdp_caps_unit(uint8_t yx, uint64_t caps, struct kx_unit_entry *u)
{
    u->yx = yx;
    u->version = (uint8_t)KBF_FIELD_GET(KF_CAPS_VERSION, caps);
    u->buffers = (uint8_t)KBF_FIELD_GET(KF_CAPS_BUFFERS, caps);
    u->rsvd = 0;
    u->type = (uint16_t)KBF_FIELD_GET(KF_CAPS_TYPE, caps);
    u->inst_depth = (uint16_t)KBF_FIELD_GET(KF_CAPS_INST_DEPTH, caps);
}

/* Signals counted since a snapshot of the 16-bit, wrapping NODE_STATUS count (docs/hardware.md §1.1):
 * the difference modulo 2^16. Exact while fewer than 65536 signals arrive between reads. */
static inline uint16_t kdp_count_since(uint16_t now, uint16_t snap)
{
    return (uint16_t)(now - snap);
}

/* Validates a unit table (host-given or enumerated): at most KX_BOOT_MAX_UNITS entries, no
 * coordinate twice, none at the agent's coordinate or at (0,0) (a corner holds nothing,
 * docs/hardware.md §2.4.5), inst_depth at least 1. Returns KS_OK or KS_DISPATCH_BAD_UNITS. */
unsigned kdp_units_check(const struct kx_unit_entry *u, unsigned n, uint8_t agent_yx);

/* The credit a run's first kick seeds when kicks are top-ups (len <= room limits each kick, so
 * credit only has to stay above every len: 8 jobs x depth 255 in flight leave it positive). */
#define KDP_TOPUP_CREDIT 0x1000u

/* The kick plan (docs/hardware.md §1 "Credit", §1.1), what dispatch.c kicks. staged =
 * instructions staged from the job's cursor onwards in one region (at most half the staging
 * RAM: below PROG_LEN's 16 bits); room = the target's inst_depth minus its instructions pushed
 * and not yet retired (the caller kicks only with room >= 1). Credit is one counter, returned
 * by a completion from any node:
 *   - stream (one target, no other unit owing credit): len = staged, credit = room: the
 *     dispatcher goes on as the target's own completions return credit, and every returned
 *     credit is a freed slot;
 *   - else ("top up"): len = min(staged, room), credit KDP_TOPUP_CREDIT: the length is the
 *     limit, so another unit's completion cannot push this target past its depth and the
 *     kick never waits for a returned credit.
 * credit is what the run's first kick seeds (dispatch.c kdp_seed; carried after that). */
struct kdp_kick {
    uint32_t len;
    uint32_t credit;
};
static inline struct kdp_kick kdp_plan_kick(uint32_t staged, uint32_t room, bool stream)
{
    struct kdp_kick k = { stream || staged < room ? staged : room,
                          stream ? room : KDP_TOPUP_CREDIT };
    return k;
}

/* The next chunk of a program of n instructions from cursor (cursor <= n) into a region of
 * region_slots slots: what is left, at most the region. Regions end on or before the staging
 * RAM's last slot (dispatch.c kdp_run sets their bases), so no chunk wraps to slot 0
 * (docs/hardware.md §1.1). */
static inline uint32_t kdp_plan_chunk(uint32_t n, uint32_t cursor, uint32_t region_slots)
{
    uint32_t len = n - cursor;
    if (len > region_slots)
        len = region_slots;
    return len;
}

/* Timeout detail: what was awaited, and of which unit. detail = (what << 8) | {y,x}. The
 * value of a KS_TIMEOUT is, per `what`: CREDIT and COMPLETION: (signals seen << 32) |
 * instructions dispatched to that unit; RUN: PROG_STAT; MAILBOX_*: the RX/TX status word. */
#define KDP_AWAIT_RUN          0x1u  /* the dispatcher to finish a kick (PROG_STAT.run to fall) */
#define KDP_AWAIT_CREDIT       0x2u  /* room in the target's instruction FIFO (its retirements) */
#define KDP_AWAIT_COMPLETION   0x3u  /* the program's last completion */
#define KDP_AWAIT_MAILBOX_TX   0x4u  /* TX to leave "full" */
#define KDP_AWAIT_MAILBOX_RX   0x5u  /* RX to empty while draining it */
#define KDP_DETAIL(what, yx)   ((((uint32_t)(what)) << 8) | ((uint32_t)(yx) & 0xFFu))
#define KDP_DETAIL_WHAT(d)     (((d) >> 8) & 0xFFu)
#define KDP_DETAIL_YX(d)       ((d) & 0xFFu)
/* KS_UNIT_FAULT detail flags (docs/dispatch.md "Faults NODE_STATUS hides"): the FAULT was seen
 * only as a credit it did not return, so the instruction and its exec_result are unknown
 * (value = jobs that may hold it << 16 | how many); UNPLACED: several jobs had signals the
 * mirror did not show, and credit is one counter for every unit, so which of them is unknown. */
#define KDP_FAULT_HIDDEN       0x100u
#define KDP_FAULT_UNPLACED     0x200u

#endif
