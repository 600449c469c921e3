/* mover.c — the memory mover model: registers, walkers, modes 0-7, faults, counters, the RV32
 * descriptor form and the reference transform occupant (docs/hardware.md §3, §3.1, §4; §10.1 item 5, §10.2;
 * docs/hardware.md §3, §3.2). Choices the specs leave open: docs/mover-model.md. */
#include "mover.h"

#include <stdlib.h>
#include <string.h>

#include "kohaku/bits.h"
#include "kohaku/cpu_map.h"
#include "kohaku/mover_regs.h"
#include "kohaku/agent_regs.h"

#define MV_ADDR_MASK    KBF_GENMASK(39, 0)
#define MV_WORD         KMV_WORD_BYTES
#define MV_NDIM         KMV_MAX_DIMS
#define MV_IDX_WORDS    256u                    /* index buffer: 256 words x 8 indices = 2048 */
/* Model limit (docs/mover-model.md): a move walking more elements than this is refused with
 * fault 2 at GO. 2^24 words is 512 MB; the hardware would grind on for a long time, the model
 * would stall its host. */
#define MV_MAX_ELEMS    (UINT64_C(1) << 24)

/* The reference occupant at transform id 1, FP16 -> FP8 E5M2 (docs/mover-model.md §4). The
 * transform geometry (IN_BITS, OUT_WORDS) is one parameter of the mover, the same for every id
 * (docs/hardware.md §3.1): there is no 1:1 id. */
#define OCC_ID           1u
#define OCC_IN_BITS      2048u
#define OCC_OUT_WORDS    4u
#define XF_IN_WORDS      (OCC_IN_BITS / 256u)
#define XF_OUT_WORDS     OCC_OUT_WORDS
#define OCC_REG_IN_BITS  0x00u
#define OCC_REG_OUT_WORDS 0x04u
#define OCC_REG_FAULT    0x08u
#define OCC_REG_ENTRIES  0x0Cu
#define OCC_FAULT_MODE   1u      /* XFORM_MODE other than 0 (nearest-even) or 1 (saturating) */

struct mv_walker {
    uint64_t base;               /* 40-bit */
    unsigned ndim;               /* HDR [46:44], 0..7; 6 and 7 both mean six live dimensions */
    uint16_t count[MV_NDIM];     /* 0 counts as 1 */
    uint32_t stride[MV_NDIM];    /* signed bytes, two's complement */
    uint8_t axis[MV_NDIM];       /* 0,3: no bound; 1: bound 0; 2: bound 1 */
    uint16_t astep[MV_NDIM];     /* signed, 16-bit wrapping */
    uint16_t abase[2];           /* signed */
    uint16_t aext[2];            /* 0 disables */
};

struct mv_cursor {
    uint16_t idx[MV_NDIM];
};

struct km_mover {
    struct km_mover_env env;

    /* Register state (docs/hardware.md §3). */
    unsigned mode, width, flags;
    struct mv_walker w[2];       /* [KMV_WALK_SRC], [KMV_WALK_DST] */
    unsigned sel;                /* the shared walker select: HDR[0], DIM[0], BOUND[0] */
    unsigned st_dim;             /* staged DIM */
    uint16_t st_count;
    uint32_t st_stride;
    unsigned xf_id, xf_mode;     /* HDR source-only fields */
    uint64_t idx_base;
    uint16_t idx_count;
    uint64_t seed;
    uint32_t imm;
    uint32_t pitch;
    uint16_t gwords;
    uint8_t ixbuf[MV_IDX_WORDS][MV_WORD];   /* persists across moves: stale rows are real */

    /* Status. */
    bool busy;                   /* a move in flight (including its descriptor fetch) */
    uint64_t busy_until;
    bool replay;                 /* an MVGO descriptor fetch in flight */
    uint64_t replay_until;
    unsigned fault;              /* visible fault code */
    unsigned pending_fault;      /* what the move in flight ends with */
    uint32_t moves;              /* completed fault-free moves (32-bit, fields show the low bits) */
    uint16_t reads, writes;      /* AXI words, free-running */

    /* Reference occupant state. */
    unsigned occ_fault;
    uint32_t occ_entries;
};

