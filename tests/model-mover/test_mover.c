/* test_mover.c — native tests of the mover model (model/mover.c) against docs/hardware.md §3/§3.1/§4
 * and docs/hardware.md §3, §3.2. Register values are built here from the bit
 * positions docs/hardware.md §3 prints (not from mover_regs.h), expected data comes from literals or
 * from the independent reference walker and Philox below, never from the model's code. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env.h"
#include "mover.h"

/* ------------------------------------------------------------------ harness */

static bool g_fail;
static char g_why[512];

static void failf(const char *file, int line, const char *fmt, ...)
{
    if (g_fail)
        return;
    g_fail = true;
    int n = snprintf(g_why, sizeof g_why, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_why + n, sizeof g_why - (size_t)n, fmt, ap);
    va_end(ap);
}

#define EXPECT(cond, ...) do { if (!(cond)) { failf(__FILE__, __LINE__, __VA_ARGS__); return; } } while (0)
#define EXPECT_EQ(a, b) do { unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
    EXPECT(a_ == b_, "%s == 0x%llx, expected %s == 0x%llx", #a, a_, #b, b_); } while (0)

/* ------------------------------------------------------------------ registers, docs/hardware.md §3 */

#define R_CTRL   0x00u
#define R_HDR    0x10u
#define R_DIM    0x18u
#define R_AXIS   0x20u
#define R_BOUND  0x28u
#define R_INDEX  0x30u
#define R_SEED   0x38u
#define R_IMM    0x40u
#define R_GATHER 0x50u

enum { COPY = 0, TRANSPOSE = 1, GATHER = 2, GENERATE = 3, FILL = 4, XFORM = 5 };
enum { W8 = 0, W16 = 1, W32 = 2, WBAD = 3 };
enum { SRC = 0, DST = 1 };

static uint64_t v_ctrl(unsigned mode, unsigned width, bool go)
{
    return (uint64_t)mode | (uint64_t)width << 3 | (go ? UINT64_C(1) << 16 : 0);
}

static uint64_t v_hdr(unsigned w, uint64_t base, unsigned ndim, unsigned xid, unsigned xmode)
{
    return (uint64_t)w | (base & 0xFFFFFFFFFFull) << 4 | (uint64_t)ndim << 44 |
           (uint64_t)xid << 47 | (uint64_t)xmode << 55;
}

static uint64_t v_dim(unsigned w, unsigned d, unsigned count, int32_t stride)
{
    return (uint64_t)w | (uint64_t)d << 1 | (uint64_t)count << 4 | (uint64_t)(uint32_t)stride << 20;
}

static uint64_t v_axis(unsigned axis, int16_t step)
{
    return (uint64_t)axis | (uint64_t)(uint16_t)step << 2;
}

static uint64_t v_bound(unsigned w, unsigned which, int16_t base, unsigned ext)
{
    return (uint64_t)w | (uint64_t)which << 1 | (uint64_t)(uint16_t)base << 2 | (uint64_t)ext << 18;
}

static uint64_t v_index(uint64_t base, unsigned count)
{
    return base | (uint64_t)count << 40;
}

static uint64_t v_gather(uint32_t pitch, unsigned words)
{
    return (uint64_t)pitch | (uint64_t)words << 32;
}

/* AUX_STAT, docs/hardware.md §1: [63:40] moves, [39:24] reads, [23:8] writes, [7:4] fault, [0] busy. */
#define ST_MOVES(s)  ((unsigned)((s) >> 40))
#define ST_READS(s)  ((unsigned)(((s) >> 24) & 0xFFFF))
#define ST_WRITES(s) ((unsigned)(((s) >> 8) & 0xFFFF))
#define ST_FAULT(s)  ((unsigned)(((s) >> 4) & 0xF))
#define ST_BUSY(s)   ((unsigned)((s) & 1))

/* ------------------------------------------------------------------ fixture */

#define MEM_A     0x100000u          /* region A: [0, 1 MB) */
#define A_SRC     0x10000u
#define A_DST     0x40000u
#define A_IDX     0x80000u

struct ctx {
    struct fake f;
    struct km_mover *mv;
    uint8_t *a;                      /* region A */
    uint8_t *snap;                   /* region A before the move */
    uint8_t *exp;                    /* region A as the reference says it must be after */
};

static void setup_t(struct ctx *c, uint64_t ns, uint64_t lat)
{
    fake_init(&c->f, ns, lat);
    c->a = fake_region(&c->f, 0, MEM_A);
    c->mv = km_mover_new(&c->f.env);
    c->snap = malloc(MEM_A);
    c->exp = malloc(MEM_A);
    if (!c->mv || !c->snap || !c->exp)
        abort();
    memcpy(c->snap, c->a, MEM_A);
    memcpy(c->exp, c->a, MEM_A);
}

static void setup(struct ctx *c)
{
    setup_t(c, 1, 10);
}

static void teardown(struct ctx *c)
{
    km_mover_free(c->mv);
    fake_free(&c->f);
    free(c->snap);
    free(c->exp);
}

static void W(struct ctx *c, unsigned off, uint64_t v)
{
    km_mover_write(c->mv, off, v);
}

/* CTRL with GO, then let the move finish. */
static void go(struct ctx *c, unsigned mode, unsigned width)
{
    W(c, R_CTRL, v_ctrl(mode, width, true));
    fake_drain(&c->f);
}

static uint64_t stat(struct ctx *c)
{
    return km_mover_aux_stat(c->mv);
}

/* Memory in region A must equal c->exp everywhere (guard words included). */
static bool mem_ok(struct ctx *c, char *why, size_t n)
{
    for (size_t i = 0; i < MEM_A; i++)
        if (c->a[i] != c->exp[i]) {
            snprintf(why, n, "byte 0x%zx is 0x%02x, expected 0x%02x", i, c->a[i], c->exp[i]);
            return false;
        }
    return true;
}

#define EXPECT_MEM(c) do { char w_[128]; EXPECT(mem_ok((c), w_, sizeof w_), "%s", w_); } while (0)

static void word_pattern(uint64_t addr, uint8_t out[32])
{
    for (unsigned i = 0; i < 32; i++)
        out[i] = fake_pattern(addr + i);
}

/* Expect the word at region-A address dst to hold the pattern originally at region-A src. */
static void exp_copy_word(struct ctx *c, uint64_t dst, uint64_t src)
{
    memcpy(c->exp + dst, c->snap + src, 32);
}

static void exp_fill_word(struct ctx *c, uint64_t dst, unsigned width, uint32_t imm)
{
    unsigned b = width == W8 ? 1 : width == W16 ? 2 : 4;
    for (unsigned i = 0; i < 32; i++)
        c->exp[dst + i] = (uint8_t)(imm >> (8 * (i % b)));
}

/* ------------------------------------------------------------------ independent reference walker */

/* A walker as a test describes it. Element e is decomposed by mixed radix (no odometer, no
 * incremental sums), so it shares no structure with the model's walker. */
struct wspec {
    uint64_t base;
    unsigned ndim;
    unsigned count[6];
    int32_t stride[6];
    unsigned axis[6];
    int16_t astep[6];
    int16_t abase[2];
    unsigned aext[2];
};

static unsigned ref_live(const struct wspec *w)
{
    return w->ndim > 6 ? 6 : w->ndim;
}

static uint64_t ref_count(const struct wspec *w)
{
    uint64_t n = 1;
    for (unsigned d = 0; d < ref_live(w); d++)
        n *= w->count[d] ? w->count[d] : 1;
    return n;
}

static void ref_elem(const struct wspec *w, uint64_t e, uint64_t *addr, bool *valid)
{
    int64_t idx[6] = { 0 };
    for (int d = (int)ref_live(w) - 1; d >= 0; d--) {
        uint64_t c = w->count[d] ? w->count[d] : 1;
        idx[d] = (int64_t)(e % c);
        e /= c;
    }
    int64_t off = 0;
    for (unsigned d = 0; d < 6; d++)
        off += idx[d] * (int64_t)w->stride[d];
    off = (int32_t)(uint32_t)(uint64_t)off;           /* a 32-bit signed sum */
    *addr = (w->base + (uint64_t)off) & 0xFFFFFFFFFFull;
    *valid = true;
    for (unsigned b = 0; b < 2; b++) {
        if (!w->aext[b])
            continue;
        int64_t pos = w->abase[b];
        for (unsigned d = 0; d < 6; d++)
            if (w->axis[d] == b + 1)
                pos += idx[d] * w->astep[d];
        pos = (int16_t)(uint16_t)(uint64_t)pos;       /* 16-bit positions wrap */
        if (pos < 0 || pos >= (int64_t)w->aext[b])
            *valid = false;
    }
}

/* Program every field of one walker: HDR, all six dimensions, both bounds. */
static void program(struct ctx *c, unsigned walker, const struct wspec *w)
{
    for (unsigned d = 0; d < 6; d++) {
        W(c, R_DIM, v_dim(walker, d, w->count[d], w->stride[d]));
        W(c, R_AXIS, v_axis(w->axis[d], w->astep[d]));
    }
    W(c, R_BOUND, v_bound(walker, 0, w->abase[0], w->aext[0]));
    W(c, R_BOUND, v_bound(walker, 1, w->abase[1], w->aext[1]));
    W(c, R_HDR, v_hdr(walker, w->base, w->ndim, 0, 0));
}

/* The COPY reference: destination defines the space, source stepped alongside and held on its
 * last element past its end, padding from IMM, suppressed destination elements untouched. */
static void ref_copy(struct ctx *c, const struct wspec *s, const struct wspec *d,
                     unsigned width, uint32_t imm)
{
    uint64_t nd = ref_count(d), ns = ref_count(s);
    for (uint64_t e = 0; e < nd; e++) {
        uint64_t da, sa;
        bool dv, sv;
        ref_elem(d, e, &da, &dv);
        ref_elem(s, e < ns ? e : ns - 1, &sa, &sv);
        if (!dv)
            continue;
        if (sv)
            exp_copy_word(c, da, sa & ~UINT64_C(31));    /* the aligned word (docs/hardware.md §3.1) */
        else
            exp_fill_word(c, da, width, imm);
    }
}

static struct wspec lin(uint64_t base, unsigned count, int32_t stride)
{
    struct wspec w = { .base = base, .ndim = 1 };
    w.count[0] = count;
    w.stride[0] = stride;
    return w;
}

/* ------------------------------------------------------------------ independent Philox */

/* Philox-4x32-10 written from the published algorithm (Salmon, Moraes, Dror, Shaw, "Parallel
 * Random Numbers: As Easy as 1, 2, 3", SC11): key bumped BEFORE rounds 2..10. */
static void mulhilo(uint32_t a, uint32_t b, uint32_t *hi, uint32_t *lo)
{
    uint64_t p = (uint64_t)a * b;
    *hi = (uint32_t)(p >> 32);
    *lo = (uint32_t)p;
}

static void ref_philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t x[4] = { ctr[0], ctr[1], ctr[2], ctr[3] }, k[2] = { key[0], key[1] };
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        uint32_t hi0, lo0, hi1, lo1;
        mulhilo(0xD2511F53u, x[0], &hi0, &lo0);
        mulhilo(0xCD9E8D57u, x[2], &hi1, &lo1);
        uint32_t y[4] = { hi1 ^ x[1] ^ k[0], lo1, hi0 ^ x[3] ^ k[1], lo0 };
        memcpy(x, y, sizeof x);
    }
    memcpy(out, x, sizeof x);
}

