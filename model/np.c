/* np.c — the NPU compute unit `NP` (docs/hardware.md §9): all five
 * opcodes, every CVO function and flag, MEMCPY through real memory-agent flits
 * (docs/hardware.md §2.4.1–§2.4.2), with the conventions and timing of docs/npu.md. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "np.h"
#include "npu_num.h"
#include "kohaku/npu_isa.h"

#define NP_L2_ELEMS   (NP_L2_LINES * NP_LINE_ELEMS)
#define NP_CACHE_N    64u

/* A half-open range of L2 lines, for the hazard check against a background instruction. */
struct np_range {
    uint32_t lo, hi;
};

enum np_engine { NP_ENG_NONE, NP_ENG_DMA, NP_ENG_SFU, NP_ENG_MAC };

/* The operands an instruction touches, filled by decode for the hazard check. */
struct np_use {
    enum np_engine eng;
    struct np_range rd[3];
    unsigned nrd;
    struct np_range wr;
};

/* One memory descriptor in flight. */
struct np_slot {
    bool used;
    uint8_t txn;
    uint8_t beats;
    uint8_t got;              /* bit per word received (reads) */
    uint32_t line;            /* L2 line of its first beat */
};

/* The DMA engine: one host MEMCPY at a time. */
struct np_dma {
    bool active;
    bool to_host;
    bool background;          /* async: completion ends the background op, not an instruction */
    uint64_t host;            /* unit-global byte address of row 0 */
    uint32_t l2;              /* L2 line of row 0 */
    uint32_t rows, lpr, stride;
    uint32_t issued, total, finished;   /* lines */
    uint64_t last_progress;   /* the watchdog measures NP_DMA_TIMEOUT from here */
    uint32_t gen;             /* invalidates a stale watchdog */
    uint8_t next_txn;
    unsigned inflight;
    struct np_slot slot[NP_DMA_WINDOW];
};

struct np_state {
    uint16_t l2[NP_L2_ELEMS];                 /* FP16 bit patterns */
    uint16_t cache[2][NP_CACHE_N][3];         /* fmap_shape, weight_shape: (a, b, c) */
    uint64_t host_base;
    float s;                                  /* the CVO SCALE scalar */
    uint16_t emax;                            /* FP16 */

    /* The foreground instruction: received by exec, possibly waiting on the background op. */
    struct kf_flit cur;
    bool cur_valid, cur_waiting, cur_last;
    struct np_use cur_use;
    uint64_t cur_start;
    uint32_t retire_result;
    bool retire_fault, retire_pending;

    /* At most one asynchronous instruction runs in the background. */
    bool bg_busy;
    struct np_use bg_use;
    uint32_t bg_gen;
    uint32_t async_fault;                     /* 0, or the code an async op failed with */

    struct np_dma dma;
    uint16_t retired;
};

static uint64_t cycles_ns(struct km_cu *cu, uint64_t cycles)
{
    return cycles * km_cu_cycle_ns(cu);
}

/* ---------------------------------------------------------------- retirement */

static void start(struct km_cu *cu, struct np_state *st);

static void retire_now(struct km_cu *cu, struct np_state *st)
{
    uint32_t result = st->retire_result;
    bool fault = st->retire_fault;

    /* A failed async op is reported by the next instruction to retire, unless that one
     * faults itself (its own fault wins; the async one waits for the next). */
    if (!fault && st->async_fault) {
        result = st->async_fault;
        fault = true;
        st->async_fault = 0;
    }
    st->cur_valid = false;
    st->retire_pending = false;
    st->retired++;
    km_cu_done(cu, result, fault);
}

static void ev_retire(struct km_cu *cu, void *state, uint64_t arg)
{
    struct np_state *st = state;
    (void)arg;
    if (!st->cur_valid)
        return;
    /* The last instruction of a program retires only once background work has landed, so a
     * BATCH_COMPLETE means the program's results are in L2 / DRAM. */
    if (st->cur_last && st->bg_busy) {
        st->retire_pending = true;
        return;
    }
    retire_now(cu, st);
}

/* Finish the foreground instruction: retire after `cycles` more unit cycles. exec_result is
 * the cycles it occupied the unit, or the fault code. */
static void finish(struct km_cu *cu, struct np_state *st, uint64_t cycles, uint32_t fault_code)
{
    uint64_t end = km_cu_now(cu) + cycles_ns(cu, cycles);
    st->retire_fault = fault_code != 0;
    st->retire_result = fault_code ? fault_code
                                   : (uint32_t)((end - st->cur_start) / km_cu_cycle_ns(cu));
    km_cu_after(cu, cycles_ns(cu, cycles), ev_retire, 0);
}

