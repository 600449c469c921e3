/* validate.c — descriptor list validation before any write (docs/hardware.md §3, §3.1 "refuse" rows,
 * §5 reach). Pure C: no hal, so the host tests, kactl
 * and the fuzzer build it as is. It replays the list onto a shadow of the mover's registers
 * with the register semantics of docs/hardware.md §3.1 (one walker select shared by HDR/DIM/BOUND,
 * AXIS commits the staged DIM, settings persist across moves) and checks every move at its
 * GO. State from before the list is unknown; see docs/mover.md "What the validator knows".
 *
 * Built for size and for a short per-write path (docs/mover.md "Size and cost"): a write is
 * checked against one table row at its offset and stored raw into a flat shadow; every field
 * is decoded only at a GO, for the registers that move reads. */
#include "kmv.h"

/* The reference transform's entry: 2048 bits in, 8 source words (docs/hardware.md §3.1 XFORM row). The
 * XFORM check takes a whole number of entries as a mask: a power of two, as IN_BITS / 256 of a
 * transform slot is. */
#define XF_IN_WORDS  8u
_Static_assert((XF_IN_WORDS & (XF_IN_WORDS - 1u)) == 0, "an entry is a power of two of words");

const struct kmv_caps kmv_caps_rv32 = {
    .reach_end = KMV_REG_SPAN, .xf_ids = 1u << 1, .xf_in_words = XF_IN_WORDS, .xf_out_words = 4,
};
const struct kmv_caps kmv_caps_rv64 = {
    .reach_end = KMV_RV64_REACH_END, .xf_ids = 1u << 1, .xf_in_words = XF_IN_WORDS, .xf_out_words = 4,
};

/* Registers by offset >> 3: 0x00 CTRL, 0x10 HDR, 0x18 DIM, 0x20 AXIS, 0x28 BOUND, 0x30 INDEX,
 * 0x38 SEED, 0x40 IMM, 0x50 GATHER. 0x08, 0x48 and 0x58-0x78 are free (docs/hardware.md §3). */
#define KNOWN_REGS  ((1u << 0) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6) | \
                     (1u << 7) | (1u << 8) | (1u << 10))

/* Fields read from a record's 32-bit halves (no 64-bit shifts on RV32), derived from the
 * same masks as everything else: a field wholly in one half, or one spanning both. */
#define LO(m)              ((uint32_t)(m))
#define HI(m)              ((uint32_t)((m) >> 32))
#define GET_LO(m, lo)      ((unsigned)(((lo) & LO(m)) >> KBF_FIELD_SHIFT(LO(m))))
#define GET_HI(m, hi)      ((unsigned)(((hi) & HI(m)) >> KBF_FIELD_SHIFT(HI(m))))
#define SPAN_GET(m, lo, hi) ((((uint64_t)((hi) & HI(m))) << (32u - KBF_FIELD_SHIFT(m))) | \
                             (((lo) & LO(m)) >> KBF_FIELD_SHIFT(m)))
_Static_assert(LO(KMV_HDR_BASE) != 0 && HI(KMV_HDR_BASE) != 0 && LO(KMV_DIM_STRIDE) != 0 &&
               HI(KMV_DIM_STRIDE) != 0 && LO(KMV_BOUND_EXTENT) != 0 &&
               HI(KMV_BOUND_EXTENT) != 0, "SPAN_GET fields span both halves");
_Static_assert(!HI(KMV_CTRL_MODE | KMV_CTRL_WIDTH | KMV_CTRL_GO | KMV_DIM_WALKER | KMV_DIM_INDEX |
                   KMV_DIM_COUNT | KMV_BOUND_WALKER | KMV_BOUND_WHICH | KMV_GATHER_PITCH |
                   KMV_HDR_WALKER), "GET_LO fields are in the low half");
_Static_assert(!LO(KMV_HDR_NDIM | KMV_HDR_XFORM_ID | KMV_HDR_XFORM_MODE | KMV_INDEX_COUNT |
                   KMV_GATHER_WORDS), "GET_HI fields are in the high half");
/* The walker select is bit 0 of HDR, DIM and BOUND alike (docs/hardware.md §3), and BOUND's walker
 * and which-bound bits are adjacent: the shadow's slot arithmetic below relies on both. */
_Static_assert(KMV_HDR_WALKER == 1 && KMV_DIM_WALKER == 1 && KMV_BOUND_WALKER == 1 &&
               KMV_BOUND_WHICH == 2, "walker select in bit 0, bound select in bit 1");

