/* cu.c — the compute-unit framework of the device model: noc_cu_base as docs/hardware.md §10.1 item 3 and
 * docs/hardware.md §1.1 describe it (instruction FIFO, CU_CTRL answers, completion signals of
 * docs/hardware.md §2.4.4, §2.5). Unit types (tu.c,
 * np.c) plug in through unit.h. */
#include <stdlib.h>
#include <string.h>

#include "flitq.h"
#include "km_internal.h"
#include "mesh_inject.h"
#include "unit.h"

#define CU_CPL_DEPTH 16u                 /* the endpoint's completion queue (docs/hardware.md §1.1) */
#define CU_OUT_CAP   (CU_CPL_DEPTH + 1u) /* plus the one CU_CTRL reply that may be pending */

struct cu_timer {
    struct km_cu *cu;
    void (*fn)(struct km_cu *cu, void *state, uint64_t arg);
    uint64_t arg;
    uint32_t gen;
    struct cu_timer *prev, *next;
};

struct km_cu {
    struct km_model *m;
    const struct km_unit_class *cls;
    unsigned x, y;
    struct km_endpoint ep;
    void *state;
    uint32_t gen;                  /* bumped by reset: events of an earlier life are ignored */

    struct kf_flit *fifo;          /* the instruction FIFO, inst_depth entries */
    unsigned fifo_head, fifo_count;
    /* Flits that arrived while an overfilled instruction was waiting: the input is stalled,
     * as a full FIFO backpressures the link in silicon (docs/model-mesh.md §4). */
    struct km_flitq backlog;

    bool executing;
    struct kf_flit cur;
    uint64_t exec_start;
    bool issue_pending;            /* an issue event is scheduled */

    struct kf_flit out[CU_OUT_CAP];  /* completions and the CU_CTRL reply, in leaving order */
    bool out_is_reply[CU_OUT_CAP];
    unsigned out_head, out_count, out_sigs;
    bool tx_pending;
    bool ctrl_pending;             /* a CU_CTRL reply is queued and has not left */

    uint32_t retired;
    uint64_t busy_ns;              /* time with busy() set, up to busy_t0 when busy_on */
    uint64_t busy_t0;
    bool busy_on;

    /* Fault injection (docs/hardware.md §10.1 item 8, docs/model-mesh.md §6): armed by km_cu_inject, kept
     * across reset; the counters restart at reset. n = 0 means every one. */
    struct {
        bool fault, hang, drop, mute;
        uint32_t fault_n, fault_code, hang_n, drop_n, slow, mute_n, late;
        /* The count each armed item was armed at: n counts from arming (from reset for
         * items armed by the faults= property, which are armed at construction). */
        uint32_t fault_base, hang_base, drop_base, mute_base;
    } inj;
    uint32_t issued;               /* instructions started since reset */
    uint32_t completions;          /* completions produced since reset */
    uint32_t ctrl_reqs;            /* CU_CTRL requests accepted since reset */
    struct kf_flit ctrl_late;      /* an injected-late CU_CTRL reply waiting to be queued */
    struct cu_timer *timers;       /* pending km_cu_after() calls, freed with the unit */
};

static void try_issue(struct km_cu *cu);

/* An armed item hits on its n-th event counted from when it was armed; n 0: every one. */
static bool inj_hit(bool armed, uint32_t n, uint32_t base, uint32_t count)
{
    return armed && (n == 0 || count - base == n);
}
static void schedule_tx(struct km_cu *cu);
static void busy_note(struct km_cu *cu);

static uint32_t hdr_of(const struct kf_flit *f) { return (uint32_t)f->w[KF_HDR_WORD]; }
static unsigned hget(uint64_t mask, const struct kf_flit *f)
{
    return (unsigned)KBF_FIELD_GET(mask, hdr_of(f));
}

uint64_t km_cu_now(const struct km_cu *cu) { return cu->m->now; }
unsigned km_cu_x(const struct km_cu *cu) { return cu->x; }
unsigned km_cu_y(const struct km_cu *cu) { return cu->y; }
uint64_t km_cu_cycle_ns(const struct km_cu *cu)
{
    return (uint64_t)KM_DEFAULT_CYCLE_NS * (cu->inj.slow ? cu->inj.slow : 1u);
}
struct km_endpoint *km_cu_endpoint(struct km_cu *cu) { return &cu->ep; }
const struct km_unit_class *km_cu_class(const struct km_cu *cu) { return cu->cls; }

void km_cu_mem_agent(const struct km_cu *cu, unsigned *x, unsigned *y)
{
    km_mesh_agent_xy(cu->m->mesh, x, y);
}

