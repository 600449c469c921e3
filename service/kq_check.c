/* kq_check.c — the command queue's checks (docs/design.md §4 "Bad input gets a clear status and
 * changes nothing"; docs/host-interface.md §3.2, §5, §6): setup line, address ranges,
 * submissions, RUN step lists. Pure logic: no hal, built natively for tests/host/service and
 * fuzzing. Written for the RV32 window (docs/service.md "Size"): the rules are data (record
 * kinds, reserved-field tables), one range routine serves every address, and arithmetic is
 * 32-bit wherever that is exact. */
#include "kq.h"

/* Bits [63:32] of a reachable unit-global address: 0 (DRAM of this mesh, offset below 4 GB)
 * or bit 39 alone (staging aperture 0). Every variant's reach ends at or below 2^32 in both
 * (kq_reach), so any other value — bits above 40, bit 38, another mesh [37:36], another
 * aperture [35:32], DRAM past 4 GB — is unreachable, and the offset is the low word. */
#define KQ_UG_STAGING_HI   (1u << (39 - 32))

/* Not inlined: one copy of the three stores serves every refusal. value is 32 bits: every
 * refusal's value but an address (kq_range) fits, and RV32 passes it in one register. */
static __attribute__((noinline)) unsigned kq_fail(struct kq_err *e, uint32_t status,
                                                  uint32_t detail, uint32_t value)
{
    e->status = (uint16_t)status;
    e->detail = detail;
    e->value = value;
    return status;
}

unsigned kq_range(const struct kq_reach *r, uint64_t ug, uint32_t bytes, uint32_t align,
                  struct kq_err *e)
{
    uint32_t lo = (uint32_t)ug, hi = (uint32_t)(ug >> 32);
    unsigned st = KS_BAD_ALIGN;
    uint32_t detail = align;
    if (!(lo & (align - 1u))) {
        st = KS_BAD_ADDR;
        detail = bytes;
        /* Another mesh's DRAM would alias ours silently (docs/hardware.md §8) and bit 38 is 0 on the
         * wire: both fall in "any other high word" and are refused rather than guessed at.
         * lo and bytes are below 2^32: the sum cannot wrap. Then the firmware's own DRAM code
         * (rsv): data there would be overwritten code or code read as data. Not limited to the
         * DRAM region, to save the test: RV64 (the one staging reach) has rsv {0, 0}, and
         * lo >= 0 always holds. The 32-bit lo + bytes cannot wrap: it is within a reach below
         * 2^32 on any board with rsv (queue.c asserts it). */
        if (!(hi & ~KQ_UG_STAGING_HI) && (uint64_t)lo + bytes <= r->end[hi / KQ_UG_STAGING_HI] &&
            (lo >= r->rsv[1] || lo + bytes <= r->rsv[0]))
            st = KS_OK, detail = 0, ug = 0;
    }
    /* kq_fail's value is 32 bits: the address is not */
    e->status = (uint16_t)st;
    e->detail = detail;
    e->value = ug;
    return st;
}

/* ---- The rules, as data ----
 * Every field check of the setup line, a submission and a RUN step is a row: which field, what
 * it must be, the status when it is not. One small interpreter runs them in order (first
 * broken wins); what is left in C is what needs state: overlap and indices of the setup line
 * (a queue's index rules beyond a fresh queue's in kq_check_cold.c),
 * the WAIT count; the DISPATCH command's target list and the REPLAY step's descriptor list are
 * rows run by kq_check_cold.c. The rows live with the data (the RV32
 * scratchpad), not in the instruction window. */
