/* mesh.c — the router grid of the device model (docs/hardware.md §10.1 item 2, §2.1):
 * unit placement from the unit map, XY routing on clamped coordinates, per-hop latency,
 * in-order delivery per (source, destination) pair. Unit map syntax: docs/model-mesh.md §1. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitq.h"
#include "km_internal.h"
#include "mesh_inject.h"
#include "unit.h"

/* POS_WIDTH 4: coordinates 0..15; routers at 1..N with edge endpoints just outside, so a
 * router grid is at most 14 x 14 (docs/hardware.md §2). */
#define MESH_POS        16u
#define MESH_MAX_GRID   14u
#define MESH_DEFAULT_GRID 4u

/* The default map (docs/model-mesh.md): a 4 x 2 router grid, the system node (control and memory
 * agents) on the west edge of row 1, four NPUs on row 1 and two test units on row 2. */
const char km_mesh_default_map[] =
    "grid=4x2;agent@0,1;NP@1,1;NP@2,1;NP@3,1;NP@4,1;TU@1,2;TU@2,2";

/* Flits in flight from one endpoint to another, in send order. Every flit of a pair has the
 * same latency and a later injection time, so FIFO order here is arrival order. */
struct mesh_pairq {
    struct km_flitq q;
    uint64_t last_t;
};

struct km_mesh {
    struct km_model *m;
    unsigned w, h;                         /* routers at x 1..w, y 1..h */
    unsigned hop_ns;
    struct km_endpoint *ep_at[MESH_POS * MESH_POS];   /* by (y << 4) | x */
    unsigned ep_idx[MESH_POS * MESH_POS];  /* compact endpoint index, valid where ep_at set */
    struct km_endpoint **eps;              /* compact index -> endpoint */
    unsigned n_ep;
    struct km_cu **units;
    unsigned n_units;
    struct km_endpoint agent_ep;           /* the system node: control + memory agent */
    uint64_t inject_free[MESH_POS * MESH_POS]; /* a source injects one flit per cycle */
    struct mesh_pairq *pq;                 /* (n_ep + 1) * n_ep; source row n_ep = no endpoint */
    uint32_t gen;                          /* bumped by reset: stale deliveries are ignored */
};

static unsigned pos(unsigned x, unsigned y) { return (y << 4) | x; }

/* The agent's endpoint: memory traffic to the memory agent, everything else to the control
 * agent (docs/hardware.md §2.3: NOC_T_IS_MEM is t <= 4). */
static void agent_deliver(struct km_model *m, struct km_endpoint *ep, const struct kf_flit *f)
{
    (void)ep;
    unsigned t = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, f->w[KF_HDR_WORD]);
    if (KF_T_IS_MEM(t))
        km_memory_receive(m, f);
    else
        km_agent_receive(m, f);
}

static const struct km_unit_class *class_by_name(const char *name, size_t n)
{
    static const struct km_unit_class *const classes[] = { &km_unit_tu, &km_unit_np };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        const char *cn = classes[i]->name;
        if (strlen(cn) != n)
            continue;
        size_t k = 0;
        while (k < n && toupper((unsigned char)name[k]) == cn[k])
            k++;
        if (k == n)
            return classes[i];
    }
    return NULL;
}

/* Where an endpoint may sit: on a router (1..w, 1..h) or one step outside the grid next to a
 * router (an edge endpoint). Corners touch no router (docs/hardware.md §2.4.5: (0,0) holds
 * nothing). */
static bool placeable(const struct km_mesh *mesh, unsigned x, unsigned y)
{
    bool xin = x >= 1 && x <= mesh->w, yin = y >= 1 && y <= mesh->h;
    bool xedge = x == 0 || x == mesh->w + 1, yedge = y == 0 || y == mesh->h + 1;
    return (xin && yin) || (xin && yedge) || (xedge && yin);
}

static unsigned clampc(unsigned v, unsigned hi) { return v < 1 ? 1 : v > hi ? hi : v; }

/* The endpoint a destination lands on. Exact match first. Otherwise, as the routers do:
 * route to the clamped router and take the outward hop toward dst (x before y, XY order); if
 * nothing sits there, the clamped router's own endpoint; if that is empty too (a hole in the
 * map, which silicon would not have), the nearest endpoint by Manhattan distance, lowest
 * {y,x} on a tie. Never NULL: the map always holds the agent. */
