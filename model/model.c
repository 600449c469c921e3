/* model.c — the device model's core (docs/hardware.md §10.2, §10.3): construction and reset of the parts,
 * the virtual-time event queue, configuration checks, the mover's environment and the referee.
 * Every other part reaches time only through km_at() and m->now. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km_internal.h"
#include "mesh_inject.h"
#include "mover.h"
#include "kohaku/agent_regs.h"
#include "kohaku/cpu_map.h"
#include "kohaku/hostport.h"

/* Bytes of one sparse DRAM page (memory.c allocates them); DRAM sizes are multiples of it. */
#define KM_DRAM_GRANULE      (UINT64_C(64) << 10)
/* The unit-global DRAM offset field [35:0] addresses 64 GB per mesh (docs/hardware.md §0). */
#define KM_DRAM_MAX_BYTES    (UINT64_C(64) << 30)
/* STAGE slots must fit the processor's agent window (offsets 0x2000-0x3FFF, docs/hardware.md §4/§5):
 * (0x4000 - 0x2000) / 40 = 204. */
#define KM_STAGE_FLITS_MAX   204u
/* A memory latency above 1 ms is a typo, not a machine. */
#define KM_MEM_NS_MAX        1000000u

struct km_event {
    uint64_t t;
    uint64_t seq;             /* ties at one time run in scheduling order */
    km_event_fn fn;           /* either fn(m, ctx, arg) ... */
    void (*plain)(void *);    /* ... or plain(ctx), the mover's callback shape */
    void *ctx;
    uint64_t arg;
};

struct km_events {
    struct km_event *heap;    /* binary min-heap on (t, seq) */
    size_t n, cap;
    uint64_t seq;
};

/* struct km_model is shared (km_internal.h); what only model.c needs lives around it. */
struct km_model_priv {
    struct km_model pub;
    struct km_mover_env menv;
    char *units;
    char *faults;
    bool advancing;
    /* Injected mover AXI error (docs/hardware.md §10.1 item 8): the axi_n-th memory access of the mover counted
     * from arming (0: every one) returns an error; the count restarts at reset. */
    bool axi;
    uint32_t axi_n, axi_base, axi_count;
};

static struct km_model_priv *priv(struct km_model *m)
{
    return (struct km_model_priv *)m;     /* pub is the first member */
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "kmodel: out of memory (%zu x %zu bytes)\n", n, size);
        abort();
    }
    return p;
}

static char *xstrdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = xcalloc(1, n);
    memcpy(d, s, n);
    return d;
}

/* ---- time ---- */

static bool ev_before(const struct km_event *a, const struct km_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct km_model *m, struct km_event ev)
{
    struct km_events *q = m->ev;
    if (ev.t < m->now)
        ev.t = m->now;               /* the past is now: never run out of order */
    ev.seq = q->seq++;
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 64;
        struct km_event *h = realloc(q->heap, cap * sizeof(*h));
        if (!h) {
            fprintf(stderr, "kmodel: out of memory (event queue)\n");
            abort();
        }
        q->heap = h;
        q->cap = cap;
    }
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ev_before(&ev, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
}