enum kq_rule_kind {
    KQ_R_LIMIT,     /* the value in [lo, hi]; else status, detail = the value (rec 1: detail =
                     * off, the offset of a reserved field; an 8-byte one reads as its words' OR) */
    KQ_R_POW2,      /* as LIMIT, and a power of two */
    KQ_R_DATA,      /* kq_range of the u64 address field at off and value x rec bytes, align;
                     * a refusal keeps kq_range's status unless status is set (setup rules) */
    KQ_R_TARGET,    /* a RUN step's one target (u8 {y,x}) at off: in the unit table, else
                     * KS_BAD_TARGET, detail {y,x} */
    KQ_R_END,       /* the list is done: KS_OK */
    KQ_R_NEXT,      /* go on with the list kq_lists[lo + the value] (the op's own rows) */
    KQ_R_TALLY,     /* RUN steps, after the TARGET row of the one target at off, value n:
                     * DISPATCH (rec 0) counts one more
                     * program for the unit; WAIT (rec 1) needs n <= that count, else
                     * KS_UNSATISFIABLE, detail {y,x}, value n */
    /* The rows no bench figure runs, through kq_check_cold (kq_check_cold.c, cold code on
     * RV32), field at off, value n: */
    KQ_R_COLD,
    KQ_R_TARGETS = KQ_R_COLD + KQ_CHECK_TARGETS,   /* a DISPATCH command's n targets */
    KQ_R_LIST = KQ_R_COLD + KQ_CHECK_LIST,         /* a REPLAY step's descriptor list (u64
                                                    * address, range-checked by the row before) */
    KQ_R_HANDLE = KQ_R_COLD + KQ_CHECK_HANDLE,     /* a REPLAY_H step's handle (u32) */
};

/* Every row has one value, the field of `vwidth` bytes at `voff`, read once before the row's
 * kind is looked at: the field a LIMIT checks, the count of a DATA, TARGETS, TALLY or LIST
 * row, the op of a NEXT row (vwidth 0: a row with no value, TARGET or END; it reads the
 * record's first 8 bytes as an 8-byte field would and ignores them). `off` is the row's other
 * field. */
struct kq_rule {
    uint8_t kind, off, voff, vwidth;
    uint8_t status, rec, align, rsvd;   /* DATA: record bytes (KQ_REC), alignment */
    uint32_t lo, hi;                    /* LIMIT, POW2; NEXT: lo */
};

#define KQ_FIELD(T, f)           offsetof(T, f), sizeof(((T *)0)->f)
#define KQ_LIMIT(T, f, st, l, h) { KQ_R_LIMIT, offsetof(T, f), KQ_FIELD(T, f), st, 0, 0, 0, l, h }
#define KQ_POW2(T, f, st, l, h)  { KQ_R_POW2, offsetof(T, f), KQ_FIELD(T, f), st, 0, 0, 0, l, h }
/* a reserved field of n bytes at byte offset `at`: 0, else KS_BAD_RSVD with detail `at` */
#define KQ_ZERO_AT(at, n)        { KQ_R_LIMIT, at, at, n, KS_BAD_RSVD, 1, 0, 0, 0, 0 }
#define KQ_ZERO(T, f)            KQ_ZERO_AT(offsetof(T, f), sizeof(((T *)0)->f))
/* A DATA row's record size as two shifts, lo | hi << 4, bytes = 2^lo + 2^hi: the RV32 core has
 * no multiply (docs/hardware.md §4, RV32I only), and count x bytes on the submission path is then two
 * shifts and an add, not a libgcc loop. Every record size is a sum of two powers of two
 * (12 = 8 + 4, 32 = 16 + 16, 64 = 32 + 32, each at most 64 bytes: KQ_LOG2); KQ_REC_OK says so
 * at build time. */
#define KQ_LOG2(p)     ((p) >= 64u ? 6 : (p) >= 32u ? 5 : (p) >= 16u ? 4 : (p) >= 8u ? 3 : (p) >= 4u ? 2 : (p) >= 2u ? 1 : 0)
#define KQ_REC_LO(n)   (((n) & ((n) - 1u)) ? KQ_LOG2((n) & (0u - (n))) : KQ_LOG2(n) - 1)
#define KQ_REC_HI(n)   (((n) & ((n) - 1u)) ? KQ_LOG2((n) & ((n) - 1u)) : KQ_LOG2(n) - 1)
#define KQ_REC(n)      (KQ_REC_LO(n) | KQ_REC_HI(n) << 4)
#define KQ_REC_OK(n)   ((1u << KQ_REC_LO(n)) + (1u << KQ_REC_HI(n)) == (n))
_Static_assert(KQ_REC_OK(KQ_SUB_BYTES) && KQ_REC_OK(KQ_CPL_BYTES) && KQ_REC_OK(KD_RECORD_BYTES) &&
               KQ_REC_OK(KQ_PAYLOAD_BYTES) && KQ_REC_OK(KQ_STEP_BYTES), "record sizes as two shifts");