static struct km_endpoint *resolve(const struct km_mesh *mesh, unsigned dx, unsigned dy)
{
    if (dx < MESH_POS && dy < MESH_POS && mesh->ep_at[pos(dx, dy)])
        return mesh->ep_at[pos(dx, dy)];
    unsigned cx = clampc(dx, mesh->w), cy = clampc(dy, mesh->h);
    unsigned ox = cx, oy = cy;
    if (dx < 1)
        ox = 0;
    else if (dx > mesh->w)
        ox = mesh->w + 1;
    else if (dy < 1)
        oy = 0;
    else if (dy > mesh->h)
        oy = mesh->h + 1;
    if ((ox != cx || oy != cy) && mesh->ep_at[pos(ox, oy)])
        return mesh->ep_at[pos(ox, oy)];
    if (mesh->ep_at[pos(cx, cy)])
        return mesh->ep_at[pos(cx, cy)];
    struct km_endpoint *best = NULL;
    unsigned bestd = ~0u;
    for (unsigned i = 0; i < mesh->n_ep; i++) {   /* eps are in {y,x} order */
        struct km_endpoint *e = mesh->eps[i];
        unsigned d = (e->x > cx ? e->x - cx : cx - e->x) + (e->y > cy ? e->y - cy : cy - e->y);
        if (d < bestd) {
            bestd = d;
            best = e;
        }
    }
    return best;
}

/* Routers a flit traverses, XY: source router, the Manhattan path, destination router. An
 * edge endpoint attaches to the router next to it. */
static unsigned hops(const struct km_mesh *mesh, unsigned sx, unsigned sy, unsigned dx, unsigned dy)
{
    unsigned ax = clampc(sx, mesh->w), ay = clampc(sy, mesh->h);
    unsigned bx = clampc(dx, mesh->w), by = clampc(dy, mesh->h);
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay) + 1u;
}

static void deliver_ev(struct km_model *m, void *ctx, uint64_t arg)
{
    struct km_mesh *mesh = ctx;
    if ((uint32_t)(arg >> 32) != mesh->gen)
        return;
    unsigned pair = (unsigned)(arg & 0xFFFFFFFFu);
    struct km_flitq *q = &mesh->pq[pair].q;
    if (!q->count)
        return;
    struct kf_flit f = km_flitq_pop(q);
    struct km_endpoint *ep = mesh->eps[pair % mesh->n_ep];
    if (ep->inflight)
        ep->inflight--;
    ep->deliver(m, ep, &f);
}

bool km_mesh_can_send(struct km_model *m, const struct kf_flit *f)
{
    struct km_mesh *mesh = m->mesh;
    uint32_t hdr = (uint32_t)f->w[KF_HDR_WORD];
    struct km_endpoint *dst = resolve(mesh, (unsigned)KBF_FIELD_GET(KF_HDR_DST_X, hdr),
                                      (unsigned)KBF_FIELD_GET(KF_HDR_DST_Y, hdr));
    return dst->never_full || dst->inflight + dst->held < KM_LINK_FLITS;
}

void km_mesh_send(struct km_model *m, unsigned src_x, unsigned src_y, const struct kf_flit *f)
{
    struct km_mesh *mesh = m->mesh;
    uint32_t hdr = (uint32_t)f->w[KF_HDR_WORD];
    unsigned dx = (unsigned)KBF_FIELD_GET(KF_HDR_DST_X, hdr);
    unsigned dy = (unsigned)KBF_FIELD_GET(KF_HDR_DST_Y, hdr);
    struct km_endpoint *dst = resolve(mesh, dx, dy);
    unsigned sp = pos(src_x & 15u, src_y & 15u);
    unsigned si = mesh->ep_at[sp] ? mesh->ep_idx[sp] : mesh->n_ep;
    unsigned pair = si * mesh->n_ep + mesh->ep_idx[pos(dst->x, dst->y)];

    /* One flit per cycle leaves a source; the flit is on the wire only as its 288 bits. */
    uint64_t t = m->now > mesh->inject_free[sp] ? m->now : mesh->inject_free[sp];
    mesh->inject_free[sp] = t + KM_DEFAULT_CYCLE_NS;
    t += (uint64_t)mesh->hop_ns * hops(mesh, src_x, src_y, dst->x, dst->y);
    struct mesh_pairq *q = &mesh->pq[pair];
    dst->inflight++;
    if (t < q->last_t)
        t = q->last_t;
    q->last_t = t;
    struct kf_flit w = *f;
    w.w[KF_HDR_WORD] &= 0xFFFFFFFFu;
    km_flitq_push(&q->q, &w);
    km_at(m, t, deliver_ev, mesh, ((uint64_t)mesh->gen << 32) | pair);
}