/* ------------------------------------------------------------------ time */

static uint64_t mv_now(const struct km_mover *mv)
{
    return mv->env.now ? mv->env.now(mv->env.ctx) : 0;
}

static void mv_event(void *arg);

static void mv_complete(struct km_mover *mv)
{
    mv->busy = false;
    mv->fault = mv->pending_fault;
    if (mv->fault == KMV_FAULT_NONE)
        mv->moves++;
}

/* Every scheduled event calls back here; stale events (after a reset, or for an earlier
 * deadline) find nothing due and do nothing. */
static void mv_event(void *arg)
{
    struct km_mover *mv = arg;
    uint64_t now = mv_now(mv);

    if (mv->busy && now >= mv->busy_until)
        mv_complete(mv);
    if (mv->replay && now >= mv->replay_until)
        mv->replay = false;
}

static void mv_schedule(struct km_mover *mv, uint64_t t)
{
    if (mv->env.at) {
        mv->env.at(mv->env.ctx, t, mv_event, mv);
        return;
    }
    /* No clock wired (a fuzzer, say): everything completes at once. */
    if (mv->busy)
        mv_complete(mv);
    mv->replay = false;
}

/* ------------------------------------------------------------------ walkers */

static unsigned live_dims(const struct mv_walker *w)
{
    return w->ndim < MV_NDIM ? w->ndim : MV_NDIM;
}

static uint32_t eff_count(const struct mv_walker *w, unsigned d)
{
    return w->count[d] ? w->count[d] : 1u;
}

/* Elements in a walk, saturated just above the model limit. */
static uint64_t walk_elems(const struct mv_walker *w)
{
    uint64_t n = 1;
    for (unsigned d = 0; d < live_dims(w); d++) {
        n *= eff_count(w, d);
        if (n > MV_MAX_ELEMS)
            return MV_MAX_ELEMS + 1;
    }
    return n;
}

/* Σ index × stride is a 32-bit signed sum, sign-extended onto the 40-bit base (§3.1). */
static uint64_t walk_addr(const struct mv_walker *w, const struct mv_cursor *c)
{
    uint32_t off = 0;
    for (unsigned d = 0; d < MV_NDIM; d++)
        off += (uint32_t)c->idx[d] * w->stride[d];
    return (w->base + (uint64_t)(int64_t)(int32_t)off) & MV_ADDR_MASK;
}

/* Axis positions are 16-bit signed and wrap; extent 0 disables a bound (§3, §3.1). */
static bool walk_valid(const struct mv_walker *w, const struct mv_cursor *c)
{
    for (unsigned b = 0; b < 2; b++) {
        if (w->aext[b] == 0)
            continue;
        uint16_t pos = w->abase[b];
        for (unsigned d = 0; d < MV_NDIM; d++)
            if (w->axis[d] == b + 1)
                pos = (uint16_t)(pos + (uint32_t)c->idx[d] * w->astep[d]);
        int32_t s = (int16_t)pos;
        if (s < 0 || s >= (int32_t)w->aext[b])
            return false;
    }
    return true;
}

/* Step to the next element, the highest live dimension innermost (an odometer). Returns false,
 * leaving the cursor where it is, when the cursor was on the last element. */
