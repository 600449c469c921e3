/* fake_cu.c — test-only framework and memory agent for tests/model-np (see fake_cu.h). Memory
 * requests are served by the docs/hardware.md §2.4.1–§2.4.2 rules: plain reads answered beat by
 * beat with txn echoed and the beat in rsvd[1:0], writes matched by source and acknowledged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake_cu.h"
#include "kohaku/flit.h"

uint8_t fake_dram[FAKE_DRAM_BYTES];
struct fake_stats fake_stats;
bool fake_reorder;

struct fake_ev {
    uint64_t t, seq;
    void (*fn)(struct km_cu *cu, void *state, uint64_t arg);
    uint64_t arg;
    struct kf_flit flit;           /* for memory-side events */
    int kind;                      /* 0 unit callback, 1 flit to memory, 2 flit to unit */
};

struct km_cu {
    const struct km_unit_class *cls;
    void *state;
    uint64_t now, cycle_ns, seq;
    struct fake_ev *ev;
    size_t nev, cap;
    struct fake_done last;
    unsigned ndone;
    bool executing;
    /* The write being assembled (one source: this unit). */
    bool wr_open;
    uint64_t wr_addr;
    unsigned wr_beats, wr_got, wr_txn;
};

static void proto(const char *why)
{
    fake_stats.proto_errors++;
    snprintf(fake_stats.last_error, sizeof fake_stats.last_error, "%s", why);
}

static void push(struct km_cu *cu, uint64_t t, int kind, void (*fn)(struct km_cu *, void *, uint64_t),
                 uint64_t arg, const struct kf_flit *f)
{
    if (cu->nev == cu->cap) {
        cu->cap = cu->cap ? cu->cap * 2 : 64;
        cu->ev = realloc(cu->ev, cu->cap * sizeof *cu->ev);
        if (!cu->ev)
            abort();
    }
    struct fake_ev *e = &cu->ev[cu->nev++];
    memset(e, 0, sizeof *e);
    e->t = t;
    e->seq = cu->seq++;
    e->kind = kind;
    e->fn = fn;
    e->arg = arg;
    if (f)
        e->flit = *f;
}

/* ---- unit.h, as the framework provides it ---- */

void km_cu_done(struct km_cu *cu, uint32_t exec_result, bool fault)
{
    if (!cu->executing)
        proto("km_cu_done with no instruction executing");
    cu->executing = false;
    cu->last.done = true;
    cu->last.result = exec_result;
    cu->last.fault = fault;
    cu->last.at = cu->now;
    cu->ndone++;
}

void km_cu_after(struct km_cu *cu, uint64_t delay_ns, void (*fn)(struct km_cu *, void *, uint64_t),
                 uint64_t arg)
{
    push(cu, cu->now + delay_ns, 0, fn, arg, NULL);
}

uint64_t km_cu_now(const struct km_cu *cu) { return cu->now; }
unsigned km_cu_x(const struct km_cu *cu) { (void)cu; return FAKE_NP_X; }
unsigned km_cu_y(const struct km_cu *cu) { (void)cu; return FAKE_NP_Y; }
uint64_t km_cu_cycle_ns(const struct km_cu *cu) { return cu->cycle_ns; }

void km_cu_mem_agent(const struct km_cu *cu, unsigned *x, unsigned *y)
{
    (void)cu;
    *x = FAKE_MEM_X;
    *y = FAKE_MEM_Y;
}

void km_cu_send(struct km_cu *cu, struct kf_flit *f)
{
    uint64_t h = f->w[4];
    if (KBF_FIELD_GET(KF_HDR_DST_X, h) != FAKE_MEM_X || KBF_FIELD_GET(KF_HDR_DST_Y, h) != FAKE_MEM_Y)
        proto("flit not addressed to the memory agent");
    if (KBF_FIELD_GET(KF_HDR_RSVD, h) != 0)
        proto("rsvd not zero");
    /* The framework stamps src with the unit's own coordinate. */
    f->w[4] = (h & ~(KF_HDR_SRC_X | KF_HDR_SRC_Y)) | KBF_FIELD_PREP(KF_HDR_SRC_X, FAKE_NP_X) |
              KBF_FIELD_PREP(KF_HDR_SRC_Y, FAKE_NP_Y);
    unsigned type = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, f->w[4]);
    if (type == KF_T_MEM_RD_REQ || type == KF_T_MEM_WR_REQ) {
        if (++fake_stats.outstanding > fake_stats.max_outstanding)
            fake_stats.max_outstanding = fake_stats.outstanding;
    }
    push(cu, cu->now + FAKE_MEM_NS, 1, NULL, 0, f);
}