void km_cu_send(struct km_cu *cu, struct kf_flit *f)
{
    uint64_t h = f->w[KF_HDR_WORD] & ~(KF_HDR_SRC_X | KF_HDR_SRC_Y);
    f->w[KF_HDR_WORD] = h | KBF_FIELD_PREP(KF_HDR_SRC_X, cu->x) | KBF_FIELD_PREP(KF_HDR_SRC_Y, cu->y);
    km_mesh_send(cu->m, cu->x, cu->y, f);
}

/* ---- timers ---- */

static void timer_ev(struct km_model *m, void *ctx, uint64_t arg)
{
    (void)m;
    (void)arg;
    struct cu_timer *t = ctx;
    struct km_cu *cu = t->cu;
    if (t->prev)
        t->prev->next = t->next;
    else
        cu->timers = t->next;
    if (t->next)
        t->next->prev = t->prev;
    bool live = t->gen == cu->gen;
    void (*fn)(struct km_cu *, void *, uint64_t) = t->fn;
    uint64_t a = t->arg;
    free(t);
    if (live)
        fn(cu, cu->state, a);
}

void km_cu_after(struct km_cu *cu, uint64_t delay_ns,
                 void (*fn)(struct km_cu *cu, void *state, uint64_t arg), uint64_t arg)
{
    struct cu_timer *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->cu = cu;
    t->fn = fn;
    t->arg = arg;
    t->gen = cu->gen;
    t->next = cu->timers;
    if (cu->timers)
        cu->timers->prev = t;
    cu->timers = t;
    km_at(cu->m, cu->m->now + delay_ns, timer_ev, t, 0);
}

/* ---- the outgoing queue: completions and the CU_CTRL reply, one flit per unit cycle ---- */

static void out_push(struct km_cu *cu, const struct kf_flit *f, bool reply)
{
    unsigned i = (cu->out_head + cu->out_count) % CU_OUT_CAP;
    cu->out[i] = *f;
    cu->out_is_reply[i] = reply;
    cu->out_count++;
    if (!reply)
        cu->out_sigs++;
    busy_note(cu);
    schedule_tx(cu);
}

static void tx_ev(struct km_model *m, void *ctx, uint64_t arg)
{
    (void)m;
    struct km_cu *cu = ctx;
    if ((uint32_t)arg != cu->gen)
        return;
    cu->tx_pending = false;
    if (!cu->out_count)
        return;
    if (!km_mesh_can_send(cu->m, &cu->out[cu->out_head])) {
        /* the destination's link is full: the output register holds, tried next cycle */
        cu->tx_pending = true;
        km_at(cu->m, cu->m->now + km_cu_cycle_ns(cu), tx_ev, cu, cu->gen);
        return;
    }
    struct kf_flit f = cu->out[cu->out_head];
    bool reply = cu->out_is_reply[cu->out_head];
    bool was_full = cu->out_sigs >= CU_CPL_DEPTH;
    cu->out_head = (cu->out_head + 1) % CU_OUT_CAP;
    cu->out_count--;
    if (reply)
        cu->ctrl_pending = false;
    else
        cu->out_sigs--;
    busy_note(cu);
    km_mesh_send(cu->m, cu->x, cu->y, &f);
    if (cu->out_count) {
        cu->tx_pending = true;
        km_at(cu->m, cu->m->now + km_cu_cycle_ns(cu), tx_ev, cu, cu->gen);
    }
    if (was_full && !reply)
        try_issue(cu);   /* a full completion queue held issue back */
}

static void schedule_tx(struct km_cu *cu)
{
    if (cu->tx_pending)
        return;
    cu->tx_pending = true;
    /* The endpoint registers its output: a flit queued now leaves on the next unit cycle. */
    km_at(cu->m, cu->m->now + km_cu_cycle_ns(cu), tx_ev, cu, cu->gen);
}

/* ---- CU_CTRL (docs/hardware.md §1 enumeration, §1.1 endpoint rows) ---- */

static bool busy(const struct km_cu *cu)
{
    return cu->executing || cu->fifo_count || cu->out_sigs;
}

/* CU_COUNTERS[31:0] counts the cycles with busy() set (docs/hardware.md §1.1): called after every
 * change of what busy() reads, it opens or closes the interval being counted. */
static void busy_note(struct km_cu *cu)
{
    bool b = busy(cu);
    if (b == cu->busy_on)
        return;
    if (b)
        cu->busy_t0 = cu->m->now;
    else
        cu->busy_ns += cu->m->now - cu->busy_t0;
    cu->busy_on = b;
}