static void fault(struct km_cu *cu, struct np_state *st, unsigned opcode, unsigned code)
{
    finish(cu, st, NP_T_FAULT, np_fault_result(opcode, code));
}

static void bg_done(struct km_cu *cu, struct np_state *st)
{
    st->bg_busy = false;
    st->bg_gen++;
    if (st->cur_valid && st->cur_waiting) {
        st->cur_waiting = false;
        st->cur_start = km_cu_now(cu);
        start(cu, st);
    } else if (st->cur_valid && st->retire_pending) {
        retire_now(cu, st);
    }
}

static void ev_bg_done(struct km_cu *cu, void *state, uint64_t gen)
{
    struct np_state *st = state;
    if (st->bg_busy && st->bg_gen == (uint32_t)gen)
        bg_done(cu, st);
}

/* ---------------------------------------------------------------- hazards */

static bool overlap(struct np_range a, struct np_range b)
{
    return a.lo < a.hi && b.lo < b.hi && a.lo < b.hi && b.lo < a.hi;
}

/* Must `u` wait for the background op? Same engine, or a read/write or write/write overlap. */
static bool conflicts(const struct np_use *bg, const struct np_use *u)
{
    if (bg->eng == u->eng)
        return true;
    if (overlap(bg->wr, u->wr))
        return true;
    for (unsigned i = 0; i < u->nrd; i++)
        if (overlap(bg->wr, u->rd[i]))
            return true;
    for (unsigned i = 0; i < bg->nrd; i++)
        if (overlap(bg->rd[i], u->wr))
            return true;
    return false;
}

static struct np_range lines(uint32_t lo, uint64_t n)
{
    struct np_range r = { lo, (uint32_t)(lo + n) };
    return r;
}

static bool in_l2(uint32_t line, uint64_t n)
{
    return (uint64_t)line + n <= NP_L2_LINES;
}

/* ---------------------------------------------------------------- GEMV / GEMM */

struct np_gemx {
    uint32_t dest, src, w, wstride, m, n, k, lanes;
    unsigned flags;
    float wscale;
};

/* Decode and validate; 0 or a fault code. */
static unsigned gemx_decode(struct np_state *st, unsigned op, uint64_t w, struct np_gemx *g,
                            struct np_use *u)
{
    const uint16_t *shape, *size;

    if (KBF_FIELD_GET(NP_GEMX_RSVD, w) || (KBF_FIELD_GET(NP_GEMX_FLAGS, w) & NP_GF_RSVD))
        return NP_FAULT_RSVD;
    g->dest = (uint32_t)KBF_FIELD_GET(NP_GEMX_DEST, w);
    g->src = (uint32_t)KBF_FIELD_GET(NP_GEMX_SRC, w);
    g->flags = (unsigned)KBF_FIELD_GET(NP_GEMX_FLAGS, w);
    g->lanes = (uint32_t)KBF_FIELD_GET(NP_GEMX_LANES, w);
    if (g->lanes == 0)
        g->lanes = NP_LANES;
    shape = st->cache[NP_CACHE_FMAP][KBF_FIELD_GET(NP_GEMX_SHAPE_PTR, w)];
    size = st->cache[NP_CACHE_WEIGHT][KBF_FIELD_GET(NP_GEMX_SIZE_PTR, w)];
    /* GEMV is GEMM with M forced to 1, so a layer's one shape entry serves prefill and decode. */
    g->m = op == NP_OP_GEMV ? 1u : shape[0];
    g->n = shape[1];
    g->k = shape[2];
    g->w = (uint32_t)size[0] << 1;
    g->wscale = np_h2f(size[1]);
    g->wstride = size[2] ? size[2] : np_row_lines(g->n);
    if (g->m == 0 || g->n == 0 || g->k == 0 || g->wstride < np_row_lines(g->n))
        return NP_FAULT_SHAPE;

