/* queue.h — the command queue the host fills and the firmware serves (docs/design.md §4). Ours;
 * docs/host-interface.md describes it. Lives in node memory (DRAM; staging too on RV64) at the
 * unit-global address the boot block names. Every index counts "ever" (never wraps; the slot is
 * index % entries) and sits on its own 32-byte line with exactly one writer, so a cached RV32
 * reader and an uncached host never fight over a line. Little-endian, pinned below. */
#ifndef KOHAKU_QUEUE_H
#define KOHAKU_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#define KQ_MAGIC            0x4B51554Eu     /* "KQUN" read as a big-endian word */
#define KQ_VERSION          1u
#define KQ_LINE             32u
#define KQ_MAX_ENTRIES      4096u           /* per ring; a power of two */
#define KQ_MAX_UNITS        32u
#define KQ_MAX_TARGETS      8u
#define KQ_MAX_PROG         65536u          /* DISPATCH payloads per program (2 MB) */
#define KQ_MAX_STEPS        4096u           /* RUN steps per list (128 KB) */
#define KQ_SUB_BYTES        64u
#define KQ_CPL_BYTES        32u
#define KQ_STEP_BYTES       32u
#define KQ_PAYLOAD_BYTES    32u

/* Line 0 — written by the host once, before it releases the core. */
struct kq_setup {
    uint32_t magic;
    uint16_t version;
    uint16_t flags;          /* none defined: must be 0 */
    uint16_t sq_entries;     /* power of two, 1..KQ_MAX_ENTRIES */
    uint16_t cq_entries;     /* power of two, 1..KQ_MAX_ENTRIES */
    uint32_t rsvd0;
    uint64_t sq_addr;        /* unit-global, 32-byte aligned: sq_entries * 64 bytes */
    uint64_t cq_addr;        /* unit-global, 32-byte aligned: cq_entries * 32 bytes */
};

/* One writer per line; each line holds one 64-bit counter (the rest reads 0). */
struct kq_index_line {
    uint64_t value;
    uint64_t rsvd[3];
};

/* Line 2 — the firmware's take index, with the tag of the submission it took last. Taking
 * advances value past the slot, so the host may reuse that slot at once; the tag kept here
 * lets a restarted firmware complete a submission it took but never finished (KS_ABORTED)
 * without reading a slot the host may have refilled. One line, one write: both move together. */
struct kq_head_line {
    uint64_t value;          /* submissions taken, ever */
    uint32_t tag;            /* tag of submission value - 1 (meaningless while value is 0) */
    uint32_t rsvd0;
    uint64_t rsvd[2];
};

enum kq_state {
    KQ_STATE_BOOTING = 0,
    KQ_STATE_READY = 1,
    KQ_STATE_STOPPED = 2,
    KQ_STATE_FATAL = 3,
};

/* Line 5 — the firmware's state, written by the firmware only. */
struct kq_fw_state {
    uint32_t state;          /* enum kq_state */
    uint32_t code;           /* FATAL: KQ_FATAL_*; else 0 */
    uint64_t cause;          /* FATAL trap: mcause */
    uint64_t pc;             /* FATAL trap: mepc */
    uint64_t tval;           /* FATAL trap: mtval */
};

#define KQ_FATAL_TRAP       1u      /* RV64 trap: cause = mcause, pc = mepc, tval = mtval */
#define KQ_FATAL_ASSERT     2u      /* firmware assertion: cause = site, pc = caller, tval = line */
#define KQ_FATAL_QUEUE      3u      /* the host broke the index rules: cause = which (KQ_BROKEN_*),
                                     * pc = the index it wrote, tval = the firmware's own index */
#define KQ_BROKEN_SQ_TAIL   1u      /* sq_tail behind sq_head, or more than sq_entries ahead */
#define KQ_BROKEN_CQ_HEAD   2u      /* cq_head ahead of cq_tail, or more than cq_entries behind */

/* Line 6 — written by the firmware: the last RUN SIGNAL value, and the processor's own
 * counters just before READY is written (bench boot_insns). RV32's count from the release;
 * RV64's minstret/mcycle under QEMU also count the time held (docs/host-interface.md §9). */
struct kq_fw_info {
    uint64_t progress;       /* value of the last RUN SIGNAL step */
    uint64_t ready_instret;  /* instructions retired, counter value at READY */
    uint64_t ready_cycles;   /* processor cycles, counter value at READY */
    uint64_t rsvd;
};