/* ---- unit map parsing ---- */

struct map_item {
    const struct km_unit_class *cls;   /* NULL for the agent */
    unsigned x, y;
};

static int parse_uint(const char **p, const char *end, unsigned *out)
{
    const char *s = *p;
    unsigned v = 0;
    if (s >= end || !isdigit((unsigned char)*s))
        return -1;
    while (s < end && isdigit((unsigned char)*s)) {
        v = v * 10u + (unsigned)(*s - '0');
        if (v > 100000u)
            return -1;
        s++;
    }
    *p = s;
    *out = v;
    return 0;
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

/* One item of the map, [p, e) with surrounding spaces removed. */
static int parse_item(const char *p, const char *e, unsigned *w, unsigned *h, unsigned *hop,
                      struct map_item *items, unsigned *n_items, char *err, size_t errlen)
{
    const char *at = memchr(p, '@', (size_t)(e - p));
    const char *eq = memchr(p, '=', (size_t)(e - p));
    int il = (int)(e - p);
    if (eq && !at) {
        size_t kl = (size_t)(eq - p);
        while (kl && isspace((unsigned char)p[kl - 1]))
            kl--;
        const char *v = skip_ws(eq + 1, e);
        if (kl == 4 && !strncmp(p, "grid", 4)) {
            if (parse_uint(&v, e, w) || v >= e || (*v != 'x' && *v != 'X') ||
                (v++, parse_uint(&v, e, h)) || v != e) {
                snprintf(err, errlen, "unit map: bad grid '%.*s' (want grid=WxH)", il, p);
                return -1;
            }
            if (*w < 1 || *h < 1 || *w > MESH_MAX_GRID || *h > MESH_MAX_GRID) {
                snprintf(err, errlen, "unit map: grid %ux%u outside 1x1..14x14", *w, *h);
                return -1;
            }
            return 0;
        }
        if (kl == 3 && !strncmp(p, "hop", 3)) {
            if (parse_uint(&v, e, hop) || v != e || *hop > 1000000u) {
                snprintf(err, errlen, "unit map: bad hop '%.*s' (want hop=NS)", il, p);
                return -1;
            }
            return 0;
        }
        snprintf(err, errlen, "unit map: unknown key '%.*s'", (int)kl, p);
        return -1;
    }
    if (!at) {
        snprintf(err, errlen, "unit map: cannot parse '%.*s'", il, p);
        return -1;
    }
    size_t nl = (size_t)(at - p);
    while (nl && isspace((unsigned char)p[nl - 1]))
        nl--;
    struct map_item it = { NULL, 0, 0 };
    if (!(nl == 5 && !strncmp(p, "agent", 5))) {
        it.cls = class_by_name(p, nl);
        if (!it.cls) {
            snprintf(err, errlen, "unit map: unknown unit type '%.*s'", (int)nl, p);
            return -1;
        }
    }
    const char *v = skip_ws(at + 1, e);
    if (parse_uint(&v, e, &it.x) || (v = skip_ws(v, e)) >= e || *v != ',' ||
        (v = skip_ws(v + 1, e), parse_uint(&v, e, &it.y)) || v != e) {
        snprintf(err, errlen, "unit map: bad coordinate in '%.*s' (want NAME@x,y)", il, p);
        return -1;
    }
    if (*n_items >= MESH_POS * MESH_POS) {
        snprintf(err, errlen, "unit map: too many entries");
        return -1;
    }
    items[(*n_items)++] = it;
    return 0;
}

static int parse_map(const char *map, unsigned *w, unsigned *h, unsigned *hop,
                     struct map_item *items, unsigned *n_items, char *err, size_t errlen)
{
    *w = *h = MESH_DEFAULT_GRID;
    *hop = KM_DEFAULT_HOP_NS;
    *n_items = 0;
    const char *s = map;
    while (*s) {
        const char *end = strchr(s, ';');
        if (!end)
            end = s + strlen(s);
        const char *p = skip_ws(s, end);
        const char *e = end;
        while (e > p && isspace((unsigned char)e[-1]))
            e--;
        if (p < e && parse_item(p, e, w, h, hop, items, n_items, err, errlen))
            return -1;
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* NULL, or nothing but spaces and separators: the default map (a machine property left
 * empty means "default"). */
static bool map_is_empty(const char *units)
{
    if (!units)
        return true;
    for (; *units; units++)
        if (!isspace((unsigned char)*units) && *units != ';')
            return false;
    return true;
}

struct km_mesh *km_mesh_new(struct km_model *m, const char *units, char *err, size_t errlen)
{
    char dummy[1];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    unsigned w, h, hop, n;
    struct map_item *its = malloc(sizeof *its * MESH_POS * MESH_POS);
    if (!its) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_map(map_is_empty(units) ? km_mesh_default_map : units, &w, &h, &hop, its, &n,
                  err, errlen)) {
        free(its);
        return NULL;
    }
    struct km_mesh *mesh = calloc(1, sizeof *mesh);
    if (!mesh) {
        free(its);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mesh->m = m;
    mesh->w = w;
    mesh->h = h;
    mesh->hop_ns = hop;

    bool have_agent = false;
    bool occupied[MESH_POS * MESH_POS] = { false };
    for (unsigned i = 0; i < n; i++) {
        struct map_item *it = &its[i];
        if (it->x >= MESH_POS || it->y >= MESH_POS || !placeable(mesh, it->x, it->y)) {
            snprintf(err, errlen, "unit map: %s@%u,%u is neither on a router of the %ux%u grid "
                     "nor on its edge (corners hold nothing)",
                     it->cls ? it->cls->name : "agent", it->x, it->y, w, h);
            goto fail;
        }
        if (occupied[pos(it->x, it->y)]) {
            snprintf(err, errlen, "unit map: two endpoints at %u,%u", it->x, it->y);
            goto fail;
        }
        occupied[pos(it->x, it->y)] = true;
        if (!it->cls) {
            if (have_agent) {
                snprintf(err, errlen, "unit map: more than one agent");
                goto fail;
            }
            have_agent = true;
        }
    }
    if (!have_agent) {
        snprintf(err, errlen, "unit map: no agent@x,y");
        goto fail;
    }
    mesh->units = calloc(n ? n : 1, sizeof *mesh->units);
    mesh->eps = calloc(n, sizeof *mesh->eps);
    if (!mesh->units || !mesh->eps) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (unsigned i = 0; i < n; i++) {
        struct map_item *it = &its[i];
        struct km_endpoint *ep;
        if (!it->cls) {
            mesh->agent_ep.x = it->x;
            mesh->agent_ep.y = it->y;
            mesh->agent_ep.deliver = agent_deliver;
            mesh->agent_ep.owner = mesh;
            mesh->agent_ep.never_full = true;   /* memory never blocks; RX drops when full */
            ep = &mesh->agent_ep;
        } else {
            struct km_cu *cu = km_cu_new(m, it->cls, it->x, it->y);
            if (!cu) {
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            mesh->units[mesh->n_units++] = cu;
            ep = km_cu_endpoint(cu);
        }
        mesh->ep_at[pos(it->x, it->y)] = ep;
    }
    /* Compact indices in {y,x} order: the nearest-endpoint tie-break relies on it. */
    for (unsigned p = 0; p < MESH_POS * MESH_POS; p++)
        if (mesh->ep_at[p]) {
            mesh->ep_idx[p] = mesh->n_ep;
            mesh->eps[mesh->n_ep++] = mesh->ep_at[p];
        }
    mesh->pq = calloc((size_t)(mesh->n_ep + 1) * mesh->n_ep, sizeof *mesh->pq);
    if (!mesh->pq) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    free(its);
    return mesh;
fail:
    free(its);
    km_mesh_free(mesh);
    return NULL;
}

void km_mesh_free(struct km_mesh *mesh)
{
    if (!mesh)
        return;
    for (unsigned i = 0; i < mesh->n_units; i++)
        km_cu_free(mesh->units[i]);
    if (mesh->pq)
        for (unsigned i = 0; i < (mesh->n_ep + 1) * mesh->n_ep; i++)
            km_flitq_free(&mesh->pq[i].q);
    free(mesh->pq);
    free(mesh->units);
    free(mesh->eps);
    free(mesh);
}

/* Power-on: nothing in flight, every unit idle. Deliveries already scheduled become stale. */
void km_mesh_reset(struct km_mesh *mesh)
{
    mesh->gen++;
    for (unsigned i = 0; i < (mesh->n_ep + 1) * mesh->n_ep; i++) {
        km_flitq_clear(&mesh->pq[i].q);
        mesh->pq[i].last_t = 0;
    }
    memset(mesh->inject_free, 0, sizeof mesh->inject_free);
    for (unsigned i = 0; i < mesh->n_ep; i++)
        mesh->eps[i]->inflight = 0;
    for (unsigned i = 0; i < mesh->n_units; i++)
        km_cu_reset(mesh->units[i]);
}

void km_mesh_agent_xy(const struct km_mesh *mesh, unsigned *x, unsigned *y)
{
    *x = mesh->agent_ep.x;
    *y = mesh->agent_ep.y;
}

/* CAPS publishes two scalar router coordinates (docs/hardware.md §1): GRID_LO, the lowest on both
 * axes (1), and the agent's GRID_HI, which a mesh top sets to the larger side (4 for 4x2).
 * A rectangular mesh's separate x/y bounds are not published. */
unsigned km_mesh_grid_lo(const struct km_mesh *mesh)
{
    (void)mesh;
    return 1u;
}

unsigned km_mesh_grid_hi(const struct km_mesh *mesh)
{
    return mesh->w > mesh->h ? mesh->w : mesh->h;
}

struct km_cu *km_mesh_unit_at(struct km_mesh *mesh, unsigned x, unsigned y)
{
    for (unsigned i = 0; i < mesh->n_units; i++)
        if (km_cu_x(mesh->units[i]) == x && km_cu_y(mesh->units[i]) == y)
            return mesh->units[i];
    return NULL;
}

/* ---- fault injection items (docs/model-mesh.md §6) ---- */

static int inj_num(const char **p, uint32_t *out)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return -1;
    char *e;
    unsigned long v = strtoul(s, &e, 0);
    if (e == s || v > 0xFFFFFFFFul)
        return -1;
    *p = e;
    *out = (uint32_t)v;
    return 0;
}

int km_mesh_inject(struct km_mesh *mesh, const char *item, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum km_cu_inject_kind kind;
        unsigned nargs;
    } kinds[] = {
        { "fault", KM_CU_INJ_FAULT, 2 }, { "hang", KM_CU_INJ_HANG, 1 },
        { "drop", KM_CU_INJ_DROP, 1 }, { "slow", KM_CU_INJ_SLOW, 1 },
        { "ctrllate", KM_CU_INJ_CTRL_LATE, 1 }, { "ctrlmute", KM_CU_INJ_CTRL_MUTE, 1 },
    };
    const char *p = item;
    while (isspace((unsigned char)*p))
        p++;
    const char *at = strchr(p, '@');
    if (!at)
        return 0;
    size_t nl = (size_t)(at - p);
    unsigned k;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strlen(kinds[k].name) == nl && !strncmp(p, kinds[k].name, nl))
            break;
    if (k == sizeof kinds / sizeof kinds[0])
        return 0;
    uint32_t x, y, a[2] = { 1, 0 };
    unsigned got = 0;
    p = at + 1;
    if (inj_num(&p, &x) || *p++ != ',' || inj_num(&p, &y))
        goto bad;
    while (*p == ':' && got < kinds[k].nargs) {
        p++;
        if (inj_num(&p, &a[got++]))
            goto bad;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p)
        goto bad;
    struct km_cu *cu = x < MESH_POS && y < MESH_POS ? km_mesh_unit_at(mesh, x, y) : NULL;
    if (!cu) {
        snprintf(err, errlen, "faults: no unit at %u,%u for '%s'", x, y, item);
        return -1;
    }
    switch (kinds[k].kind) {
    case KM_CU_INJ_FAULT:
        km_cu_inject(cu, KM_CU_INJ_FAULT, a[0], got >= 2 ? a[1] : 0xFA17u);
        break;
    case KM_CU_INJ_SLOW:
    case KM_CU_INJ_CTRL_LATE:
        if (!got)
            goto bad;
        km_cu_inject(cu, kinds[k].kind, 0, a[0]);
        break;
    default:
        km_cu_inject(cu, kinds[k].kind, a[0], 0);
        break;
    }
    return 1;
bad:
    snprintf(err, errlen, "faults: cannot parse '%s' (fault@x,y[:n[:code]], hang@x,y[:n], "
             "drop@x,y[:n], slow@x,y:k, ctrllate@x,y:k, ctrlmute@x,y[:n])", item);
    return -1;
}

int km_mesh_inject_at(struct km_mesh *mesh, unsigned x, unsigned y, enum km_cu_inject_kind kind,
                      uint32_t n, uint32_t arg)
{
    struct km_cu *cu = x < MESH_POS && y < MESH_POS ? km_mesh_unit_at(mesh, x, y) : NULL;
    if (!cu)
        return -1;
    km_cu_inject(cu, kind, n, arg);
    return 0;
}

void km_mesh_inject_clear(struct km_mesh *mesh)
{
    for (unsigned i = 0; i < mesh->n_units; i++)
        km_cu_inject_clear(mesh->units[i]);
}
