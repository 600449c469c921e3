/* km_internal.h — how the model's parts meet. Each part keeps its state private behind its
 * own functions; struct km_model only holds pointers to them. Ownership:
 *   model.c    km_new/km_free/km_reset, time (event queue), config parsing, referee
 *   cpu.c      processor-side decode (docs/hardware.md §4/§5), local control / control region,
 *              EXIT/CONSOLE/halt, CYCLE/INSTRET, the data-cache models
 *   memory.c   DRAM (sparse) and the staging aperture, unit-global decode (docs/hardware.md §8),
 *              the memory agent's MEM_* flit service
 *   agent.c    the control agent's registers (docs/hardware.md §1): dispatcher, TX/RX, status mirror
 *   mesh.c     routers, XY routing with clamping, per-hop latency, endpoint placement
 *   flitq.c    the growable flit FIFO (flitq.h) the mesh and cu.c queue flits in
 *   cu.c       the compute-unit framework (unit.h); tu.c, np.c the unit types
 *   mover.c    the mover (mover.h), wired to memory.c and time by model.c
 *   hostport.c the host port request decoder and executor (hostport.h) */
#ifndef KM_INTERNAL_H
#define KM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kmodel.h"
#include "kohaku/flit.h"

struct km_mesh;
struct km_agent;
struct km_memory;
struct km_cpu;
struct km_mover;
struct km_cu;
struct km_events;
struct km_unit_class;

/* Timing defaults (docs/model.md): one agent/mover/unit cycle = 1 ns. */
#define KM_DEFAULT_CYCLE_NS      1u
#define KM_DEFAULT_HOP_NS        2u     /* per router hop */
/* The dispatcher reads a staged flit one 64-bit word an agent cycle (five words), so it starts
 * a flit every KM_DISPATCH_CYCLES cycles; the flit reaches TX KM_DISPATCH_PUSH cycles after its
 * first word (the last word lands a cycle after its read, the push a cycle later), and `run`
 * falls at the last flit's fifth word, two cycles before that push (docs/model-mesh.md §3). */
#define KM_DISPATCH_CYCLES       5u
#define KM_DISPATCH_PUSH         6u
/* Flits a destination endpoint's input link holds that the endpoint has not taken (in flight
 * to it, or waiting while it takes nothing): a sender whose flit would exceed this waits
 * (backpressure, docs/model-mesh.md §2). The memory agent's responses are not held back. */
#define KM_LINK_FLITS            4u
#define KM_DEFAULT_MEM_NS        40u    /* memory agent / DRAM latency */
#define KM_DEFAULT_DRAM_BYTES    (UINT64_C(4) << 30)
#define KM_STAGING_BYTES         (UINT64_C(2) << 20)

/* Little-endian bytes <-> value, n <= 8 (docs/hardware.md: "All registers are little-endian"): the host
 * port's fields, the scratchpad, the caches and a flit's payload beats. */