/* docs/hardware.md §3.1: c0 = word address [31:0], c1 = (word address [34:32] << 1) | half. */
static void ref_gen_word(uint64_t seed, uint64_t addr, uint8_t out[32])
{
    uint64_t wa = (addr & 0xFFFFFFFFFFull) >> 5;
    uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    for (unsigned h = 0; h < 2; h++) {
        uint32_t ctr[4] = { (uint32_t)wa, (uint32_t)((wa >> 32) << 1 | h), 0, 0 }, r[4];
        ref_philox(ctr, key, r);
        for (unsigned l = 0; l < 4; l++)
            for (unsigned b = 0; b < 4; b++)
                out[16 * h + 4 * l + b] = (uint8_t)(r[l] >> (8 * b));
    }
}

/* ------------------------------------------------------------------ tests: registers and walks */

static void t_reset_one_element_at_zero(struct ctx *c)
{
    /* Reset: one dimension of count 0 (= 1) at base 0, bounds disabled. */
    W(c, R_IMM, 0x11223344u);
    go(c, FILL, W32);
    exp_fill_word(c, 0, W32, 0x11223344u);
    EXPECT_MEM(c);
    EXPECT_EQ(c->a[0], 0x44);
    EXPECT_EQ(c->a[3], 0x11);
    EXPECT_EQ(stat(c), (UINT64_C(1) << 40) | (UINT64_C(1) << 8));
}

static void t_fill_widths(struct ctx *c)
{
    static const uint8_t want[3][4] = {
        { 0xD4, 0xD4, 0xD4, 0xD4 }, { 0xD4, 0xC3, 0xD4, 0xC3 }, { 0xD4, 0xC3, 0xB2, 0xA1 },
    };
    W(c, R_IMM, 0xA1B2C3D4u);
    for (unsigned wd = 0; wd < 3; wd++) {
        struct wspec d = lin(A_DST + 0x1000 * wd + 32, 4, 32);
        program(c, DST, &d);
        go(c, FILL, wd);
        EXPECT_EQ(ST_FAULT(stat(c)), 0);
        for (unsigned k = 0; k < 4; k++)
            for (unsigned i = 0; i < 32; i++)
                c->exp[A_DST + 0x1000 * wd + 32 + 32 * k + i] = want[wd][i % 4];
    }
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 3);
    EXPECT_EQ(ST_READS(stat(c)), 0);
}

static void t_copy_1d(struct ctx *c)
{
    struct wspec s = lin(A_SRC, 8, 32), d = lin(A_DST, 8, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    ref_copy(c, &s, &d, W16, 0);
    EXPECT_MEM(c);
    uint8_t w[32];
    word_pattern(A_SRC + 3 * 32, w);
    EXPECT(memcmp(c->a + A_DST + 96, w, 32) == 0, "word 3 is not source word 3");
    EXPECT_EQ(ST_READS(stat(c)), 8);
    EXPECT_EQ(ST_WRITES(stat(c)), 8);
}

static void t_copy_6d_negative_strides(struct ctx *c)
{
    struct wspec s = { .base = A_SRC + 0x8000, .ndim = 6,
                       .count = { 2, 3, 2, 2, 3, 2 },
                       .stride = { -0x2000, 0x800, -0x400, 0x100, -0x60, 32 } };
    struct wspec d = { .base = A_DST + 0x800, .ndim = 6,
                       .count = { 3, 2, 2, 2, 3, 2 },          /* same 144 elements, other shape */
                       .stride = { 0x1000, -0x400, 0x200, 0xC0, 0x40, 32 } };
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W8);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    ref_copy(c, &s, &d, W8, 0);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_READS(stat(c)), 144);
    EXPECT_EQ(ST_WRITES(stat(c)), 144);
    /* One element by hand: destination element 1 = (0,0,0,0,0,1) at A_DST+0x800+32 takes
     * source element 1 = (0,0,0,0,0,1) at A_SRC+0x8000+32. */
    uint8_t w[32];
    word_pattern(A_SRC + 0x8000 + 32, w);
    EXPECT(memcmp(c->a + A_DST + 0x800 + 32, w, 32) == 0, "element 1 by hand");
}

static uint32_t lcg(uint32_t *st)
{
    *st = *st * 1664525u + 1013904223u;
    return *st >> 8;
}

static void random_walker(uint32_t *st, struct wspec *w, uint64_t base, unsigned stride_unit)
{
    memset(w, 0, sizeof *w);
    w->base = base;
    w->ndim = lcg(st) % 8;
    for (unsigned d = 0; d < 6; d++) {
        w->count[d] = lcg(st) % 5;
        w->stride[d] = ((int32_t)(lcg(st) % 17) - 8) * (int32_t)stride_unit;
        w->axis[d] = lcg(st) % 4;
        w->astep[d] = (int16_t)((int)(lcg(st) % 7) - 3);
    }
    for (unsigned b = 0; b < 2; b++) {
        w->abase[b] = (int16_t)((int)(lcg(st) % 7) - 3);
        w->aext[b] = lcg(st) % 3 ? lcg(st) % 6 : 0;
    }
}

static void t_copy_random_walks(struct ctx *c)
{
    /* 300 random pairs of walkers (0-7 dimensions, counts 0-4, negative strides, both bounds,
     * every axis code, unaligned sources, sources shorter or longer than the destination),
     * each checked against the reference walker over all of region A. */
    uint32_t st = 12345;
    for (unsigned it = 0; it < 300; it++) {
        struct wspec s, d;
        random_walker(&st, &s, A_SRC + 0x8000, 4);
        random_walker(&st, &d, A_DST + 0x10000, 32);
        uint32_t imm = lcg(&st) * 2654435761u;
        unsigned width = lcg(&st) % 3;
        program(c, SRC, &s);
        program(c, DST, &d);
        W(c, R_IMM, imm);
        go(c, COPY, width);
        EXPECT(ST_FAULT(stat(c)) == 0, "iteration %u: fault %u", it, ST_FAULT(stat(c)));
        ref_copy(c, &s, &d, width, imm);
        char why[128];
        EXPECT(mem_ok(c, why, sizeof why), "iteration %u: %s", it, why);
    }
    EXPECT_EQ(ST_MOVES(stat(c)), 300);
}