/* Every bit a register defines, as the complement in 32-bit halves, indexed by the offset
 * itself (8 bytes a row, offsets are 8-aligned): anything else set is KS_MV_FIELD. */
#define NOT_LO(m)   ((uint32_t)~(uint32_t)(m))
#define NOT_HI(m)   ((uint32_t)~(uint32_t)((m) >> 32))
#define CTRL_FIELDS   (KMV_CTRL_MODE | KMV_CTRL_WIDTH | KMV_CTRL_FLAGS | KMV_CTRL_GO)
#define HDR_FIELDS    (KMV_HDR_WALKER | KMV_HDR_BASE | KMV_HDR_NDIM | KMV_HDR_XFORM_ID | KMV_HDR_XFORM_MODE)
#define DIM_FIELDS    (KMV_DIM_WALKER | KMV_DIM_INDEX | KMV_DIM_COUNT | KMV_DIM_STRIDE)
#define AXIS_FIELDS   (KMV_AXIS_AXIS | KMV_AXIS_STEP)
#define BOUND_FIELDS  (KMV_BOUND_WALKER | KMV_BOUND_WHICH | KMV_BOUND_BASE | KMV_BOUND_EXTENT)
#define INDEX_FIELDS  (KMV_INDEX_BASE | KMV_INDEX_COUNT)
#define GATHER_FIELDS (KMV_GATHER_PITCH | KMV_GATHER_WORDS)
static const uint32_t not_field[16][2] = {
    [KMV_REG_CTRL >> 3]   = { NOT_LO(CTRL_FIELDS),   NOT_HI(CTRL_FIELDS) },
    [KMV_REG_HDR >> 3]    = { NOT_LO(HDR_FIELDS),    NOT_HI(HDR_FIELDS) },
    [KMV_REG_DIM >> 3]    = { NOT_LO(DIM_FIELDS),    NOT_HI(DIM_FIELDS) },
    [KMV_REG_AXIS >> 3]   = { NOT_LO(AXIS_FIELDS),   NOT_HI(AXIS_FIELDS) },
    [KMV_REG_BOUND >> 3]  = { NOT_LO(BOUND_FIELDS),  NOT_HI(BOUND_FIELDS) },
    [KMV_REG_INDEX >> 3]  = { NOT_LO(INDEX_FIELDS),  NOT_HI(INDEX_FIELDS) },
    [KMV_REG_SEED >> 3]   = { 0, 0 },
    [KMV_REG_IMM >> 3]    = { NOT_LO(KMV_IMM_VALUE),  NOT_HI(KMV_IMM_VALUE) },
    [KMV_REG_GATHER >> 3] = { NOT_LO(GATHER_FIELDS), NOT_HI(GATHER_FIELDS) },
};

/* The shadow: each setting a move's checks read, as the raw value last written in this list,
 * one slot each; bit `slot` of `known` says it was written. Walker w has HDR at 8w and
 * DIM d at 8w + 1 + d; BOUND b of walker w is at 16 + w + 2b, i.e. 16 + BOUND[1:0]. */
#define SL_HDR(w)       ((w) << 3)
#define SL_DIM(w, d)    (((w) << 3) + 1u + (d))
#define SL_BOUND        16u                     /* + BOUND value [1:0] */
#define SL_INDEX        20u
#define SL_GATHER       21u
#define SL_STAGED       22u                     /* the DIM written last, until AXIS commits it */
#define SL_COUNT        23u
#define BOUNDS_OF(w)    ((UINT32_C(5) << SL_BOUND) << (w))     /* slots 16 + w and 18 + w */

struct vshadow {
    uint32_t v[SL_COUNT][2];                    /* [0] value [31:0], [1] value [63:32] */
    uint32_t known;
    const struct kmv_caps *caps;
};

/* A refusal from the GO checks, packed in one word: status | detail << 8 (0: the move is
 * fine). Their details fit 24 bits (at most dimension << 12 | 0x100 | offset). */
#define REFUSE(st, detail)  ((uint32_t)(st) | ((uint32_t)(detail) << 8))
#define DETAIL_DST          0x100u              /* detail bit 8: the destination walker */
#define WALK_LIMIT          (UINT64_C(1) << 48) /* longest walk the validator will count */
#define WORD_MASK           (KMV_WORD_BYTES - 1u)
/* HDR base [4:0] as bits of the value's low half: a base not a multiple of 32. */
#define HDR_BASE_MISALIGN   (LO(KMV_HDR_BASE) & (WORD_MASK << KBF_FIELD_SHIFT(KMV_HDR_BASE)))