static inline uint64_t km_le_get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static inline void km_le_put(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

struct km_model {
    struct km_config cfg;
    struct km_platform plat;
    struct km_events *ev;
    struct km_mesh *mesh;
    struct km_agent *agent;
    struct km_memory *mem;
    struct km_cpu *cpu;
    struct km_mover *mover;
    struct km_referee ref;
    struct km_hp_inj {       /* the host port's fault-injection registers (hostport.h) */
        uint32_t unit, n, arg, armed;
    } hp_inj;
    uint64_t now;             /* ns */
};

/* ---- time (model.c) ---- */
typedef void (*km_event_fn)(struct km_model *m, void *ctx, uint64_t arg);
/* Run fn at time t (>= now). Events at the same time run in the order they were scheduled. */
void km_at(struct km_model *m, uint64_t t, km_event_fn fn, void *ctx, uint64_t arg);

/* ---- mesh (mesh.c) ---- */
struct km_endpoint {
    unsigned x, y;
    /* A flit delivered to this endpoint (a copy; the callee may keep it). */
    void (*deliver)(struct km_model *m, struct km_endpoint *ep, const struct kf_flit *f);
    void *owner;
    unsigned held;          /* flits delivered that the endpoint has not taken yet (its stall) */
    unsigned inflight;      /* flits on their way to it (mesh.c) */
    bool never_full;        /* takes everything at once (the agent): no backpressure */
};
/* Whether a flit for this destination may enter the mesh now (KM_LINK_FLITS). */
bool km_mesh_can_send(struct km_model *m, const struct kf_flit *f);
/* Build the grid and units from cfg->units (or the default map). */
struct km_mesh *km_mesh_new(struct km_model *m, const char *units, char *err, size_t errlen);
void km_mesh_free(struct km_mesh *mesh);
void km_mesh_reset(struct km_mesh *mesh);
/* Send a flit from (src_x, src_y) — the sender's real position, whatever the header's src says.
 * Delivery is by the header's dst, XY-routed on clamped coordinates, in order per pair. */
void km_mesh_send(struct km_model *m, unsigned src_x, unsigned src_y, const struct kf_flit *f);
/* The system node's coordinate (the control and memory agents). */
void km_mesh_agent_xy(const struct km_mesh *mesh, unsigned *x, unsigned *y);
/* CAPS grid low / high, {y,x} of the lowest and highest router. */
unsigned km_mesh_grid_lo(const struct km_mesh *mesh);
unsigned km_mesh_grid_hi(const struct km_mesh *mesh);
/* The unit at exactly (x, y), or NULL. */
struct km_cu *km_mesh_unit_at(struct km_mesh *mesh, unsigned x, unsigned y);
/* Fault injection (model.c; kinds KHP_INJ_* of hostport.h): arm one item, n counted from now
 * (0: every one); -1 for an unknown kind or no unit at x,y. Clear disarms every item. */
int km_inject(struct km_model *m, unsigned kind, unsigned x, unsigned y, uint32_t n, uint32_t arg);
void km_inject_clear(struct km_model *m);

/* ---- control agent (agent.c) ---- */
enum km_initiator { KM_FROM_HOST, KM_FROM_CPU };
struct km_agent *km_agent_new(struct km_model *m);
void km_agent_free(struct km_agent *a);
void km_agent_reset(struct km_agent *a);
/* 64-bit register access at a §1 offset (only [15:0] decode). CPU writes to AUX_CFG are
 * dropped and counted. The RV32 half-word rules are applied by cpu.c on top of these. */
uint64_t km_agent_read(struct km_model *m, uint32_t off, enum km_initiator who);
void km_agent_write(struct km_model *m, uint32_t off, uint64_t val, enum km_initiator who);
/* STAGE and TX_FLIT are byte-enabled memory: a partial write of bytes [lo, lo+len) of the
 * 64-bit register at off (off 8-byte aligned, lo + len <= 8). val is the register image: the
 * bytes written are val's bytes lo..lo+len-1 (so an RV32 high-half store passes lo 4, len 4,
 * val = v << 32), and the register's other bytes keep their value. */
void km_agent_write_bytes(struct km_model *m, uint32_t off, unsigned lo, unsigned len, uint64_t val);
/* A control flit (CU_SIGNAL, CU_CTRL reply, anything not MEM_*) arriving at the agent. */
void km_agent_receive(struct km_model *m, const struct kf_flit *f);

/* ---- memory (memory.c) ---- */
enum km_mem_outcome {
    KM_MEM_OK = 0,            /* served */
    KM_MEM_NOTHING = 1,       /* decodes, hits nothing (DRAM 4-64 GB): reads 0, writes vanish */
    KM_MEM_DROPPED = 2,       /* unserved aperture / another mesh's staging: no response */
};
struct km_memory *km_memory_new(struct km_model *m, uint64_t dram_bytes);
void km_memory_free(struct km_memory *mem);
/* Functional access by unit-global address (40 bits), as the memory agent serves it. */
enum km_mem_outcome km_mem_read(struct km_model *m, uint64_t ug, void *buf, size_t len);
enum km_mem_outcome km_mem_write(struct km_model *m, uint64_t ug, const void *buf, size_t len);
/* A MEM_* flit arriving at the memory agent. */
void km_memory_receive(struct km_model *m, const struct kf_flit *f);
/* Forget requests in flight (open writes, queued responses); memory contents are kept. */
void km_memory_reset(struct km_memory *mem);
/* Test seam: when set, the memory agent hands its outgoing flits (MEM_RD_RESP, MEM_WR_ACK)
 * to tap at the time they would enter the mesh, instead of km_mesh_send. */
void km_memory_set_tap(struct km_memory *mem, void (*tap)(void *ctx, const struct kf_flit *f), void *ctx);

/* ---- processor (cpu.c) ---- */
struct km_cpu *km_cpu_new(struct km_model *m);
void km_cpu_free(struct km_cpu *cpu);
/* Power-on: caches empty, state HELD when cfg.start_held else RUNNING; windows kept. */
void km_cpu_reset(struct km_model *m);
/* The host's hold/release (KHP_CPU_CTRL): calls platform->hart_hold. Releasing restarts the
 * core from PC 0 with empty caches, whatever state it was in. */
void km_cpu_hold(struct km_model *m, bool hold);
/* The processor host registers of hostport.h (KHP_CPU_*), by offset. */
uint64_t km_cpu_host_read(struct km_model *m, unsigned off);
bool km_cpu_held(const struct km_model *m);

/* ---- compute units (cu.c) ---- */
struct km_cu *km_cu_new(struct km_model *m, const struct km_unit_class *cls, unsigned x, unsigned y);
void km_cu_free(struct km_cu *cu);
void km_cu_reset(struct km_cu *cu);
struct km_endpoint *km_cu_endpoint(struct km_cu *cu);
const struct km_unit_class *km_cu_class(const struct km_cu *cu);

/* ---- referee (model.c) ---- */
#define KM_REF_INC(m, field) ((m)->ref.field++)
/* The counters by index, in the order of struct km_referee (host port KHP_MODEL_BASE + 8 * i). */
unsigned km_referee_count(void);
uint64_t km_referee_value(const struct km_model *m, unsigned i);

#endif