    uint64_t a_lines = (uint64_t)g->m * np_row_lines(g->k);
    uint64_t w_lines = (uint64_t)(g->k - 1u) * g->wstride + np_row_lines(g->n);
    uint64_t d_lines = (uint64_t)g->m * np_row_lines(g->n);
    if (!in_l2(g->src, a_lines) || !in_l2(g->w, w_lines) || !in_l2(g->dest, d_lines))
        return NP_FAULT_L2_RANGE;
    u->eng = NP_ENG_MAC;
    u->rd[0] = lines(g->src, a_lines);
    u->rd[1] = lines(g->w, w_lines);
    u->rd[2] = lines(g->dest, (g->flags & NP_GF_ACCM) ? d_lines : 0);
    u->nrd = 3;
    u->wr = lines(g->dest, d_lines);
    return 0;
}

/* docs/npu.md §5: fixed + max(compute, L2 traffic). Lanes partition output columns, so they
 * change the time and never the numbers. */
static uint64_t gemx_cycles(const struct np_gemx *g)
{
    uint64_t macs = (uint64_t)g->m * g->n * g->k;
    uint64_t compute = (macs + (uint64_t)g->lanes * NP_MACS_PER_LANE - 1u) /
                       ((uint64_t)g->lanes * NP_MACS_PER_LANE);
    uint64_t elems = (uint64_t)g->m * g->k + (uint64_t)g->k * g->n +
                     (uint64_t)g->m * g->n * ((g->flags & NP_GF_ACCM) ? 2u : 1u);
    uint64_t traffic = (2u * elems + NP_L2_BYTES_PER_CYCLE - 1u) / NP_L2_BYTES_PER_CYCLE;
    return NP_T_GEMX_FIXED + (compute > traffic ? compute : traffic);
}

static void gemx_run(struct np_state *st, const struct np_gemx *g)
{
    uint32_t alpr = np_row_lines(g->k), dlpr = np_row_lines(g->n);
    float *acc = calloc(g->n, sizeof *acc);
    uint16_t *out = malloc((size_t)g->m * g->n * sizeof *out);
    float rowmax = -INFINITY;

    if (!acc || !out)
        abort();
    /* All reads happen before any write, so dest may overlap the operands. */
    for (uint32_t i = 0; i < g->m; i++) {
        const uint16_t *x = &st->l2[((size_t)g->src + (size_t)i * alpr) * NP_LINE_ELEMS];
        const uint16_t *d = &st->l2[((size_t)g->dest + (size_t)i * dlpr) * NP_LINE_ELEMS];

        memset(acc, 0, g->n * sizeof *acc);
        /* FP32 accumulation in k order, one running sum per output column. */
        for (uint32_t kk = 0; kk < g->k; kk++) {
            float xv = np_h2f(x[kk]);
            const uint16_t *wr = &st->l2[((size_t)g->w + (size_t)kk * g->wstride) * NP_LINE_ELEMS];
            for (uint32_t j = 0; j < g->n; j++)
                acc[j] += xv * np_h2f(wr[j]);
        }
        for (uint32_t j = 0; j < g->n; j++) {
            float v = acc[j];
            if (g->flags & NP_GF_W_SCALE)
                v *= g->wscale;
            if (g->flags & NP_GF_ACCM)
                v += np_h2f(d[j]);
            out[(size_t)i * g->n + j] = np_f2h(v);
        }
    }
    for (uint32_t i = 0; i < g->m; i++) {
        uint16_t *d = &st->l2[((size_t)g->dest + (size_t)i * dlpr) * NP_LINE_ELEMS];
        for (uint32_t j = 0; j < g->n; j++) {
            float v = np_h2f(out[(size_t)i * g->n + j]);
            d[j] = out[(size_t)i * g->n + j];
            if (v > rowmax)
                rowmax = v;
        }
    }
    /* e_max is a running maximum of stored results; MEMSET resets it. NaN never wins. */
    if ((g->flags & NP_GF_FINDEMAX) && rowmax > np_h2f(st->emax))
        st->emax = np_f2h(rowmax);
    free(acc);
    free(out);
}

/* ---------------------------------------------------------------- CVO */

struct np_cvo {
    unsigned func, flags;
    uint32_t src, dst, len;
    bool async;
};

