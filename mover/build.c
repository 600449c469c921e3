/* build.c — descriptor list builder for the common moves (docs/hardware.md §3, §3.1).
 * Pure C. Each move is emitted as the mover wants it: the source walker, then the
 * destination walker (HDR, then DIM and AXIS back to back per dimension, outermost first,
 * so AXIS commits to the walker its DIM named — §3.1 first row), both bounds of each walker
 * the move uses (extents persist, so the builder never trusts what an earlier list left),
 * the data registers, and CTRL with GO last. */
#include "kmv.h"

/* Builder's record of registers it already wrote in this list (struct kmv_builder.known). */
#define BK_BOUND(w, b)  (1u << ((w) * 2u + (b)))     /* bits 0-3 */
#define BK_IMM          (1u << 4)

static unsigned berr(struct kmv_builder *b, unsigned st)
{
    if (b->status == KS_OK)
        b->status = st;
    return b->status;
}

static void emit(struct kmv_builder *b, uint32_t off, uint64_t v)
{
    if (b->status != KS_OK)
        return;
    if (b->n == b->cap) {
        b->status = KS_LIST_TOO_LONG;
        return;
    }
    b->w[b->n++] = kd_make(off, v);
}

void kmv_build_init(struct kmv_builder *b, struct kd_write *buf, uint32_t cap)
{
    b->w = buf;
    b->cap = cap < KD_MAX_WRITES ? cap : KD_MAX_WRITES;
    b->n = 0;
    b->status = KS_OK;
    b->known = 0;
    b->imm = 0;
    for (unsigned w = 0; w < 2; w++)
        for (unsigned k = 0; k < 2; k++)
            b->bound_val[w][k] = 0;
}

void kmv_walk_linear(struct kmv_walk *wk, uint64_t base, uint16_t words)
{
    *wk = (struct kmv_walk){ .base = base, .ndim = 1 };
    wk->count[0] = words;
    wk->stride[0] = (int32_t)KMV_WORD_BYTES;
}

/* Field widths, counts and alignment of one walker. */
static unsigned check_walk(const struct kmv_walk *wk, int with_bounds)
{
    if (wk->ndim > KMV_MAX_DIMS)
        return KS_MV_DIM;
    if (!KBF_FIELD_FITS(KMV_HDR_BASE, wk->base))
        return KS_MV_FIELD;
    if (wk->base & (KMV_WORD_BYTES - 1))
        return KS_MV_ALIGN;
    for (unsigned d = 0; d < wk->ndim; d++) {
        if (wk->count[d] == 0 || wk->axis[d] > 3)
            return KS_MV_FIELD;
        if (wk->stride[d] & (int32_t)(KMV_WORD_BYTES - 1))
            return KS_MV_ALIGN;
    }
    if (!with_bounds && (wk->bound_extent[0] | wk->bound_extent[1]))
        return KS_MV_FIELD;
    return KS_OK;
}

static void emit_walk(struct kmv_builder *b, unsigned which, const struct kmv_walk *wk,
                      uint64_t hdr_extra)
{
    emit(b, KMV_REG_HDR, KBF_FIELD_PREP(KMV_HDR_WALKER, which) | KBF_FIELD_PREP(KMV_HDR_BASE, wk->base) |
                        KBF_FIELD_PREP(KMV_HDR_NDIM, wk->ndim) | hdr_extra);
    for (unsigned d = 0; d < wk->ndim; d++) {
        emit(b, KMV_REG_DIM, KBF_FIELD_PREP(KMV_DIM_WALKER, which) | KBF_FIELD_PREP(KMV_DIM_INDEX, d) |
                            KBF_FIELD_PREP(KMV_DIM_COUNT, wk->count[d]) |
                            KBF_FIELD_PREP(KMV_DIM_STRIDE, (uint32_t)wk->stride[d]));
        emit(b, KMV_REG_AXIS, KBF_FIELD_PREP(KMV_AXIS_AXIS, wk->axis[d]) |
                             KBF_FIELD_PREP(KMV_AXIS_STEP, (uint16_t)wk->astep[d]));
    }
}

static void emit_bounds(struct kmv_builder *b, unsigned which, const struct kmv_walk *wk)
{
    for (unsigned k = 0; k < 2; k++) {
        uint64_t v = KBF_FIELD_PREP(KMV_BOUND_WALKER, which) | KBF_FIELD_PREP(KMV_BOUND_WHICH, k) |
                     KBF_FIELD_PREP(KMV_BOUND_BASE, (uint16_t)wk->bound_base[k]) |
                     KBF_FIELD_PREP(KMV_BOUND_EXTENT, wk->bound_extent[k]);
        if ((b->known & BK_BOUND(which, k)) && b->bound_val[which][k] == v)
            continue;
        emit(b, KMV_REG_BOUND, v);
        b->bound_val[which][k] = v;
        b->known |= BK_BOUND(which, k);
    }
}