static uint64_t ctrl_value(struct km_cu *cu, unsigned index)
{
    uint64_t busy_ns = cu->busy_ns + (cu->busy_on ? cu->m->now - cu->busy_t0 : 0);
    switch (index) {
    case KF_CTRL_CU_CAPS:
        return KBF_FIELD_PREP(KF_CAPS_TYPE, cu->cls->type) |
               KBF_FIELD_PREP(KF_CAPS_VERSION, cu->cls->version) |
               KBF_FIELD_PREP(KF_CAPS_BUFFERS, cu->cls->buffers) |
               KBF_FIELD_PREP(KF_CAPS_INST_DEPTH, cu->cls->inst_depth);
    case KF_CTRL_CU_STATUS:
        return (busy(cu) ? KF_STATUS_BUSY : 0) |
               KBF_FIELD_PREP(KF_STATUS_FREE, cu->cls->inst_depth - cu->fifo_count);
    case KF_CTRL_CU_COUNTERS:
        return KBF_FIELD_PREP(KF_COUNTERS_RETIRED, cu->retired) |
               KBF_FIELD_PREP(KF_COUNTERS_BUSY, (uint32_t)(busy_ns / km_cu_cycle_ns(cu)));
    case KF_CTRL_CU_DBG:
        return cu->cls->dbg ? cu->cls->dbg(cu, cu->state) : 0;
    default:
        return 0;
    }
}

/* op is ignored (a write is answered as a read), the value is sampled now, and the reply
 * queues behind every completion already queued. A request while a reply is pending is
 * accepted and dropped (the upstream revision that drops it rather than stalling). */
static void ctrl_late_ev(struct km_cu *cu, void *state, uint64_t arg)
{
    (void)state;
    if ((uint32_t)arg != cu->gen)
        return;     /* the unit was reset meanwhile: the reply went with it */
    out_push(cu, &cu->ctrl_late, true);
}

static void ctrl_request(struct km_cu *cu, const struct kf_flit *req)
{
    if (cu->ctrl_pending)
        return;
    cu->ctrl_reqs++;
    if (inj_hit(cu->inj.mute, cu->inj.mute_n, cu->inj.mute_base, cu->ctrl_reqs))
        return;     /* injected: this request is never answered */
    unsigned index = (unsigned)KBF_FIELD_GET(KF_W3_CTRL_INDEX, req->w[3]);
    struct kf_flit r = { { 0, 0, 0, 0, 0 } };
    r.w[3] = KBF_FIELD_PREP(KF_W3_CTRL_OP, KF_CTRL_OP_REPLY) |
             KBF_FIELD_PREP(KF_W3_CTRL_INDEX, index);
    kf_ctrl_value_put(&r, ctrl_value(cu, index));
    r.w[KF_HDR_WORD] = kf_hdr(hget(KF_HDR_SRC_X, req), hget(KF_HDR_SRC_Y, req), cu->x, cu->y,
                              KF_T_CU_CTRL, hget(KF_HDR_TXN, req), 1);
    cu->ctrl_pending = true;
    if (cu->inj.late) {
        /* Injected: the reply (sampled now) is queued late unit cycles later; meanwhile a
         * further request is dropped, as while any reply is pending. */
        cu->ctrl_late = r;
        km_cu_after(cu, (uint64_t)cu->inj.late * km_cu_cycle_ns(cu), ctrl_late_ev, cu->gen);
        return;
    }
    out_push(cu, &r, true);
}

/* ---- instruction issue and retirement ---- */

static void fifo_push(struct km_cu *cu, const struct kf_flit *f)
{
    cu->fifo[(cu->fifo_head + cu->fifo_count) % cu->cls->inst_depth] = *f;
    cu->fifo_count++;
    busy_note(cu);
}

static void accept(struct km_cu *cu, const struct kf_flit *f);

/* A FIFO slot freed: let stalled flits in, in arrival order, until the FIFO is full again
 * (while it is full the endpoint takes no flit of any type: docs/hardware.md §1.1). */
static void drain_backlog(struct km_cu *cu)
{
    struct km_flitq *q = &cu->backlog;
    while (q->count && cu->fifo_count < cu->cls->inst_depth) {
        struct kf_flit c = km_flitq_pop(q);
        cu->ep.held = q->count;
        accept(cu, &c);
    }
}

static void inj_fault_done(struct km_cu *cu, void *state, uint64_t arg)
{
    (void)state;
    km_cu_done(cu, (uint32_t)arg, true);
}

