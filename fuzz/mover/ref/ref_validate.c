/* ref_validate.c — the descriptor list validator as it stood at commit d81d2a4 (before the
 * size rework of mover/validate.c), frozen as the oracle of the differential tests
 * (tests/host/mover/test_diff.c, fuzz/mover/fuzz_validate.c): the rework must give the same
 * status, detail, index and move count on every list, so no refusal is lost. Its public names
 * are renamed ref_* so it links beside the real one. Not built into any firmware image.
 * The lines it shares with mover/validate.c are repeated on purpose, not a copy to fold away:
 * an oracle that called the code under test would compare the validator with itself, and the
 * differential tests could no longer fail. Change it only where the contract itself changes
 * (then on purpose, with the test that shows why), never to follow a rework of validate.c. */
#define kmv_validate        ref_kmv_validate
#define kmv_validate_frame  ref_kmv_validate_frame
#define kmv_status_text     ref_kmv_status_text
#define kmv_caps_rv32       ref_kmv_caps_rv32
#define kmv_caps_rv64       ref_kmv_caps_rv64
#include "kmv.h"

const struct kmv_caps kmv_caps_rv32 = {
    .reach_end = KMV_REG_SPAN, .xf_ids = 1u << 1, .xf_in_words = 8, .xf_out_words = 4,
};
const struct kmv_caps kmv_caps_rv64 = {
    .reach_end = KMV_RV64_REACH_END, .xf_ids = 1u << 1, .xf_in_words = 8, .xf_out_words = 4,
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
               HI(KMV_BOUND_EXTENT) != 0 && HI(KMV_INDEX_BASE) != 0,
               "SPAN_GET fields span both halves");
_Static_assert(!HI(KMV_CTRL_MODE | KMV_CTRL_WIDTH | KMV_CTRL_GO | KMV_DIM_WALKER | KMV_DIM_INDEX |
                   KMV_DIM_COUNT | KMV_BOUND_WALKER | KMV_BOUND_WHICH | KMV_GATHER_PITCH),
               "GET_LO fields are in the low half");
_Static_assert(!LO(KMV_HDR_NDIM | KMV_HDR_XFORM_ID | KMV_HDR_XFORM_MODE | KMV_INDEX_COUNT |
                   KMV_GATHER_WORDS), "GET_HI fields are in the high half");
/* Every bit a register defines; anything else set is refused as KS_MV_FIELD. Kept as the
 * complement, in 32-bit halves, so the per-write test is two ANDs on both variants. */
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

/* Registers the writer may write, as bits by offset >> 3: known and within reach. */
static uint32_t allowed_regs(const struct kmv_caps *caps)
{
    uint32_t below = caps->reach_end >= KMV_REG_SPAN ? 0xFFFFu : (1u << (caps->reach_end >> 3)) - 1u;
    return KNOWN_REGS & below;
}

#define WALK_LIMIT      (UINT64_C(1) << 48)     /* longest walk the validator will count */
#define ADDR_LIMIT      (UINT64_C(1) << 40)
#define DETAIL_DST      0x100u                  /* detail bit 8: the destination walker */

struct vwalk {
    uint64_t base;
    unsigned ndim;
    int hdr_known;
    uint8_t dim_known;              /* bit i: dimension i committed in this list */
    uint8_t bound_known;            /* bit b: bound b written in this list */
    uint16_t count[8];              /* indices 6, 7 are never live (ndim <= 6 is enforced) */
    int32_t stride[8];
    uint16_t extent[2];
};

struct vstate {
    struct vwalk wk[2];
    unsigned sel;                   /* walker select: the last HDR/DIM/BOUND [0] */
    int staged;                     /* a DIM was written in this list */
    unsigned st_index;
    uint16_t st_count;
    int32_t st_stride;
    unsigned xf_id;
    int index_known, gather_known;
    uint64_t idx_base;
    uint32_t idx_count;
    uint32_t pitch, words;
};

static unsigned fail(struct kmv_result *res, unsigned status, uint32_t detail, uint32_t index)
{
    res->status = status;
    res->detail = detail;
    res->index = index;
    return status;
}

/* Names what is wrong with a write the one-test fast path refused: its offset word (not an
 * 8-aligned register in 0x00-0x7F) or its reach. */
static unsigned check_offset(const struct kd_write *w, const struct kmv_caps *caps,
                             struct kmv_result *res, uint32_t i)
{
    uint32_t off = w->off;