/* The walkers each mode walks, in the order their checks run, as nibbles of walker + 1 (first
 * in the low nibble): XFORM source then destination (the source defines its iteration
 * space), COPY destination then source, every other mode the destination only. */
#define WALKS_DST           (KMV_WALK_DST + 1u)
#define WALKS_COPY          ((KMV_WALK_DST + 1u) | ((KMV_WALK_SRC + 1u) << 4))
#define WALKS_XFORM         ((KMV_WALK_SRC + 1u) | ((KMV_WALK_DST + 1u) << 4))

static unsigned fail(struct kmv_result *res, unsigned status, uint32_t detail, uint32_t index)
{
    res->status = status;
    res->detail = detail;
    res->index = index;
    return status;
}

/* Registers the writer may write, as bits by offset >> 3: known and within reach. */
static uint32_t allowed_regs(const struct kmv_caps *caps)
{
    /* reach_end is at most KMV_REG_SPAN (0x80): bits 0-15 at most; & 31 keeps the shift defined. */
    return KNOWN_REGS & ((UINT32_C(1) << ((caps->reach_end >> 3) & 31u)) - 1u);
}

/* What is wrong with an offset word the one-test fast path refused: not an 8-aligned
 * register in 0x00-0x7F, or out of reach. */
static unsigned bad_offset(uint32_t off, struct kmv_result *res, uint32_t i)
{
    int reg = (off & ~UINT32_C(0x78)) == 0 && (KNOWN_REGS >> (off >> 3)) & 1u;
    return fail(res, reg ? KS_NO_REACH : KS_BAD_OFFSET, off, i);
}

/* One walker a move walks: everything it needs written in the list, 32-byte aligned base and
 * strides, an offset sum that stays a 32-bit signed number, addresses inside the 40-bit
 * space, at most 2^48 elements. *elems gets the element count (a count of 0 counts as 1).
 * Returns 0 or the packed refusal. Offsets are counted in 32-byte words, which base and
 * strides are multiples of once aligned: Σ idx × stride stays inside int32 exactly when the
 * negative spans sum to at most 2^26 words and the positive ones to at most 2^26 - 1. */
static uint32_t check_walk(const struct vshadow *s, unsigned w, uint64_t *elems, uint64_t ext[2])
{
    uint32_t known = s->known >> SL_HDR(w), f, dt = 0;
    uint32_t tag = w << 16;                     /* DETAIL_DST << 8 for the destination */
    const uint32_t *h = s->v[SL_HDR(w)];
    uint32_t neg = 0, pos = 0;                  /* spans in words, each saturated at 2^27 */
    uint64_t count = 1;

    _Static_assert((KMV_WALK_DST << 16) == DETAIL_DST << 8, "walker tag");
    f = REFUSE(KS_MV_UNSET, KMV_REG_HDR);
    if (!(known & 1u))
        goto out;
    f = REFUSE(KS_MV_UNSET, KMV_REG_BOUND);
    if ((s->known & BOUNDS_OF(w)) != BOUNDS_OF(w))
        goto out;
    f = REFUSE(KS_MV_ALIGN, KMV_REG_HDR);
    if (h[0] & HDR_BASE_MISALIGN)
        goto out;
    for (unsigned d = 0, nd = GET_HI(KMV_HDR_NDIM, h[1]); d < nd; d++) {
        const uint32_t *dm = s->v[SL_DIM(w, d)];

        dt = d << 20;                           /* d << 12 of the detail */
        f = REFUSE(KS_MV_UNSET, KMV_REG_DIM);
        if (!((known >> (1u + d)) & 1u))
            goto out;
        int32_t stride = (int32_t)(uint32_t)SPAN_GET(KMV_DIM_STRIDE, dm[0], dm[1]);
        uint32_t c = GET_LO(KMV_DIM_COUNT, dm[0]);
        f = REFUSE(KS_MV_ALIGN, KMV_REG_DIM);
        if (stride & (int32_t)WORD_MASK)
            goto out;
        c += c == 0;
        stride >>= 5;                           /* words: exact once aligned */
        /* Above 2^27 a span breaks the int32 limit by itself; saturating there keeps the
         * six-dimension sums inside 32 bits. */
        uint64_t span = (uint64_t)(c - 1u) * (uint32_t)(stride < 0 ? -stride : stride);
        uint32_t sat = span > (UINT64_C(1) << 27) ? UINT32_C(1) << 27 : (uint32_t)span;
        if (stride < 0)
            neg += sat;
        else
            pos += sat;
        count *= c;
        if (count > WALK_LIMIT)
            goto wrap;
    }
    /* base + lo >= 0 and base + hi + 32 <= 2^40, in words: the base in words is HDR [43:9],
     * 35 bits, [31:0] in bw and [34:32] in bw_top. With both spans below 2^26, base < neg
     * needs bw_top 0 and base + pos >= 2^35 needs bw_top 7. */
    _Static_assert(KBF_FIELD_SHIFT(KMV_HDR_BASE) + 5 == 9 && HI(KMV_HDR_BASE) == 0xFFF, "HDR base [43:4]");
    uint32_t bw = (h[0] >> 9) | (h[1] << 23), bw_top = (h[1] >> 9) & 7u;
    if (neg > (UINT32_C(1) << 26) || pos >= (UINT32_C(1) << 26) ||
        (bw_top == 0 && bw < neg) || (bw_top == 7 && bw > ~pos))
        goto wrap;
    *elems = count;
    /* The walk's extent in bytes, [lowest element, highest element + 32): every element lies in
     * it (bounds ignored: a bound only removes elements). */
    uint64_t base_w = (uint64_t)bw_top << 32 | bw;
    ext[0] = (base_w - neg) << 5;
    ext[1] = (base_w + pos + 1u) << 5;
    return 0;
wrap:
    return REFUSE(KS_MV_WRAP, w);
out:
    return f | tag | dt;
}