static struct km_event ev_pop(struct km_events *q)
{
    struct km_event top = q->heap[0];
    struct km_event last = q->heap[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && ev_before(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!ev_before(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (q->n)
        q->heap[i] = last;
    return top;
}

void km_at(struct km_model *m, uint64_t t, km_event_fn fn, void *ctx, uint64_t arg)
{
    ev_push(m, (struct km_event){ .t = t, .fn = fn, .ctx = ctx, .arg = arg });
}

void km_advance(struct km_model *m, uint64_t now_ns)
{
    struct km_model_priv *p = priv(m);
    /* An event handler that calls back into the glue may re-enter: the outer loop already
     * runs everything due, so the inner call only moves nothing. */
    if (p->advancing || now_ns < m->now)
        return;
    p->advancing = true;
    while (m->ev->n && m->ev->heap[0].t <= now_ns) {
        struct km_event ev = ev_pop(m->ev);
        m->now = ev.t;
        if (ev.fn)
            ev.fn(m, ev.ctx, ev.arg);
        else
            ev.plain(ev.ctx);
    }
    m->now = now_ns;
    p->advancing = false;
}

uint64_t km_next_deadline(const struct km_model *m)
{
    return m->ev->n ? m->ev->heap[0].t : UINT64_MAX;
}

uint64_t km_now(const struct km_model *m)
{
    return m->now;
}

/* ---- the mover's environment ---- */

/* Counts one mover access; true when an injected AXI error hits it (nothing is transferred). */
static bool mover_axi_injected(struct km_model *m)
{
    struct km_model_priv *p = priv(m);
    p->axi_count++;
    return p->axi && (p->axi_n == 0 || p->axi_count - p->axi_base == p->axi_n);
}

static int mover_mem_read(void *ctx, uint64_t ug, void *buf, size_t len)
{
    if (mover_axi_injected(ctx))
        return -1;
    /* An access the memory agent drops would hang the mover's AXI master on silicon; the
     * model reports it as an AXI error (fault 3) so the move ends (docs/model.md). */
    return km_mem_read(ctx, ug, buf, len) == KM_MEM_DROPPED ? -1 : 0;
}

static int mover_mem_write(void *ctx, uint64_t ug, const void *buf, size_t len)
{
    if (mover_axi_injected(ctx))
        return -1;
    return km_mem_write(ctx, ug, buf, len) == KM_MEM_DROPPED ? -1 : 0;
}

static uint64_t mover_now(void *ctx)
{
    return ((struct km_model *)ctx)->now;
}

static void mover_at(void *ctx, uint64_t t, void (*fn)(void *arg), void *arg)
{
    ev_push(ctx, (struct km_event){ .t = t, .plain = fn, .ctx = arg });
}

static void mover_busy_go(void *ctx)
{
    KM_REF_INC((struct km_model *)ctx, busy_go);
}

/* ---- configuration ---- */

static bool check_config(const struct km_config *cfg, char *err, size_t errlen)
{
    if (cfg->variant != KM_VARIANT_RV32 && cfg->variant != KM_VARIANT_RV64) {
        snprintf(err, errlen, "variant must be 32 or 64, not %d", (int)cfg->variant);
        return false;
    }
    if (cfg->dram_bytes && (cfg->dram_bytes % KM_DRAM_GRANULE || cfg->dram_bytes > KM_DRAM_MAX_BYTES)) {
        snprintf(err, errlen, "dram=%llu: must be a multiple of 64 KiB, at most 64 GiB",
                 (unsigned long long)cfg->dram_bytes);
        return false;
    }
    if (cfg->stage_flits > KM_STAGE_FLITS_MAX) {
        snprintf(err, errlen, "stage_flits=%u: at most %u slots fit the agent window",
                 cfg->stage_flits, KM_STAGE_FLITS_MAX);
        return false;
    }
    if (cfg->mem_ns > KM_MEM_NS_MAX) {
        snprintf(err, errlen, "mem_ns=%u: at most %u", cfg->mem_ns, KM_MEM_NS_MAX);
        return false;
    }
    return true;
}

/* ---- fault injection (docs/hardware.md §10.1 item 8; docs/model.md "Fault injection") ---- */

int km_inject(struct km_model *m, unsigned kind, unsigned x, unsigned y, uint32_t n, uint32_t arg)
{
    static const enum km_cu_inject_kind unit_kinds[] = {
        [KHP_INJ_FAULT] = KM_CU_INJ_FAULT, [KHP_INJ_HANG] = KM_CU_INJ_HANG,
        [KHP_INJ_DROP] = KM_CU_INJ_DROP, [KHP_INJ_SLOW] = KM_CU_INJ_SLOW,
        [KHP_INJ_CTRL_LATE] = KM_CU_INJ_CTRL_LATE, [KHP_INJ_CTRL_MUTE] = KM_CU_INJ_CTRL_MUTE,
    };
    struct km_model_priv *p = priv(m);
    if (kind == KHP_INJ_AXI) {
        p->axi = true;
        p->axi_n = n;
        p->axi_base = p->axi_count;
        return 0;
    }
    if (kind < KHP_INJ_FAULT || kind > KHP_INJ_CTRL_MUTE)
        return -1;
    return km_mesh_inject_at(m->mesh, x, y, unit_kinds[kind], n, arg);
}

void km_inject_clear(struct km_model *m)
{
    struct km_model_priv *p = priv(m);
    p->axi = false;
    km_mesh_inject_clear(m->mesh);
}

/* One item that is not a unit's: axi@n. 1 armed, 0 not this kind, -1 malformed. */
static int model_item(struct km_model *m, const char *item, char *err, size_t errlen)
{
    if (strncmp(item, "axi@", 4) != 0)
        return 0;
    const char *s = item + 4;
    char *e;
    unsigned long n = isdigit((unsigned char)*s) ? strtoul(s, &e, 0) : 0;
    if (!isdigit((unsigned char)*s) || *e || n > 0xFFFFFFFFul) {
        snprintf(err, errlen, "faults: cannot parse '%s' (axi@n)", item);
        return -1;
    }
    km_inject(m, KHP_INJ_AXI, 0, 0, (uint32_t)n, 0);
    return 1;
}

/* The faults= property: items separated by ';', spaces around them ignored, "none" or empty
 * arms nothing. Any item the model does not know fails km_new with its message. */
static bool parse_faults(struct km_model *m, const char *spec, char *err, size_t errlen)
{
    if (!spec)
        return true;
    const char *p = spec;
    char item[128];
    while (*p) {
        size_t len = strcspn(p, ";");
        while (len && isspace((unsigned char)*p)) {
            p++;
            len--;
        }
        size_t l = len;
        while (l && isspace((unsigned char)p[l - 1]))
            l--;
        if (l >= sizeof item) {
            snprintf(err, errlen, "faults: item too long: '%.40s...'", p);
            return false;
        }
        memcpy(item, p, l);
        item[l] = '\0';
        p += len;
        if (*p == ';')
            p++;
        if (!l || !strcmp(item, "none"))
            continue;
        int r = km_mesh_inject(m->mesh, item, err, errlen);
        if (r == 0)
            r = model_item(m, item, err, errlen);
        if (r < 0)
            return false;
        if (r == 0) {
            snprintf(err, errlen, "faults: unknown item '%s' (fault@ hang@ drop@ slow@ ctrllate@ "
                     "ctrlmute@ axi@; docs/model.md)", item);
            return false;
        }
    }
    return true;
}

struct km_model *km_new(const struct km_config *cfg, const struct km_platform *plat,
                        char *err, size_t errlen)
{
    char dummy[1];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof(dummy);
    }
    err[0] = '\0';
    if (!cfg || !plat) {
        snprintf(err, errlen, "no config or platform");
        return NULL;
    }
    if (!check_config(cfg, err, errlen))
        return NULL;

    struct km_model_priv *p = xcalloc(1, sizeof(*p));
    struct km_model *m = &p->pub;
    m->cfg = *cfg;
    p->units = xstrdup(cfg->units);
    p->faults = xstrdup(cfg->faults);
    m->cfg.units = p->units;
    m->cfg.faults = p->faults;
    if (!m->cfg.dram_bytes)
        m->cfg.dram_bytes = KM_DEFAULT_DRAM_BYTES;
    if (!m->cfg.stage_flits)
        m->cfg.stage_flits = KA_STAGE_FLITS_DEFAULT;
    if (!m->cfg.mem_ns)
        m->cfg.mem_ns = KM_DEFAULT_MEM_NS;
    m->plat = *plat;
    m->ev = xcalloc(1, sizeof(*m->ev));

    m->cpu = km_cpu_new(m);
    m->mem = km_memory_new(m, m->cfg.dram_bytes);
    m->mesh = km_mesh_new(m, m->cfg.units, err, errlen);
    if (!m->mesh) {
        if (!err[0])
            snprintf(err, errlen, "bad unit map");
        km_free(m);
        return NULL;
    }
    m->agent = km_agent_new(m);

    size_t spad_bytes;
    const uint8_t *spad = km_spad(m, &spad_bytes);
    p->menv = (struct km_mover_env){
        .ctx = m,
        .mem_read = mover_mem_read,
        .mem_write = mover_mem_write,
        .now = mover_now,
        .at = mover_at,
        .busy_go = mover_busy_go,
        .spad = spad,
        .spad_bytes = spad_bytes,
        .ns_per_cycle = KM_DEFAULT_CYCLE_NS,
        .latency_ns = m->cfg.mem_ns,
    };
    m->mover = km_mover_new(&p->menv);
    km_cpu_reset(m);
    if (!parse_faults(m, m->cfg.faults, err, errlen)) {
        km_free(m);
        return NULL;
    }
    return m;
}

void km_free(struct km_model *m)
{
    if (!m)
        return;
    struct km_model_priv *p = priv(m);
    if (m->mover)
        km_mover_free(m->mover);
    if (m->agent)
        km_agent_free(m->agent);
    if (m->mesh)
        km_mesh_free(m->mesh);
    if (m->mem)
        km_memory_free(m->mem);
    if (m->cpu)
        km_cpu_free(m->cpu);
    if (m->ev)
        free(m->ev->heap);
    free(m->ev);
    free(p->units);
    free(p->faults);
    free(p);
}

void km_reset(struct km_model *m)
{
    /* Drop every pending event first: they point into state the parts are about to clear.
     * The clock is QEMU's and keeps running. */
    m->ev->n = 0;
    km_cpu_reset(m);
    km_memory_reset(m->mem);
    km_mesh_reset(m->mesh);
    km_agent_reset(m->agent);
    km_mover_reset(m->mover);
    memset(&m->ref, 0, sizeof(m->ref));
    priv(m)->axi_count = priv(m)->axi_base = 0;   /* armed items stay; counts restart */
}

/* ---- referee ---- */

static const char *const km_referee_names[] = {
    "credit_violations", "bad_reg_writes", "busy_go", "cpu_aux_cfg_writes",
    "stage_oob_writes", "kick_while_running", "stage_overrun", "rx_dropped",
};
_Static_assert(sizeof(struct km_referee) == sizeof(km_referee_names) / sizeof(km_referee_names[0]) * 8,
               "one name per referee counter");

void km_referee_get(const struct km_model *m, struct km_referee *out)
{
    *out = m->ref;
}

unsigned km_referee_count(void)
{
    return (unsigned)(sizeof(km_referee_names) / sizeof(km_referee_names[0]));
}

uint64_t km_referee_value(const struct km_model *m, unsigned i)
{
    uint64_t v[sizeof(struct km_referee) / 8];
    memcpy(v, &m->ref, sizeof(v));
    return i < km_referee_count() ? v[i] : 0;
}

void km_referee_print(const struct km_model *m, void (*put)(void *ctx, const char *line), void *ctx)
{
    char line[96];
    for (unsigned i = 0; i < km_referee_count(); i++) {
        snprintf(line, sizeof(line), "%s=%llu", km_referee_names[i],
                 (unsigned long long)km_referee_value(m, i));
        put(ctx, line);
    }
}
