/* fake.c — test-only stand-ins for the parts of the device model the mesh side does not own
 * (model.c's event queue, memory.c's memory agent, mover.c, np.c), so tests/model-mesh runs
 * agent.c, mesh.c, cu.c and tu.c natively on their own. Never linked into the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "mover.h"
#include "unit.h"

/* ---- time: a sorted list of events, same-time events in scheduling order ---- */

struct fake_event {
    uint64_t t, seq;
    km_event_fn fn;
    void *ctx;
    uint64_t arg;
    struct fake_event *next;
};

struct km_events {
    struct fake_event *head;
    uint64_t seq;
};

void km_at(struct km_model *m, uint64_t t, km_event_fn fn, void *ctx, uint64_t arg)
{
    struct fake_event *e = calloc(1, sizeof *e), **p;
    if (!e)
        abort();
    if (t < m->now)
        t = m->now;
    e->t = t;
    e->seq = m->ev->seq++;
    e->fn = fn;
    e->ctx = ctx;
    e->arg = arg;
    for (p = &m->ev->head; *p && (*p)->t <= t; p = &(*p)->next)
        ;
    e->next = *p;
    *p = e;
}

void fake_run_until(struct km_model *m, uint64_t t)
{
    while (m->ev->head && m->ev->head->t <= t) {
        struct fake_event *e = m->ev->head;
        m->ev->head = e->next;
        m->now = e->t;
        e->fn(m, e->ctx, e->arg);
        free(e);
    }
    if (t > m->now)
        m->now = t;
}

void fake_run_for(struct km_model *m, uint64_t dt) { fake_run_until(m, m->now + dt); }

bool fake_idle(const struct km_model *m) { return m->ev->head == NULL; }

/* ---- memory agent: 64 KB of DRAM at unit-global 0, MEM_WR_* by source, plain reads ---- */

#define FAKE_DRAM 65536u

struct km_memory {
    uint8_t dram[FAKE_DRAM];
    struct { bool open; uint64_t addr; unsigned left, beat, txn; } wr[256];
};

struct fake_mem_stats fake_mem;

static void mem_reply(struct km_model *m, const struct kf_flit *rq, unsigned type, unsigned txn,
                      unsigned last, unsigned rsvd, const uint64_t *data)
{
    uint32_t h = (uint32_t)rq->w[KF_HDR_WORD];
    unsigned ax, ay;
    km_mesh_agent_xy(m->mesh, &ax, &ay);
    struct kf_flit f = { { 0, 0, 0, 0, 0 } };
    if (data)
        memcpy(f.w, data, 32);
    f.w[KF_HDR_WORD] = kf_hdr((unsigned)KBF_FIELD_GET(KF_HDR_SRC_X, h), (unsigned)KBF_FIELD_GET(KF_HDR_SRC_Y, h),
                              ax, ay, type, txn, last) | KBF_FIELD_PREP(KF_HDR_RSVD, rsvd);
    km_mesh_send(m, ax, ay, &f);
}

void km_memory_receive(struct km_model *m, const struct kf_flit *f)
{
    struct km_memory *mem = m->mem;
    uint32_t h = (uint32_t)f->w[KF_HDR_WORD];
    unsigned type = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, h);
    unsigned src = (unsigned)((KBF_FIELD_GET(KF_HDR_SRC_Y, h) << 4) | KBF_FIELD_GET(KF_HDR_SRC_X, h));
    fake_mem.by_type[type & 15u]++;
    fake_mem.last_hdr[type & 15u] = h;
    if (type == KF_T_MEM_WR_REQ) {
        mem->wr[src].open = true;
        mem->wr[src].addr = KBF_FIELD_GET(KF_W3_MEM_ADDR, f->w[3]);
        mem->wr[src].left = (unsigned)KBF_FIELD_GET(KF_W3_MEM_LEN, f->w[3]) + 1u;
        mem->wr[src].beat = 0;
        mem->wr[src].txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, h);
    } else if (type == KF_T_MEM_WR_DATA && mem->wr[src].open) {
        uint64_t a = mem->wr[src].addr + 32u * mem->wr[src].beat++;
        if (a + 32u <= FAKE_DRAM)
            memcpy(&mem->dram[a], f->w, 32);
        if (KBF_FIELD_GET(KF_HDR_LAST, h))
            fake_mem.wr_data_last++;
        if (--mem->wr[src].left == 0) {
            mem->wr[src].open = false;
            mem_reply(m, f, KF_T_MEM_WR_ACK, mem->wr[src].txn, 1, 0, NULL);
        }
    } else if (type == KF_T_MEM_RD_REQ) {
        uint64_t a = KBF_FIELD_GET(KF_W3_MEM_ADDR, f->w[3]);
        unsigned n = (unsigned)KBF_FIELD_GET(KF_W3_MEM_LEN, f->w[3]) + 1u;
        unsigned txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, h);
        for (unsigned b = 0; b < n; b++) {
            uint64_t d[4] = { 0, 0, 0, 0 };
            if (a + 32u * b + 32u <= FAKE_DRAM)
                memcpy(d, &mem->dram[a + 32u * b], 32);
            mem_reply(m, f, KF_T_MEM_RD_RESP, txn, b + 1u == n, b & 3u, d);
        }
    }
}

uint8_t *fake_dram(struct km_model *m) { return m->mem->dram; }

/* ---- mover: records AUX_CFG forwarding ---- */

struct km_mover { int unused; };
struct fake_mover_log fake_mover;

void km_mover_write(struct km_mover *mv, unsigned off, uint64_t val)
{
    (void)mv;
    fake_mover.writes++;
    fake_mover.last_off = off;
    fake_mover.last_val = val;
}

uint64_t km_mover_aux_stat(const struct km_mover *mv)
{
    (void)mv;
    return fake_mover.aux_stat;
}

/* ---- NP: until np.c is linked here, an NP that retires every instruction after 4 cycles
 * with exec_result 0x4E50 ---- */

static void np_fake_done(struct km_cu *cu, void *state, uint64_t arg)
{
    (void)state;
    km_cu_done(cu, (uint32_t)arg, false);
}

static void np_fake_exec(struct km_cu *cu, void *state, const struct kf_flit *inst)
{
    (void)state;
    (void)inst;
    km_cu_after(cu, 4u * km_cu_cycle_ns(cu), np_fake_done, 0x4E50u);
}

const struct km_unit_class km_unit_np = {
    .name = "NP", .type = 0x4E50u, .version = 1, .buffers = 3, .inst_depth = 16,
    .state_size = 0, .exec = np_fake_exec,
};

/* ---- a model of just the mesh side ---- */

struct km_model *fake_model(const char *units, unsigned stage_flits, char *err, size_t errlen)
{
    struct km_model *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->cfg.units = units;
    m->cfg.stage_flits = stage_flits;
    m->ev = calloc(1, sizeof *m->ev);
    m->mem = calloc(1, sizeof *m->mem);
    static struct km_mover mover;
    m->mover = &mover;
    m->mesh = km_mesh_new(m, units, err, errlen);
    if (!m->mesh) {
        fake_free(m);
        return NULL;
    }
    m->agent = km_agent_new(m);
    memset(&fake_mem, 0, sizeof fake_mem);
    memset(&fake_mover, 0, sizeof fake_mover);
    return m;
}

void fake_free(struct km_model *m)
{
    if (!m)
        return;
    while (m->ev->head) {
        struct fake_event *e = m->ev->head;
        m->ev->head = e->next;
        free(e);
    }
    km_agent_free(m->agent);
    km_mesh_free(m->mesh);
    free(m->mem);
    free(m->ev);
    free(m);
}
