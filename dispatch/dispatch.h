/* dispatch.h — the firmware's dispatch layer (docs/design.md §2.3, docs/hardware.md §1, §1.1, §2):
 * the unit table (enumerated through the mailbox or given by the host), programs staged into
 * STAGE and kicked through PROG_* to one or several targets, completion by NODE_STATUS
 * counts, faults and timeouts. docs/dispatch.md holds the choices made where the specs are
 * silent. Both variants through hal/ only. */
#ifndef KOHAKU_DISPATCH_H
#define KOHAKU_DISPATCH_H

#include <stdint.h>
#include "kdp_flit.h"
#include "kohaku/status.h"

#define KDP_MAX_JOBS      8u     /* targets served at once by one kdp_run */
/* 1 where NODE_STATUS is one load (64-bit words: RV64, the host model), each job keeping its
 * register's address (hal_agent_addr) for the polls; RV32 reads it in halves by offset. */
#if UINTPTR_MAX > 0xFFFFFFFFu
#define KDP_NS_AT         1
#else
#define KDP_NS_AT         0
#endif
#define KDP_REGIONS       4u     /* several targets: the staging RAM in this many regions */
#define KDP_ENUM_TRIES    2u     /* CU_CTRL attempts per coordinate (docs/hardware.md §1.1: a lost TX_KICK) */
/* Agent cycles to let pass after PROG_STAT.run fell before a TX_KICK (docs/hardware.md §1.1: one
 * upstream revision loses a TX_KICK in the cycle right after run falls). */
#define KDP_TX_SETTLE_CYCLES 8u

/* A CU_INST program: n 256-bit payloads (32 bytes each, 8-byte aligned, payload word 0
 * first) and its program id. The dispatch layer writes each header itself: type CU_INST,
 * txn, last on instruction n-1 only (docs/hardware.md §2.4.3). The memory must be
 * coherent for the processor (the caller invalidates the data cache after a host wrote it). */
struct kdp_prog {
    const void *payload;
    uint32_t n;
    uint8_t txn;
    uint16_t cap;       /* credit cap: 0 none, else at most this many in the unit at once
                         * (below its inst_depth; a RUN step's credit_cap) */
};

/* What one program did at one target. */
struct kdp_report {
    uint32_t dispatched;    /* instructions pushed to the target */
    uint32_t completions;   /* CU_SIGNALs counted from the target since the snapshot */
    uint8_t last_code;      /* NODE_STATUS code and arg of the last signal read */
    uint32_t last_arg;
    uint32_t status;        /* KS_OK, or this job's own failure */
    uint64_t t_done;        /* hal_cycles() when the firmware saw the program complete (0: it
                             * did not); a caller that read hal_cycles() before kdp_run has
                             * the span (docs/dispatch.md "Reports") */
};

/* One (program, target) pair of a kdp_run. Fill prog and yx; the rest is the layer's. On RV32
 * 48 bytes (the service keeps KDP_MAX_JOBS of them in the scratchpad): the private bytes sit
 * in the padding after yx and after the report, each field as wide as its values need. */
struct kdp_job {
    const struct kdp_prog *prog;
    uint8_t yx;
    /* private */
    uint8_t state;          /* KDP_J_* */
    uint8_t ui;             /* the target's unit-table index */
    uint8_t depth;          /* inst_depth, or the program's credit cap when lower; at most 255
                             * (a lower credit bound is safe; kicks are at most half the
                             * staging RAM, 64, anyway) */
#if KDP_NS_AT
    uint32_t ns;            /* the target's NODE_STATUS address (hal_agent_addr), in the
                             * padding before the report: one load a poll */
#endif
    struct kdp_report rep;  /* rep.dispatched is also the next instruction to kick: only an
                             * early-ended kick lowers it, and nothing is kicked after one */
    /* private */
    uint16_t last_count;    /* NODE_STATUS count at the last read */
    uint16_t skip;          /* signals still owed by an earlier failed run of this unit */
    /* Reads of NODE_STATUS that found this run's signals: completions - polls signals were
     * never seen at the mirror, and a FAULT among them shows only in the credit
     * (docs/dispatch.md "Faults NODE_STATUS hides"). In padding. */
    uint16_t polls;
};