/* Lines 7..: the unit table the firmware publishes (count, then entries as in the boot block). */
struct kq_units {
    uint32_t count;
    uint32_t rsvd[7];
    uint8_t entries[KQ_MAX_UNITS][8];   /* struct kx_unit_entry */
};

struct kq_header {
    struct kq_setup setup;              /* line 0: host */
    struct kq_index_line sq_tail;       /* line 1: host — submissions written, ever */
    struct kq_head_line sq_head;        /* line 2: firmware — submissions taken, ever (+ tag) */
    struct kq_index_line cq_tail;       /* line 3: firmware — completions posted, ever */
    struct kq_index_line cq_head;       /* line 4: host — completions consumed, ever */
    struct kq_fw_state fw;              /* line 5: firmware */
    struct kq_fw_info info;             /* line 6: firmware — RUN progress, boot figures */
    struct kq_units units;              /* lines 7..15: firmware */
};

_Static_assert(sizeof(struct kq_setup) == KQ_LINE, "setup line");
_Static_assert(sizeof(struct kq_index_line) == KQ_LINE, "index line");
_Static_assert(sizeof(struct kq_head_line) == KQ_LINE, "head line");
_Static_assert(offsetof(struct kq_head_line, tag) == 8, "head line layout");
_Static_assert(sizeof(struct kq_fw_state) == KQ_LINE, "state line");
_Static_assert(offsetof(struct kq_fw_state, cause) == 8 && offsetof(struct kq_fw_state, tval) == 24,
               "state line layout");
_Static_assert(offsetof(struct kq_setup, sq_entries) == 8 && offsetof(struct kq_setup, sq_addr) == 16,
               "setup line layout");
_Static_assert(offsetof(struct kq_units, entries) == KQ_LINE, "unit table after its count line");
_Static_assert(offsetof(struct kq_header, sq_tail) == 1 * KQ_LINE, "queue layout");
_Static_assert(offsetof(struct kq_header, sq_head) == 2 * KQ_LINE, "queue layout");
_Static_assert(offsetof(struct kq_header, cq_tail) == 3 * KQ_LINE, "queue layout");
_Static_assert(offsetof(struct kq_header, cq_head) == 4 * KQ_LINE, "queue layout");
_Static_assert(offsetof(struct kq_header, fw) == 5 * KQ_LINE, "queue layout");
_Static_assert(offsetof(struct kq_header, info) == 6 * KQ_LINE, "queue layout");
_Static_assert(sizeof(struct kq_fw_info) == KQ_LINE, "info line");
_Static_assert(offsetof(struct kq_header, units) == 7 * KQ_LINE, "queue layout");
_Static_assert(sizeof(struct kq_header) == 16 * KQ_LINE, "queue header is 512 bytes");

enum kq_op {
    KQ_OP_NOP = 0,
    KQ_OP_REPLAY = 1,        /* addr: descriptor list (include/kohaku/desc_list.h), count: records */
    KQ_OP_DISPATCH = 2,      /* addr: count 32-byte payloads; txn; targets[ntargets]; credit_cap */
    KQ_OP_RUN = 3,           /* addr: count steps (struct kq_step) */
    KQ_OP_UNITS = 4,         /* publish the unit table into the header; value = unit count */
    KQ_OP_STOP = 5,          /* complete, mark STOPPED, stop the core */
    /* Records (docs/host-interface.md "Records"): a list checked once, kept by the firmware */
    KQ_OP_RECORD = 6,        /* addr, count: a descriptor list (flags 0) or a RUN step list
                              * (flags KQ_SUB_F_STEPS), checked as REPLAY / RUN check it and
                              * copied into the record area; value = its handle */
    KQ_OP_FORGET = 7,        /* addr[31:0]: a handle; frees its record */
    KQ_OP_RECORDS = 8,       /* addr: count struct kq_rec_info lines to fill; value = records held */
};
#define KQ_OP_LAST          KQ_OP_RECORDS

/* Submission flags (all others must be 0). */
#define KQ_SUB_F_HANDLE     0x1u    /* REPLAY, RUN: addr[31:0] is a handle (addr[63:32] and
                                     * count 0): run the record, no check, no host read */
#define KQ_SUB_F_STEPS      0x2u    /* RECORD: the data is a RUN step list */
#define KQ_SUB_F_ALL        (KQ_SUB_F_HANDLE | KQ_SUB_F_STEPS)

/* A handle (a 32-bit value): [2:0] the record's slot, [3] 0, [4] 1 for a RUN step list,
 * [7:5] 0, [31:8] the low 24 bits of the RECORD submission's index plus one (submissions
 * taken before it, ever, plus one), so no handle is issued twice within 2^24 submissions,
 * across restarts too (the queue's indices carry on). */