static void try_issue(struct km_cu *cu)
{
    if (cu->executing || !cu->fifo_count || cu->out_sigs >= CU_CPL_DEPTH)
        return;
    cu->cur = cu->fifo[cu->fifo_head];
    cu->fifo_head = (cu->fifo_head + 1) % cu->cls->inst_depth;
    cu->fifo_count--;
    cu->executing = true;
    cu->exec_start = cu->m->now;
    cu->issued++;
    drain_backlog(cu);
    if (inj_hit(cu->inj.hang, cu->inj.hang_n, cu->inj.hang_base, cu->issued))
        return;     /* injected: never retires */
    if (inj_hit(cu->inj.fault, cu->inj.fault_n, cu->inj.fault_base, cu->issued)) {
        km_cu_after(cu, km_cu_cycle_ns(cu), inj_fault_done, cu->inj.fault_code);
        return;
    }
    struct kf_flit inst = cu->cur;
    cu->cls->exec(cu, cu->state, &inst);
}

static void issue_ev(struct km_model *m, void *ctx, uint64_t arg)
{
    (void)m;
    struct km_cu *cu = ctx;
    if ((uint32_t)arg != cu->gen)
        return;
    cu->issue_pending = false;
    try_issue(cu);
}

void km_cu_done(struct km_cu *cu, uint32_t exec_result, bool fault)
{
    if (!cu->executing)
        return;     /* a unit bug: nothing to retire */
    cu->executing = false;
    cu->retired++;

    /* Completion flit (docs/hardware.md §1.1): dst = the instruction's src, src = the unit, type 6,
     * txn = the instruction's, last 1, payload [215:0] zero. A faulting last instruction
     * reports FAULT; BATCH_COMPLETE discards exec_result for {24'd0, txn}. */
    unsigned txn = hget(KF_HDR_TXN, &cu->cur);
    unsigned code;
    uint32_t arg;
    if (fault) {
        code = KF_SIG_FAULT;
        arg = exec_result;
    } else if (hget(KF_HDR_LAST, &cu->cur)) {
        code = KF_SIG_BATCH_COMPLETE;
        arg = txn;
    } else {
        code = KF_SIG_INST_COMPLETE;
        arg = exec_result;
    }
    struct kf_flit s = { { 0, 0, 0, 0, 0 } };
    s.w[3] = KBF_FIELD_PREP(KF_W3_SIG_CODE, code) | KBF_FIELD_PREP(KF_W3_SIG_ARG, arg);
    s.w[KF_HDR_WORD] = kf_hdr(hget(KF_HDR_SRC_X, &cu->cur), hget(KF_HDR_SRC_Y, &cu->cur),
                              cu->x, cu->y, KF_T_CU_SIGNAL, txn, 1);
    cu->completions++;
    if (!inj_hit(cu->inj.drop, cu->inj.drop_n, cu->inj.drop_base, cu->completions))
        out_push(cu, &s, false);    /* else injected: the completion is lost */
    busy_note(cu);

    /* The next instruction issues on the next unit cycle, so a unit that retires inside
     * exec() still takes one cycle per instruction and never recurses. */
    if (!cu->issue_pending) {
        cu->issue_pending = true;
        km_at(cu->m, cu->m->now + km_cu_cycle_ns(cu), issue_ev, cu, cu->gen);
    }
}

/* ---- the endpoint ---- */

static void accept(struct km_cu *cu, const struct kf_flit *f)
{
    switch (hget(KF_HDR_TYPE, f)) {
    case KF_T_CU_INST:
        if (cu->fifo_count >= cu->cls->inst_depth) {
            /* A dispatcher that ignored credit: count it, then hold this flit and everything
             * behind it until a slot frees (docs/model-mesh.md §4). */
            KM_REF_INC(cu->m, credit_violations);
            km_flitq_push(&cu->backlog, f);
            cu->ep.held = cu->backlog.count;
            return;
        }
        fifo_push(cu, f);
        try_issue(cu);
        return;
    case KF_T_CU_CTRL:
        ctrl_request(cu, f);
        return;
    case KF_T_MEM_RD_RESP:
    case KF_T_MEM_WR_ACK:
    case KF_T_CU_DATA:
        if (cu->cls->receive)
            cu->cls->receive(cu, cu->state, f);
        return;
    default:
        return;     /* nothing in noc_cu_base consumes any other type */
    }
}