#define KQ_DATA(T, a, c, st, rec, al) { KQ_R_DATA, offsetof(T, a), KQ_FIELD(T, c), st, KQ_REC(rec), al, 0, 0, 0 }
#define KQ_TARGET(T, t)          { KQ_R_TARGET, offsetof(T, t), 0, 0, 0, 0, 0, 0, 0, 0 }
#define KQ_TARGETS_N(T, t, c)    { KQ_R_TARGETS, offsetof(T, t), KQ_FIELD(T, c), 0, 0, 0, 0, 0, 0 }
#define KQ_END                   { KQ_R_END, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
#define KQ_TALLY(wait)           { KQ_R_TALLY, offsetof(struct kq_step, target), \
                                   KQ_FIELD(struct kq_step, n), 0, wait, 0, 0, 0, 0 }
#define KQ_LIST                  { KQ_R_LIST, offsetof(struct kq_step, addr), \
                                   KQ_FIELD(struct kq_step, n), 0, 0, 0, 0, 0, 0 }
#define KQ_NEXT(T, f, base)      { KQ_R_NEXT, 0, KQ_FIELD(T, f), 0, 0, 0, 0, base, 0 }
#define KQ_HANDLE_ROW            { KQ_R_HANDLE, offsetof(struct kq_step, addr), 0, 0, 0, 0, 0, 0, 0, 0 }
#define KQ_LISTS_SUB             0u                  /* kq_lists[] by enum kq_op */
#define KQ_LISTS_STEP            (KQ_OP_LAST + 1u)   /* kq_lists[] by enum kq_step_op */
#define KQ_LISTS_REPLAY          (KQ_LISTS_STEP + KQ_STEP_REPLAY_H + 1u)   /* ... by flags */
#define KQ_LISTS_RUN             (KQ_LISTS_REPLAY + KQ_SUB_F_ALL + 1u)
#define KQ_LISTS_RECORD          (KQ_LISTS_RUN + KQ_SUB_F_ALL + 1u)
#define KQ_LISTS_FORGET          (KQ_LISTS_RECORD + KQ_SUB_F_ALL + 1u)
#define KQ_LISTS_TARGETS         (KQ_LISTS_FORGET + KQ_SUB_F_ALL + 1u)  /* by a DISPATCH's ntargets */

/* an index line's value (the rows read the header from its setup line on): 0 */
#define KQ_FRESH(l)              { KQ_R_LIMIT, offsetof(struct kq_header, l), \
                                   KQ_FIELD(struct kq_header, l.value), KQ_SETUP_INDICES, 0, 0, 0, 0, 0 }
/* Setup line (docs/host-interface.md §3.2): the status is the KQ_SETUP_* rule. */
static const struct kq_rule kq_rules_setup[] = {
    KQ_LIMIT(struct kq_setup, magic, KQ_SETUP_MAGIC, KQ_MAGIC, KQ_MAGIC),
    KQ_LIMIT(struct kq_setup, version, KQ_SETUP_VERSION, KQ_VERSION, KQ_VERSION),
    KQ_LIMIT(struct kq_setup, flags, KQ_SETUP_FLAGS, 0, 0),
    KQ_LIMIT(struct kq_setup, rsvd0, KQ_SETUP_FLAGS, 0, 0),
    KQ_POW2(struct kq_setup, sq_entries, KQ_SETUP_SQ_ENTRIES, 1, KQ_MAX_ENTRIES),
    KQ_POW2(struct kq_setup, cq_entries, KQ_SETUP_CQ_ENTRIES, 1, KQ_MAX_ENTRIES),
    KQ_DATA(struct kq_setup, sq_addr, sq_entries, KQ_SETUP_SQ_ADDR, KQ_SUB_BYTES, KQ_LINE),
    KQ_DATA(struct kq_setup, cq_addr, cq_entries, KQ_SETUP_CQ_ADDR, KQ_CPL_BYTES, KQ_LINE),
    /* Last: the four index lines of a fresh queue, all 0, meet the index rules. Any other
     * value is no refusal yet: kq_setup_check has them checked in full (cold). */
    KQ_FRESH(sq_tail), KQ_FRESH(sq_head), KQ_FRESH(cq_tail), KQ_FRESH(cq_head),
    KQ_END
};