static void t_reverse_copy(struct ctx *c)
{
    struct wspec s = lin(A_SRC + 7 * 32, 8, -32), d = lin(A_DST, 8, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    for (unsigned k = 0; k < 8; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * (7 - k));
    EXPECT_MEM(c);
}

static void t_broadcast(struct ctx *c)
{
    /* 3 rows of 4: the source's inner stride 0 repeats one word across each row. */
    struct wspec s = { .base = A_SRC, .ndim = 2, .count = { 3, 4 }, .stride = { 32, 0 } };
    struct wspec d = { .base = A_DST, .ndim = 2, .count = { 3, 4 }, .stride = { 128, 32 } };
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    for (unsigned r = 0; r < 3; r++)
        for (unsigned k = 0; k < 4; k++)
            exp_copy_word(c, A_DST + 128 * r + 32 * k, A_SRC + 32 * r);
    EXPECT_MEM(c);
}

static void t_padding_keeps_source_address(struct ctx *c)
{
    /* Positions -2..5 against bound 0 [0, 4): elements 2..5 read, the rest are IMM at 16 bits,
     * and element 2 reads source word 2 (padding does not shift the source). */
    struct wspec s = lin(A_SRC, 8, 32), d = lin(A_DST, 8, 32);
    s.axis[0] = 1;
    s.astep[0] = 1;
    s.abase[0] = -2;
    s.aext[0] = 4;
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_IMM, 0xDEADBEEFu);
    go(c, COPY, W16);
    for (unsigned k = 0; k < 8; k++) {
        if (k >= 2 && k <= 5)
            exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
        else
            exp_fill_word(c, A_DST + 32 * k, W16, 0xBEEF);
    }
    EXPECT_MEM(c);
    EXPECT_EQ(c->a[A_DST], 0xEF);
    EXPECT_EQ(c->a[A_DST + 1], 0xBE);
    EXPECT_EQ(c->a[A_DST + 2], 0xEF);
    EXPECT_EQ(ST_READS(stat(c)), 4);
    EXPECT_EQ(ST_WRITES(stat(c)), 8);
    EXPECT_EQ(c->f.reads, 4);
}

static void t_dst_bound_suppresses(struct ctx *c)
{
    /* Destination bound 1 (axis code 2) over [0, 3): only elements 0..2 are written and read. */
    struct wspec s = lin(A_SRC, 6, 32), d = lin(A_DST, 6, 32);
    d.axis[0] = 2;
    d.astep[0] = 1;
    d.aext[1] = 3;
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    for (unsigned k = 0; k < 3; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
    EXPECT_EQ(c->f.reads, 3);
    EXPECT_EQ(c->f.writes, 3);
}

static void t_axis_codes(struct ctx *c)
{
    /* dim0 code 1 step 1 (bound 0 [0,1)), dim1 code 2 step 1 (bound 1 base -1 [0,2)),
     * dim2 code 3 step 100 and code 0 on nothing: only (0,1,*) and (0,2,*) are in bounds. */
    struct wspec d = { .base = A_DST, .ndim = 3, .count = { 2, 3, 2 },
                       .stride = { 0x400, 0x80, 32 }, .axis = { 1, 2, 3 }, .astep = { 1, 1, 100 },
                       .abase = { 0, -1 }, .aext = { 1, 2 } };
    program(c, DST, &d);
    W(c, R_IMM, 0x5A5A5A5Au);
    go(c, FILL, W8);
    const unsigned in[][2] = { { 0, 1 }, { 0, 2 } };
    for (unsigned i = 0; i < 2; i++)
        for (unsigned k = 0; k < 2; k++)
            exp_fill_word(c, A_DST + 0x400 * in[i][0] + 0x80 * in[i][1] + 32 * k, W8, 0x5A);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_WRITES(stat(c)), 4);
}

static void t_axis_wraps_16bit(struct ctx *c)
{
    /* Positions 0, 16384, 32768 (= -32768), 49152 (= -16384), 65536 (= 0) against [0, 65535):
     * elements 0, 1 and 4 are in bounds. */
    struct wspec d = lin(A_DST, 5, 32);
    d.axis[0] = 1;
    d.astep[0] = 0x4000;
    d.aext[0] = 0xFFFF;
    program(c, DST, &d);
    W(c, R_IMM, 0x77u);
    go(c, FILL, W8);
    exp_fill_word(c, A_DST, W8, 0x77);
    exp_fill_word(c, A_DST + 32, W8, 0x77);
    exp_fill_word(c, A_DST + 128, W8, 0x77);
    EXPECT_MEM(c);
    /* Step -1 over 40000 elements: positions 0, -1, ..., -32768, then 32767 down to 25537 as
     * the 16-bit position wraps: index 0 and indices 32769..39999 are in bounds, 7232 writes
     * (and index x step exceeds a C int: the model must wrap, not overflow). */
    d = lin(A_DST + 0x1000, 40000, 0);
    d.axis[0] = 1;
    d.astep[0] = -1;
    d.aext[0] = 0xFFFF;
    program(c, DST, &d);
    unsigned before = c->f.writes;
    go(c, FILL, W8);
    EXPECT_EQ(c->f.writes - before, 7232);
    exp_fill_word(c, A_DST + 0x1000, W8, 0x77);
    EXPECT_MEM(c);
}

static void t_offset_is_32bit_signed(struct ctx *c)
{
    /* Offsets 0, 0x7FFFFFE0, 0xFFFFFFC0 (= -64) from base 0x1_0000_0040. */
    fake_region(&c->f, 0xFFFFF000ull, 0x2000);
    fake_region(&c->f, 0x180000000ull, 0x1000);
    fake_region(&c->f, 0xFFFFFFF000ull, 0x1000);
    struct wspec d = lin(0x100000040ull, 3, 0x7FFFFFE0);
    program(c, DST, &d);
    W(c, R_IMM, 0xABu);
    go(c, FILL, W8);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(*fake_ptr(&c->f, 0x100000040ull, 1), 0xAB);
    EXPECT_EQ(*fake_ptr(&c->f, 0x180000020ull, 1), 0xAB);
    EXPECT_EQ(*fake_ptr(&c->f, 0x100000000ull, 1), 0xAB);
    EXPECT_EQ(*fake_ptr(&c->f, 0x100000000ull - 1, 1), fake_pattern(0x100000000ull - 1));
    EXPECT_EQ(*fake_ptr(&c->f, 0x100000060ull, 1), fake_pattern(0x100000060ull));
    /* Below zero wraps the 40-bit space: 0x20 - 0x40 = 0xFF_FFFF_FFE0. */
    d = lin(0x20, 2, -0x40);
    program(c, DST, &d);
    W(c, R_IMM, 0xCDu);
    go(c, FILL, W8);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(*fake_ptr(&c->f, 0xFFFFFFFFE0ull, 1), 0xCD);
    EXPECT_EQ(c->a[0x20], 0xCD);
}

static void t_walker_select_shared(struct ctx *c)
{
    /* DIM names the source, a later BOUND selects the destination: AXIS commits there. */
    W(c, R_HDR, v_hdr(DST, A_DST, 1, 0, 0));
    W(c, R_DIM, v_dim(SRC, 0, 4, 32));
    W(c, R_BOUND, v_bound(DST, 0, 0, 0));
    W(c, R_AXIS, v_axis(0, 0));
    W(c, R_IMM, 0x11u);
    go(c, FILL, W8);
    for (unsigned k = 0; k < 4; k++)
        exp_fill_word(c, A_DST + 32 * k, W8, 0x11);
    EXPECT_MEM(c);
}

static void t_axis_recommits(struct ctx *c)
{
    W(c, R_DIM, v_dim(SRC, 0, 3, 64));
    W(c, R_AXIS, v_axis(0, 0));                      /* to the source */
    W(c, R_HDR, v_hdr(DST, A_DST, 1, 0, 0));         /* selects the destination */
    W(c, R_AXIS, v_axis(0, 0));                      /* the staged DIM again, now there */
    W(c, R_IMM, 0x22u);
    go(c, FILL, W8);
    for (unsigned k = 0; k < 3; k++)
        exp_fill_word(c, A_DST + 64 * k, W8, 0x22);
    EXPECT_MEM(c);
}

static void t_dims_above_ndim_persist(struct ctx *c)
{
    struct wspec d = { .base = A_DST, .ndim = 2, .count = { 2, 3 }, .stride = { 0x100, 32 } };
    program(c, DST, &d);
    W(c, R_IMM, 0x01u);
    go(c, FILL, W8);
    W(c, R_HDR, v_hdr(DST, A_DST + 0x1000, 1, 0, 0));      /* dim 1 dormant */
    W(c, R_IMM, 0x02u);
    go(c, FILL, W8);
    W(c, R_HDR, v_hdr(DST, A_DST + 0x2000, 2, 0, 0));      /* dim 1 alive again, as it was */
    W(c, R_IMM, 0x03u);
    go(c, FILL, W8);
    for (unsigned i = 0; i < 2; i++)
        for (unsigned k = 0; k < 3; k++) {
            exp_fill_word(c, A_DST + 0x100 * i + 32 * k, W8, 0x01);
            exp_fill_word(c, A_DST + 0x2000 + 0x100 * i + 32 * k, W8, 0x03);
        }
    exp_fill_word(c, A_DST + 0x1000, W8, 0x02);
    exp_fill_word(c, A_DST + 0x1100, W8, 0x02);
    EXPECT_MEM(c);
}