static unsigned cvo_decode(uint64_t w, struct np_cvo *c, struct np_use *u)
{
    c->func = (unsigned)KBF_FIELD_GET(NP_CVO_FUNC, w);
    c->src = (uint32_t)KBF_FIELD_GET(NP_CVO_SRC, w);
    c->dst = (uint32_t)KBF_FIELD_GET(NP_CVO_DST, w);
    c->len = (uint32_t)KBF_FIELD_GET(NP_CVO_LEN, w);
    c->flags = (unsigned)KBF_FIELD_GET(NP_CVO_FLAGS, w);
    c->async = KBF_FIELD_GET(NP_CVO_ASYNC, w) != 0;
    if (c->func > NP_CVO_RECIP)
        return NP_FAULT_FUNC;
    if (c->flags & NP_CF_RSVD)
        return NP_FAULT_RSVD;
    if (c->len == 0)
        return NP_FAULT_SHAPE;
    uint32_t n_in = np_row_lines(c->len);
    uint32_t n_out = c->func == NP_CVO_REDUCE_SUM ? 1u : n_in;
    if (!in_l2(c->src, n_in) || !in_l2(c->dst, n_out))
        return NP_FAULT_L2_RANGE;
    u->eng = NP_ENG_SFU;
    u->rd[0] = lines(c->src, n_in);
    u->rd[1] = lines(c->dst, (c->flags & NP_CF_ACCM) ? n_out : 0);
    u->nrd = 2;
    u->wr = lines(c->dst, n_out);
    return 0;
}

/* SFU cycles per 16-element line: the transcendental functions iterate, the rest stream. */
static const uint8_t cvo_line_cycles[8] = {
    [NP_CVO_EXP] = 4, [NP_CVO_SQRT] = 2, [NP_CVO_GELU] = 8, [NP_CVO_SIN] = 4,
    [NP_CVO_COS] = 4, [NP_CVO_REDUCE_SUM] = 1, [NP_CVO_SCALE] = 1, [NP_CVO_RECIP] = 2,
};

static uint64_t cvo_cycles(const struct np_cvo *c)
{
    uint64_t l = np_row_lines(c->len);
    return NP_T_CVO_FIXED + l * cvo_line_cycles[c->func] + ((c->flags & NP_CF_ACCM) ? l : 0u);
}

static void cvo_run(struct np_state *st, const struct np_cvo *c)
{
    const uint16_t *src = &st->l2[(size_t)c->src * NP_LINE_ELEMS];
    uint16_t *dst = &st->l2[(size_t)c->dst * NP_LINE_ELEMS];
    float emax = np_h2f(st->emax);
    uint16_t *out;

    if (c->func == NP_CVO_REDUCE_SUM) {
        float sum = 0.0f;
        for (uint32_t i = 0; i < c->len; i++)
            sum += (c->flags & NP_CF_SUB_EMAX) ? np_h2f(src[i]) - emax : np_h2f(src[i]);
        if (c->flags & NP_CF_ACCM)
            sum += np_h2f(dst[0]);
        dst[0] = np_f2h(sum);
        /* The FP32 sum (before rounding) becomes the SCALE scalar: softmax normalises with it. */
        st->s = sum;
        return;
    }
    out = malloc((size_t)c->len * sizeof *out);
    if (!out)
        abort();
    float scalar = (c->flags & NP_CF_RECIP_SCALE) ? 1.0f / st->s : st->s;
    for (uint32_t i = 0; i < c->len; i++) {
        float x = np_h2f(src[i]), r;
        if (c->flags & NP_CF_SUB_EMAX)
            x -= emax;
        r = c->func == NP_CVO_SCALE ? x * scalar : np_sfu(c->func, x);
        if (c->flags & NP_CF_ACCM)
            r += np_h2f(dst[i]);
        out[i] = np_f2h(r);
    }
    memcpy(dst, out, (size_t)c->len * sizeof *out);
    free(out);
}

/* ---------------------------------------------------------------- MEMSET */

static unsigned memset_run(struct np_state *st, uint64_t w)
{
    unsigned cache = (unsigned)KBF_FIELD_GET(NP_MS_CACHE, w);
    unsigned idx = (unsigned)KBF_FIELD_GET(NP_MS_INDEX, w);
    uint16_t a = (uint16_t)KBF_FIELD_GET(NP_MS_A, w), b = (uint16_t)KBF_FIELD_GET(NP_MS_B, w);
    uint16_t c = (uint16_t)KBF_FIELD_GET(NP_MS_C, w);

    if (KBF_FIELD_GET(NP_MS_RSVD, w))
        return NP_FAULT_RSVD;
    if (cache == NP_CACHE_FMAP || cache == NP_CACHE_WEIGHT) {
        st->cache[cache][idx][0] = a;
        st->cache[cache][idx][1] = b;
        st->cache[cache][idx][2] = c;
        return 0;
    }
    if (cache != NP_CACHE_SCALAR || idx > NP_SCALAR_EMAX)
        return NP_FAULT_CACHE;
    if (idx == NP_SCALAR_HOST_BASE) {
        uint64_t base = ((uint64_t)a << 32) | ((uint64_t)b << 16) | c;
        if (base > KF_UG_MASK || (base & (NP_LINE_BYTES - 1u)))
            return NP_FAULT_CACHE;
        st->host_base = base;
        return 0;
    }
    if (b || c)
        return NP_FAULT_RSVD;
    if (idx == NP_SCALAR_S)
        st->s = np_h2f(a);
    else
        st->emax = a;
    return 0;
}