/* Submissions (§5): op, flags (the bits any op knows), rsvd, then per op: each op's list
 * starts by the flags it takes (a NEXT on them) or a row refusing any. */
static const struct kq_rule kq_rules_sub[] = {
    KQ_LIMIT(struct kq_sub, op, KS_BAD_OP, 0, KQ_OP_LAST),
    KQ_LIMIT(struct kq_sub, flags, KS_BAD_FLAGS, 0, KQ_SUB_F_ALL),
    KQ_ZERO_AT(offsetof(struct kq_sub, rsvd[0]), 8), KQ_ZERO_AT(offsetof(struct kq_sub, rsvd[1]), 8),
    KQ_ZERO_AT(offsetof(struct kq_sub, rsvd[2]), 8), KQ_ZERO_AT(offsetof(struct kq_sub, rsvd[3]), 8),
    KQ_NEXT(struct kq_sub, op, KQ_LISTS_SUB)
};
#define KQ_NO_FLAGS  KQ_LIMIT(struct kq_sub, flags, KS_BAD_FLAGS, 0, 0)
static const struct kq_rule kq_rules_noflags[] = { KQ_NO_FLAGS, KQ_END };
static const struct kq_rule kq_rules_replay[] = {
    KQ_LIMIT(struct kq_sub, count, KS_BAD_LEN, 1, KD_MAX_WRITES),
    KQ_DATA(struct kq_sub, addr, count, 0, KD_RECORD_BYTES, 4),
    KQ_END
};
/* REPLAY or RUN with KQ_SUB_F_HANDLE, FORGET: addr[31:0] a handle, looked up when it runs */
static const struct kq_rule kq_rules_handle[] = {
    KQ_ZERO_AT(offsetof(struct kq_sub, addr) + 4, 4),
    KQ_ZERO(struct kq_sub, count),
    KQ_END
};
static const struct kq_rule kq_rules_dispatch[] = {
    KQ_NO_FLAGS,
    KQ_LIMIT(struct kq_sub, count, KS_BAD_LEN, 1, KQ_MAX_PROG),
    KQ_DATA(struct kq_sub, addr, count, 0, KQ_PAYLOAD_BYTES, 8),
    KQ_LIMIT(struct kq_sub, ntargets, KS_BAD_NTARGETS, 1, KQ_MAX_TARGETS),
    KQ_NEXT(struct kq_sub, ntargets, KQ_LISTS_TARGETS)
};
/* One target: a TARGET row, native (no twice to look for; every such DISPATCH runs it, bench
 * dispatch_cmd_fixed_cycles). Several: the cold row (kq_check_cold.c). */
static const struct kq_rule kq_rules_dispatch_one[] = {
    KQ_TARGET(struct kq_sub, targets),
    KQ_END
};
static const struct kq_rule kq_rules_dispatch_many[] = {
    KQ_TARGETS_N(struct kq_sub, targets, ntargets),
    KQ_END
};
static const struct kq_rule kq_rules_run[] = {
    KQ_LIMIT(struct kq_sub, count, KS_BAD_LEN, 1, KQ_MAX_STEPS),
    KQ_DATA(struct kq_sub, addr, count, 0, KQ_STEP_BYTES, 8),
    KQ_END
};
static const struct kq_rule kq_rules_records[] = {
    KQ_NO_FLAGS,
    KQ_LIMIT(struct kq_sub, count, KS_BAD_LEN, 1, KQ_REC_MAX_HANDLES),
    KQ_DATA(struct kq_sub, addr, count, 0, sizeof(struct kq_rec_info), KQ_LINE),
    KQ_END
};
/* the ops that take flags: their list by the flags (bounded to KQ_SUB_F_ALL by the row above) */
#define KQ_BY_FLAGS(base)        { KQ_NEXT(struct kq_sub, flags, base) }
static const struct kq_rule kq_rules_replay_f[] = KQ_BY_FLAGS(KQ_LISTS_REPLAY);
static const struct kq_rule kq_rules_run_f[] = KQ_BY_FLAGS(KQ_LISTS_RUN);
static const struct kq_rule kq_rules_record_f[] = KQ_BY_FLAGS(KQ_LISTS_RECORD);
static const struct kq_rule kq_rules_forget_f[] = KQ_BY_FLAGS(KQ_LISTS_FORGET);

