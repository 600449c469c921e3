/* mvt.h — shared pieces of the mover's on-target tests (docs/hardware.md §3, §3.1):
 * test regions in DRAM, patterns, and a reference walker written here from docs/hardware.md §3/§3.1
 * (the model's walker and the firmware's builder are not used to compute expectations).
 * Regions are unit-global DRAM offsets; the CPU reaches them through its cached DRAM window
 * (RV32 0x8000_0000 + offset, docs/hardware.md §4; RV64 the unit-global address itself, §5). */
#ifndef KOHAKU_TEST_MVT_H
#define KOHAKU_TEST_MVT_H

#include <stdint.h>
#include "harness.h"
#include "hal/hal.h"
#include "kmv.h"
#include "kohaku/cpu_map.h"

#define MVT_SRC     UINT64_C(0x20000000)    /* source region */
#define MVT_DST     UINT64_C(0x20100000)    /* destination region */
#define MVT_EXP     UINT64_C(0x20200000)    /* the expected destination image (CPU only) */
#define MVT_AUX     UINT64_C(0x20300000)    /* indices and other inputs */
#define MVT_REGION  8192u                   /* bytes compared per region: 256 words */
#define MVT_WORDS   (MVT_REGION / 32u)
#define MVT_TIMEOUT BOARD_DEFAULT_WAIT_CYCLES

static inline int mvt_rv32(void)
{
    return sizeof(uintptr_t) == 4;
}

/* The CPU's pointer to a unit-global DRAM offset. */
static __attribute__((noinline, unused)) volatile uint32_t *mvt_cpu(uint64_t ug)
{
    if (mvt_rv32())
        return (volatile uint32_t *)(uintptr_t)(RV32_DRAM_BASE + (uint32_t)ug);
    return (volatile uint32_t *)(uintptr_t)ug;
}

/* The CPU and the mover agree on memory: write back what the CPU wrote, drop what it holds. */
static __attribute__((noinline, unused)) void mvt_sync(void)
{
    hal_dcache_flush();
    hal_dcache_inval();
}

/* Every 32-bit lane of the source region distinct. */
static __attribute__((noinline, unused)) uint32_t mvt_src_val(uint64_t ug)
{
    return (uint32_t)(ug >> 2) * 0x9E3779B1u + 0x01234567u;
}

static __attribute__((noinline, unused)) uint32_t mvt_guard_val(uint64_t ug)
{
    return 0xDEADBEEFu ^ (uint32_t)(ug >> 2);
}

/* Source region = pattern, destination and expected image = guard pattern. */
static __attribute__((noinline, unused)) void mvt_setup(void)
{
    for (uint32_t i = 0; i < MVT_REGION / 4u; i++) {
        mvt_cpu(MVT_SRC)[i] = mvt_src_val(MVT_SRC + 4u * i);
        mvt_cpu(MVT_DST)[i] = mvt_guard_val(MVT_DST + 4u * i);
        mvt_cpu(MVT_EXP)[i] = mvt_guard_val(MVT_DST + 4u * i);
    }
    mvt_sync();
}

/* Compares the destination region with the expected image word by word (guards included);
 * returns the number of 32-bit lanes that differ and notes the first. */
static __attribute__((noinline, unused)) uint32_t mvt_compare(const char *what)
{
    uint32_t bad = 0;

    mvt_sync();
    for (uint32_t i = 0; i < MVT_REGION / 4u; i++) {
        uint32_t got = mvt_cpu(MVT_DST)[i], want = mvt_cpu(MVT_EXP)[i];
        if (got != want) {
            if (bad == 0) {
                kt_note(what, i * 4u);
                kt_note("  got", got);
                kt_note("  want", want);
            }
            bad++;
        }
    }
    return bad;
}

/* ---- register values from docs/hardware.md §3 bit positions, as compile-time constants, so the
 * literal lists below cost no code (the RV32 window is 8 KB) and do not come from the
 * builder under test. ---- */
#define MV_W(off, v)  { (off), (uint32_t)(uint64_t)(v), (uint32_t)((uint64_t)(v) >> 32) }
#define MV_CTRL(mode, width, flags) \
    ((uint64_t)(mode) | ((uint64_t)(width) << 3) | ((uint64_t)(flags) << 8) | (UINT64_C(1) << 16))
#define MV_HDR(w, base, nd) \
    ((uint64_t)(w) | ((uint64_t)(base) << 4) | ((uint64_t)(nd) << 44))
#define MV_HDRX(base, nd, id, xmode) \
    (MV_HDR(0, base, nd) | ((uint64_t)(id) << 47) | ((uint64_t)(xmode) << 55))
#define MV_DIM(w, d, cnt, stride) \
    ((uint64_t)(w) | ((uint64_t)(d) << 1) | ((uint64_t)(cnt) << 4) | \
     ((uint64_t)(uint32_t)(int32_t)(stride) << 20))
#define MV_AXIS(ax, step)  ((uint64_t)(ax) | ((uint64_t)(uint16_t)(int16_t)(step) << 2))
#define MV_BOUND(w, b, base, ext) \
    ((uint64_t)(w) | ((uint64_t)(b) << 1) | ((uint64_t)(uint16_t)(int16_t)(base) << 2) | \
     ((uint64_t)(ext) << 18))