static void emit_imm(struct kmv_builder *b, uint32_t v)
{
    if ((b->known & BK_IMM) && b->imm == v)
        return;
    emit(b, KMV_REG_IMM, v);
    b->imm = v;
    b->known |= BK_IMM;
}

static void emit_go(struct kmv_builder *b, unsigned mode, unsigned width, unsigned flags)
{
    emit(b, KMV_REG_CTRL, KBF_FIELD_PREP(KMV_CTRL_MODE, mode) | KBF_FIELD_PREP(KMV_CTRL_WIDTH, width) |
                         KBF_FIELD_PREP(KMV_CTRL_FLAGS, flags) | KMV_CTRL_GO);
}

static unsigned check_common(struct kmv_builder *b, unsigned width, unsigned flags)
{
    if (b->status != KS_OK)
        return b->status;
    if (width >= KMV_WIDTH_BAD || flags > 0xFFu)
        return berr(b, width >= KMV_WIDTH_BAD ? KS_MV_WIDTH : KS_MV_FIELD);
    return KS_OK;
}

unsigned kmv_build_copy(struct kmv_builder *b, const struct kmv_walk *dst,
                        const struct kmv_walk *src, unsigned width, uint32_t pad, unsigned flags)
{
    unsigned st;

    if (check_common(b, width, flags) != KS_OK)
        return b->status;
    if ((st = check_walk(dst, 1)) != KS_OK || (st = check_walk(src, 1)) != KS_OK)
        return berr(b, st);
    emit_walk(b, KMV_WALK_SRC, src, 0);
    emit_bounds(b, KMV_WALK_SRC, src);
    emit_walk(b, KMV_WALK_DST, dst, 0);
    emit_bounds(b, KMV_WALK_DST, dst);
    /* Padding: an out-of-bound source element takes IMM at the element width. */
    if (src->bound_extent[0] | src->bound_extent[1])
        emit_imm(b, pad);
    emit_go(b, KMV_MODE_COPY, width, flags);
    return b->status;
}

unsigned kmv_build_fill(struct kmv_builder *b, const struct kmv_walk *dst, unsigned width,
                        uint32_t value, unsigned flags)
{
    unsigned st;

    if (check_common(b, width, flags) != KS_OK)
        return b->status;
    if ((st = check_walk(dst, 1)) != KS_OK)
        return berr(b, st);
    emit_walk(b, KMV_WALK_DST, dst, 0);
    emit_bounds(b, KMV_WALK_DST, dst);
    /* Always written (unless this list already did): what IMM holds from before the list is
     * unknowable, zero included. On RV64 this makes every built FILL a NO_REACH. */
    emit_imm(b, value);
    emit_go(b, KMV_MODE_FILL, width, flags);
    return b->status;
}

unsigned kmv_build_generate(struct kmv_builder *b, const struct kmv_walk *dst, uint64_t seed,
                            unsigned flags)
{
    unsigned st;

    if (check_common(b, KMV_WIDTH_32, flags) != KS_OK)
        return b->status;
    if ((st = check_walk(dst, 1)) != KS_OK)
        return berr(b, st);
    emit_walk(b, KMV_WALK_DST, dst, 0);
    emit_bounds(b, KMV_WALK_DST, dst);
    emit(b, KMV_REG_SEED, seed);
    /* The generator ignores the element width (§3.1); 32-bit is the neutral choice. */
    emit_go(b, KMV_MODE_GENERATE, KMV_WIDTH_32, flags);
    return b->status;
}

/* One gather move of at most 8 rows (the caller splits). */
static void emit_gather(struct kmv_builder *b, const struct kmv_walk *dst, uint64_t src_base,
                        uint64_t idx_base, uint32_t idx_count, uint32_t pitch, uint32_t words,
                        unsigned flags)
{
    /* The source walker gives only its base: no dimensions, no bounds. */
    emit(b, KMV_REG_HDR, KBF_FIELD_PREP(KMV_HDR_WALKER, KMV_WALK_SRC) |
                        KBF_FIELD_PREP(KMV_HDR_BASE, src_base));
    emit_walk(b, KMV_WALK_DST, dst, 0);
    emit_bounds(b, KMV_WALK_DST, dst);
    emit(b, KMV_REG_INDEX, KBF_FIELD_PREP(KMV_INDEX_BASE, idx_base) |
                          KBF_FIELD_PREP(KMV_INDEX_COUNT, idx_count));
    emit(b, KMV_REG_GATHER, KBF_FIELD_PREP(KMV_GATHER_PITCH, pitch) |
                           KBF_FIELD_PREP(KMV_GATHER_WORDS, words));
    emit_go(b, KMV_MODE_GATHER, KMV_WIDTH_32, flags);
}