/* RUN steps (§6): op, rsvd, then per op (the DISPATCH and REPLAY rows as the commands'). */
static const struct kq_rule kq_rules_step[] = {
    KQ_LIMIT(struct kq_step, op, KS_BAD_STEP, KQ_STEP_DISPATCH, KQ_STEP_REPLAY_H),
    KQ_ZERO(struct kq_step, rsvd0), KQ_ZERO(struct kq_step, rsvd1),
    KQ_ZERO(struct kq_step, rsvd2), KQ_ZERO(struct kq_step, rsvd3),
    KQ_NEXT(struct kq_step, op, KQ_LISTS_STEP)
};
static const struct kq_rule kq_rules_step_dispatch[] = {
    KQ_LIMIT(struct kq_step, n, KS_BAD_LEN, 1, KQ_MAX_PROG),
    KQ_DATA(struct kq_step, addr, n, 0, KQ_PAYLOAD_BYTES, 8),
    KQ_TARGET(struct kq_step, target),
    KQ_TALLY(0),
    KQ_END
};
static const struct kq_rule kq_rules_step_replay[] = {
    KQ_LIMIT(struct kq_step, n, KS_BAD_LEN, 1, KD_MAX_WRITES),
    KQ_DATA(struct kq_step, addr, n, 0, KD_RECORD_BYTES, 4),
    /* the whole list now, so a bad move at step k cannot leave steps 0..k-1 done */
    KQ_LIST,
    KQ_END
};
static const struct kq_rule kq_rules_step_wait[] = {
    KQ_TARGET(struct kq_step, target),
    KQ_LIMIT(struct kq_step, n, KS_BAD_LEN, 1, UINT32_MAX),
    /* Every program dispatched before this step completes by the time the WAIT runs (or the
     * RUN fails), so a WAIT is satisfiable exactly when enough precede it. */
    KQ_TALLY(1),
    KQ_END
};
/* a recorded descriptor list by its handle: the record was checked when it was made */
static const struct kq_rule kq_rules_step_replay_h[] = {
    KQ_ZERO(struct kq_step, n),
    KQ_ZERO_AT(offsetof(struct kq_step, addr) + 4, 4),
    KQ_HANDLE_ROW,
    KQ_END
};
static const struct kq_rule kq_rules_none[] = { KQ_END };

/* The per-op lists (KQ_R_NEXT): commands by enum kq_op, then steps by enum kq_step_op, then a
 * DISPATCH command's target rows by its ntargets (1..KQ_MAX_TARGETS, bounded by the row before). */