/* CTRL [4:0] (mode, width) -> what a GO with them gets: a refusal (above 0xFF; the mover
 * checks the width before the mode, fault 5 before fault 4) or the walks its checks run. */
#define CTRL_RULE_MASK  (LO(KMV_CTRL_MODE) | LO(KMV_CTRL_WIDTH))
_Static_assert(CTRL_RULE_MASK == 0x1F && KBF_FIELD_SHIFT(KMV_CTRL_WIDTH) == 3, "mode [2:0], width [4:3]");
#define RULE_W(m) ((m) == KMV_MODE_TRANSPOSE ? REFUSE(KS_MV_TRANSPOSE, KMV_MODE_TRANSPOSE) : \
                   (m) > KMV_MODE_XFORM ? REFUSE(KS_MV_MODE, (m)) : \
                   (m) == KMV_MODE_XFORM ? WALKS_XFORM : (m) == KMV_MODE_COPY ? WALKS_COPY : WALKS_DST)
#define RULE_M(wd) RULE_W(0), RULE_W(1), RULE_W(2), RULE_W(3), RULE_W(4), RULE_W(5), \
                   RULE_W(6), RULE_W(7)
#define RULE_BAD   REFUSE(KS_MV_WIDTH, KMV_WIDTH_BAD)
static const uint16_t ctrl_rule[32] = {
    RULE_M(0), RULE_M(1), RULE_M(2),
    RULE_BAD, RULE_BAD, RULE_BAD, RULE_BAD, RULE_BAD, RULE_BAD, RULE_BAD, RULE_BAD,
};
_Static_assert(WALKS_XFORM <= 0xFF && REFUSE(KS_MV_TRANSPOSE, 1) > 0xFF &&
               REFUSE(KS_MV_MODE, 7) <= 0xFFFF && RULE_BAD <= 0xFFFF, "rule encoding");

/* The unit-global decode of one address (docs/hardware.md header, §7, §8): 0 when it is memory this
 * mesh serves without aliasing — DRAM below 4 GB, or the staging store (bit 39, aperture 0)
 * below its 2 MB — else the KMV_ADDR_* reason. */
#define UG_STAGING_BYTES  (UINT32_C(2) << 20)
_Static_assert(KMV_WHAT_SRC == KMV_WALK_SRC && KMV_WHAT_DST == KMV_WALK_DST, "a walk's `what` is its walker");
static unsigned decode_bad(uint64_t a)
{
    uint32_t hi = (uint32_t)(a >> 32);
    if (hi & 0x40u)
        return KMV_ADDR_BIT38;
    if (hi & 0x30u)
        return KMV_ADDR_MESH;
    if (hi & 0x80u)
        return (hi & 0x0Fu) || (uint32_t)a >= UG_STAGING_BYTES ? KMV_ADDR_APERTURE : 0;
    return hi ? KMV_ADDR_NOWHERE : 0;
}