    if ((off & ~UINT32_C(0x78)) != 0 || !(KNOWN_REGS & (1u << (off >> 3))))
        return fail(res, KS_BAD_OFFSET, off, i);
    if (off >= caps->reach_end)
        return fail(res, KS_NO_REACH, off, i);
    return KS_OK;
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
            return check_offset(&w[i], caps, res, i);
        if (off == KMV_REG_CTRL && (w[i].lo & (uint32_t)KMV_CTRL_GO)) {
            moves++;
            last_go = i + 1;
        }
    }
    if (last_go != n)
        return fail(res, KS_NO_GO, n - last_go, last_go);
    res->moves = moves;
    return fail(res, KS_OK, 0, n);
}

/* Shift-and-subtract division: the RV32 core has no divide (docs/hardware.md §4). Constant shifts
 * only, which RV32 does inline. */
static uint64_t udiv(uint64_t a, uint32_t b, uint64_t *rem)
{
    uint64_t q = 0, r = 0;

    for (int i = 0; i < 64; i++) {
        r = (r << 1) | (a >> 63);
        a <<= 1;
        q <<= 1;
        if (r >= b) {
            r -= b;
            q |= 1u;
        }
    }
    *rem = r;
    return q;
}

/* Checks one walker a move walks: everything it needs written in the list, 32-byte aligned
 * base and strides, an offset sum that stays a 32-bit signed number, addresses inside the
 * 40-bit space. *elems gets the element count (a count of 0 counts as 1). */
static unsigned check_walk(const struct vwalk *wk, unsigned which, int need_bounds,
                           uint64_t *elems, uint32_t *detail)
{
    uint32_t tag = which ? DETAIL_DST : 0;
    int64_t lo = 0, hi = 0;
    uint64_t count = 1;

    if (!wk->hdr_known) {
        *detail = tag | KMV_REG_HDR;
        return KS_MV_UNSET;
    }
    if (need_bounds && wk->bound_known != 3u) {
        *detail = tag | KMV_REG_BOUND;
        return KS_MV_UNSET;
    }
    if (wk->base & (KMV_WORD_BYTES - 1)) {
        *detail = tag | KMV_REG_HDR;
        return KS_MV_ALIGN;
    }
    for (unsigned d = 0; d < wk->ndim; d++) {
        uint32_t c = wk->count[d] ? wk->count[d] : 1u;
        int64_t span = (int64_t)(c - 1u) * wk->stride[d];

        if (!(wk->dim_known & (1u << d))) {
            *detail = tag | KMV_REG_DIM | (d << 12);
            return KS_MV_UNSET;
        }
        if (wk->stride[d] & (int32_t)(KMV_WORD_BYTES - 1)) {
            *detail = tag | KMV_REG_DIM | (d << 12);
            return KS_MV_ALIGN;
        }
        if (span < 0)
            lo += span;
        else
            hi += span;
        count *= c;
        if (count > WALK_LIMIT) {
            *detail = which;
            return KS_MV_WRAP;
        }
    }
    /* Each dimension's index runs independently, so the extremes of Σ idx × stride are the
     * sums of each dimension's extremes: inside int32 there, inside int32 everywhere. */
    if (lo < INT32_MIN || hi > INT32_MAX) {
        *detail = which;
        return KS_MV_WRAP;
    }
    if ((int64_t)wk->base + lo < 0 || (uint64_t)((int64_t)wk->base + hi) + KMV_WORD_BYTES > ADDR_LIMIT) {
        *detail = which;
        return KS_MV_WRAP;
    }
    *elems = count;
    return KS_OK;
}