static const struct kq_rule *const kq_lists[] = {
    [KQ_LISTS_SUB + KQ_OP_NOP] = kq_rules_noflags,
    [KQ_LISTS_SUB + KQ_OP_REPLAY] = kq_rules_replay_f,
    [KQ_LISTS_SUB + KQ_OP_DISPATCH] = kq_rules_dispatch,
    [KQ_LISTS_SUB + KQ_OP_RUN] = kq_rules_run_f,
    [KQ_LISTS_SUB + KQ_OP_UNITS] = kq_rules_noflags,
    [KQ_LISTS_SUB + KQ_OP_STOP] = kq_rules_noflags,
    [KQ_LISTS_SUB + KQ_OP_RECORD] = kq_rules_record_f,
    [KQ_LISTS_SUB + KQ_OP_FORGET] = kq_rules_forget_f,
    [KQ_LISTS_SUB + KQ_OP_RECORDS] = kq_rules_records,
    [KQ_LISTS_STEP] = kq_rules_none,                /* no step 0: refused by the op row */
    [KQ_LISTS_STEP + KQ_STEP_DISPATCH] = kq_rules_step_dispatch,
    [KQ_LISTS_STEP + KQ_STEP_REPLAY] = kq_rules_step_replay,
    [KQ_LISTS_STEP + KQ_STEP_WAIT] = kq_rules_step_wait,
    [KQ_LISTS_STEP + KQ_STEP_BARRIER] = kq_rules_none,
    [KQ_LISTS_STEP + KQ_STEP_SIGNAL] = kq_rules_none,
    [KQ_LISTS_STEP + KQ_STEP_REPLAY_H] = kq_rules_step_replay_h,
    /* by flags: 0 the data in place, KQ_SUB_F_HANDLE a handle; RECORD: 0 a descriptor list,
     * KQ_SUB_F_STEPS a RUN step list (checked as REPLAY and RUN check theirs) */
    [KQ_LISTS_REPLAY + 0] = kq_rules_replay,
    [KQ_LISTS_REPLAY + KQ_SUB_F_HANDLE] = kq_rules_handle,
    [KQ_LISTS_REPLAY + KQ_SUB_F_STEPS] = kq_rules_noflags,
    [KQ_LISTS_REPLAY + KQ_SUB_F_ALL] = kq_rules_noflags,
    [KQ_LISTS_RUN + 0] = kq_rules_run,
    [KQ_LISTS_RUN + KQ_SUB_F_HANDLE] = kq_rules_handle,
    [KQ_LISTS_RUN + KQ_SUB_F_STEPS] = kq_rules_noflags,
    [KQ_LISTS_RUN + KQ_SUB_F_ALL] = kq_rules_noflags,
    [KQ_LISTS_RECORD + 0] = kq_rules_replay,
    [KQ_LISTS_RECORD + KQ_SUB_F_HANDLE] = kq_rules_noflags,
    [KQ_LISTS_RECORD + KQ_SUB_F_STEPS] = kq_rules_run,
    [KQ_LISTS_RECORD + KQ_SUB_F_ALL] = kq_rules_noflags,
    [KQ_LISTS_FORGET + 0] = kq_rules_handle,        /* FORGET: flags 0, a handle */
    [KQ_LISTS_FORGET + KQ_SUB_F_HANDLE] = kq_rules_noflags,
    [KQ_LISTS_FORGET + KQ_SUB_F_STEPS] = kq_rules_noflags,
    [KQ_LISTS_FORGET + KQ_SUB_F_ALL] = kq_rules_noflags,
    [KQ_LISTS_TARGETS + 1] = kq_rules_dispatch_one,
    [KQ_LISTS_TARGETS + 2 ... KQ_LISTS_TARGETS + KQ_MAX_TARGETS] = kq_rules_dispatch_many,
};
_Static_assert(sizeof kq_lists / sizeof kq_lists[0] == KQ_LISTS_TARGETS + KQ_MAX_TARGETS + 1u,
               "every list entry filled");

/* Fields are read at their natural alignment: every record is aligned (the setup line to 32,
 * a submission is a local copy, steps to 8, checked before they are read) and so is every
 * field in it. One load a field: the checks run for every submission and step (the bench:
 * cmd_overhead_insns, host_vs_fw_ratio). */
typedef uint16_t __attribute__((may_alias)) kq_u16;
typedef uint32_t __attribute__((may_alias)) kq_u32;

/* A field of 1, 2 or 4 bytes; 8 bytes (and width 0, whose value no row uses) read as the OR
 * of its two words (a zero test). */
static inline uint32_t kq_get(const uint8_t *f, unsigned width)
{
    if (width == 1)
        return *f;
    if (width == 2)
        return *(const kq_u16 *)(const void *)f;
    const kq_u32 *w = (const kq_u32 *)(const void *)f;
    return width == 4 ? w[0] : w[0] | w[1];
}

static inline uint64_t kq_get64(const uint8_t *f)
{
    const kq_u32 *w = (const kq_u32 *)(const void *)f;
    return w[0] | (uint64_t)w[1] << 32;
}

/* Runs the rows r over the record at p; KS_OK (e filled) or the first broken row's status.
 * tally: programs dispatched so far per unit-table entry (RUN steps only); NULL skips the
 * TALLY rows (each is its list's last row but END, so the list ends KS_OK there). The rows
 * come last: kq_step_check, whose arguments are these in this order, then loads the rows and
 * jumps, its arguments left where they are (12 bytes of the RV32 window). */