#define MV_INDEX(base, cnt)   ((uint64_t)(base) | ((uint64_t)(cnt) << 40))
#define MV_GATHERV(pitch, words) ((uint64_t)(pitch) | ((uint64_t)(words) << 32))
/* One-dimensional walker, bounds off: HDR, DIM, AXIS, BOUND 0, BOUND 1 (5 writes). */
#define MV_WALK1(w, base, cnt, stride) \
    MV_W(0x10, MV_HDR(w, base, 1)), MV_W(0x18, MV_DIM(w, 0, cnt, stride)), MV_W(0x20, 0), \
    MV_W(0x28, MV_BOUND(w, 0, 0, 0)), MV_W(0x28, MV_BOUND(w, 1, 0, 0))
#define MV_N(list)  ((uint32_t)(sizeof(list) / sizeof((list)[0])))

/* ---- reference walker (docs/hardware.md §3, §3.1, written from the text) ---- */

struct mvt_odo {
    const struct kmv_walk *w;
    uint32_t idx[KMV_MAX_DIMS];
};

static __attribute__((noinline, unused)) void mvt_odo_init(struct mvt_odo *o, const struct kmv_walk *w)
{
    o->w = w;
    for (unsigned d = 0; d < KMV_MAX_DIMS; d++)
        o->idx[d] = 0;
}

/* base + Σ idx × stride (the tests keep it inside int32, so no wrap to model). */
static __attribute__((noinline, unused)) uint64_t mvt_odo_addr(const struct mvt_odo *o)
{
    int64_t off = 0;
    for (unsigned d = 0; d < o->w->ndim; d++)
        off += (int64_t)o->idx[d] * o->w->stride[d];
    return (uint64_t)((int64_t)o->w->base + off);
}

/* In bounds: for each enabled bound b, 0 <= base_b + Σ over dims feeding b (axis code b + 1)
 * of idx × astep, in 16-bit signed arithmetic, < extent_b. */
static __attribute__((noinline, unused)) int mvt_odo_valid(const struct mvt_odo *o)
{
    for (unsigned b = 0; b < 2; b++) {
        if (o->w->bound_extent[b] == 0)
            continue;
        int32_t pos = o->w->bound_base[b];
        for (unsigned d = 0; d < o->w->ndim; d++)
            if (o->w->axis[d] == b + 1)
                pos += (int32_t)o->idx[d] * o->w->astep[d];
        pos = (int16_t)(uint16_t)pos;
        if (pos < 0 || pos >= (int32_t)o->w->bound_extent[b])
            return 0;
    }
    return 1;
}

/* Next element, innermost (highest live) dimension fastest; 0 after the last. */
static __attribute__((noinline, unused)) int mvt_odo_next(struct mvt_odo *o)
{
    for (unsigned d = o->w->ndim; d-- > 0;) {
        uint32_t c = o->w->count[d] ? o->w->count[d] : 1u;
        if (o->idx[d] + 1u < c) {
            o->idx[d]++;
            return 1;
        }
        o->idx[d] = 0;
    }
    return 0;
}

/* The fill pattern of IMM at an element width, as one 32-bit lane. */
static __attribute__((noinline, unused)) uint32_t mvt_pattern(uint32_t imm, unsigned width)
{
    if (width == KMV_WIDTH_8)
        return (imm & 0xFFu) * 0x01010101u;
    if (width == KMV_WIDTH_16)
        return (imm & 0xFFFFu) * 0x00010001u;
    return imm;
}

static __attribute__((noinline, unused)) void mvt_exp_word(uint64_t dst_ug, const uint32_t v[8])
{
    volatile uint32_t *e = mvt_cpu(MVT_EXP + (dst_ug - MVT_DST));
    for (unsigned l = 0; l < 8; l++)
        e[l] = v[l];
}

/* Expected image of a COPY: the destination walk defines the elements, the source steps
 * alongside; an out-of-bound source element is the pad pattern, an out-of-bound destination
 * element is not written. */
static __attribute__((noinline, unused)) void mvt_ref_copy(const struct kmv_walk *dst, const struct kmv_walk *src,
                                uint32_t pad, unsigned width)
{
    struct mvt_odo d, s;

    mvt_odo_init(&d, dst);
    mvt_odo_init(&s, src);
    do {
        if (mvt_odo_valid(&d)) {
            uint32_t v[8];
            uint64_t sa = mvt_odo_addr(&s);
            for (unsigned l = 0; l < 8; l++)
                v[l] = mvt_odo_valid(&s) ? mvt_src_val(sa + 4u * l) : mvt_pattern(pad, width);
            mvt_exp_word(mvt_odo_addr(&d), v);
        }
        (void)mvt_odo_next(&s);
    } while (mvt_odo_next(&d));
}

/* A list the test wrote, replayed with the default per-move timeout. */
static __attribute__((noinline, unused)) unsigned mvt_run(const struct kd_write *w, uint32_t n,
                                                         struct kmv_result *r)
{
    return kmv_replay(w, n, MVT_TIMEOUT, r);
}

/* Runs a built list and checks the status it should end with. */
static __attribute__((noinline, unused)) unsigned mvt_replay(struct kmv_builder *b, struct kmv_result *r)
{
    ASSERT_EQ(b->status, KS_OK);
    return kmv_replay(b->w, b->n, MVT_TIMEOUT, r);
}

#endif
