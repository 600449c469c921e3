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

struct kdp_hdr {
    uint8_t dst_x, dst_y, src_x, src_y;
    uint8_t type;       /* KF_T_* */
    uint8_t txn;
    uint8_t last;       /* 0 or 1 */
    uint8_t rsvd;       /* 3 bits */
};

/* Header word [31:0] (= flit [287:256]) from its fields; each field is masked to its width. */
uint32_t kdp_hdr_pack(const struct kdp_hdr *h);
void kdp_hdr_unpack(uint32_t w, struct kdp_hdr *h);

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

/* Instruction i of a program of n as a five-word flit. */
void kdp_flit_inst(struct kf_flit *f, const uint64_t payload[4], uint8_t txn, bool last);

/* A CU_CTRL read of `index` (docs/hardware.md §2.4.6: op 0 at [255:248], index [247:240]) to dst
 * with src = the agent's own coordinate (docs/hardware.md §1.1: never another unit's). last = 1. */
void kdp_flit_ctrl_read(struct kf_flit *f, uint8_t dst_yx, uint8_t agent_yx, uint8_t index,
                       uint8_t txn);

/* Is f the reply to the request above, from exactly want_yx (a clamped out-of-grid request is
 * answered by another unit with its own src: refused here)? Type CU_CTRL, op 0x02, index and
 * txn echoed. On true, *value = the 64-bit register [239:176]. */
bool kdp_ctrl_reply_match(const struct kf_flit *f, uint8_t want_yx, uint8_t index, uint8_t txn,
                         uint64_t *value);

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

/* A NODE_STATUS word (docs/hardware.md §1: [63:56] code, [55:24] arg, [23:8] count, [0] valid). */
struct kdp_ns {
    uint8_t code;
    uint32_t arg;
    uint16_t count;
    bool valid;
};
void kdp_ns_unpack(uint64_t w, struct kdp_ns *ns);

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

/* The kick plan (docs/hardware.md §1 "Credit", §1.1). staged = instructions staged from the job's
 * cursor onwards in one region; room = the target's inst_depth minus its instructions pushed
 * and not yet retired; others = INST_COMPLETEs other units may still return (credit is one
 * counter, returned by a completion from any node). Credit is never above room, so:
 *   - staged <= room: len = staged, credit = staged; the kick never needs a returned credit;
 *   - else, others == 0: len = staged, credit = room ("stream"): the dispatcher goes on as the
 *     target's own completions return credit, and every returned credit is a freed slot;
 *   - else: len = credit = room ("top up"): another unit's completion cannot push this target
 *     past its depth.
 * Returns false (no kick) when room or staged is 0: the firmware never kicks at credit 0. */
struct kdp_kick {
    uint16_t len;
    uint16_t credit;
};
bool kdp_plan_kick(uint32_t staged, uint32_t room, uint32_t others, struct kdp_kick *k);

/* Chunk planning: the next chunk of a program of n instructions from cursor, staged into a
 * region of region_slots slots starting at slot base of a staging RAM of stage_slots. The
 * chunk never runs past the last slot (docs/hardware.md §1.1: no wrap to slot 0). Returns its
 * length (0 when the program is all staged or the region does not fit the RAM). */
uint32_t kdp_plan_chunk(uint32_t n, uint32_t cursor, uint32_t base, uint32_t region_slots,
                       uint32_t stage_slots);

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