/* ---- the fake memory agent ---- */

static bool dram_ok(uint64_t addr, uint64_t len)
{
    return !(addr & KF_UG_APERTURE) && (addr & KF_UG_LOCAL) + len <= FAKE_DRAM_BYTES &&
           KBF_FIELD_GET(KF_UG_MESH, addr) == 0;
}

static void mem_serve(struct km_cu *cu, const struct kf_flit *f)
{
    unsigned type = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, f->w[4]);
    unsigned txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, f->w[4]);
    unsigned last = (unsigned)KBF_FIELD_GET(KF_HDR_LAST, f->w[4]);
    uint64_t addr = KBF_FIELD_GET(KF_W3_MEM_ADDR, f->w[3]);
    unsigned beats = (unsigned)KBF_FIELD_GET(KF_W3_MEM_LEN, f->w[3]) + 1u;

    switch (type) {
    case KF_T_MEM_RD_REQ: {
        /* Plain: len + 1 beats, rsvd 0. STREAM: count entries of entry_words (0 or > 4 = 4)
         * words, txn + entry index, word index in rsvd[1:0], last per entry. */
        bool stream = (KBF_FIELD_GET(KF_W3_MEM_FLAGS, f->w[3]) & KF_MEM_FLAG_STREAM) != 0;
        unsigned entries = 1, words = beats;
        fake_stats.rd_reqs++;
        if (stream) {
            fake_stats.stream_reqs++;
            entries = (unsigned)KBF_FIELD_GET(KF_W3_MEM_COUNT, f->w[3]);
            entries = entries ? entries : 1;
            words = (unsigned)KBF_FIELD_GET(KF_W2_MEM_ENTRY_WORDS, f->w[2]);
            words = (words == 0 || words > 4) ? 4 : words;
        }
        if (entries * words > fake_stats.max_rd_beats)
            fake_stats.max_rd_beats = entries * words;
        if ((KBF_FIELD_GET(KF_W3_MEM_FLAGS, f->w[3]) & ~(uint64_t)KF_MEM_FLAG_STREAM) ||
            (f->w[2] & ~KF_W2_MEM_ENTRY_WORDS) || f->w[1] || f->w[0])
            proto("read descriptor with reserved flags, peers or reserved bits set");
        if (addr & 31u)
            proto("read not 32-byte aligned");
        if (!dram_ok(addr, (uint64_t)entries * words * 32u)) {
            fake_stats.dropped++;          /* an unserved aperture: no response at all */
            return;
        }
        unsigned k = 0;
        for (unsigned e = 0; e < entries; e++)
            for (unsigned b = 0; b < words; b++, k++) {
                struct kf_flit r = { { 0 } };
                memcpy(&r.w[0], &fake_dram[(addr & KF_UG_LOCAL) + 32u * k], 32);
                r.w[4] = kf_hdr(FAKE_NP_X, FAKE_NP_Y, FAKE_MEM_X, FAKE_MEM_Y, KF_T_MEM_RD_RESP,
                                stream ? (txn + e) & 0xFFu : txn, b + 1u == words) |
                         (stream ? KBF_FIELD_PREP(KF_HDR_RSVD, b & 3u) : 0);
                /* One beat per ns, the words of an entry in REVERSE order when fake_reorder
                 * is set: the unit must place them by rsvd, not by arrival. */
                unsigned slot = fake_reorder ? k - b + (words - 1u - b) : k;
                push(cu, cu->now + 1u + slot, 2, NULL, 0, &r);
            }
        break;
    }
    case KF_T_MEM_WR_REQ:
        fake_stats.wr_reqs++;
        if (beats > fake_stats.max_wr_beats)
            fake_stats.max_wr_beats = beats;
        if (cu->wr_open)
            proto("write descriptor before the previous write's data ended");
        if (last)
            proto("MEM_WR_REQ with last set");
        if (beats > 7)
            proto("write longer than 7 beats");
        if (addr & 31u)
            proto("write not 32-byte aligned");
        cu->wr_open = true;
        cu->wr_addr = addr;
        cu->wr_beats = beats;
        cu->wr_got = 0;
        cu->wr_txn = txn;
        break;
    case KF_T_MEM_WR_DATA:
        fake_stats.wr_data++;
        if (!cu->wr_open) {
            proto("MEM_WR_DATA without a descriptor");
            return;
        }
        if (last != (cu->wr_got + 1u == cu->wr_beats))
            proto("MEM_WR_DATA last does not match the descriptor's count");
        if (dram_ok(cu->wr_addr + 32u * cu->wr_got, 32))
            memcpy(&fake_dram[((cu->wr_addr & KF_UG_LOCAL) + 32u * cu->wr_got)], &f->w[0], 32);
        if (++cu->wr_got == cu->wr_beats) {
            struct kf_flit a = { { 0 } };
            cu->wr_open = false;
            a.w[4] = kf_hdr(FAKE_NP_X, FAKE_NP_Y, FAKE_MEM_X, FAKE_MEM_Y, KF_T_MEM_WR_ACK, cu->wr_txn, 1);
            push(cu, cu->now + 1u, 2, NULL, 0, &a);
        }
        break;
    default:
        proto("unit sent a non-memory flit");
    }
}