static void t_zero_dims_and_count0(struct ctx *c)
{
    struct wspec d = lin(A_DST, 5, 32);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(DST, A_DST, 0, 0, 0));         /* zero dimensions: one element */
    W(c, R_IMM, 0x31u);
    go(c, FILL, W8);
    exp_fill_word(c, A_DST, W8, 0x31);
    d = lin(A_DST + 0x1000, 0, 32);                   /* count 0 counts as 1 */
    program(c, DST, &d);
    W(c, R_IMM, 0x32u);
    go(c, FILL, W8);
    exp_fill_word(c, A_DST + 0x1000, W8, 0x32);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 2);
}

static void t_dims_6_7_store_nothing(struct ctx *c)
{
    struct wspec d = lin(A_DST, 2, 32);
    program(c, DST, &d);
    W(c, R_DIM, v_dim(DST, 6, 5, 0x100));
    W(c, R_AXIS, v_axis(0, 0));
    W(c, R_DIM, v_dim(DST, 7, 5, 0x100));
    W(c, R_AXIS, v_axis(0, 0));
    W(c, R_IMM, 0x41u);
    go(c, FILL, W8);
    exp_fill_word(c, A_DST, W8, 0x41);
    exp_fill_word(c, A_DST + 32, W8, 0x41);
    /* ndim 7 is six live dimensions. */
    struct wspec e = { .base = A_DST + 0x1000, .ndim = 7, .count = { 1, 1, 1, 1, 1, 3 },
                       .stride = { 0, 0, 0, 0, 0, 64 } };
    program(c, DST, &e);
    W(c, R_IMM, 0x42u);
    go(c, FILL, W8);
    for (unsigned k = 0; k < 3; k++)
        exp_fill_word(c, A_DST + 0x1000 + 64 * k, W8, 0x42);
    EXPECT_MEM(c);
}

static void t_ctrl_without_go(struct ctx *c)
{
    W(c, R_CTRL, v_ctrl(FILL, W8, false));
    EXPECT(!km_mover_busy(c->mv), "busy after CTRL without GO");
    fake_drain(&c->f);
    EXPECT_MEM(c);
    EXPECT_EQ(stat(c), 0);
    EXPECT_EQ(c->f.busy_go, 0);
}

static void t_decode_8byte_granular(struct ctx *c)
{
    W(c, 0x44, 0x66u);                               /* decodes as IMM (0x40) */
    W(c, 0x48, 0x99u);                               /* free offset: ignored */
    W(c, 0xC0, 0x99u);                               /* beyond the map: ignored */
    W(c, 0x1040, 0x99u);                             /* not a mover offset at all */
    struct wspec d = lin(A_DST, 1, 32);
    program(c, DST, &d);
    go(c, FILL, W8);
    exp_fill_word(c, A_DST, W8, 0x66);
    EXPECT_MEM(c);
}

static void t_modes_6_7_copy(struct ctx *c)
{
    for (unsigned m = 6; m <= 7; m++) {
        struct wspec s = lin(A_SRC + 0x100 * m, 2, 32), d = lin(A_DST + 0x100 * m, 2, 32);
        program(c, SRC, &s);
        program(c, DST, &d);
        go(c, m, W16);
        EXPECT_EQ(ST_FAULT(stat(c)), 0);
        ref_copy(c, &s, &d, W16, 0);
    }
    EXPECT_MEM(c);
}

static void t_short_source_repeats_last(struct ctx *c)
{
    struct wspec s = lin(A_SRC, 2, 32), d = lin(A_DST, 4, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    exp_copy_word(c, A_DST, A_SRC);
    exp_copy_word(c, A_DST + 32, A_SRC + 32);
    exp_copy_word(c, A_DST + 64, A_SRC + 32);
    exp_copy_word(c, A_DST + 96, A_SRC + 32);
    EXPECT_MEM(c);
}

static void t_misaligned_source_unchecked(struct ctx *c)
{
    struct wspec s = lin(A_SRC + 4, 2, 36), d = lin(A_DST, 2, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    /* Unchecked (no fault 6), and read as the aligned word containing it (docs/hardware.md §3.1). */
    exp_copy_word(c, A_DST, A_SRC);
    exp_copy_word(c, A_DST + 32, A_SRC + 32);
    EXPECT_MEM(c);
}

static void t_persistence(struct ctx *c)
{
    /* Bounds, IMM and dims persist: a second GO with only CTRL repeats the padded copy. */
    struct wspec s = lin(A_SRC, 4, 32), d = lin(A_DST, 4, 32);
    s.axis[0] = 1;
    s.astep[0] = 1;
    s.aext[0] = 2;
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_IMM, 0x1234u);
    go(c, COPY, W16);
    W(c, R_HDR, v_hdr(DST, A_DST + 0x1000, 1, 0, 0));
    go(c, COPY, W16);
    for (unsigned b = 0; b < 2; b++) {
        exp_copy_word(c, A_DST + 0x1000 * b, A_SRC);
        exp_copy_word(c, A_DST + 0x1000 * b + 32, A_SRC + 32);
        exp_fill_word(c, A_DST + 0x1000 * b + 64, W16, 0x1234);
        exp_fill_word(c, A_DST + 0x1000 * b + 96, W16, 0x1234);
    }
    /* Extent 0 disables the bound again. */
    W(c, R_BOUND, v_bound(SRC, 0, 0, 0));
    W(c, R_HDR, v_hdr(DST, A_DST + 0x2000, 1, 0, 0));
    go(c, COPY, W16);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 0x2000 + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 3);
}

/* ------------------------------------------------------------------ tests: GATHER */

static void put_idx(struct ctx *c, unsigned slot, uint32_t v)
{
    for (unsigned b = 0; b < 4; b++)
        c->a[A_IDX + 4 * slot + b] = (uint8_t)(v >> (8 * b));
}

static void t_gather_rows(struct ctx *c)
{
    static const uint32_t idx[4] = { 3, 0, 5, 1 };
    for (unsigned i = 0; i < 4; i++)
        put_idx(c, i, idx[i]);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 32);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 32);
    /* Source dims and bounds are ignored: this source would pad everything. */
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 8, 32);
    s.aext[0] = 1;
    s.abase[0] = -5;
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 4));
    W(c, R_GATHER, v_gather(64, 2));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned k = 0; k < 8; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 64 * idx[k / 2] + 32 * (k % 2));
    EXPECT_MEM(c);
    EXPECT_EQ(ST_READS(stat(c)), 1 + 8);
}

static void t_gather_count0_and_stale_rows(struct ctx *c)
{
    for (unsigned i = 0; i < 16; i++)
        put_idx(c, i, 20 + i);                        /* first move loads two index words */
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 16, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 16));
    W(c, R_GATHER, v_gather(32, 1));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_READS(stat(c)), 2 + 16);
    for (unsigned i = 0; i < 8; i++)
        put_idx(c, i, 40 + i);                        /* new word 0 only */
    memcpy(c->snap + A_IDX, c->a + A_IDX, 64);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 64);
    d = lin(A_DST + 0x1000, 10, 32);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 0));                 /* count 0 still reads one word */
    unsigned before = c->f.reads;
    go(c, GATHER, W16);
    EXPECT_EQ(c->f.reads - before, 1 + 10);
    /* Row 8 starts index word 1: the erratum (docs/hardware.md §3.1) gives it index[0], 20. */
    for (unsigned k = 0; k < 16; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * (k == 8 ? 20 : 20 + k));
    for (unsigned k = 0; k < 8; k++)
        exp_copy_word(c, A_DST + 0x1000 + 32 * k, A_SRC + 32 * (40 + k));
    /* Row 8 again: index[0] of this move's load, 40; row 9 the stale word 1's second index. */
    exp_copy_word(c, A_DST + 0x1000 + 32 * 8, A_SRC + 32 * 40);
    exp_copy_word(c, A_DST + 0x1000 + 32 * 9, A_SRC + 32 * (20 + 9));
    EXPECT_MEM(c);
}

static void t_gather_words0_and_pitch_wrap(struct ctx *c)
{
    put_idx(c, 0, 0x10);
    put_idx(c, 1, 0x99);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 32);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 32);
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 4, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 2));
    /* 0x10 * 0x10000002 = 0x1_0000_0020, mod 2^32 = 0x20; words 0 never advances the row. */
    W(c, R_GATHER, v_gather(0x10000002u, 0));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 0x20 + 32 * k);
    EXPECT_MEM(c);
}