/* [lo, hi) (hi > lo) that `what` reaches: inside the 40-bit space, decoding to real memory of
 * this mesh without crossing out of its region, and clear of every owned range. */
static uint32_t check_range(const struct kmv_caps *caps, uint64_t lo, uint64_t hi, unsigned what)
{
    uint64_t last = hi - 1u;
    unsigned why;

    if (last >> 40)
        return REFUSE(KS_MV_WRAP, what);
    why = decode_bad(lo);
    if (!why && (lo >> 32) != (last >> 32))
        why = KMV_ADDR_CROSS;
    if (!why)
        why = decode_bad(last);
    if (why)
        return REFUSE(KS_MV_ADDR, why << 8 | what);
    for (uint32_t k = 0; k < caps->n_owned; k++)
        if (lo < caps->owned[k].hi && caps->owned[k].lo < hi)
            return REFUSE(KS_MV_OWNED, k << 8 | what);
    return 0;
}

/* GATHER's reach: the index words the mover loads (at least one) and, when the validator can
 * read memory, the rows of the first index word (at most 8 rows: KS_MV_GATHER_ROWS refused
 * more), each of up to `words` words, the last one as long as the destination leaves it. */
static uint32_t check_gather_reach(const struct vshadow *s, uint64_t dn)
{
    const struct kmv_caps *caps = s->caps;
    const uint32_t *ix = s->v[SL_INDEX], *g = s->v[SL_GATHER];
    uint64_t ibase = (uint64_t)(ix[1] & HI(KMV_INDEX_BASE)) << 32 | ix[0];
    uint32_t icount = GET_HI(KMV_INDEX_COUNT, ix[1]), iwords = (icount + 7u) >> 3;
    uint32_t pitch = g[0], words = GET_HI(KMV_GATHER_WORDS, g[1]), f;
    const uint32_t *h = s->v[SL_HDR(KMV_WALK_SRC)];
    uint64_t sbase = SPAN_GET(KMV_HDR_BASE, h[0], h[1]);

    uint64_t iend = ibase + ((uint64_t)(iwords + (iwords == 0)) << 5);
    if ((ibase < caps->idx_lo || iend > caps->idx_hi) &&
        (f = check_range(caps, ibase, iend, KMV_WHAT_INDEX)) != 0)
        return f;
    if (!caps->map_end)
        return 0;                               /* cannot read the indices: rows unchecked */
    if (ibase + KMV_WORD_BYTES > caps->map_end)
        return REFUSE(KS_MV_ADDR, KMV_ADDR_UNREAD << 8 | KMV_WHAT_INDEX);
    const uint32_t *idx = caps->map(ibase);
    for (uint32_t r = 0; dn != 0; r++) {
        uint32_t n = dn < words ? (uint32_t)dn : words;
        uint64_t a = sbase + (uint32_t)(idx[r] * pitch);
        if ((f = check_range(caps, a, a + ((uint64_t)n << 5), KMV_WHAT_ROWS)) != 0)
            return f;
        dn -= n;
    }
    return 0;
}