_Static_assert(offsetof(struct kq_env, reach) == 0, "an env starts with its reach (kq_rules)");
static unsigned kq_rules(const void *rec, const struct kq_reach *reach, uint32_t *tally,
                         struct kq_err *e, const struct kq_rule *r)
{
    /* The env whose reach this is: one argument register fewer at every call (4 bytes a call
     * site on RV32). The setup line's rows (a bare reach, no env) use no env field but reach:
     * none of them is a TARGET, TALLY or cold row, so env is never read through there. */
    const struct kq_env *env = (const struct kq_env *)(const void *)reach;
    const uint8_t *p = rec;
    int ui = 0;                                     /* the last target's unit-table index */
    for (;;) {
        const uint8_t *f = p + r->off;
        uint32_t v = kq_get(p + r->voff, r->vwidth);
        unsigned kind = r->kind;
        if (kind <= KQ_R_POW2) {                    /* most rows */
            if (v - r->lo > r->hi - r->lo || (kind == KQ_R_POW2 && (v & (v - 1u))))
                return kq_fail(e, r->status, r->rec ? r->off : v, 0);
        } else if (kind == KQ_R_DATA) {
            /* the count row before it bounds v x rec to at most 2 MB; rec is KQ_REC's */
            uint32_t bytes = (v << (r->rec & 15u)) + (v << (r->rec >> 4));
            if (kq_range(reach, kq_get64(f), bytes, r->align, e) != KS_OK)
                return r->status ? r->status : e->status;   /* status: a KQ_SETUP_* rule */
        } else if (kind == KQ_R_TARGET) {
            if ((ui = kq_unit_index(env, *f)) < 0)
                return kq_fail(e, KS_BAD_TARGET, *f, 0);
        } else if (kind == KQ_R_TALLY && tally) {  /* the TARGET row before it: ui is *f's */
            uint32_t *t = &tally[ui];
            if (!r->rec)
                ++*t;
            else if (v > *t)
                return kq_fail(e, KS_UNSATISFIABLE, *f, v);
        } else if (kind >= KQ_R_COLD) {
            unsigned st = kq_check_cold(kind - KQ_R_COLD, f, v, env, e);
            if (st != KS_OK)
                return st;
        } else if (kind == KQ_R_NEXT) {             /* the op row before it bounds the field */
            r = kq_lists[r->lo + v];
            continue;
        } else {                                    /* KQ_R_END */
            return kq_fail(e, KS_OK, 0, 0);
        }
        r++;
    }
}

/* Native: every boot runs it (bench boot_insns; an interpreted call at boot would also pay the
 * cold segment's sum, docs/kvm.md "Guards"). The field rows and a fresh queue's index lines
 * (all 0: the rows' last four), then the layout every host library queue has
 * (kh_queue_create): header, submission ring, completion ring in that order.
 * Those meet the overlap and index rules by
 * construction; any other queue has both rules checked in full on the cold path
 * (kq_check_cold.c KQ_CHECK_SETUP: a restart, another layout). */
unsigned kq_setup_check(const struct kq_reach *r, uint64_t qaddr, const struct kq_header *h)
{
    struct kq_err e;
    /* Rule 1 before the header is read: the caller maps qaddr without checking it. */
    if (kq_range(r, qaddr, sizeof *h, KQ_LINE, &e) != KS_OK)
        return KQ_SETUP_ADDR;
    const struct kq_setup *s = &h->setup;
    unsigned rule = kq_rules(s, r, 0, &e, kq_rules_setup);
    if (rule != KS_OK && rule != KQ_SETUP_INDICES)
        return rule;
    /* All three reachable: each in one region (bits [63:32]) and ending at or below 2^32 in
     * it. Their low words in this order, each start at or past the end before it, are three
     * disjoint ranges of offsets, and ranges at disjoint offsets do not overlap whichever
     * regions they are in: the high words need no test. */
    const kq_u32 *sq = (const kq_u32 *)(const void *)&s->sq_addr;
    const kq_u32 *cq = (const kq_u32 *)(const void *)&s->cq_addr;
    uint32_t q = (uint32_t)qaddr, sl = sq[0], cl = cq[0];
    uint32_t fresh = !rule && sl > q && sl - q >= sizeof *h &&
                     cl > sl && cl - sl >= (uint32_t)s->sq_entries * KQ_SUB_BYTES;
    if (fresh)
        return 0;
    e.value = qaddr;                    /* KQ_CHECK_SETUP's header address */
    return kq_check_cold(KQ_CHECK_SETUP, (const uint8_t *)h, 0, 0, &e);
}

unsigned kq_sub_check(const struct kq_sub *s, const struct kq_env *env, struct kq_err *e)
{
    return kq_rules(s, &env->reach, 0, e, kq_rules_sub);
}