static void t_gather_words0_never_advances(struct ctx *c)
{
    /* 65538 elements all onto one destination word: with words = 0 the row never advances, so
     * the last element (word counter 65537 mod 2^16 = 1) reads row 0 word 1; the RTL's 16-bit
     * compare would have moved to row 1 after 65536 elements. */
    const uint64_t big = 0x40000000ull;
    fake_region(&c->f, big, 0x10001u * 32u);
    put_idx(c, 0, 0);
    put_idx(c, 1, 1);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 32);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 32);
    struct wspec s = lin(big, 1, 0);
    struct wspec d = { .base = A_DST, .ndim = 2, .count = { 2, 0x8001 }, .stride = { 0, 0 } };
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 2));
    W(c, R_GATHER, v_gather(0x100000u, 0));          /* row 1 would be 1 MB further */
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    uint8_t w[32];
    word_pattern(big + 32, w);
    EXPECT(memcmp(c->a + A_DST, w, 32) == 0, "last element did not read row 0 word 1");
}

static void t_gather_reset_defaults(struct ctx *c)
{
    /* Reset: pitch 0, words 1, index base 0 count 0: every element reads the source base. */
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 3, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, GATHER, W16);
    for (unsigned k = 0; k < 3; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_READS(stat(c)), 1 + 3);
}

static void t_fault1_index_length(struct ctx *c)
{
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 2, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 2049));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 1);
    EXPECT_EQ(c->f.reads + c->f.writes, 0);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    /* 2048 is allowed: 256 index words, then the rows. */
    memset(c->a + A_IDX, 0, 2048 * 4);
    memset(c->snap + A_IDX, 0, 2048 * 4);
    memset(c->exp + A_IDX, 0, 2048 * 4);
    W(c, R_INDEX, v_index(A_IDX, 2048));
    W(c, R_GATHER, v_gather(32, 1));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(c->f.reads, 256 + 2);
    exp_copy_word(c, A_DST, A_SRC);
    exp_copy_word(c, A_DST + 32, A_SRC);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

/* docs/hardware.md §3.1 erratum: with words = 1, rows 8, 16, 24 read index[0], index[8], index[16]
 * (the previous index word's first index) instead of index[8], index[16], index[24]; rows 0-7
 * and the rest of each word are right. With the erratum turned off the rows follow their
 * own indices. */
static void t_gather_erratum(struct ctx *c)
{
    for (unsigned i = 0; i < 25; i++)
        put_idx(c, i, 100 + 3 * i);                   /* index[i] = 100 + 3i */
    memcpy(c->snap + A_IDX, c->a + A_IDX, 128);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 128);
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 25, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 25));
    W(c, R_GATHER, v_gather(32, 1));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    static const unsigned want_index[25] = {
        100, 103, 106, 109, 112, 115, 118, 121,
        100, 127, 130, 133, 136, 139, 142, 145,       /* row 8: index[0] */
        124, 151, 154, 157, 160, 163, 166, 169,       /* row 16: index[8] */
        148,                                          /* row 24: index[16] */
    };
    for (unsigned k = 0; k < 25; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * want_index[k]);
    EXPECT_MEM(c);
    /* Two words a row: rows 8 (elements 16, 17) take index[0]. */
    d = lin(A_DST + 0x2000, 20, 32);
    program(c, DST, &d);
    W(c, R_GATHER, v_gather(64, 2));
    go(c, GATHER, W16);
    for (unsigned k = 0; k < 20; k++) {
        unsigned row = k / 2, ix = row == 8 ? 0 : row;
        exp_copy_word(c, A_DST + 0x2000 + 32 * k, A_SRC + 64 * (100 + 3 * ix) + 32 * (k % 2));
    }
    EXPECT_MEM(c);
}

static void t_gather_erratum_off(struct ctx *c)
{
    km_mover_free(c->mv);
    c->f.env.gather_erratum_off = true;
    c->mv = km_mover_new(&c->f.env);
    for (unsigned i = 0; i < 17; i++)
        put_idx(c, i, 100 + 3 * i);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 96);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 96);
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 17, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_INDEX, v_index(A_IDX, 17));
    W(c, R_GATHER, v_gather(32, 1));
    go(c, GATHER, W16);
    for (unsigned k = 0; k < 17; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * (100 + 3 * k));
    EXPECT_MEM(c);
}

/* docs/hardware.md §3.1: a misaligned source (base, stride, index base, pitch) is read as the aligned
 * word that contains it. */
static void t_misaligned_source_reads_aligned_word(struct ctx *c)
{
    /* COPY: source base A_SRC + 4, stride 40: elements at +4, +44, +84 read the words at
     * A_SRC, A_SRC + 32, A_SRC + 64. */
    struct wspec s = lin(A_SRC + 4, 3, 40), d = lin(A_DST, 3, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    exp_copy_word(c, A_DST, A_SRC);
    exp_copy_word(c, A_DST + 32, A_SRC + 32);
    exp_copy_word(c, A_DST + 64, A_SRC + 64);
    EXPECT_MEM(c);
    /* GATHER: index base A_IDX + 8 reads the index word at A_IDX (index[0] = 2, index[1] = 5),
     * pitch 48: row r at A_SRC + 48 * index[r] (aligned down) -> 96 and 240 -> 224. */
    put_idx(c, 0, 2);
    put_idx(c, 1, 5);
    put_idx(c, 2, 7);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 32);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 32);
    d = lin(A_DST + 0x1000, 2, 32);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 0, 0));
    W(c, R_INDEX, v_index(A_IDX + 8, 2));
    W(c, R_GATHER, v_gather(48, 1));
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    exp_copy_word(c, A_DST + 0x1000, A_SRC + 96);
    exp_copy_word(c, A_DST + 0x1000 + 32, A_SRC + 224);
    EXPECT_MEM(c);
}

/* ------------------------------------------------------------------ tests: GENERATE */

static void t_philox_reference_kat(struct ctx *c)
{
    /* Known answers from the Random123 distribution's kat_vectors file, lines "philox4x32 10"
     * (CTR[4] KEY[2] -> OUT[4]), as reproduced in DEShawResearch/Random123-Boost,
     * libs/random/test/test_philox.cpp, test_kat_philox4x32. */
    static const uint32_t kat[3][10] = {
        { 0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 },
        { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
          0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd },
        { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
          0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 },
    };
    (void)c;
    for (unsigned i = 0; i < 3; i++) {
        uint32_t out[4];
        ref_philox(&kat[i][0], &kat[i][4], out);
        for (unsigned l = 0; l < 4; l++)
            EXPECT(out[l] == kat[i][6 + l], "KAT %u lane %u: 0x%08x", i, l, out[l]);
    }
}

static void t_generate_kat_at_zero(struct ctx *c)
{
    /* Reset SEED is 0 and the reset walk is one word at 0: counter (0,0,0,0), key (0,0), the
     * first Random123 known answer, lanes little-endian in bytes 0-15. */
    static const uint8_t want[16] = { 0xd5, 0xe8, 0x27, 0x66, 0x8d, 0xc5, 0x69, 0xe1,
                                      0x4c, 0xac, 0x57, 0xbc, 0xd8, 0xdb, 0x00, 0x9b };
    go(c, GENERATE, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT(memcmp(c->a, want, 16) == 0, "bytes 0-15 are not the KAT answer");
    uint8_t ref[32];
    ref_gen_word(0, 0, ref);
    EXPECT(memcmp(ref, want, 16) == 0, "reference disagrees with the KAT");
    memcpy(c->exp, ref, 32);
    EXPECT_MEM(c);
}

static void t_generate_pure_function(struct ctx *c)
{
    const uint64_t seed = 0x0123456789ABCDEFull, hi = 0xE000001000ull;  /* word addr [34:32] = 7 */
    fake_region(&c->f, hi, 0x2000);
    W(c, R_SEED, seed);
    struct wspec d = { .base = hi + 0x100, .ndim = 2, .count = { 3, 4 }, .stride = { 0x200, 32 } };
    program(c, DST, &d);
    go(c, GENERATE, W8);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned e = 0; e < 12; e++) {
        uint64_t a = hi + 0x100 + 0x200 * (e / 4) + 32 * (e % 4);
        uint8_t ref[32];
        ref_gen_word(seed, a, ref);
        EXPECT(memcmp(fake_ptr(&c->f, a, 32), ref, 32) == 0, "element %u at 0x%llx", e,
               (unsigned long long)a);
    }
    EXPECT_EQ(*fake_ptr(&c->f, hi + 0x100 + 128, 1), fake_pattern(hi + 0x100 + 128));
    /* Element width plays no part, and one move equals two half moves. */
    struct wspec whole = lin(A_DST, 8, 32);
    program(c, DST, &whole);
    go(c, GENERATE, W32);
    struct wspec h1 = lin(A_DST + 0x1000, 4, 32), h2 = lin(A_DST + 0x1080, 4, 32);
    program(c, DST, &h1);
    go(c, GENERATE, W8);
    program(c, DST, &h2);
    go(c, GENERATE, W16);
    for (unsigned k = 0; k < 8; k++) {
        uint8_t ref[32];
        ref_gen_word(seed, A_DST + 32 * k, ref);
        EXPECT(memcmp(c->a + A_DST + 32 * k, ref, 32) == 0, "whole word %u", k);
        ref_gen_word(seed, A_DST + 0x1000 + 32 * k, ref);
        EXPECT(memcmp(c->a + A_DST + 0x1000 + 32 * k, ref, 32) == 0, "split word %u", k);
    }
}