/* ---------------------------------------------------------------- MEMCPY */

struct np_mc {
    bool from_host, to_host, async;
    uint32_t dest, src, aux, rows, elems, stride, lpr;
};

static unsigned memcpy_decode(struct np_state *st, uint64_t w, struct np_mc *mc, struct np_use *u)
{
    const uint16_t *shape = st->cache[NP_CACHE_FMAP][KBF_FIELD_GET(NP_MC_SHAPE_PTR, w)];

    mc->from_host = KBF_FIELD_GET(NP_MC_FROM_HOST, w) != 0;
    mc->to_host = KBF_FIELD_GET(NP_MC_TO_HOST, w) != 0;
    mc->dest = (uint32_t)KBF_FIELD_GET(NP_MC_DEST, w);
    mc->src = (uint32_t)KBF_FIELD_GET(NP_MC_SRC, w);
    mc->aux = (uint32_t)KBF_FIELD_GET(NP_MC_AUX, w);
    mc->async = KBF_FIELD_GET(NP_MC_ASYNC, w) != 0;
    /* Host to host is the mover's job (docs/hardware.md §3); the NPU has one host address field. */
    if (mc->from_host && mc->to_host)
        return NP_FAULT_DIRECTION;
    mc->rows = shape[0];
    mc->elems = shape[1];
    mc->lpr = np_row_lines(mc->elems);
    mc->stride = shape[2] ? shape[2] : mc->lpr;
    if (mc->rows == 0 || mc->elems == 0 || mc->stride < mc->lpr)
        return NP_FAULT_SHAPE;

    uint64_t packed = (uint64_t)mc->rows * mc->lpr;
    uint64_t strided = (uint64_t)(mc->rows - 1u) * mc->stride + mc->lpr;
    u->eng = NP_ENG_DMA;
    u->nrd = 1;
    if (mc->from_host) {                       /* host -> L2 dest (packed) */
        if (!in_l2(mc->dest, packed))
            return NP_FAULT_L2_RANGE;
        u->rd[0] = lines(0, 0);
        u->wr = lines(mc->dest, packed);
    } else if (mc->to_host) {                  /* L2 src (packed) -> host */
        if (!in_l2(mc->src, packed))
            return NP_FAULT_L2_RANGE;
        u->rd[0] = lines(mc->src, packed);
        u->wr = lines(0, 0);
    } else {                                   /* L2 src (strided) -> L2 dest (packed) */
        if (!in_l2(mc->src, strided) || !in_l2(mc->dest, packed))
            return NP_FAULT_L2_RANGE;
        u->rd[0] = lines(mc->src, strided);
        u->wr = lines(mc->dest, packed);
    }
    if (mc->from_host || mc->to_host) {
        uint64_t first = st->host_base + (uint64_t)mc->aux * NP_LINE_BYTES;
        uint64_t last = first + strided * NP_LINE_BYTES - 1u;
        /* The transfer may not carry into the aperture or mesh bits of its base. */
        if (last > KF_UG_MASK || (last >> 36) != (st->host_base >> 36))
            return NP_FAULT_HOST_RANGE;
    }
    return 0;
}

static void memcpy_local(struct np_state *st, const struct np_mc *mc)
{
    size_t row = (size_t)mc->lpr * NP_LINE_ELEMS;
    uint16_t *tmp = malloc((size_t)mc->rows * row * sizeof *tmp);

    if (!tmp)
        abort();
    for (uint32_t r = 0; r < mc->rows; r++)
        memcpy(&tmp[r * row], &st->l2[((size_t)mc->src + (size_t)r * mc->stride) * NP_LINE_ELEMS],
               row * sizeof *tmp);
    memcpy(&st->l2[(size_t)mc->dest * NP_LINE_ELEMS], tmp, (size_t)mc->rows * row * sizeof *tmp);
    free(tmp);
}