static void cu_deliver(struct km_model *m, struct km_endpoint *ep, const struct kf_flit *f)
{
    (void)m;
    struct km_cu *cu = ep->owner;
    if (cu->backlog.count || cu->fifo_count >= cu->cls->inst_depth) {
        /* While the instruction FIFO is full the endpoint takes no flit of any type (docs/hardware.md
         * §1.1: a CU_CTRL request, a memory response wait in the mesh until an instruction
         * issues), and a stalled input keeps its order. An instruction joining the stall is
         * itself beyond the FIFO's depth. */
        if (hget(KF_HDR_TYPE, f) == KF_T_CU_INST)
            KM_REF_INC(cu->m, credit_violations);
        km_flitq_push(&cu->backlog, f);
        cu->ep.held = cu->backlog.count;    /* the link backs up: km_mesh_can_send */
        return;
    }
    accept(cu, f);
}

struct km_cu *km_cu_new(struct km_model *m, const struct km_unit_class *cls, unsigned x, unsigned y)
{
    struct km_cu *cu = calloc(1, sizeof *cu);
    if (!cu)
        return NULL;
    cu->m = m;
    cu->cls = cls;
    cu->x = x;
    cu->y = y;
    cu->ep.x = x;
    cu->ep.y = y;
    cu->ep.deliver = cu_deliver;
    cu->ep.owner = cu;
    cu->fifo = calloc(cls->inst_depth ? cls->inst_depth : 1, sizeof *cu->fifo);
    cu->state = cls->state_size ? calloc(1, cls->state_size) : NULL;
    if (!cu->fifo || (cls->state_size && !cu->state)) {
        free(cu->fifo);
        free(cu->state);
        free(cu);
        return NULL;
    }
    if (cls->init)
        cls->init(cu, cu->state);
    return cu;
}

void km_cu_free(struct km_cu *cu)
{
    if (!cu)
        return;
    if (cu->cls->fini)
        cu->cls->fini(cu, cu->state);
    while (cu->timers) {
        struct cu_timer *t = cu->timers;
        cu->timers = t->next;
        free(t);
    }
    km_flitq_free(&cu->backlog);
    free(cu->fifo);
    free(cu->state);
    free(cu);
}

/* Power-on state: queues empty, counters zero, the unit's own state rebuilt. Pending timers
 * stay allocated until they fire (or the unit is freed) but do nothing. */
void km_cu_reset(struct km_cu *cu)
{
    cu->gen++;
    cu->fifo_head = cu->fifo_count = 0;
    km_flitq_clear(&cu->backlog);
    cu->ep.held = 0;
    cu->executing = false;
    cu->issue_pending = false;
    cu->out_head = cu->out_count = cu->out_sigs = 0;
    cu->tx_pending = false;
    cu->ctrl_pending = false;
    cu->retired = 0;
    cu->busy_ns = 0;
    cu->busy_on = false;
    cu->issued = cu->completions = cu->ctrl_reqs = 0;
    cu->inj.fault_base = cu->inj.hang_base = cu->inj.drop_base = cu->inj.mute_base = 0;
    if (cu->cls->fini)
        cu->cls->fini(cu, cu->state);
    if (cu->state)
        memset(cu->state, 0, cu->cls->state_size);
    if (cu->cls->init)
        cu->cls->init(cu, cu->state);
}

/* ---- fault injection ---- */

void km_cu_inject(struct km_cu *cu, enum km_cu_inject_kind kind, uint32_t n, uint32_t arg)
{
    switch (kind) {
    case KM_CU_INJ_FAULT:
        cu->inj.fault = true;
        cu->inj.fault_n = n;
        cu->inj.fault_code = arg;
        cu->inj.fault_base = cu->issued;
        return;
    case KM_CU_INJ_HANG:
        cu->inj.hang = true;
        cu->inj.hang_n = n;
        cu->inj.hang_base = cu->issued;
        return;
    case KM_CU_INJ_DROP:
        cu->inj.drop = true;
        cu->inj.drop_n = n;
        cu->inj.drop_base = cu->completions;
        return;
    case KM_CU_INJ_SLOW:
        cu->inj.slow = arg;
        return;
    case KM_CU_INJ_CTRL_LATE:
        cu->inj.late = arg;
        return;
    case KM_CU_INJ_CTRL_MUTE:
        cu->inj.mute = true;
        cu->inj.mute_n = n;
        cu->inj.mute_base = cu->ctrl_reqs;
        return;
    }
}

void km_cu_inject_clear(struct km_cu *cu)
{
    /* An instruction already held by a hang stays held: clearing arms nothing new, it does
     * not retire what the unit has swallowed (a reset does). */
    memset(&cu->inj, 0, sizeof cu->inj);
}