/* ------------------------------------------------------------------ tests: XFORM */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* 2 entries of 128 FP16 at A_SRC; returns nothing, expected E5M2 bytes are literals. */
static const uint16_t xf_in[] = { 0x3C00, 0x3C80, 0x3D80, 0x3CC0, 0x7BFF, 0xFC00, 0x7E00,
                                  0x0001, 0x8080, 0x0180, 0xC000 };
static const uint8_t xf_rne[] = { 0x3C, 0x3C, 0x3E, 0x3D, 0x7C, 0xFC, 0x7F, 0x00, 0x80, 0x02, 0xC0 };
#define XF_N (sizeof xf_in / sizeof xf_in[0])

static void xf_source(struct ctx *c)
{
    for (unsigned i = 0; i < 256; i++)
        put16(c->a + A_SRC + 2 * i, i < XF_N ? xf_in[i] : i == 200 ? 0xBC00 : 0x3C00);
    memcpy(c->snap + A_SRC, c->a + A_SRC, 512);
    memcpy(c->exp + A_SRC, c->a + A_SRC, 512);
}

static void xf_walks(struct ctx *c, unsigned xmode, unsigned src_count, unsigned dst_count)
{
    struct wspec s = lin(A_SRC, src_count, 32), d = lin(A_DST, dst_count, 128);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 1, xmode));     /* transform id 1 */
}

static void t_xform_e5m2(struct ctx *c)
{
    xf_source(c);
    xf_walks(c, 0, 16, 2);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned i = 0; i < 256; i++)
        c->exp[A_DST + i] = i < XF_N ? xf_rne[i] : i == 200 ? 0xBC : 0x3C;
    EXPECT_MEM(c);
    EXPECT_EQ(ST_READS(stat(c)), 16);
    EXPECT_EQ(ST_WRITES(stat(c)), 8);
    EXPECT_EQ(km_mover_occ_read(c->mv, 1, 0x00), 2048);
    EXPECT_EQ(km_mover_occ_read(c->mv, 1, 0x04), 4);
    EXPECT_EQ(km_mover_occ_read(c->mv, 1, 0x0C), 2);
    EXPECT_EQ(km_mover_occ_read(c->mv, 2, 0x00), 0);
}

static void t_xform_saturate_and_occupant_fault(struct ctx *c)
{
    xf_source(c);
    xf_walks(c, 1, 8, 1);
    go(c, XFORM, W16);
    EXPECT_EQ(c->a[A_DST + 4], 0x7B);                /* 65504 saturates to the largest finite */
    EXPECT_EQ(c->a[A_DST + 5], 0xFC);                /* infinity stays infinity */
    EXPECT_EQ(c->a[A_DST + 6], 0x7F);
    EXPECT_EQ((km_mover_mvgo_status(c->mv) >> 8) & 0xF, 0);
    xf_walks(c, 9, 8, 1);                             /* mode 9: not a mode of this occupant */
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);                 /* the mover itself is fine */
    EXPECT_EQ((km_mover_mvgo_status(c->mv) >> 8) & 0xF, 1);
    EXPECT_EQ(km_mover_occ_read(c->mv, 1, 0x08), 1);
    for (unsigned i = 0; i < 128; i++)
        EXPECT(c->a[A_DST + i] == 0, "byte %u not zero", i);
    km_mover_occ_write(c->mv, 1, 0x08, 0);
    EXPECT_EQ(km_mover_occ_read(c->mv, 1, 0x08), 0);
}

static void t_xform_bypass_id0(struct ctx *c)
{
    /* docs/hardware.md §3.1: the geometry is one mover parameter for every id (2048 bits in, 4 words
     * out); there is no 1:1 id. Id 0 (the agent's bypass) takes 8-word entries like id 1 and
     * passes each entry's first 4 words (the model's choice for what a bypass emits). */
    struct wspec s = lin(A_SRC, 16, 32), d = lin(A_DST, 2, 128);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_READS(stat(c)), 16);
    EXPECT_EQ(ST_WRITES(stat(c)), 8);
    for (unsigned k = 0; k < 4; k++) {
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
        exp_copy_word(c, A_DST + 128 + 32 * k, A_SRC + 256 + 32 * k);
    }
    EXPECT_MEM(c);
    /* A 1:1 walk (4 words in, 4 entries out) is a partial entry now: model fault 2. */
    s = lin(A_SRC, 4, 64);
    d = lin(A_DST, 4, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 2);
    EXPECT_MEM(c);
}

/* docs/hardware.md §3.1: XFORM with a bound enabled faults 7 only when a source element is out of range
 * at the first word of an entry; a bound that never excludes anything runs normally. */
static void t_xform_bound_fault7_at_entry(struct ctx *c)
{
    xf_source(c);
    /* Source axis: dimension 0 feeds bound 0 (axis code 1), step 1 per word, extent 16: the
     * two entries (words 0-15) are all in range: a normal move. */
    struct wspec s = lin(A_SRC, 16, 32), d = lin(A_DST, 2, 128);
    s.axis[0] = 1;
    s.astep[0] = 1;
    s.aext[0] = 16;
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 1, 0));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned i = 0; i < 256; i++)
        c->exp[A_DST + i] = i < XF_N ? xf_rne[i] : i == 200 ? 0xBC : 0x3C;
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    /* Extent 8: word 8, the second entry's first word, is out of range: fault 7 there. The
     * first entry is written (to a fresh destination), nothing of the second. */
    s.aext[0] = 8;
    d = lin(A_DST + 0x1000, 2, 128);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 1, 0));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 7);
    for (unsigned i = 0; i < 128; i++)
        c->exp[A_DST + 0x1000 + i] = i < XF_N ? xf_rne[i] : 0x3C;
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    /* A destination bound plays no part: extent 1 on the destination, both entries written. */
    s.aext[0] = 0;
    d = lin(A_DST + 0x2000, 2, 128);
    d.axis[0] = 1;
    d.astep[0] = 1;
    d.aext[0] = 1;
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 1, 0));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned i = 0; i < 256; i++)
        c->exp[A_DST + 0x2000 + i] = i < XF_N ? xf_rne[i] : i == 200 ? 0xBC : 0x3C;
    EXPECT_MEM(c);
}