/* The submissions of every by-handle REPLAY or RUN, every NOP and every one-target DISPATCH,
 * checked in straight code (about 20 instructions, or 60 with a DISPATCH's range and target,
 * against the rows' 230-340: bench cmd_overhead_insns, dispatch_cmd_fixed_cycles,
 * record_run_overhead_insns). It accepts only what kq_sub_check accepts, with the same outcome
 * (KS_OK, detail 0, value 0), and leaves the rest to kq_sub_check (returns 0), which names
 * the refusal: two paths to one answer, never two answers (tests/host/service: both on every
 * case, and the fuzzer). UNITS and STOP too (three compares). Boards with room for it call it
 * first (board header BOARD_QUEUE_FAST; RV64): the RV32 window has none. */
_Static_assert(offsetof(struct kq_sub, rsvd) == 32 && sizeof(struct kq_sub) == 64,
               "rsvd is the second line: four u64");
int kq_sub_fast(const struct kq_sub *s, const struct kq_env *env, struct kq_err *e)
{
    if (s->rsvd[0] | s->rsvd[1] | s->rsvd[2] | s->rsvd[3])
        return 0;
    /* op and flags in one compare: the op's row (0..KQ_OP_LAST), then its flags row */
    uint32_t opf = s->op | (uint32_t)s->flags << 16;
    if (opf == (KQ_OP_REPLAY | KQ_SUB_F_HANDLE << 16) ||
        opf == (KQ_OP_RUN | KQ_SUB_F_HANDLE << 16)) {
        /* kq_rules_handle: addr[63:32] 0, count 0; the handle is looked up when it runs */
        if ((s->addr >> 32) | s->count)
            return 0;
    } else if (opf == KQ_OP_DISPATCH) {
        /* kq_rules_dispatch with one target: count 1..KQ_MAX_PROG, the payloads' range
         * (8-aligned, count x 32 bytes), ntargets 1, the target in the unit table */
        if (s->count - 1u >= KQ_MAX_PROG || s->ntargets != 1 ||
            kq_range(&env->reach, s->addr, s->count * KQ_PAYLOAD_BYTES, 8, e) != KS_OK ||
            kq_unit_index(env, s->targets[0]) < 0)
            return 0;
    } else if (opf != KQ_OP_NOP && opf != KQ_OP_UNITS && opf != KQ_OP_STOP) {
        return 0;                       /* those three: flags 0 and nothing else read */
    }
    e->status = KS_OK;
    e->detail = 0;
    e->value = 0;
    return 1;
}

int kq_step_use(const struct kq_step *st, const struct kq_env *env)
{
    unsigned op = st->op;
    struct kq_err e;
    if (op - KQ_STEP_DISPATCH > KQ_STEP_REPLAY_H - KQ_STEP_DISPATCH)
        return -1;
    if (op != KQ_STEP_DISPATCH && op != KQ_STEP_WAIT)
        return 0;
    int ui = kq_unit_index(env, st->target);
    if (op == KQ_STEP_DISPATCH &&
        (st->n - 1u >= KQ_MAX_PROG ||
         kq_range(&env->reach, st->addr, st->n * KQ_PAYLOAD_BYTES, 8, &e) != KS_OK))
        return -1;
    return ui;
}

unsigned kq_step_check(const struct kq_step *st, const struct kq_env *env, uint32_t *tally,
                       struct kq_err *e)
{
    return kq_rules(st, &env->reach, tally, e, kq_rules_step);
}

unsigned kq_steps_check(const struct kq_step *st, uint32_t n, const struct kq_env *env,
                        struct kq_err *e)
{
    uint32_t dispatched[KX_BOOT_MAX_UNITS];
    /* A plain loop: GCC 12 makes no memset call of it (scripts/check-libcalls.sh checks the
     * image; the empty asm that used to stop one cost 4 window bytes). */
    for (unsigned i = 0; i < KX_BOOT_MAX_UNITS; i++)
        dispatched[i] = 0;
    uint32_t i = 0;
    do {                                /* n >= 1: the RUN's count row */
        if (kq_rules(st++, &env->reach, dispatched, e, kq_rules_step) != KS_OK) {
            e->value = kq_step_value(i, e->value);
            return e->status;
        }
    } while (++i < n);
    return KS_OK;                       /* e: the last step's END */
}