/* Checks the move a GO starts, with the registers as the list left them. */
static unsigned check_move(const struct vstate *s, uint32_t ctrl, const struct kmv_caps *caps,
                           uint32_t *detail)
{
    unsigned mode = GET_LO(KMV_CTRL_MODE, ctrl);
    unsigned width = GET_LO(KMV_CTRL_WIDTH, ctrl);
    uint64_t dn = 0, sn = 0, rem;
    unsigned st;

    /* The mover checks the width before the mode (fault 5 before fault 4). */
    *detail = width;
    if (width == KMV_WIDTH_BAD)
        return KS_MV_WIDTH;
    *detail = mode;
    if (mode == KMV_MODE_TRANSPOSE)
        return KS_MV_TRANSPOSE;
    if (mode > KMV_MODE_XFORM)
        return KS_MV_MODE;

    switch (mode) {
    case KMV_MODE_COPY:
        if ((st = check_walk(&s->wk[KMV_WALK_DST], 1, 1, &dn, detail)) != KS_OK)
            return st;
        if ((st = check_walk(&s->wk[KMV_WALK_SRC], 0, 1, &sn, detail)) != KS_OK)
            return st;
        *detail = 0;
        return sn < dn ? KS_MV_SHORT_SRC : KS_OK;

    case KMV_MODE_FILL:
    case KMV_MODE_GENERATE:
        return check_walk(&s->wk[KMV_WALK_DST], 1, 1, &dn, detail);

    case KMV_MODE_GATHER:
        if ((st = check_walk(&s->wk[KMV_WALK_DST], 1, 1, &dn, detail)) != KS_OK)
            return st;
        /* Only the source base counts: its dimensions and bounds are ignored. */
        if (!s->wk[KMV_WALK_SRC].hdr_known) {
            *detail = KMV_REG_HDR;
            return KS_MV_UNSET;
        }
        if (s->wk[KMV_WALK_SRC].base & (KMV_WORD_BYTES - 1)) {
            *detail = KMV_REG_HDR;
            return KS_MV_ALIGN;
        }
        *detail = KMV_REG_INDEX;
        if (!s->index_known)
            return KS_MV_UNSET;
        if (s->idx_base & (KMV_WORD_BYTES - 1))
            return KS_MV_ALIGN;
        *detail = KMV_REG_GATHER;
        if (!s->gather_known)
            return caps->reach_end <= KMV_REG_GATHER ? KS_NO_REACH : KS_MV_UNSET;
        if (s->pitch & (KMV_WORD_BYTES - 1))
            return KS_MV_ALIGN;
        if (s->idx_count > KMV_MAX_INDICES) {
            *detail = 1;
            return KS_MV_GATHER;
        }
        /* Rows past the index count read stale buffer contents; words 0 never advances. */
        if (dn > (uint64_t)s->idx_count * s->words) {
            *detail = 2;
            return KS_MV_GATHER;
        }
        return KS_OK;

    default: /* KMV_MODE_XFORM: every hang case of docs/hardware.md §3.1 */
        if ((st = check_walk(&s->wk[KMV_WALK_SRC], 0, 1, &sn, detail)) != KS_OK)
            return st;
        if ((st = check_walk(&s->wk[KMV_WALK_DST], 1, 1, &dn, detail)) != KS_OK)
            return st;
        if (s->xf_id >= 16 || !(caps->xf_ids & (1u << s->xf_id))) {
            *detail = 1;                /* no occupant at this id */
            return KS_MV_XFORM;
        }
        if (s->wk[KMV_WALK_SRC].extent[0] | s->wk[KMV_WALK_SRC].extent[1] |
            s->wk[KMV_WALK_DST].extent[0] | s->wk[KMV_WALK_DST].extent[1]) {
            *detail = 3;                /* a bound axis: fault 7 or a hang inside an entry */
            return KS_MV_XFORM;
        }
        uint64_t entries = udiv(sn, caps->xf_in_words ? caps->xf_in_words : 1u, &rem);
        if (rem != 0) {
            *detail = 2;                /* a partial entry */
            return KS_MV_XFORM;
        }
        if (dn < entries) {
            *detail = 4;                /* the destination walk is shorter than the entries */
            return KS_MV_XFORM;
        }
        return KS_OK;
    }
}