static void t_xform_faults(struct ctx *c)
{
    xf_source(c);
    /* 7: bound 1 enabled but no axis feeds it: position = its base, -1, out of range at the
     * first entry's first word: fault 7 before anything is read. */
    xf_walks(c, 0, 16, 2);
    W(c, R_BOUND, v_bound(SRC, 1, -1, 8));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 7);
    EXPECT_EQ(c->f.reads + c->f.writes, 0);
    W(c, R_BOUND, v_bound(SRC, 1, 0, 0));
    /* Model-only 2 where the hardware hangs: no occupant, partial entry, short destination. */
    W(c, R_HDR, v_hdr(SRC, A_SRC, 1, 3, 0));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 2);
    xf_walks(c, 0, 12, 2);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 2);
    xf_walks(c, 0, 16, 1);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 2);
    EXPECT_EQ(c->f.reads + c->f.writes, 0);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    /* 6 where the hardware hangs on a misaligned destination: the first entry is written. */
    xf_walks(c, 0, 16, 2);
    W(c, R_DIM, v_dim(DST, 0, 2, 136));
    W(c, R_AXIS, v_axis(0, 0));
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 6);
    for (unsigned i = 0; i < 128; i++)
        c->exp[A_DST + i] = i < XF_N ? xf_rne[i] : 0x3C;
    EXPECT_MEM(c);
    /* And the mover still works. */
    xf_walks(c, 0, 16, 2);
    go(c, XFORM, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

/* ------------------------------------------------------------------ tests: faults */

static void copy4(struct ctx *c, uint64_t dst)
{
    struct wspec s = lin(A_SRC, 4, 32), d = lin(dst, 4, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
}

static void t_fault5_before_4(struct ctx *c)
{
    copy4(c, A_DST);
    go(c, TRANSPOSE, WBAD);
    EXPECT_EQ(ST_FAULT(stat(c)), 5);
    go(c, TRANSPOSE, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 4);
    go(c, FILL, WBAD);
    EXPECT_EQ(ST_FAULT(stat(c)), 5);
    EXPECT_EQ(c->f.reads + c->f.writes, 0);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    EXPECT(!km_mover_busy(c->mv), "busy after a GO fault");
    /* The code holds across other writes until the next GO, which clears it. */
    W(c, R_IMM, 1);
    W(c, R_CTRL, v_ctrl(COPY, W16, false));
    EXPECT_EQ(ST_FAULT(stat(c)), 5);
    EXPECT_EQ((km_mover_mvstat(c->mv) >> 28) & 0xF, 5);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

static void t_fault6_alignment(struct ctx *c)
{
    /* Elements: DST, DST+32, DST+40 (misaligned, in bounds: fault), DST+72. */
    struct wspec s = lin(A_SRC, 4, 32);
    struct wspec d = { .base = A_DST, .ndim = 2, .count = { 2, 2 }, .stride = { 40, 32 } };
    program(c, SRC, &s);
    program(c, DST, &d);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 6);
    exp_copy_word(c, A_DST, A_SRC);
    exp_copy_word(c, A_DST + 32, A_SRC + 32);
    EXPECT_MEM(c);
    EXPECT_EQ(c->f.reads, 2);                        /* the faulting element issued no read */
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    /* Out of bounds, the misaligned row is skipped without a fault. */
    d.axis[0] = 1;
    d.astep[0] = 1;
    d.aext[0] = 1;
    d.base = A_DST + 0x1000;
    program(c, DST, &d);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    exp_copy_word(c, A_DST + 0x1000, A_SRC);
    exp_copy_word(c, A_DST + 0x1020, A_SRC + 32);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

static void t_fault3_read_error(struct ctx *c)
{
    copy4(c, A_DST);
    c->f.fail_read_at = 2;
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 3);
    EXPECT_EQ(c->f.reads, 2);                        /* the walk stopped at the next element */
    EXPECT_EQ(c->f.writes, 2);                       /* the failed read's word still written */
    exp_copy_word(c, A_DST, A_SRC);
    memset(c->exp + A_DST + 32, 0, 32);              /* a failed read returns zeros (docs) */
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    EXPECT(!km_mover_busy(c->mv), "busy did not fall");
    c->f.fail_read_at = 0;
    copy4(c, A_DST + 0x1000);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 0x1000 + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
}

static void t_fault3_write_error(struct ctx *c)
{
    copy4(c, A_DST);
    c->f.fail_write_at = 2;
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 3);
    EXPECT_EQ(c->f.reads, 2);
    EXPECT_EQ(c->f.writes, 2);
    exp_copy_word(c, A_DST, A_SRC);
    EXPECT_MEM(c);
    /* An unmapped destination is an AXI error on the first write. */
    c->f.fail_write_at = 0;
    struct wspec d = lin(0x200000000ull, 4, 32);
    program(c, DST, &d);
    W(c, R_IMM, 1);
    go(c, FILL, W8);
    EXPECT_EQ(ST_FAULT(stat(c)), 3);
    EXPECT_EQ(c->f.writes, 3);
    copy4(c, A_DST + 0x1000);
    go(c, COPY, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

static void t_fault3_gather_index_read(struct ctx *c)
{
    struct wspec s = lin(A_SRC, 1, 0), d = lin(A_DST, 4, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    memset(c->a + A_IDX, 0, 64);
    memcpy(c->snap + A_IDX, c->a + A_IDX, 64);
    memcpy(c->exp + A_IDX, c->a + A_IDX, 64);
    W(c, R_INDEX, v_index(A_IDX, 16));
    W(c, R_GATHER, v_gather(32, 1));
    c->f.fail_read_at = 1;
    go(c, GATHER, W16);
    EXPECT_EQ(ST_FAULT(stat(c)), 3);
    EXPECT_EQ(c->f.reads, 2 + 1);                    /* both index words, then element 0 */
    EXPECT_EQ(c->f.writes, 1);
    exp_copy_word(c, A_DST, A_SRC);                  /* row 0's index (failed word) is 0 */
    EXPECT_MEM(c);
}

/* ------------------------------------------------------------------ tests: time, status */

static void t_busy_window(struct ctx *c)
{
    teardown(c);
    setup_t(c, 2, 100);
    copy4(c, A_DST);
    c->f.now = 1000;
    W(c, R_CTRL, v_ctrl(COPY, W16, true));
    /* latency 100 + 4 words x 2 ns: busy until 1108. Data lands at GO. */
    EXPECT(km_mover_busy(c->mv), "not busy after GO");
    EXPECT_EQ(ST_BUSY(stat(c)), 1);
    EXPECT_EQ(km_mover_mvstat(c->mv) >> 32, 1);
    EXPECT_EQ(km_mover_mvgo_status(c->mv) & 1, 1);
    fake_advance(&c->f, 1107);
    EXPECT(km_mover_busy(c->mv), "busy fell early");
    EXPECT_EQ(ST_MOVES(stat(c)), 0);                 /* counts at completion */
    fake_advance(&c->f, 1108);
    EXPECT(!km_mover_busy(c->mv), "busy did not fall at 1108");
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
    /* A GO fault is busy for one mover cycle. */
    W(c, R_CTRL, v_ctrl(TRANSPOSE, W16, true));
    EXPECT(km_mover_busy(c->mv), "fault GO not busy");
    fake_advance(&c->f, 1110);
    EXPECT(!km_mover_busy(c->mv), "fault GO busy too long");
    EXPECT_EQ(ST_FAULT(stat(c)), 4);
    /* The next GO clears the code at once, before its move completes. */
    W(c, R_CTRL, v_ctrl(COPY, W16, true));
    EXPECT(km_mover_busy(c->mv), "not busy");
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    fake_drain(&c->f);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 2);
}

static void t_go_while_busy(struct ctx *c)
{
    copy4(c, A_DST);
    W(c, R_CTRL, v_ctrl(COPY, W16, true));
    EXPECT(km_mover_busy(c->mv), "not busy");
    struct wspec d = lin(A_DST + 0x1000, 2, 32);
    program(c, DST, &d);
    W(c, R_IMM, 0x99);
    W(c, R_CTRL, v_ctrl(FILL, W8, true));            /* refused */
    EXPECT_EQ(c->f.busy_go, 1);
    km_mover_mvgo(c->mv, 0);                         /* refused too */
    EXPECT_EQ(c->f.busy_go, 2);
    fake_drain(&c->f);
    EXPECT_EQ(ST_FAULT(stat(c)), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    for (unsigned k = 0; k < 4; k++)
        exp_copy_word(c, A_DST + 32 * k, A_SRC + 32 * k);
    EXPECT_MEM(c);
    go(c, FILL, W8);                                 /* accepted once idle */
    exp_fill_word(c, A_DST + 0x1000, W8, 0x99);
    exp_fill_word(c, A_DST + 0x1020, W8, 0x99);
    EXPECT_MEM(c);
}

static void t_status_layout(struct ctx *c)
{
    struct wspec s = lin(A_SRC, 3, 32), d = lin(A_DST, 3, 32);
    program(c, SRC, &s);
    program(c, DST, &d);
    W(c, R_CTRL, v_ctrl(COPY, W16, true));
    EXPECT_EQ(stat(c), (UINT64_C(3) << 24) | (UINT64_C(3) << 8) | 1);
    EXPECT_EQ(km_mover_mvstat(c->mv), UINT64_C(1) << 32);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 1);
    fake_drain(&c->f);
    EXPECT_EQ(stat(c), (UINT64_C(1) << 40) | (UINT64_C(3) << 24) | (UINT64_C(3) << 8));
    EXPECT_EQ(km_mover_mvstat(c->mv), 1);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 0);
    go(c, TRANSPOSE, W16);
    EXPECT_EQ(stat(c), (UINT64_C(1) << 40) | (UINT64_C(3) << 24) | (UINT64_C(3) << 8) | (4u << 4));
    EXPECT_EQ(km_mover_mvstat(c->mv), (UINT64_C(4) << 28) | 1);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 4u << 4);
}

static void t_counters_wrap_16bit(struct ctx *c)
{
    fake_region(&c->f, 0x40000000ull, 0x10001u * 32u);
    struct wspec d;
    struct wspec d2 = { .base = 0x40000000ull, .ndim = 2, .count = { 2, 0x8000 },
                        .stride = { 0x8000 * 32, 32 } };
    program(c, DST, &d2);
    W(c, R_IMM, 0x5);
    go(c, FILL, W8);                                 /* 65536 writes */
    EXPECT_EQ(ST_WRITES(stat(c)), 0);
    d = lin(0x40000000ull + 0x10000u * 32u, 1, 32);
    program(c, DST, &d);
    go(c, FILL, W8);
    EXPECT_EQ(ST_WRITES(stat(c)), 1);
    EXPECT_EQ(ST_MOVES(stat(c)), 2);
    EXPECT_EQ(*fake_ptr(&c->f, 0x40000000ull + 0x10000u * 32u, 1), 5);
}

static void t_reset_mid_move(struct ctx *c)
{
    copy4(c, A_DST);
    W(c, R_CTRL, v_ctrl(COPY, W16, true));
    km_mover_reset(c->mv);
    EXPECT(!km_mover_busy(c->mv), "busy after reset");
    EXPECT_EQ(stat(c), 0);
    fake_drain(&c->f);                               /* the stale completion does nothing */
    EXPECT_EQ(stat(c), 0);
    W(c, R_IMM, 0x10);
    go(c, FILL, W8);                                 /* back to one word at 0 */
    EXPECT_EQ(c->a[0], 0x10);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
}

/* ------------------------------------------------------------------ tests: descriptor form */

static unsigned spad_list(struct ctx *c, unsigned idx, const unsigned *off, const uint64_t *val,
                          unsigned n)
{
    uint8_t *p = c->f.spad + 4 * idx;
    for (unsigned b = 0; b < 4; b++)
        p[b] = (uint8_t)(n >> (8 * b));
    for (unsigned i = 0; i < n; i++) {
        uint8_t *e = p + 4 + 12 * i;
        uint32_t w[3] = { off[i], (uint32_t)val[i], (uint32_t)(val[i] >> 32) };
        for (unsigned k = 0; k < 3; k++)
            for (unsigned b = 0; b < 4; b++)
                e[4 * k + b] = (uint8_t)(w[k] >> (8 * b));
    }
    return n;
}

static void t_mvgo_replay(struct ctx *c)
{
    teardown(c);
    setup_t(c, 2, 50);
    const unsigned off[] = { R_IMM, R_HDR, R_DIM, R_AXIS, R_CTRL };
    const uint64_t val[] = { 0xCAFEF00Du, v_hdr(DST, A_DST, 1, 0, 0), v_dim(DST, 0, 3, 32),
                             v_axis(0, 0), v_ctrl(FILL, W32, true) };
    spad_list(c, 16, off, val, 5);
    c->f.now = 500;
    km_mover_mvgo(c->mv, 16);
    /* Fetch: 16 words x 2 ns = 32; move: 50 + 3 x 2 = 56; busy until 588. */
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 1);
    fake_advance(&c->f, 587);
    EXPECT_EQ(km_mover_mvgo_status(c->mv) & 1, 1);
    fake_advance(&c->f, 588);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 0);
    for (unsigned k = 0; k < 3; k++)
        exp_fill_word(c, A_DST + 32 * k, W32, 0xCAFEF00Du);
    EXPECT_MEM(c);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    EXPECT_EQ(c->f.busy_go, 0);
    /* A list without GO only writes registers; its fetch still reads busy. */
    const unsigned off2[] = { R_IMM };
    const uint64_t val2[] = { 0x12 };
    spad_list(c, 100, off2, val2, 1);
    km_mover_mvgo(c->mv, 100);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 1);
    EXPECT(!km_mover_busy(c->mv), "mover busy without a GO");
    fake_drain(&c->f);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 0);
    go(c, FILL, W8);                                 /* the replayed IMM is in place */
    for (unsigned k = 0; k < 3; k++)
        exp_fill_word(c, A_DST + 32 * k, W8, 0x12);
    EXPECT_MEM(c);
}