/* Rows one gather move may reach: the erratum (docs/hardware.md §3.1) corrupts row 8 onward. */
#define GATHER_ROWS_PER_MOVE  8u

unsigned kmv_build_gather(struct kmv_builder *b, const struct kmv_walk *dst, uint64_t src_base,
                          uint64_t idx_base, uint32_t idx_count, uint32_t pitch,
                          uint32_t words, unsigned flags)
{
    unsigned st;
    uint64_t elems = 1;

    if (check_common(b, KMV_WIDTH_32, flags) != KS_OK)
        return b->status;
    if ((st = check_walk(dst, 1)) != KS_OK)
        return berr(b, st);
    if (!KBF_FIELD_FITS(KMV_HDR_BASE, src_base) || !KBF_FIELD_FITS(KMV_INDEX_BASE, idx_base) ||
        idx_count > KMV_MAX_INDICES || words == 0 || !KBF_FIELD_FITS(KMV_GATHER_WORDS, words))
        return berr(b, KS_MV_FIELD);
    if ((src_base | idx_base | pitch) & (KMV_WORD_BYTES - 1))
        return berr(b, KS_MV_ALIGN);
    for (unsigned d = 0; d < dst->ndim; d++)
        elems *= dst->count[d];
    uint64_t per = (uint64_t)words * GATHER_ROWS_PER_MOVE;   /* elements a move may take */
    if (elems <= per) {
        emit_gather(b, dst, src_base, idx_base, idx_count, pitch, words, flags);
        return b->status;
    }
    /* Split: move m takes rows 8m .. 8m + 7, its indices one index word (32 bytes) further
     * and its destination 8 x words elements further. Only a one-dimensional destination
     * without bounds splits that simply. */
    if (dst->ndim != 1 || dst->bound_extent[0] || dst->bound_extent[1])
        return berr(b, KS_MV_GATHER_ROWS);
    struct kmv_walk part = *dst;
    for (uint64_t done = 0, m = 0; done < elems; done += per, m++) {
        uint64_t left = elems - done;
        uint32_t rows_left = idx_count > 8u * m ? idx_count - 8u * (uint32_t)m : 0;
        part.base = dst->base + (uint64_t)((int64_t)dst->stride[0] * (int64_t)done);
        part.count[0] = (uint16_t)(left < per ? left : per);
        emit_gather(b, &part, src_base, idx_base + m * KMV_WORD_BYTES,
                    rows_left < GATHER_ROWS_PER_MOVE ? rows_left : GATHER_ROWS_PER_MOVE,
                    pitch, words, flags);
    }
    return b->status;
}

unsigned kmv_build_xform(struct kmv_builder *b, const struct kmv_walk *dst,
                         const struct kmv_walk *src, unsigned id, unsigned xmode, unsigned flags)
{
    unsigned st;

    if (check_common(b, KMV_WIDTH_32, flags) != KS_OK)
        return b->status;
    /* A bound axis on a transform move faults 7 or hangs: the builder offers none. */
    if ((st = check_walk(dst, 0)) != KS_OK || (st = check_walk(src, 0)) != KS_OK)
        return berr(b, st);
    if (!KBF_FIELD_FITS(KMV_HDR_XFORM_ID, id) || !KBF_FIELD_FITS(KMV_HDR_XFORM_MODE, xmode))
        return berr(b, KS_MV_FIELD);
    emit_walk(b, KMV_WALK_SRC, src, KBF_FIELD_PREP(KMV_HDR_XFORM_ID, id) |
                                   KBF_FIELD_PREP(KMV_HDR_XFORM_MODE, xmode));
    emit_bounds(b, KMV_WALK_SRC, src);
    emit_walk(b, KMV_WALK_DST, dst, 0);
    emit_bounds(b, KMV_WALK_DST, dst);
    emit_go(b, KMV_MODE_XFORM, KMV_WIDTH_32, flags);
    return b->status;
}

unsigned kmv_build_raw(struct kmv_builder *b, uint32_t off, uint64_t val)
{
    if (b->status != KS_OK)
        return b->status;
    if (off == KMV_REG_CTRL && KBF_FIELD_GET(KMV_CTRL_MODE, val) == KMV_MODE_TRANSPOSE &&
        (val & KMV_CTRL_GO))
        return berr(b, KS_MV_TRANSPOSE);
    /* A raw write can change anything the builder tracks: forget it all. */
    b->known = 0;
    emit(b, off, val);
    return b->status;
}