#define KQ_H_SLOT           0x07u
#define KQ_H_STEPS          0x10u
#define KQ_H_RSVD           0xE8u   /* 0 in every handle issued */
#define KQ_H_GEN_SHIFT      8u
#define KQ_REC_MAX_HANDLES  8u      /* records at most (the slot field) */
#define KQ_REC_DEF_HANDLES  8u      /* boot block rec_handles 0 */
#define KQ_REC_DEF_BYTES    0x40000u    /* boot block rec_bytes 0: 256 KB */
#define KQ_REC_MAX_BYTES    0x100000u   /* 1 MB: the record area's most */

/* One line of a RECORDS answer (32 bytes), in slot order. */
struct kq_rec_info {
    uint32_t handle;
    uint32_t count;          /* writes (a descriptor list) or steps (a RUN step list) */
    uint32_t bytes;          /* record-area bytes it holds (a RUN's lists included) */
    uint32_t offset;         /* where: unit-global address of its bytes (the record area) */
    uint64_t rsvd[2];
};
_Static_assert(sizeof(struct kq_rec_info) == 32, "record info is one line");

/* A submission: 64 bytes, two lines, written by the host only. */
struct kq_sub {
    uint16_t op;             /* enum kq_op */
    uint16_t flags;          /* KQ_SUB_F_*: per op; others must be 0 */
    uint32_t tag;            /* echoed in the completion */
    uint64_t addr;           /* unit-global address of the command's data */
    uint32_t count;          /* records / payloads / steps */
    uint8_t  txn;            /* DISPATCH: program id */
    uint8_t  ntargets;       /* DISPATCH: 1..KQ_MAX_TARGETS */
    uint16_t credit_cap;     /* DISPATCH: 0 = the target's inst_depth; else min(cap, inst_depth) */
    uint8_t  targets[KQ_MAX_TARGETS];   /* DISPATCH: {y,x} */
    uint64_t rsvd[4];
};

/* A completion: 32 bytes, one line, written by the firmware only. */
struct kq_cpl {
    uint32_t tag;
    uint16_t status;         /* include/kohaku/status.h */
    uint16_t rsvd0;
    uint32_t detail;
    uint32_t mover_cycles;   /* REPLAY, RUN: processor cycles spent waiting for the mover
                              * (low 32 bits); 0 for every other command */
    uint64_t value;
    uint64_t cycles;         /* processor cycles from taking the submission to this being ready
                              * to post (a wait for ring room is not counted) */
};

_Static_assert(sizeof(struct kq_sub) == 2 * KQ_LINE, "submission is two lines");
_Static_assert(offsetof(struct kq_sub, addr) == 8, "submission layout");
_Static_assert(offsetof(struct kq_sub, count) == 16, "submission layout");
_Static_assert(offsetof(struct kq_sub, targets) == 24, "submission layout");
_Static_assert(sizeof(struct kq_cpl) == KQ_LINE, "completion is one line");
_Static_assert(offsetof(struct kq_cpl, value) == 16, "completion layout");

/* RUN step list: 32-byte steps. */
enum kq_step_op {
    KQ_STEP_DISPATCH = 1,    /* addr: n payloads; target; txn; credit_cap; does not wait */
    KQ_STEP_REPLAY = 2,      /* addr: n records; waits for every move */
    KQ_STEP_WAIT = 3,        /* target: wait until n programs dispatched to it in this RUN completed */
    KQ_STEP_BARRIER = 4,     /* wait until every dispatched program has completed */
    KQ_STEP_SIGNAL = 5,      /* after everything before it: write addr (the value) to the progress line */
    KQ_STEP_REPLAY_H = 6,    /* addr[31:0]: a recorded descriptor list's handle (n, addr[63:32] 0) */
};

struct kq_step {
    uint8_t  op;             /* enum kq_step_op */
    uint8_t  target;         /* {y,x} */
    uint8_t  txn;
    uint8_t  rsvd0;
    uint16_t credit_cap;
    uint16_t rsvd1;
    uint32_t n;
    uint32_t rsvd2;
    uint64_t addr;           /* DISPATCH/REPLAY data; SIGNAL: the value */
    uint64_t rsvd3;
};
_Static_assert(sizeof(struct kq_step) == KQ_LINE, "step is one line");
_Static_assert(offsetof(struct kq_step, n) == 8 && offsetof(struct kq_step, addr) == 16, "step layout");

#endif