static void t_mvgo_faults_and_second_go(struct ctx *c)
{
    /* A list whose move faults reports the code in [7:4]; a second GO in the same list lands
     * on a busy mover and is refused. */
    const unsigned off[] = { R_CTRL, R_CTRL };
    const uint64_t val[] = { v_ctrl(COPY, W16, true), v_ctrl(COPY, W16, true) };
    copy4(c, A_DST);
    spad_list(c, 0, off, val, 2);
    km_mover_mvgo(c->mv, 0);
    EXPECT_EQ(c->f.busy_go, 1);
    fake_drain(&c->f);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    const uint64_t bad[] = { v_ctrl(TRANSPOSE, W16, true) };
    spad_list(c, 0, off, bad, 1);
    km_mover_mvgo(c->mv, 0);
    fake_drain(&c->f);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 4u << 4);
}

static void t_mvgo_out_of_range(struct ctx *c)
{
    /* The last scratchpad word holds n = 1: the entry would run past 8 KB. */
    const unsigned off[] = { R_CTRL };
    const uint64_t val[] = { v_ctrl(FILL, W8, true) };
    uint8_t *p = c->f.spad + FAKE_SPAD - 4;
    p[0] = 1;
    km_mover_mvgo(c->mv, FAKE_SPAD / 4 - 1);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 1u | 2u << 4);
    fake_drain(&c->f);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 2u << 4);
    EXPECT_EQ(c->f.writes, 0);
    km_mover_mvgo(c->mv, 0xFFFFFFFFu);               /* far outside: refused, no crash */
    fake_drain(&c->f);
    EXPECT_EQ(ST_FAULT(stat(c)), 2);
    EXPECT_EQ(ST_MOVES(stat(c)), 0);
    /* A good list afterwards runs and clears the code. */
    spad_list(c, 0, off, val, 1);
    km_mover_mvgo(c->mv, 0);
    fake_drain(&c->f);
    EXPECT_EQ(km_mover_mvgo_status(c->mv), 0);
    EXPECT_EQ(ST_MOVES(stat(c)), 1);
    EXPECT_EQ(c->f.writes, 1);
    exp_fill_word(c, 0, W8, 0);                      /* reset walk and IMM: zeros at 0 */
    EXPECT_MEM(c);
}

/* ------------------------------------------------------------------ runner */

struct test {
    const char *name;
    void (*fn)(struct ctx *c);
};

static const struct test tests[] = {
    { "reset_one_element_at_zero", t_reset_one_element_at_zero },
    { "fill_widths", t_fill_widths },
    { "copy_1d", t_copy_1d },
    { "copy_6d_negative_strides", t_copy_6d_negative_strides },
    { "copy_random_walks", t_copy_random_walks },
    { "reverse_copy", t_reverse_copy },
    { "broadcast_stride0", t_broadcast },
    { "padding_keeps_source_address", t_padding_keeps_source_address },
    { "dst_bound_suppresses", t_dst_bound_suppresses },
    { "axis_codes", t_axis_codes },
    { "axis_wraps_16bit", t_axis_wraps_16bit },
    { "offset_is_32bit_signed", t_offset_is_32bit_signed },
    { "walker_select_shared", t_walker_select_shared },
    { "axis_recommits_staged_dim", t_axis_recommits },
    { "dims_above_ndim_persist", t_dims_above_ndim_persist },
    { "zero_dims_and_count0", t_zero_dims_and_count0 },
    { "dims_6_7_store_nothing", t_dims_6_7_store_nothing },
    { "ctrl_without_go", t_ctrl_without_go },
    { "decode_8byte_granular", t_decode_8byte_granular },
    { "modes_6_7_run_as_copy", t_modes_6_7_copy },
    { "short_source_repeats_last", t_short_source_repeats_last },
    { "misaligned_source_unchecked", t_misaligned_source_unchecked },
    { "settings_persist", t_persistence },
    { "gather_rows", t_gather_rows },
    { "gather_count0_and_stale_rows", t_gather_count0_and_stale_rows },
    { "gather_words0_and_pitch_wrap", t_gather_words0_and_pitch_wrap },
    { "gather_words0_never_advances", t_gather_words0_never_advances },
    { "gather_reset_defaults", t_gather_reset_defaults },
    { "gather_erratum", t_gather_erratum },
    { "gather_erratum_off", t_gather_erratum_off },
    { "misaligned_source_reads_aligned_word", t_misaligned_source_reads_aligned_word },
    { "fault1_index_length", t_fault1_index_length },
    { "philox_reference_kat", t_philox_reference_kat },
    { "generate_kat_at_zero", t_generate_kat_at_zero },
    { "generate_pure_function", t_generate_pure_function },
    { "xform_e5m2", t_xform_e5m2 },
    { "xform_saturate_and_occupant_fault", t_xform_saturate_and_occupant_fault },
    { "xform_bypass_id0", t_xform_bypass_id0 },
    { "xform_bound_fault7_at_entry", t_xform_bound_fault7_at_entry },
    { "xform_faults_7_2_6", t_xform_faults },
    { "fault5_before_4", t_fault5_before_4 },
    { "fault6_alignment", t_fault6_alignment },
    { "fault3_read_error", t_fault3_read_error },
    { "fault3_write_error", t_fault3_write_error },
    { "fault3_gather_index_read", t_fault3_gather_index_read },
    { "busy_window", t_busy_window },
    { "go_while_busy", t_go_while_busy },
    { "status_layout", t_status_layout },
    { "counters_wrap_16bit", t_counters_wrap_16bit },
    { "reset_mid_move", t_reset_mid_move },
    { "mvgo_replay", t_mvgo_replay },
    { "mvgo_faults_and_second_go", t_mvgo_faults_and_second_go },
    { "mvgo_out_of_range", t_mvgo_out_of_range },
};

int main(int argc, char **argv)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        struct ctx c;
        g_fail = false;
        setup(&c);
        tests[i].fn(&c);
        teardown(&c);
        if (g_fail) {
            printf("FAIL: mover/%s %s\n", tests[i].name, g_why);
            failed++;
        } else {
            printf("PASS: mover/%s\n", tests[i].name);
        }
    }
    /* Failures are the FAIL lines; a non-zero status is kept for a crash (model-test-run). */
    (void)failed;
    return 0;
}