enum kdp_state { KDP_J_RUN = 1, KDP_J_STOP, KDP_J_DONE };
enum kdp_cred_state { KDP_CRED_NONE, KDP_CRED_ON, KDP_CRED_OFF };

struct kdp_region {          /* what a staging region holds */
    const struct kdp_prog *prog;
    uint32_t start;
    uint16_t len;           /* at most stage_flits / 2 */
    uint16_t base;          /* its first STAGE slot (a kick reads it; no multiply, RV32I) */
    /* 16 bytes on both variants: RV32's 12 would cost a multiply by 12 at every region index
     * (docs/dispatch.md "Size"); none on RV64 (a GNU zero-length array there) */
    uint8_t pad[sizeof(void *) == 8u ? 0u : 4u];
};
_Static_assert(sizeof(struct kdp_region) == 16u, "a region index is a shift");

struct kdp_ctx {
    uint32_t wait_cycles;   /* bound of every single wait, processor cycles */
    uint32_t stage_flits;   /* STAGE slots (docs/hardware.md §7: 128) */
    uint8_t agent_yx;       /* the agent's own coordinate: src of every mailbox request */
    uint8_t txn_seq;        /* CU_CTRL txn of the next request */
    uint8_t running;        /* region read by the running kick, KDP_REGIONS when none */
    uint8_t n_units;
    uint32_t staged_flits;  /* flits written into STAGE since kdp_init (restaging shows here) */
    /* first error of the last call (docs/design.md §6: the first error wins); detail and value are
     * written with it, and mean nothing while status is KS_OK */
    uint32_t status;
    uint32_t detail;
    uint64_t value;
    struct kdp_region reg[KDP_REGIONS];
    struct kx_unit_entry units[KX_BOOT_MAX_UNITS];
    /* per unit: owing bit i set when unit i still owes signals for instructions an earlier run
     * left unretired; due[i] is then the NODE_STATUS count at which the last of them is paid
     * (what is owed is due[i] - count modulo 2^16, read as signed: a unit owes fewer than
     * 2^15, its FIFO being far smaller). due[i] is meaningless while the bit is clear. */
    uint32_t owing;
    uint16_t fill;          /* the region the next staging takes (in turn, the running one
                             * skipped) */
    /* The credit check of a run (docs/dispatch.md "Faults NODE_STATUS hides"): PROG_CRED is
     * written once a run, at its first kick; from then on it is seed - pushed + every
     * INST_COMPLETE, exactly. cred_due: what it would read if every signal counted whose code
     * was not seen (or was INST_COMPLETE) returned its credit: seed - kicked + those signals
     * (modulo 2^16 is what matters). cred_state: KDP_CRED_NONE (no kick yet), _ON, _OFF (an
     * early-ended kick rewrote it: kdp_abort checked before). */
    uint32_t cred_due;
    uint8_t cred_state;
    uint16_t due[KX_BOOT_MAX_UNITS];
};
/* Sets up the layer. agent_yx: the agent's coordinate (docs/dispatch.md: from the board,
 * BOARD_AGENT_YX, or a host override); wait_cycles: the bound of each wait (the boot block's
 * wait_cycles); stage_flits: STAGE slots. The unit table starts empty. */
void kdp_init(struct kdp_ctx *c, uint8_t agent_yx, uint32_t wait_cycles, uint32_t stage_flits);

/* Replaces the unit table with a host-given one (bootblock.h struct kx_unit_entry).
 * Returns KS_OK or KS_DISPATCH_BAD_UNITS (table unchanged). */
unsigned kdp_units_set(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n);