/* The move a GO starts, with the registers as the list left them. */
static __attribute__((noinline)) uint32_t check_move(const struct vshadow *s, uint32_t ctrl)
{
    const struct kmv_caps *caps = s->caps;
    unsigned mode = GET_LO(KMV_CTRL_MODE, ctrl), walks, walked;
    uint64_t elems[2], dn, sn, ext[2][2];
    uint32_t f;

    /* Width and mode together: a refusal, or the walks to check. */
    walks = ctrl_rule[ctrl & CTRL_RULE_MASK];
    if (walks > 0xFFu)
        return walks;
    walked = walks;
    do {
        unsigned w = (walks & 0xFu) - 1u;
        if ((f = check_walk(s, w, &elems[w], ext[w])) != 0)
            return f;
    } while ((walks >>= 4) != 0);
    dn = elems[KMV_WALK_DST];
    if (mode == KMV_MODE_COPY) {
        if ((sn = elems[KMV_WALK_SRC]) < dn)
            return REFUSE(KS_MV_SHORT_SRC, 0);
    } else if (mode == KMV_MODE_GATHER) {
        /* The source base, index base and pitch: written in the list and 32-byte aligned.
         * Only the source base counts: its dimensions and bounds are ignored. */
        static const struct { uint8_t slot, reg; uint16_t misalign; } need[3] = {
            { SL_HDR(KMV_WALK_SRC), KMV_REG_HDR, HDR_BASE_MISALIGN },
            { SL_INDEX, KMV_REG_INDEX, WORD_MASK },
            { SL_GATHER, KMV_REG_GATHER, WORD_MASK },
        };
        _Static_assert(HDR_BASE_MISALIGN <= 0xFFFF && KMV_REG_GATHER <= 0xFF, "need[] fits its fields");
        for (unsigned k = 0; k < 3; k++) {
            if (!((s->known >> need[k].slot) & 1u))
                /* RV64 can never write GATHER: that is a reach problem, not an omission. */
                return REFUSE(need[k].reg >= caps->reach_end ? KS_NO_REACH : KS_MV_UNSET, need[k].reg);
            if (s->v[need[k].slot][0] & need[k].misalign)
                return REFUSE(KS_MV_ALIGN, need[k].reg);
        }
        uint32_t indices = GET_HI(KMV_INDEX_COUNT, s->v[SL_INDEX][1]);
        uint32_t words = GET_HI(KMV_GATHER_WORDS, s->v[SL_GATHER][1]);
        if (indices > KMV_MAX_INDICES)
            return REFUSE(KS_MV_GATHER, 1);
        /* Rows past the index count read stale buffer contents; words 0 never advances. */
        if (dn > (uint64_t)indices * words)
            return REFUSE(KS_MV_GATHER, 2);
        /* The erratum (docs/hardware.md §3.1): row 8 (and 16, ...) takes the previous index word's
         * first index. A move may reach rows 0-7 only; builders split longer gathers. */
        if (dn > (uint64_t)words << 3)
            return REFUSE(KS_MV_GATHER_ROWS, dn > 0xFFFFFFu ? 0xFFFFFFu : (uint32_t)dn);
        /* The destination walk, then the index words and rows (the source walk is not one). */
        if ((f = check_range(caps, ext[KMV_WALK_DST][0], ext[KMV_WALK_DST][1], KMV_WHAT_DST)) != 0)
            return f;
        return check_gather_reach(s, dn);
    } else if (mode == KMV_MODE_XFORM) {
        sn = elems[KMV_WALK_SRC];
        /* Every hang case of docs/hardware.md §3.1. An entry is a power of two of words
         * (IN_BITS / 256: 8 for the reference geometry), so "whole entries" is a mask; caps
         * with an occupant have entries of at least one word (0 would refuse every list). */
        uint32_t in = caps->xf_in_words, extents = 0;
        uint32_t burst = (uint32_t)caps->xf_out_words << 5;    /* one entry's output bytes */
        const uint32_t *dh = s->v[SL_HDR(KMV_WALK_DST)];

        if (!((caps->xf_ids >> GET_HI(KMV_HDR_XFORM_ID, s->v[SL_HDR(KMV_WALK_SRC)][1])) & 1u))
            return REFUSE(KS_MV_XFORM, 1);      /* no occupant at this id */
        for (unsigned b = SL_BOUND; b < SL_BOUND + 4u; b++)
            extents |= (s->v[b][0] & LO(KMV_BOUND_EXTENT)) | (s->v[b][1] & HI(KMV_BOUND_EXTENT));
        if (extents)
            return REFUSE(KS_MV_XFORM, 3);      /* a bound axis: fault 7 or a hang in an entry */
        if (sn & (in - 1u))
            return REFUSE(KS_MV_XFORM, 2);      /* a partial entry */
        if (dn * in < sn)
            return REFUSE(KS_MV_XFORM, 4);      /* the destination is shorter than the entries */
        /* Each entry is one burst of OUT_WORDS words at its destination element; AXI forbids
         * a burst across 4 KB (docs/hardware.md §3.1). A base and live strides that are multiples of
         * the burst (a power of two dividing 4 KB) keep every burst inside a page. */
        uint32_t mis = (uint32_t)SPAN_GET(KMV_HDR_BASE, dh[0], dh[1]);
        for (unsigned d = 0, nd = GET_HI(KMV_HDR_NDIM, dh[1]); d < nd; d++) {
            const uint32_t *dm = s->v[SL_DIM(KMV_WALK_DST, d)];
            if (GET_LO(KMV_DIM_COUNT, dm[0]) > 1u)
                mis |= (uint32_t)SPAN_GET(KMV_DIM_STRIDE, dm[0], dm[1]);
        }
        if (mis & (burst - 1u))
            return REFUSE(KS_MV_XFORM, 5);      /* a burst could cross a 4 KB page */
        ext[KMV_WALK_DST][1] += burst - KMV_WORD_BYTES;
    }
    /* Every walk's extent (XFORM's destination with its bursts) against the address map and
     * the owned ranges, in the order the walks were checked. */
    do {
        unsigned w = (walked & 0xFu) - 1u;
        if ((f = check_range(caps, ext[w][0], ext[w][1], w)) != 0)
            return f;
    } while ((walked >>= 4) != 0);
    return 0;                                   /* FILL, GENERATE: the destination walk only */
}