unsigned kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                      struct kmv_result *res)
{
    struct vstate s = { .sel = 0 };
    uint32_t moves = 0, last_go = 0, allowed, i, detail = 0;
    unsigned st = KS_OK;

    res->moves = 0;
    if (n > KD_MAX_WRITES)
        return fail(res, KS_LIST_TOO_LONG, n, n);
    if (n == 0)
        return fail(res, KS_NO_GO, 0, 0);

    allowed = allowed_regs(caps);
    for (i = 0; i < n; i++) {
        const struct kd_write *wr = &w[i];
        uint32_t off = wr->off, lo = wr->lo, hi = wr->hi;
        unsigned wsel;


        /* One test for the common case; the slow path names what is wrong. */
        if ((off & ~UINT32_C(0x78)) != 0 || !((allowed >> (off >> 3)) & 1u))
            return check_offset(wr, caps, res, i);
        if ((lo & not_field[off >> 3][0]) | (hi & not_field[off >> 3][1]))
            { st = KS_MV_FIELD; detail = off; goto bad; }

        switch (off >> 3) {
        case KMV_REG_CTRL >> 3:
            if (lo & LO(KMV_CTRL_GO)) {
                st = check_move(&s, lo, caps, &detail);
                if (st != KS_OK)
                    goto bad;
                moves++;
                last_go = i + 1;
            }
            break;
        case KMV_REG_HDR >> 3:
            wsel = GET_LO(KMV_HDR_WALKER, lo);
            if (GET_HI(KMV_HDR_NDIM, hi) > KMV_MAX_DIMS)
                { st = KS_MV_DIM; detail = GET_HI(KMV_HDR_NDIM, hi); goto bad; }
            /* The transform fields ride the source header only; on the destination's they
             * are ignored by the mover and almost certainly a mistake. */
            if (wsel == KMV_WALK_DST && (hi & (HI(KMV_HDR_XFORM_ID) | HI(KMV_HDR_XFORM_MODE))))
                { st = KS_MV_FIELD; detail = off; goto bad; }
            s.sel = wsel;
            s.wk[wsel].base = SPAN_GET(KMV_HDR_BASE, lo, hi);
            s.wk[wsel].ndim = GET_HI(KMV_HDR_NDIM, hi);
            s.wk[wsel].hdr_known = 1;
            if (wsel == KMV_WALK_SRC)
                s.xf_id = GET_HI(KMV_HDR_XFORM_ID, hi);
            break;
        case KMV_REG_DIM >> 3:
            if (GET_LO(KMV_DIM_INDEX, lo) >= KMV_MAX_DIMS)
                { st = KS_MV_DIM; detail = GET_LO(KMV_DIM_INDEX, lo); goto bad; }
            s.sel = GET_LO(KMV_DIM_WALKER, lo);
            s.staged = 1;
            s.st_index = GET_LO(KMV_DIM_INDEX, lo);
            s.st_count = (uint16_t)GET_LO(KMV_DIM_COUNT, lo);
            s.st_stride = (int32_t)(uint32_t)SPAN_GET(KMV_DIM_STRIDE, lo, hi);
            break;
        case KMV_REG_AXIS >> 3:
            /* Commits the staged dimension to the walker the last HDR/DIM/BOUND selected. */
            if (!s.staged)
                { st = KS_MV_UNSET; detail = KMV_REG_DIM; goto bad; }
            s.wk[s.sel].count[s.st_index] = s.st_count;
            s.wk[s.sel].stride[s.st_index] = s.st_stride;
            s.wk[s.sel].dim_known |= (uint8_t)(1u << s.st_index);
            break;
        case KMV_REG_BOUND >> 3: {
            unsigned b = GET_LO(KMV_BOUND_WHICH, lo);
            s.sel = GET_LO(KMV_BOUND_WALKER, lo);
            s.wk[s.sel].extent[b] = (uint16_t)SPAN_GET(KMV_BOUND_EXTENT, lo, hi);
            s.wk[s.sel].bound_known |= (uint8_t)(1u << b);
            break;
        }
        case KMV_REG_INDEX >> 3:
            s.idx_base = SPAN_GET(KMV_INDEX_BASE, lo, hi);
            s.idx_count = GET_HI(KMV_INDEX_COUNT, hi);
            s.index_known = 1;
            break;
        case KMV_REG_GATHER >> 3:
            s.pitch = GET_LO(KMV_GATHER_PITCH, lo);
            s.words = GET_HI(KMV_GATHER_WORDS, hi);
            s.gather_known = 1;
            break;
        default:    /* SEED, IMM: data, no rule; inherited values are allowed (docs) */
            break;
        }
    }
    if (last_go != n)
        return fail(res, KS_NO_GO, n - last_go, last_go);
    res->moves = moves;
    return fail(res, KS_OK, 0, n);
bad:
    /* One exit for every refusal at write i: keeps the function small on RV32. */
    return fail(res, st, detail, i);
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
    case KS_MV_XFORM:     return "XFORM move the mover would hang on";
    case KS_TEXT_SYNTAX:  return "descriptor list text: syntax error";
    case KS_MOVER_FAULT:  return "mover fault (detail = code 1-7)";
    case KS_XFORM_FAULT:  return "transform occupant fault";
    default:              return 0;
    }
}