/* Line i of the transfer (row-major) on each side. */
static uint64_t dma_host_addr(const struct np_dma *d, uint32_t i)
{
    return d->host + ((uint64_t)(i / d->lpr) * d->stride + i % d->lpr) * NP_LINE_BYTES;
}

static void line_to_payload(const uint16_t *e, struct kf_flit *f)
{
    /* Little-endian: element j is bytes 2j..2j+1 of the beat, payload word j / 4. */
    for (unsigned wd = 0; wd < 4; wd++) {
        uint64_t v = 0;
        for (unsigned j = 0; j < 4; j++)
            v |= (uint64_t)e[wd * 4 + j] << (16 * j);
        f->w[wd] = v;
    }
}

static void payload_to_line(const struct kf_flit *f, uint16_t *e)
{
    for (unsigned wd = 0; wd < 4; wd++)
        for (unsigned j = 0; j < 4; j++)
            e[wd * 4 + j] = (uint16_t)(f->w[wd] >> (16 * j));
}

static void send_mem(struct km_cu *cu, unsigned type, unsigned txn, unsigned last, struct kf_flit *f)
{
    unsigned ax, ay;
    km_cu_mem_agent(cu, &ax, &ay);
    f->w[4] = kf_hdr(ax, ay, km_cu_x(cu), km_cu_y(cu), type, txn, last);
    km_cu_send(cu, f);
}

/* Issue descriptors while the window has room. A descriptor never crosses a host row, since
 * rows are strided there. */
static void dma_pump(struct km_cu *cu, struct np_state *st)
{
    struct np_dma *d = &st->dma;

    while (d->active && d->issued < d->total && d->inflight < NP_DMA_WINDOW) {
        struct np_slot *s = NULL;
        for (unsigned i = 0; i < NP_DMA_WINDOW; i++)
            if (!d->slot[i].used) {
                s = &d->slot[i];
                break;
            }
        uint32_t in_row = d->lpr - d->issued % d->lpr;
        uint32_t n = d->total - d->issued;
        if (n > in_row)
            n = in_row;
        if (n > NP_DMA_BEATS)
            n = NP_DMA_BEATS;
        s->used = true;
        s->txn = d->next_txn++;
        s->beats = (uint8_t)n;
        s->got = 0;
        s->line = d->l2 + d->issued;
        d->inflight++;

        struct kf_flit f = { { 0 } };
        uint64_t addr = dma_host_addr(d, d->issued);
        f.w[3] = KBF_FIELD_PREP(KF_W3_MEM_ADDR, addr) | KBF_FIELD_PREP(KF_W3_MEM_LEN, n - 1u);
        if (!d->to_host) {
            /* A STREAM read of one entry of n <= 4 words: every response carries txn = tag + 0
             * and its word index in rsvd[1:0] (docs/hardware.md §2.2), so placement never
             * depends on arrival order. (A plain read answers with rsvd 0.) */
            f.w[3] |= KBF_FIELD_PREP(KF_W3_MEM_FLAGS, KF_MEM_FLAG_STREAM) | KBF_FIELD_PREP(KF_W3_MEM_COUNT, 1u);
            f.w[2] = KBF_FIELD_PREP(KF_W2_MEM_ENTRY_WORDS, n);
            send_mem(cu, KF_T_MEM_RD_REQ, s->txn, 1, &f);
        } else {
            send_mem(cu, KF_T_MEM_WR_REQ, s->txn, 0, &f);
            for (uint32_t b = 0; b < n; b++) {
                struct kf_flit df = { { 0 } };
                line_to_payload(&st->l2[((size_t)s->line + b) * NP_LINE_ELEMS], &df);
                send_mem(cu, KF_T_MEM_WR_DATA, 0, b + 1u == n, &df);
            }
        }
        d->issued += n;
    }
}

static void dma_end(struct km_cu *cu, struct np_state *st, unsigned code)
{
    struct np_dma *d = &st->dma;

    d->active = false;
    d->gen++;
    memset(d->slot, 0, sizeof d->slot);
    d->inflight = 0;
    if (d->background) {
        if (code)
            st->async_fault = np_fault_result(NP_OP_MEMCPY, code | NP_FAULT_ASYNC);
        bg_done(cu, st);
    } else if (code) {
        fault(cu, st, NP_OP_MEMCPY, code);
    } else {
        /* The last response lands, then the engine drains and reports. */
        finish(cu, st, NP_T_MEMCPY_FIXED, 0);
    }
}