unsigned kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                      struct kmv_result *res)
{
    struct vshadow s;
    uint32_t allowed, i, f, known = 0, sel = 0, moves = 0, last_go = 0;

    res->moves = 0;
    if (n > KD_MAX_WRITES)
        return fail(res, KS_LIST_TOO_LONG, n, n);
    if (n == 0)
        return fail(res, KS_NO_GO, 0, 0);

    s.caps = caps;
    allowed = allowed_regs(caps);
    for (i = 0; i < n; i++) {
        uint32_t off = w[i].off, lo = w[i].lo, hi = w[i].hi, slot;

        /* One test for the common case; bad_offset names what is wrong. */
        if ((off & ~UINT32_C(0x78)) != 0 || !((allowed >> (off >> 3)) & 1u))
            return bad_offset(off, res, i);
        const uint32_t *nf = (const uint32_t *)((const char *)not_field + off);
        if ((lo & nf[0]) | (hi & nf[1])) {
            f = REFUSE(KS_MV_FIELD, off);
            goto bad;
        }
        switch (off >> 3) {
        case KMV_REG_CTRL >> 3:
            if (!(lo & LO(KMV_CTRL_GO)))
                continue;
            s.known = known;
            if ((f = check_move(&s, lo)) != 0)
                goto bad;
            moves++;
            last_go = i + 1;
            continue;
        case KMV_REG_HDR >> 3:
            if (GET_HI(KMV_HDR_NDIM, hi) > KMV_MAX_DIMS) {
                f = REFUSE(KS_MV_DIM, GET_HI(KMV_HDR_NDIM, hi));
                goto bad;
            }
            sel = lo & 1u;
            /* The transform fields ride the source header only; on the destination's they
             * are ignored by the mover and almost certainly a mistake. */
            if (sel == KMV_WALK_DST && (hi & HI(KMV_HDR_XFORM_ID | KMV_HDR_XFORM_MODE))) {
                f = REFUSE(KS_MV_FIELD, off);
                goto bad;
            }
            slot = SL_HDR(sel);
            break;
        case KMV_REG_DIM >> 3:
            if (GET_LO(KMV_DIM_INDEX, lo) >= KMV_MAX_DIMS) {
                f = REFUSE(KS_MV_DIM, GET_LO(KMV_DIM_INDEX, lo));
                goto bad;
            }
            sel = lo & 1u;
            slot = SL_STAGED;
            break;
        case KMV_REG_AXIS >> 3:
            /* Commits the staged dimension to the walker the last HDR/DIM/BOUND selected. */
            if (!((known >> SL_STAGED) & 1u)) {
                f = REFUSE(KS_MV_UNSET, KMV_REG_DIM);
                goto bad;
            }
            lo = s.v[SL_STAGED][0];
            hi = s.v[SL_STAGED][1];
            slot = SL_DIM(sel, GET_LO(KMV_DIM_INDEX, lo));
            break;
        case KMV_REG_BOUND >> 3:
            sel = lo & 1u;
            slot = SL_BOUND + (lo & 3u);
            break;
        case KMV_REG_INDEX >> 3:
            slot = SL_INDEX;
            break;
        case KMV_REG_GATHER >> 3:
            slot = SL_GATHER;
            break;
        case KMV_REG_SEED >> 3:
        case KMV_REG_IMM >> 3:
            continue;   /* data, no rule; inherited values are allowed (docs) */
        default:
            /* The offset test above let through only KNOWN_REGS: this jump needs no range
             * check. */
            __builtin_unreachable();
        }
        s.v[slot][0] = lo;
        s.v[slot][1] = hi;
        known |= 1u << slot;
    }
    if (last_go != n)
        return fail(res, KS_NO_GO, n - last_go, last_go);
    res->moves = moves;
    return fail(res, KS_OK, 0, n);
bad:
    /* One exit for every refusal at write i: keeps the function small on RV32. */
    return fail(res, f & 0xFFu, f >> 8, i);
}

