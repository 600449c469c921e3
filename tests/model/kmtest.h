/* kmtest.h — the tiny harness of the model's native tests: one "PASS: name" or
 * "FAIL: name <why>" line per test function (the Makefile's suite log format), plus a
 * recording platform so tests see what the model told the glue. */
#ifndef KMTEST_H
#define KMTEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kmodel.h"
#include "kohaku/hostport.h"

static char kt_why[256];
static int kt_failures;

#define KT_EXPECT_EQ(a, b)                                                                      \
    do {                                                                                        \
        uint64_t kt_a_ = (uint64_t)(a), kt_b_ = (uint64_t)(b);                                   \
        if (kt_a_ != kt_b_ && !kt_why[0])                                                       \
            snprintf(kt_why, sizeof(kt_why), "%s:%d: %s = 0x%" PRIx64 ", expected 0x%" PRIx64,   \
                     __FILE__, __LINE__, #a, kt_a_, kt_b_);                                     \
    } while (0)

#define KT_EXPECT(c)                                                                            \
    do {                                                                                        \
        if (!(c) && !kt_why[0])                                                                 \
            snprintf(kt_why, sizeof(kt_why), "%s:%d: %s", __FILE__, __LINE__, #c);               \
    } while (0)

#define KT_RUN(fn) kt_run(#fn, fn)

static inline void kt_run(const char *name, void (*fn)(void))
{
    kt_why[0] = '\0';
    fn();
    if (kt_why[0]) {
        printf("FAIL: %s %s\n", name, kt_why);
        kt_failures++;
    } else {
        printf("PASS: %s\n", name);
    }
    fflush(stdout);
}

/* ---- a recording platform ---- */
struct kt_plat {
    char console[256];
    size_t console_n;
    unsigned stops;
    unsigned state, cause;
    uint64_t word, pc;
    unsigned holds, releases;
    uint64_t instret;
    uint64_t cur_pc;
};

static uint64_t kt_instret(void *o) { return ((struct kt_plat *)o)->instret; }
static uint64_t kt_pc(void *o) { return ((struct kt_plat *)o)->cur_pc; }
static void kt_hold(void *o, bool hold)
{
    struct kt_plat *p = o;
    if (hold)
        p->holds++;
    else
        p->releases++;
}
static void kt_console(void *o, uint8_t b)
{
    struct kt_plat *p = o;
    if (p->console_n < sizeof(p->console) - 1)
        p->console[p->console_n++] = (char)b;
}
static void kt_stopped(void *o, unsigned state, unsigned cause, uint64_t word, uint64_t pc)
{
    struct kt_plat *p = o;
    p->stops++;
    p->state = state;
    p->cause = cause;
    p->word = word;
    p->pc = pc;
}

static inline struct km_model *kt_model(struct kt_plat *p, enum km_variant v, bool held)
{
    memset(p, 0, sizeof(*p));
    struct km_platform plat = {
        .opaque = p, .instret = kt_instret, .hart_hold = kt_hold, .console = kt_console,
        .stopped = kt_stopped, .pc = kt_pc,
    };
    struct km_config cfg = { .variant = v, .start_held = held };
    char err[128];
    struct km_model *m = km_new(&cfg, &plat, err, sizeof(err));
    if (!m) {
        printf("FAIL: km_new %s\n", err);
        fflush(stdout);
    }
    return m;
}

static inline uint64_t kt_rd(struct km_model *m, uint64_t a, unsigned size)
{
    uint64_t v = 0xBAD;
    if (km_cpu_read(m, a, size, &v) != 0)
        return 0xFA17FA17FA17ull;
    return v;
}

/* ---- the host port from wire bytes (hostport.h: 16-byte request and reply headers, every
 * field little-endian), built here by hand rather than by the model's own code ---- */

static inline void kt_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t kt_gle(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A decoded reply; data points into a buffer the next kt_hp call reuses. */
struct kt_rep {
    unsigned op, status, tag;
    uint32_t len;
    uint64_t value;
    const uint8_t *data;
    size_t total;
};

/* Frame one request from wire bytes, execute it, decode the reply. Status 0xEE: the framer
 * wanted more bytes, so there is no reply. */
static inline struct kt_rep kt_hp(struct km_model *m, unsigned op, unsigned width, unsigned tag,
                                  uint32_t len, uint64_t addr, const void *data, uint32_t ndata)
{
    static uint8_t in[16 + 4096];
    static uint8_t out[16 + (1u << 20)];
    kt_le(in, 1, op);
    kt_le(in + 1, 1, width);
    kt_le(in + 2, 2, tag);
    kt_le(in + 4, 4, len);
    kt_le(in + 8, 8, addr);
    if (ndata)
        memcpy(in + 16, data, ndata);
    struct khp_req req;
    const uint8_t *d;
    size_t used = km_hp_parse(in, 16 + ndata, &req, &d);
    struct kt_rep r = { 0 };
    if (!used) {
        r.status = 0xEE;
        return r;
    }
    r.total = km_hp_execute(m, &req, d, out, sizeof(out));
    r.op = out[0];
    r.status = out[1];
    r.tag = (unsigned)kt_gle(out + 2, 2);
    r.len = (uint32_t)kt_gle(out + 4, 4);
    r.value = kt_gle(out + 8, 8);
    r.data = out + 16;
    return r;
}

#endif