static void ev_watchdog(struct km_cu *cu, void *state, uint64_t gen)
{
    struct np_state *st = state;
    struct np_dma *d = &st->dma;
    uint64_t limit = cycles_ns(cu, NP_DMA_TIMEOUT), now = km_cu_now(cu);

    if (!d->active || d->gen != (uint32_t)gen)
        return;
    if (now - d->last_progress >= limit)
        dma_end(cu, st, NP_FAULT_MEM_TIMEOUT);
    else
        km_cu_after(cu, d->last_progress + limit - now, ev_watchdog, gen);
}

static void dma_start(struct km_cu *cu, struct np_state *st, const struct np_mc *mc, bool background)
{
    struct np_dma *d = &st->dma;

    d->active = true;
    d->background = background;
    d->to_host = mc->to_host;
    d->host = st->host_base + (uint64_t)mc->aux * NP_LINE_BYTES;
    d->l2 = mc->to_host ? mc->src : mc->dest;
    d->rows = mc->rows;
    d->lpr = mc->lpr;
    d->stride = mc->stride;
    d->issued = d->finished = 0;
    d->total = mc->rows * mc->lpr;
    d->last_progress = km_cu_now(cu);
    d->gen++;
    d->inflight = 0;
    memset(d->slot, 0, sizeof d->slot);
    km_cu_after(cu, cycles_ns(cu, NP_DMA_TIMEOUT), ev_watchdog, d->gen);
    dma_pump(cu, st);
}

static struct np_slot *dma_slot(struct np_dma *d, unsigned txn)
{
    for (unsigned i = 0; i < NP_DMA_WINDOW; i++)
        if (d->slot[i].used && d->slot[i].txn == txn)
            return &d->slot[i];
    return NULL;
}

static void np_receive(struct km_cu *cu, void *state, const struct kf_flit *f)
{
    struct np_state *st = state;
    struct np_dma *d = &st->dma;
    unsigned type = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, f->w[4]);
    unsigned txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, f->w[4]);
    struct np_slot *s;

    /* Anything not matching a descriptor in flight (CU_DATA, a response to a transfer that
     * timed out) is dropped. */
    if (!d->active || !(s = dma_slot(d, txn)))
        return;
    if (type == KF_T_MEM_RD_RESP && !d->to_host) {
        unsigned word = (unsigned)KBF_FIELD_GET(KF_HDR_RSVD, f->w[4]) & 3u;
        if (word >= s->beats || (s->got & (1u << word)))
            return;
        s->got |= (uint8_t)(1u << word);
        payload_to_line(f, &st->l2[((size_t)s->line + word) * NP_LINE_ELEMS]);
        d->finished++;
        if (s->got == (1u << s->beats) - 1u) {
            s->used = false;
            d->inflight--;
        }
    } else if (type == KF_T_MEM_WR_ACK && d->to_host) {
        d->finished += s->beats;
        s->used = false;
        d->inflight--;
    } else {
        return;
    }
    d->last_progress = km_cu_now(cu);
    if (d->finished == d->total)
        dma_end(cu, st, 0);
    else
        dma_pump(cu, st);
}

/* ---------------------------------------------------------------- dispatch */

static unsigned decode_use(struct np_state *st, uint64_t w, struct np_use *u)
{
    unsigned op = (unsigned)KBF_FIELD_GET(NP_W_OPCODE, w);
    struct np_gemx g;
    struct np_cvo c;
    struct np_mc mc;

    memset(u, 0, sizeof *u);
    switch (op) {
    case NP_OP_GEMV:
    case NP_OP_GEMM:
        return gemx_decode(st, op, w, &g, u);
    case NP_OP_CVO:
        return cvo_decode(w, &c, u);
    case NP_OP_MEMCPY:
        return memcpy_decode(st, w, &mc, u);
    case NP_OP_MEMSET:
        u->eng = NP_ENG_NONE;
        return 0;
    default:
        return NP_FAULT_OPCODE;
    }
}