unsigned kmv_validate_frame(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                            struct kmv_result *res)
{
    uint32_t moves = 0, last_go = 0, allowed = allowed_regs(caps);

    res->moves = 0;
    if (n > KD_MAX_WRITES)
        return fail(res, KS_LIST_TOO_LONG, n, n);
    if (n == 0)
        return fail(res, KS_NO_GO, 0, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = w[i].off;

        if ((off & ~UINT32_C(0x78)) != 0 || !((allowed >> (off >> 3)) & 1u))
            return bad_offset(off, res, i);
        if (kd_is_go(&w[i])) {
            moves++;
            last_go = i + 1;
        }
    }
    if (last_go != n)
        return fail(res, KS_NO_GO, n - last_go, last_go);
    res->moves = moves;
    return fail(res, KS_OK, 0, n);
}

const char *kmv_status_text(unsigned status)
{
    switch (status) {
    case KS_BAD_OFFSET:   return "mover offset not an 8-aligned register in 0x00-0x7F";
    case KS_NO_GO:        return "a descriptor list must end every move with a CTRL write with GO";
    case KS_LIST_TOO_LONG:return "descriptor list longer than the firmware accepts";
    case KS_NO_REACH:     return "mover register outside this processor's window (RV64: 0x00-0x3F)";
    case KS_MV_FIELD:     return "bits set outside the mover register's fields";
    case KS_MV_MODE:      return "mover modes 6 and 7 do not exist";
    case KS_MV_TRANSPOSE: return "TRANSPOSE faults: a transpose is a COPY with the walkers' dimensions reordered";
    case KS_MV_WIDTH:     return "element width 3 faults";
    case KS_MV_DIM:       return "dimension index above 5 or more than 6 dimensions";
    case KS_MV_UNSET:     return "the move uses a mover setting not written earlier in the list";
    case KS_MV_ALIGN:     return "base, stride, pitch or index base not a multiple of 32 bytes";
    case KS_MV_WRAP:      return "walk offsets wrap 32-bit signed or leave the 40-bit address space";
    case KS_MV_SHORT_SRC: return "source walk shorter than the destination walk";
    case KS_MV_GATHER:    return "gather needs more rows than indices, or more than 2048 indices";
    case KS_MV_XFORM:     return "XFORM move the mover would hang on, or whose bursts could cross a 4 KB page";
    case KS_MV_OWNED:     return "a walk reaches memory the firmware owns or is using (detail: range << 8 | walk)";
    case KS_MV_ADDR:      return "a walk's addresses alias another mesh, set bit 38, reach no memory or cross 4 GB";
    case KS_MV_GATHER_ROWS: return "a gather reaching row 8 or later moves wrong bytes (erratum): split it into moves of 8 rows";
    case KS_XFORM_UNCHECKED: return "moves done; an XFORM occupant's fault cannot be seen on RV64";
    case KS_TEXT_SYNTAX:  return "descriptor list text: syntax error";
    case KS_MOVER_FAULT:  return "mover fault (detail = code 1-7)";
    case KS_XFORM_FAULT:  return "transform occupant fault";
    default:              return 0;
    }
}

/* The write a replay's failure names (replay.c): the last of the chunk that ended before `next`
 * (the chunk's last write, next - 1), or write 0 when nothing was sent (next = w). Here, with
 * the validator, because only a failure asks: cold code on RV32 (docs/kvm.md), not in the
 * replay loop's window bytes.
 * next - w in writes without a divide: a pointer difference divides by 12, which GCC does as
 * a multiply by 12's inverse, a library call on the RV32 core (no multiply: docs/hardware.md §4,
 * RV32I only). Here q = bytes / 4 = 3k, and k = q x 0x5556 >> 16 (= k + 2k / 2^16), exact for
 * k < 2^15; x 0x5556 = x 5 x 17 x 257 + 1 as shifts and adds, each step kept apart (empty asm)
 * so GCC does not fold them back into one multiply. */
_Static_assert(sizeof(struct kd_write) == 12 && KD_MAX_WRITES < 0x8000u, "writes by 0x5556 >> 16");
uint32_t kmv_fail_index(const struct kd_write *w, const struct kd_write *next)
{
    if (next == w)
        return 0;
    uint32_t q = (uint32_t)((uintptr_t)next - (uintptr_t)w) >> 2, t = q + (q << 2);
    __asm__("" : "+r"(t));
    t += t << 4;
    __asm__("" : "+r"(t));
    t += t << 8;
    return ((t + q) >> 16) - 1u;
}