/* Loads a table already checked by kdp_units_check's rules (the boot block's, by boot/'s
 * kx_bootblock_check with this board's agent coordinate): kdp_units_set without the check. */
void kdp_units_load(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n);

/* The table entry of the unit at yx, or NULL. */
const struct kx_unit_entry *kdp_unit(const struct kdp_ctx *c, uint8_t yx);

/* The default scan range: CAPS grid low/high widened by one step on each side (edge
 * endpoints sit one step outside the router grid), clipped to 0..15. */
void kdp_scan_range(uint8_t *lo_yx, uint8_t *hi_yx);

/* Enumerates every coordinate of the rectangle lo..hi (lo <= hi in each axis, as
 * kdp_scan_range gives them; positions outside the CAPS router grid in both axes skipped) with
 * CU_CTRL reads of CU_CAPS through the mailbox, a row's requests at once (at most 16), the
 * replies matched by txn; a row whose flits are fewer than its requests after coord_cycles has
 * its unfound columns asked again one at a time (kdp_ctrl_read, KDP_ENUM_TRIES attempts);
 * silence means absent (docs/dispatch.md "Enumeration"). Only with no program running. The
 * table is rewritten in place from the first unit that answers (the service enumerates only at
 * boot, into an empty table). RX is empty on return. Returns KS_OK (the table is what
 * answered), KS_DISPATCH_NO_UNITS (table unchanged: nothing answered), KS_DISPATCH_BAD_UNITS
 * (an answer with depth 0) or KS_TIMEOUT (detail RUN / MAILBOX_TX / MAILBOX_RX); after either
 * of the last two with a unit found, the table is empty. */
unsigned kdp_enumerate(struct kdp_ctx *c, uint8_t lo_yx, uint8_t hi_yx, uint32_t coord_cycles);

/* Runs jobs[0..n-1] (at most KDP_MAX_JOBS, one per unit) to completion. One target, with no
 * other unit owing instructions: the staging RAM in two halves, one kicked while the other is
 * staged, each kick streaming a half on the unit's own returned credit. Several targets: four
 * regions, the next staged while a kick runs, one staged program serving every job that
 * shares it, kicks topped up within each target's room. Credit never above room (inst_depth
 * less what is in the unit), completion by NODE_STATUS counts modulo 2^16; each job gets its
 * report. Returns KS_OK or the first error: KS_DISPATCH_EMPTY / _BAD_TARGET / _BAD_PROG
 * (nothing sent, nothing changed), KS_UNIT_FAULT (detail {y,x}, value exec_result; the
 * faulted kick's rest is kept from the unit and what was pushed retires first), KS_TIMEOUT
 * (detail = what was awaited << 8 | {y,x}; value per docs/dispatch.md). It starts from a quiet
 * agent (kdp_quiesce: KS_TIMEOUT if none), and leaves it quiet: no program running, RX empty. */
unsigned kdp_run(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n);

/* One program to one target: kdp_run of the single job j (j->prog, j->yx filled). */
unsigned kdp_dispatch(struct kdp_ctx *c, struct kdp_job *j);

/* One CU_CTRL read of register `index` (KF_CTRL_CU_*) of the unit at yx through the mailbox
 * (docs/hardware.md §1 "Enumeration"): one request in flight, a reply accepted only from yx with the txn
 * and index asked, others popped; KDP_ENUM_TRIES requests of `cycles` each (a lost TX_KICK).
 * Only with no program running. Returns 1 with *v = the value's bits [63:16] in place ([15:0]
 * read as 0), 0 when no reply came, or KS_TIMEOUT (recorded, detail MAILBOX_TX) when TX stays
 * full. */
unsigned kdp_ctrl_read(struct kdp_ctx *c, uint8_t yx, uint8_t index, uint32_t cycles, uint64_t *v);

/* Waits (bounded) for no program running and drains RX. KS_OK or KS_TIMEOUT. */
unsigned kdp_quiesce(struct kdp_ctx *c);

#endif