/* ---- driving ---- */

static bool step(struct km_cu *cu, uint64_t limit)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < cu->nev; i++)
        if (best == SIZE_MAX || cu->ev[i].t < cu->ev[best].t ||
            (cu->ev[i].t == cu->ev[best].t && cu->ev[i].seq < cu->ev[best].seq))
            best = i;
    if (best == SIZE_MAX || cu->ev[best].t > limit)
        return false;
    struct fake_ev e = cu->ev[best];
    cu->ev[best] = cu->ev[--cu->nev];
    cu->now = e.t;
    if (e.kind == 0) {
        e.fn(cu, cu->state, e.arg);
    } else if (e.kind == 1) {
        mem_serve(cu, &e.flit);
    } else {
        unsigned t = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, e.flit.w[4]);
        if (t == KF_T_MEM_RD_RESP)
            fake_stats.rd_resps++;
        else
            fake_stats.wr_acks++;
        /* A descriptor is answered by its ack, or by the final word of its (single) entry. */
        if (t == KF_T_MEM_WR_ACK || (KBF_FIELD_GET(KF_HDR_LAST, e.flit.w[4]) && fake_stats.outstanding))
            fake_stats.outstanding--;
        if (cu->cls->receive)
            cu->cls->receive(cu, cu->state, &e.flit);
    }
    return true;
}

struct km_cu *fake_new(const struct km_unit_class *cls, uint64_t cycle_ns)
{
    struct km_cu *cu = calloc(1, sizeof *cu);
    if (!cu || !(cu->state = calloc(1, cls->state_size)))
        abort();
    cu->cls = cls;
    cu->cycle_ns = cycle_ns;
    memset(&fake_stats, 0, sizeof fake_stats);
    fake_reorder = false;
    cls->init(cu, cu->state);
    return cu;
}

void fake_free(struct km_cu *cu)
{
    if (cu->cls->fini)
        cu->cls->fini(cu, cu->state);
    free(cu->state);
    free(cu->ev);
    free(cu);
}

void *fake_state(struct km_cu *cu) { return cu->state; }
uint64_t fake_now(struct km_cu *cu) { return cu->now; }
struct fake_done fake_last_done(struct km_cu *cu) { return cu->last; }
unsigned fake_done_count(struct km_cu *cu) { return cu->ndone; }

void fake_exec(struct km_cu *cu, uint64_t insn, bool last)
{
    struct kf_flit f = { { 0 } };
    if (cu->executing)
        proto("exec while the previous instruction is still executing");
    f.w[3] = insn;
    f.w[4] = kf_hdr(FAKE_NP_X, FAKE_NP_Y, FAKE_MEM_X, FAKE_MEM_Y, KF_T_CU_INST, 0x5A, last);
    cu->executing = true;
    cu->last.done = false;
    cu->cls->exec(cu, cu->state, &f);
}

void fake_advance(struct km_cu *cu, uint64_t t)
{
    while (step(cu, t))
        ;
    if (t != UINT64_MAX && cu->now < t)
        cu->now = t;
}

struct fake_done fake_run(struct km_cu *cu, uint64_t insn, bool last, uint64_t limit_ns)
{
    uint64_t limit = cu->now + limit_ns;
    fake_exec(cu, insn, last);
    while (!cu->last.done && step(cu, limit))
        ;
    return cu->last;
}