static bool walk_step(const struct mv_walker *w, struct mv_cursor *c)
{
    unsigned n = live_dims(w);
    for (unsigned i = n; i-- > 0;) {
        if ((uint32_t)c->idx[i] + 1 < eff_count(w, i)) {
            c->idx[i]++;
            for (unsigned j = i + 1; j < n; j++)
                c->idx[j] = 0;
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------ data helpers */

static void fill_word(const struct km_mover *mv, uint8_t out[MV_WORD])
{
    unsigned bytes = mv->width == KMV_WIDTH_8 ? 1u : mv->width == KMV_WIDTH_16 ? 2u : 4u;
    for (unsigned i = 0; i < MV_WORD; i++)
        out[i] = (uint8_t)(mv->imm >> (8u * (i % bytes)));
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Philox-4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC11). */
static void philox4x32_10(const uint32_t ctr_in[4], const uint32_t key_in[2], uint32_t out[4])
{
    uint32_t c0 = ctr_in[0], c1 = ctr_in[1], c2 = ctr_in[2], c3 = ctr_in[3];
    uint32_t k0 = key_in[0], k1 = key_in[1];
    for (unsigned r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0;
        uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c0 = n0;
        c1 = (uint32_t)p1;
        c2 = n2;
        c3 = (uint32_t)p0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* GENERATE: a pure function of (SEED, destination word address), §3.1. */
static void gen_word(const struct km_mover *mv, uint64_t addr, uint8_t out[MV_WORD])
{
    uint64_t wa = (addr & MV_ADDR_MASK) >> 5;
    uint32_t key[2] = { (uint32_t)mv->seed, (uint32_t)(mv->seed >> 32) };
    for (unsigned half = 0; half < 2; half++) {
        uint32_t ctr[4] = { (uint32_t)wa, (uint32_t)(((wa >> 32) & 7u) << 1 | half), 0, 0 };
        uint32_t r[4];
        philox4x32_10(ctr, key, r);
        for (unsigned l = 0; l < 4; l++)
            put32(out + 16u * half + 4u * l, r[l]);
    }
}

/* ------------------------------------------------------------------ AXI */

struct mv_run {
    struct km_mover *mv;
    uint32_t reads, writes;      /* this move's word transfers, for timing */
    bool axi;                    /* an AXI error was seen: stop at the next element */
};

static void axi_read(struct mv_run *r, uint64_t addr, uint8_t buf[MV_WORD])
{
    struct km_mover *mv = r->mv;
    memset(buf, 0, MV_WORD);
    r->reads++;
    mv->reads++;
    /* docs/hardware.md §3.1: a misaligned source (base, stride, index base, pitch) is read as the
     * aligned word that contains it; the AXI slave ignores the low address bits. */
    addr &= ~(uint64_t)(MV_WORD - 1);
    if (!mv->env.mem_read || mv->env.mem_read(mv->env.ctx, addr & MV_ADDR_MASK, buf, MV_WORD) != 0)
        r->axi = true;
}

static void axi_write(struct mv_run *r, uint64_t addr, const uint8_t buf[MV_WORD])
{
    struct km_mover *mv = r->mv;
    r->writes++;
    mv->writes++;
    if (!mv->env.mem_write || mv->env.mem_write(mv->env.ctx, addr & MV_ADDR_MASK, buf, MV_WORD) != 0)
        r->axi = true;
}

/* ------------------------------------------------------------------ occupant */

/* FP16 -> FP8 E5M2: the two formats share sign, exponent width and bias, so the conversion is
 * rounding away the low 8 mantissa bits (round to nearest, ties to even). */
static uint8_t fp16_to_e5m2(uint16_t h, bool saturate)
{
    uint8_t sign = (uint8_t)((h >> 8) & 0x80u);
    uint16_t mag = h & 0x7FFFu;
    if ((mag & 0x7C00u) == 0x7C00u)
        return (uint8_t)(sign | ((mag & 0x03FFu) ? 0x7Fu : 0x7Cu));   /* NaN / Inf */
    uint32_t r = ((uint32_t)mag + 0x7Fu + ((mag >> 8) & 1u)) >> 8;
    if (r >= 0x7Cu)
        r = saturate ? 0x7Bu : 0x7Cu;                                 /* overflow */
    return (uint8_t)(sign | r);
}

/* Is there something at transform id `id`? Id 1 holds the reference occupant; id 0 is the
 * agent's bypass (docs/hardware.md §3.2), at the mover's one geometry: an entry's
 * first OUT_WORDS words pass unchanged (docs/mover-model.md §4, a choice); other ids are empty. */
static bool occ_present(unsigned id)
{
    return id == 0 || id == OCC_ID;
}

static void occ_convert(struct km_mover *mv, const uint8_t *in, uint8_t *out)
{
    if (mv->xf_id == 0) {
        memcpy(out, in, XF_OUT_WORDS * MV_WORD);
        return;
    }
    mv->occ_entries++;
    if (mv->xf_mode > 1) {
        mv->occ_fault = OCC_FAULT_MODE;
        memset(out, 0, OCC_OUT_WORDS * MV_WORD);
        return;
    }
    for (unsigned i = 0; i < OCC_OUT_WORDS * MV_WORD; i++)
        out[i] = fp16_to_e5m2((uint16_t)(in[2 * i] | in[2 * i + 1] << 8), mv->xf_mode == 1);
}

/* ------------------------------------------------------------------ moves */

/* The fault a GO raises before anything is read or written, or 0. */
static unsigned go_fault(const struct km_mover *mv)
{
    const struct mv_walker *src = &mv->w[KMV_WALK_SRC], *dst = &mv->w[KMV_WALK_DST];

    if (mv->width == KMV_WIDTH_BAD)
        return KMV_FAULT_WIDTH;              /* checked before the mode (§3.1) */
    if (mv->mode == KMV_MODE_TRANSPOSE)
        return KMV_FAULT_MODE;
    if (mv->mode == KMV_MODE_GATHER && mv->idx_count > KMV_MAX_INDICES)
        return KMV_FAULT_INDEX_LEN;
    if (mv->mode == KMV_MODE_XFORM) {
        /* A bound faults 7 only when an element is out of range at an entry's first word
         * (run_xform), not here. The hardware hangs on the next three; the model refuses with
         * 2 (never raised by the hardware), docs/mover-model.md. */
        if (!occ_present(mv->xf_id))
            return KMV_FAULT_RANGE;
        uint64_t n = walk_elems(src);
        if (n > MV_MAX_ELEMS || n % XF_IN_WORDS != 0 || walk_elems(dst) < n / XF_IN_WORDS)
            return KMV_FAULT_RANGE;
        return KMV_FAULT_NONE;
    }
    if (walk_elems(dst) > MV_MAX_ELEMS)
        return KMV_FAULT_RANGE;
    return KMV_FAULT_NONE;
}

/* GATHER: pull the index vector in first, eight 32-bit indices per word, at least one word. */
static void load_indices(struct mv_run *r)
{
    struct km_mover *mv = r->mv;
    uint32_t got = 0;
    unsigned slot = 0;
    do {
        axi_read(r, mv->idx_base + (uint64_t)slot * MV_WORD, mv->ixbuf[slot]);
        slot++;
        got += 8;
    } while (got < mv->idx_count);
}

static unsigned run_elementwise(struct mv_run *r)
{
    struct km_mover *mv = r->mv;
    const struct mv_walker *src = &mv->w[KMV_WALK_SRC], *dst = &mv->w[KMV_WALK_DST];
    struct mv_cursor dc = { { 0 } }, sc = { { 0 } };
    bool src_end = false;
    uint16_t row = 0, word = 0;
    uint8_t buf[MV_WORD];

    if (mv->mode == KMV_MODE_GATHER)
        load_indices(r);

    for (;;) {
        uint64_t da = walk_addr(dst, &dc);
        if (walk_valid(dst, &dc)) {
            if (da & (MV_WORD - 1))
                return KMV_FAULT_ALIGN;      /* earlier elements stay written */
            switch (mv->mode) {
            case KMV_MODE_FILL:
                fill_word(mv, buf);
                break;
            case KMV_MODE_GENERATE:
                gen_word(mv, da, buf);
                break;
            case KMV_MODE_GATHER: {
                /* Erratum (docs/hardware.md §3.1): the index buffer answers a cycle late, so a row that
                 * starts a new index word (rows 8, 16, ...) gets the previous word's first
                 * index, index[row - 8]. */
                uint16_t ir = row;
                if (!mv->env.gather_erratum_off && ir >= 8u && (ir & 7u) == 0)
                    ir = (uint16_t)(ir - 8u);
                uint32_t index = get32(&mv->ixbuf[(ir >> 3) & (MV_IDX_WORDS - 1)][4u * (ir & 7u)]);
                uint64_t a = src->base + (uint32_t)(index * mv->pitch) + (uint64_t)word * MV_WORD;
                axi_read(r, a, buf);
                break;
            }
            default:                        /* COPY, and modes 6 and 7 which run as COPY */
                if (walk_valid(src, &sc))
                    axi_read(r, walk_addr(src, &sc), buf);   /* never alignment-checked */
                else
                    fill_word(mv, buf);     /* padding: no read, the source keeps its address */
                break;
            }
            axi_write(r, da, buf);
        }
        if (r->axi)
            return KMV_FAULT_AXI;
        if (!walk_step(dst, &dc))
            return KMV_FAULT_NONE;
        /* The source steps alongside; past its end it stays on its last element (§3.1). */
        if (!src_end && !walk_step(src, &sc))
            src_end = true;
        if (mv->mode == KMV_MODE_GATHER) {
            if (mv->gwords != 0 && (uint16_t)(word + 1) == mv->gwords) {
                word = 0;
                row++;
            } else {
                word++;
            }
        }
    }
}

static unsigned run_xform(struct mv_run *r)
{
    struct km_mover *mv = r->mv;
    const struct mv_walker *src = &mv->w[KMV_WALK_SRC], *dst = &mv->w[KMV_WALK_DST];
    struct mv_cursor dc = { { 0 } }, sc = { { 0 } };
    uint8_t in[XF_IN_WORDS * MV_WORD], out[XF_OUT_WORDS * MV_WORD];

    if (mv->xf_id != 0)
        mv->occ_fault = 0;
    for (;;) {
        bool more = true;
        /* Fault 7 (docs/hardware.md §3.1): a source element out of its bound at an entry's first word;
         * nothing of the entry is read or written. Out of bound at a later word the hardware
         * hangs; the model faults 7 there too, after the entry's earlier reads (docs). A bound
         * that excludes nothing runs normally. Destination bounds play no part in XFORM. */
        for (unsigned j = 0; j < XF_IN_WORDS; j++) {
            if (!walk_valid(src, &sc))
                return KMV_FAULT_XFORM_BOUND;
            /* The occupant needs every beat of an entry, so an AXI error inside one still
             * finishes the entry's reads (docs/mover-model.md). */
            axi_read(r, walk_addr(src, &sc), in + j * MV_WORD);
            more = walk_step(src, &sc);
        }
        uint64_t da = walk_addr(dst, &dc);
        if (da & (MV_WORD - 1))
            return KMV_FAULT_ALIGN;          /* the hardware hangs here */
        occ_convert(mv, in, out);
        for (unsigned j = 0; j < XF_OUT_WORDS; j++)
            axi_write(r, da + (uint64_t)j * MV_WORD, out + j * MV_WORD);
        if (r->axi)
            return KMV_FAULT_AXI;
        if (!more)
            return KMV_FAULT_NONE;
        (void)walk_step(dst, &dc);          /* long enough: checked at GO */
    }
}

/* A GO: the data lands now, status (fault, moves completed, busy) changes at completion.
 * `delay` is the descriptor fetch ahead of it (MVGO), 0 from a register GO. */
static void mv_go(struct km_mover *mv, uint64_t delay)
{
    uint64_t now = mv_now(mv), dur;
    struct mv_run r = { .mv = mv };
    unsigned f = go_fault(mv);

    mv->fault = KMV_FAULT_NONE;              /* the fault code holds until the next GO */
    if (f != KMV_FAULT_NONE) {
        dur = mv->env.ns_per_cycle;         /* refused in its first cycle, nothing moved */
    } else {
        f = mv->mode == KMV_MODE_XFORM ? run_xform(&r) : run_elementwise(&r);
        uint64_t words = r.reads > r.writes ? r.reads : r.writes;
        dur = mv->env.latency_ns + words * mv->env.ns_per_cycle;
    }
    mv->pending_fault = f;
    mv->busy = true;
    mv->busy_until = now + delay + dur;
    mv_schedule(mv, mv->busy_until);
}

/* ------------------------------------------------------------------ registers */

static uint16_t f16(uint64_t mask, uint64_t v)
{
    return (uint16_t)KBF_FIELD_GET(mask, v);
}

static void mv_write(struct km_mover *mv, unsigned off, uint64_t val, uint64_t go_delay)
{
    if (off >= 0x100u)
        return;                             /* cfg_addr is 8 bits */
    switch (off & 0xF8u) {                  /* 8-byte granular decode */
    case KMV_REG_CTRL:
        /* Mode, width and flags latch on every write, a refused GO included. */
        mv->mode = (unsigned)KBF_FIELD_GET(KMV_CTRL_MODE, val);
        mv->width = (unsigned)KBF_FIELD_GET(KMV_CTRL_WIDTH, val);
        mv->flags = (unsigned)KBF_FIELD_GET(KMV_CTRL_FLAGS, val);
        if (val & KMV_CTRL_GO) {
            if (mv->busy) {
                if (mv->env.busy_go)
                    mv->env.busy_go(mv->env.ctx);
            } else {
                mv_go(mv, go_delay);
            }
        }
        break;
    case KMV_REG_HDR: {
        unsigned w = (unsigned)KBF_FIELD_GET(KMV_HDR_WALKER, val);
        mv->sel = w;
        mv->w[w].base = KBF_FIELD_GET(KMV_HDR_BASE, val);
        mv->w[w].ndim = (unsigned)KBF_FIELD_GET(KMV_HDR_NDIM, val);
        if (w == KMV_WALK_SRC) {
            mv->xf_id = (unsigned)KBF_FIELD_GET(KMV_HDR_XFORM_ID, val);
            mv->xf_mode = (unsigned)KBF_FIELD_GET(KMV_HDR_XFORM_MODE, val);
        }
        break;
    }
    case KMV_REG_DIM:
        mv->sel = (unsigned)KBF_FIELD_GET(KMV_DIM_WALKER, val);
        mv->st_dim = (unsigned)KBF_FIELD_GET(KMV_DIM_INDEX, val);
        mv->st_count = f16(KMV_DIM_COUNT, val);
        mv->st_stride = (uint32_t)KBF_FIELD_GET(KMV_DIM_STRIDE, val);
        break;
    case KMV_REG_AXIS:
        /* Commits the staged dimension to the most recently selected walker; dimension
         * indices 6 and 7 store nothing. */
        if (mv->st_dim < MV_NDIM) {
            struct mv_walker *w = &mv->w[mv->sel];
            w->count[mv->st_dim] = mv->st_count;
            w->stride[mv->st_dim] = mv->st_stride;
            w->axis[mv->st_dim] = (uint8_t)KBF_FIELD_GET(KMV_AXIS_AXIS, val);
            w->astep[mv->st_dim] = f16(KMV_AXIS_STEP, val);
        }
        break;
    case KMV_REG_BOUND: {
        unsigned b = (unsigned)KBF_FIELD_GET(KMV_BOUND_WHICH, val);
        mv->sel = (unsigned)KBF_FIELD_GET(KMV_BOUND_WALKER, val);
        mv->w[mv->sel].abase[b] = f16(KMV_BOUND_BASE, val);
        mv->w[mv->sel].aext[b] = f16(KMV_BOUND_EXTENT, val);
        break;
    }
    case KMV_REG_INDEX:
        mv->idx_base = KBF_FIELD_GET(KMV_INDEX_BASE, val);
        mv->idx_count = f16(KMV_INDEX_COUNT, val);
        break;
    case KMV_REG_SEED:
        mv->seed = val;
        break;
    case KMV_REG_IMM:
        mv->imm = (uint32_t)KBF_FIELD_GET(KMV_IMM_VALUE, val);
        break;
    case KMV_REG_GATHER:
        mv->pitch = (uint32_t)KBF_FIELD_GET(KMV_GATHER_PITCH, val);
        mv->gwords = f16(KMV_GATHER_WORDS, val);
        break;
    default:
        break;                              /* free offsets: ignored */
    }
}

/* ------------------------------------------------------------------ public API */

struct km_mover *km_mover_new(const struct km_mover_env *env)
{
    struct km_mover *mv = calloc(1, sizeof(*mv));
    if (!mv)
        return NULL;
    mv->env = *env;
    km_mover_reset(mv);
    return mv;
}

void km_mover_free(struct km_mover *mv)
{
    free(mv);
}

void km_mover_reset(struct km_mover *mv)
{
    struct km_mover_env env = mv->env;
    memset(mv, 0, sizeof(*mv));             /* index buffer, walkers, counters, status */
    mv->env = env;
    mv->width = KMV_WIDTH_16;
    mv->gwords = 1;
    mv->st_count = 1;
    mv->w[KMV_WALK_SRC].ndim = 1;
    mv->w[KMV_WALK_DST].ndim = 1;
}

void km_mover_write(struct km_mover *mv, unsigned off, uint64_t val)
{
    mv_write(mv, off, val, 0);
}

bool km_mover_busy(const struct km_mover *mv)
{
    return mv->busy;
}

uint64_t km_mover_aux_stat(const struct km_mover *mv)
{
    return KBF_FIELD_PREP(KA_AUX_STAT_MOVES, mv->moves & 0xFFFFFFu) |
           KBF_FIELD_PREP(KA_AUX_STAT_READS, mv->reads) |
           KBF_FIELD_PREP(KA_AUX_STAT_WRITES, mv->writes) |
           KBF_FIELD_PREP(KA_AUX_STAT_FAULT, mv->fault) |
           (mv->busy ? KA_AUX_STAT_BUSY : 0);
}

uint64_t km_mover_mvstat(const struct km_mover *mv)
{
    return (mv->busy ? RV64_MVSTAT_BUSY : 0) |
           KBF_FIELD_PREP(RV64_MVSTAT_FAULT, mv->fault) |
           KBF_FIELD_PREP(RV64_MVSTAT_MOVES, mv->moves & 0xFFFFFFFu);
}

void km_mover_mvgo(struct km_mover *mv, uint32_t idx)
{
    uint64_t now = mv_now(mv);
    uint64_t first = (uint64_t)idx * 4u;
    uint64_t n, end;

    if (mv->busy || mv->replay) {           /* program order is the queue (docs/hardware.md §4) */
        if (mv->env.busy_go)
            mv->env.busy_go(mv->env.ctx);
        return;
    }
    mv->replay = true;
    if (!mv->env.spad || first + 4u > mv->env.spad_bytes) {
        n = 0;
        end = first;                        /* not even the count word is there */
    } else {
        n = get32(mv->env.spad + first);
        end = first + 4u + n * 12u;
    }
    if (end > mv->env.spad_bytes || !mv->env.spad) {
        /* Model-only refusal: nothing replayed, fault 2 (docs/mover-model.md). */
        mv->fault = KMV_FAULT_RANGE;
        mv->replay_until = now + mv->env.ns_per_cycle;
        mv_schedule(mv, mv->replay_until);
        return;
    }
    /* One scratchpad word per mover cycle; a GO in the list starts its move after the whole
     * list is fetched, so busy covers fetch plus move. */
    uint64_t fetch = (1u + 3u * n) * mv->env.ns_per_cycle;
    mv->replay_until = now + fetch;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *e = mv->env.spad + first + 4u + i * 12u;
        uint64_t val = (uint64_t)get32(e + 4) | (uint64_t)get32(e + 8) << 32;
        mv_write(mv, e[0], val, fetch);
    }
    mv_schedule(mv, mv->replay_until);
}

uint32_t km_mover_mvgo_status(const struct km_mover *mv)
{
    return (uint32_t)((mv->busy || mv->replay ? RV32_MVGO_BUSY : 0) |
                      KBF_FIELD_PREP(RV32_MVGO_FAULT, mv->fault) |
                      KBF_FIELD_PREP(RV32_MVGO_OCC_FAULT, mv->occ_fault));
}

uint32_t km_mover_occ_read(struct km_mover *mv, unsigned id, unsigned reg)
{
    if (id != OCC_ID)
        return 0;
    switch (reg & 0xFCu) {
    case OCC_REG_IN_BITS:   return OCC_IN_BITS;
    case OCC_REG_OUT_WORDS: return OCC_OUT_WORDS;
    case OCC_REG_FAULT:     return mv->occ_fault;
    case OCC_REG_ENTRIES:   return mv->occ_entries;
    default:                return 0;
    }
}

void km_mover_occ_write(struct km_mover *mv, unsigned id, unsigned reg, uint32_t val)
{
    (void)val;
    if (id == OCC_ID && (reg & 0xFCu) == OCC_REG_FAULT)
        mv->occ_fault = 0;                  /* any write clears */
}