/* Run the foreground instruction (validated, no hazard with the background op). */
static void start(struct km_cu *cu, struct np_state *st)
{
    uint64_t w = st->cur.w[3];
    unsigned op = (unsigned)KBF_FIELD_GET(NP_W_OPCODE, w), code;
    struct np_use u;

    memset(&u, 0, sizeof u);
    switch (op) {
    case NP_OP_GEMV:
    case NP_OP_GEMM: {
        struct np_gemx g;
        if ((code = gemx_decode(st, op, w, &g, &u)) != 0)
            break;
        gemx_run(st, &g);
        finish(cu, st, gemx_cycles(&g), 0);
        return;
    }
    case NP_OP_CVO: {
        struct np_cvo c;
        if ((code = cvo_decode(w, &c, &u)) != 0)
            break;
        /* Local work is done at issue; hazards make that indistinguishable from doing it at
         * the end. An async CVO occupies the SFU in the background for its full time. */
        cvo_run(st, &c);
        if (c.async && !st->cur_last) {
            st->bg_busy = true;
            st->bg_use = u;
            km_cu_after(cu, cycles_ns(cu, cvo_cycles(&c)), ev_bg_done, st->bg_gen);
            finish(cu, st, NP_T_ISSUE, 0);
        } else {
            finish(cu, st, cvo_cycles(&c), 0);
        }
        return;
    }
    case NP_OP_MEMSET:
        if ((code = memset_run(st, w)) != 0)
            break;
        finish(cu, st, NP_T_MEMSET, 0);
        return;
    case NP_OP_MEMCPY: {
        struct np_mc mc;
        if ((code = memcpy_decode(st, w, &mc, &u)) != 0)
            break;
        bool bg = mc.async && !st->cur_last;
        if (!mc.from_host && !mc.to_host) {
            uint64_t t = NP_T_MEMCPY_FIXED + (uint64_t)mc.rows * mc.lpr;
            memcpy_local(st, &mc);
            if (bg) {
                st->bg_busy = true;
                st->bg_use = u;
                km_cu_after(cu, cycles_ns(cu, t), ev_bg_done, st->bg_gen);
                finish(cu, st, NP_T_ISSUE, 0);
            } else {
                finish(cu, st, t, 0);
            }
            return;
        }
        if (bg) {
            st->bg_busy = true;
            st->bg_use = u;
            dma_start(cu, st, &mc, true);
            finish(cu, st, NP_T_ISSUE, 0);
        } else {
            /* The flits go now; the instruction retires NP_T_MEMCPY_FIXED after the last
             * response (docs/npu.md §5). */
            dma_start(cu, st, &mc, false);
        }
        return;
    }
    default:
        code = NP_FAULT_OPCODE;
        break;
    }
    fault(cu, st, op, code);
}

static void np_exec(struct km_cu *cu, void *state, const struct kf_flit *inst)
{
    struct np_state *st = state;
    unsigned code;

    st->cur = *inst;
    st->cur_valid = true;
    st->cur_waiting = false;
    st->retire_pending = false;
    st->cur_last = KBF_FIELD_GET(KF_HDR_LAST, inst->w[4]) != 0;
    st->cur_start = km_cu_now(cu);
    code = decode_use(st, inst->w[3], &st->cur_use);
    /* A malformed instruction faults at once; a valid one waits only for a conflicting
     * background op. */
    if (code == 0 && st->bg_busy && conflicts(&st->bg_use, &st->cur_use)) {
        st->cur_waiting = true;
        return;
    }
    start(cu, st);
}

static void np_init(struct km_cu *cu, void *state)
{
    struct np_state *st = state;
    (void)cu;
    st->s = 1.0f;
    st->emax = NP_FP16_NEG_INF;
}

/* CU_DBG: [63:48] e_max (FP16), [47:32] the SCALE scalar (FP16), [31] background op busy,
 * [30] DMA active, [23:16] pending async fault code, [15:0] instructions retired. */
static uint64_t np_dbg(struct km_cu *cu, void *state)
{
    struct np_state *st = state;
    (void)cu;
    return ((uint64_t)st->emax << 48) | ((uint64_t)np_f2h(st->s) << 32) |
           ((uint64_t)(st->bg_busy ? 1u : 0u) << 31) | ((uint64_t)(st->dma.active ? 1u : 0u) << 30) |
           ((uint64_t)(st->async_fault & 0xFFu) << 16) | st->retired;
}

const struct km_unit_class km_unit_np = {
    .name = "NP",
    .type = NP_CAPS_TYPE,
    .version = NP_CAPS_VERSION,
    .buffers = NP_CAPS_BUFFERS,
    .inst_depth = NP_CAPS_INST_DEPTH,
    .state_size = sizeof(struct np_state),
    .init = np_init,
    .fini = NULL,
    .exec = np_exec,
    .receive = np_receive,
    .dbg = np_dbg,
};
