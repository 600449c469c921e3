/* dispatch.c — program dispatch through PROG_* (BOARD.md §1 "Dispatch", "Credit",
 * "Completions", §1.1 rows marked firmware): staging, kicks topped up within each target's
 * inst_depth, completion by NODE_STATUS counts, faults, timeouts, quiescing. docs/dispatch.md
 * explains the strategy. Variant-free: every access goes through hal/. */
#include "dispatch.h"
#include "hal/hal.h"

/* The staging copy moves native words: 32-bit stores on RV32 (the agent window's halves),
 * 64-bit on RV64, so one loop serves both variants without an #ifdef. */
#define KDP_W           (sizeof(uintptr_t))
#define KDP_PAY_WORDS   (KDP_PAYLOAD_BYTES / KDP_W)
#define KDP_SLOT_WORDS  (KF_BYTES / KDP_W)

enum kdp_state { KDP_J_RUN = 1, KDP_J_STOP, KDP_J_DONE };

static void kdp_fail(struct kdp_ctx *c, uint32_t status, uint32_t detail, uint64_t value)
{
    if (c->status == KS_OK) {       /* the first error wins (STYLE.md "Errors") */
        c->status = status;
        c->detail = detail;
        c->value = value;
    }
}

/* Has a wait that last saw progress at t0 run out? One copy of the 64-bit compare. */
static __attribute__((noinline)) bool kdp_expired(const struct kdp_ctx *c, uint64_t t0)
{
    return hal_cycles() - t0 > c->wait_cycles;
}

void kdp_init(struct kdp_ctx *c, uint8_t agent_yx, uint64_t wait_cycles, uint32_t stage_flits)
{
    uint8_t *p = (uint8_t *)c;
    for (unsigned i = 0; i < sizeof *c; i++)
        p[i] = 0;
    c->agent_yx = agent_yx;
    c->wait_cycles = wait_cycles;
    c->stage_flits = stage_flits;
    c->running = KDP_REGIONS;
}

unsigned kdp_units_set(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n)
{
    unsigned st = kdp_units_check(u, n, c->agent_yx);
    if (st != KS_OK)
        return st;
    for (unsigned i = 0; i < n; i++) {
        /* field by field: a struct copy would pull memcpy into a small image */
        c->units[i].yx = u[i].yx;
        c->units[i].version = u[i].version;
        c->units[i].buffers = u[i].buffers;
        c->units[i].rsvd = 0;
        c->units[i].type = u[i].type;
        c->units[i].inst_depth = u[i].inst_depth;
        c->owed[i] = 0;
    }
    c->n_units = (uint8_t)n;
    return KS_OK;
}

const struct kx_unit_entry *kdp_unit(const struct kdp_ctx *c, uint8_t yx)
{
    for (unsigned i = 0; i < c->n_units; i++)
        if (c->units[i].yx == yx)
            return &c->units[i];
    return 0;
}

/* One flit into a staging slot: the payload words, then the header word. */
static inline __attribute__((always_inline)) void kdp_put(volatile uintptr_t *d,
                                                          const uintptr_t *s, uintptr_t hdr)
{
#pragma GCC unroll 8
    for (unsigned i = 0; i < KDP_PAY_WORDS; i++)
        d[i] = s[i];
    d[KDP_PAY_WORDS] = hdr;
}

/* Stages instructions [start, start+len) of p from slot `slot` on: the hot loop of the
 * layer (issue 8 budget: RV64 <= 12, RV32 <= 24 instructions per flit, kicks included).
 * Two flits per iteration: RV64 8 loads + 10 stores + 3 = 10.5 instructions a flit, RV32
 * 16 loads + 18 stores + 3 = 18.5 (docs/dispatch.md). The header word's high half ([63:32],
 * unused, BOARD.md §2) is not written on RV32. noinline: one symbol for the bench to find. */
static __attribute__((noinline)) void kdp_stage(uint32_t slot, const struct kdp_prog *p,
                                                uint32_t start, uint32_t len)
{
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_STAGE_SLOT(slot));
    const uintptr_t *s = (const uintptr_t *)p->payload + start * KDP_PAY_WORDS;
    const uintptr_t hdr = kdp_inst_hdr(p->txn, false);
    const bool has_last = start + len == p->n;
    uint32_t plain = has_last ? len - 1 : len;
    const uintptr_t *end2 = s + (plain & ~1u) * KDP_PAY_WORDS;

    if (s != end2) {
        do {
            kdp_put(d, s, hdr);
            kdp_put(d + KDP_SLOT_WORDS, s + KDP_PAY_WORDS, hdr);
            s += 2 * KDP_PAY_WORDS;
            d += 2 * KDP_SLOT_WORDS;
        } while (s != end2);
    }
    if (plain & 1u) {
        kdp_put(d, s, hdr);
        s += KDP_PAY_WORDS;
        d += KDP_SLOT_WORDS;
    }
    if (has_last)           /* the final instruction alone carries `last` (seed §3) */
        kdp_put(d, s, hdr | (uintptr_t)KF_HDR_LAST);
}

static bool kdp_running(void)
{
    return (hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN) != 0;
}

/* Waits for PROG_STAT.run to fall. run alone decides "sent" (BOARD.md §1.1: a finished
 * program reads "flits left" 1). */
static unsigned kdp_wait_idle(struct kdp_ctx *c, uint8_t yx)
{
    uint64_t t0 = hal_cycles();
    while (kdp_running()) {
        if (kdp_expired(c, t0)) {
            kdp_fail(c, KS_TIMEOUT, KDP_DETAIL(KDP_AWAIT_RUN, yx), hal_agent_rd(KA_PROG_STAT));
            return KS_TIMEOUT;
        }
    }
    return KS_OK;
}

/* Reads the target's NODE_STATUS and accounts the signals that arrived since the last read.
 * Returns true when something arrived. Signals first pay off instructions a failed earlier
 * run left in the unit (skip): a unit retires in order, so those come first. */
static bool kdp_poll(struct kdp_ctx *c, struct kdp_job *j, uint16_t *skip)
{
    uint32_t off = KA_NODE_STATUS(j->yx);
    if ((uint16_t)KH_FIELD_GET(KA_NS_COUNT, hal_agent_rd32(off)) == j->last_count)
        return false;
    /* Code and arg straddle RV32's halves: re-read until the count half is unchanged. */
    uint64_t w;
    unsigned tries = 4;
    do
        w = hal_agent_rd(off);
    while ((uint32_t)w != hal_agent_rd32(off) && --tries);
    struct kdp_ns ns;
    kdp_ns_unpack(w, &ns);
    uint16_t got = kdp_count_since(ns.count, j->last_count);
    j->last_count = ns.count;
    if (*skip) {
        uint16_t k = got < *skip ? got : *skip;
        *skip = (uint16_t)(*skip - k);
        got = (uint16_t)(got - k);
        if (!got)
            return true;
    }
    j->rep.completions += got;
    j->rep.last_code = ns.code;
    j->rep.last_arg = ns.arg;
    /* A FAULT ends the program (a faulting last instruction reports FAULT, never
     * BATCH_COMPLETE: BOARD.md §1.1). What is already in flight still retires. */
    if (ns.code == KF_SIG_FAULT && j->rep.status == KS_OK) {
        j->rep.status = KS_UNIT_FAULT;
        j->state = KDP_J_STOP;
        kdp_fail(c, KS_UNIT_FAULT, j->yx, ns.arg);
    }
    if (j->rep.completions >= j->rep.dispatched &&
        (j->cursor == j->prog->n || j->state == KDP_J_STOP)) {
        j->rep.cycles = hal_cycles() - j->t0;
        j->state = KDP_J_DONE;
    }
    return true;
}

static uint32_t kdp_room(const struct kdp_job *j, uint16_t skip)
{
    uint32_t out = j->rep.dispatched - j->rep.completions + skip;
    if (j->rep.completions > j->rep.dispatched)     /* a unit-defined signal, say */
        out = skip;
    return out >= j->depth ? 0 : j->depth - out;
}

/* The region holding instruction `cursor` of p, or KDP_REGIONS. */
static unsigned kdp_find(const struct kdp_ctx *c, const struct kdp_prog *p, uint32_t cursor)
{
    for (unsigned r = 0; r < KDP_REGIONS; r++) {
        const struct kdp_region *g = &c->reg[r];
        if (g->prog && g->prog->payload == p->payload && g->prog->txn == p->txn &&
            g->prog->n == p->n && cursor >= g->start && cursor < g->start + g->len)
            return r;
    }
    return KDP_REGIONS;
}

/* Stages the chunk of p from cursor into the least recently used region that the running
 * kick is not reading: that is the double buffering of PROG_BASE. */
static unsigned kdp_stage_chunk(struct kdp_ctx *c, const struct kdp_prog *p, uint32_t cursor)
{
    unsigned best = KDP_REGIONS;
    for (unsigned r = 0; r < KDP_REGIONS; r++)
        if (r != c->running && (best == KDP_REGIONS || c->reg[r].stamp < c->reg[best].stamp))
            best = r;
    uint32_t rs = c->stage_flits / KDP_REGIONS;
    uint32_t len = kdp_plan_chunk(p->n, cursor, best * rs, rs, c->stage_flits);
    kdp_stage(best * rs, p, cursor, len);
    c->staged_flits += len;
    struct kdp_region *g = &c->reg[best];
    g->prog = p;
    g->start = cursor;
    g->len = len;
    return best;
}

static unsigned kdp_check_jobs(struct kdp_ctx *c, const struct kdp_job *jobs, unsigned n)
{
    if (n == 0 || n > KDP_MAX_JOBS)
        return KS_DISPATCH_BAD_PROG;
    for (unsigned i = 0; i < n; i++) {
        const struct kdp_prog *p = jobs[i].prog;
        if (!p || p->n == 0)
            return KS_DISPATCH_EMPTY;
        if (((uintptr_t)p->payload & 7u) != 0)
            return KS_DISPATCH_BAD_PROG;
        const struct kx_unit_entry *u = kdp_unit(c, jobs[i].yx);
        if (!u || c->stage_flits < KDP_REGIONS) {
            c->detail = jobs[i].yx;
            return KS_DISPATCH_BAD_TARGET;
        }
    }
    return KS_OK;
}

unsigned kdp_run(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n)
{
    uint16_t skip[KDP_MAX_JOBS];

    c->status = KS_OK;
    c->detail = 0;
    c->value = 0;
    unsigned st = kdp_check_jobs(c, jobs, n);
    if (st != KS_OK) {
        c->status = st;
        return st;
    }
    if (kdp_wait_idle(c, 0) != KS_OK)
        return c->status;
    for (unsigned r = 0; r < KDP_REGIONS; r++)   /* a region is trusted within one run only */
        c->reg[r].prog = 0;
    c->running = KDP_REGIONS;

    for (unsigned i = 0; i < n; i++) {
        struct kdp_job *j = &jobs[i];
        unsigned ui = (unsigned)(kdp_unit(c, j->yx) - c->units);
        j->rep.dispatched = j->rep.completions = j->rep.last_arg = j->rep.status = 0;
        j->rep.last_code = 0;
        j->rep.cycles = 0;
        j->cursor = 0;
        j->depth = c->units[ui].inst_depth;
        j->state = KDP_J_RUN;
        j->last_count = (uint16_t)KH_FIELD_GET(KA_NS_COUNT, hal_agent_rd32(KA_NODE_STATUS(j->yx)));
        /* Instructions an earlier failed run left in this unit that have not retired yet. */
        uint16_t paid = kdp_count_since(j->last_count, c->owed_count[ui]);
        skip[i] = paid >= c->owed[ui] ? 0 : (uint16_t)(c->owed[ui] - paid);
    }

    /* One loop: poll every target; kick the first (round robin) with room for its next
     * top-up, staging its region first if needed (while the previous kick runs); after a
     * fault, kick nothing more and let what was pushed retire. Every wait is bounded from the
     * last progress (a signal or a kick), so a long program never times out while it moves. */
    unsigned rr = 0;
    uint64_t t_progress = hal_cycles();
    for (;;) {
        bool moved = false;
        struct kdp_job *pick = 0, *need = 0, *pend = 0;
        unsigned pi = 0;
        for (unsigned k = 0, i = rr; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            struct kdp_job *j = &jobs[i];
            moved |= kdp_poll(c, j, &skip[i]);
            if (j->rep.completions < j->rep.dispatched && !pend)
                pend = j;
            if (j->state != KDP_J_RUN || j->cursor == j->prog->n)
                continue;
            if (!need)
                need = j;
            /* Top up once half the FIFO (or the rest of the program) fits: fewer, longer
             * kicks, and the unit still holds work while the next region is staged. */
            uint32_t want = j->prog->n - j->cursor, half = (j->depth + 1u) / 2u;
            if (want > half)
                want = half;
            if (!pick && kdp_room(j, skip[i]) >= want) {
                pick = j;
                pi = i;
            }
        }
        if (moved)
            t_progress = hal_cycles();
        if (c->status != KS_OK)
            need = pick = 0;
        if (!pick) {
            if (!need && !pend)
                break;
            if (kdp_expired(c, t_progress)) {
                struct kdp_job *j = need ? need : pend;
                kdp_fail(c, KS_TIMEOUT, KDP_DETAIL(need ? KDP_AWAIT_CREDIT : KDP_AWAIT_COMPLETION, j->yx),
                         ((uint64_t)j->rep.completions << 32) | j->rep.dispatched);
                break;
            }
            continue;
        }

        struct kdp_job *j = pick;
        const struct kdp_prog *p = j->prog;
        unsigned r = kdp_find(c, p, j->cursor);
        if (r == KDP_REGIONS)
            r = kdp_stage_chunk(c, p, j->cursor);   /* overlaps the running kick */
        if (kdp_wait_idle(c, j->yx) != KS_OK)
            break;
        struct kdp_region *g = &c->reg[r];
        struct kdp_kick kk;
        uint32_t off = j->cursor - g->start;
        kdp_plan_kick(g->len - off, kdp_room(j, skip[pi]), &kk);   /* room >= want >= 1 */
        uint32_t rs = c->stage_flits / KDP_REGIONS;
        /* PROG_* only while run is 0 (PROG_DST is read live at every flit), credit seeded
         * before every kick and never 0 (BOARD.md §1.1). */
        hal_agent_wr32(KA_PROG_DST, j->yx);
        hal_agent_wr32(KA_PROG_BASE, r * rs + off);
        hal_agent_wr32(KA_PROG_LEN, kk.len);
        hal_agent_wr32(KA_PROG_CRED, kk.credit);
        hal_fence();
        hal_agent_wr32(KA_PROG_KICK, 1);
        t_progress = hal_cycles();
        if (j->rep.dispatched == 0)
            j->t0 = t_progress;
        c->running = (uint8_t)r;
        g->stamp = ++c->clock;
        j->cursor += kk.len;
        j->rep.dispatched += kk.len;
        rr = pi + 1 == n ? 0 : pi + 1;
    }
    kdp_wait_idle(c, 0);
    c->running = KDP_REGIONS;

    /* Remember what each unit still owes, so the next run neither overfills it nor takes
     * its late signals for its own. */
    for (unsigned i = 0; i < n; i++) {
        struct kdp_job *j = &jobs[i];
        unsigned ui = (unsigned)(kdp_unit(c, j->yx) - c->units);
        uint32_t owe = skip[i];
        if (j->rep.dispatched > j->rep.completions)
            owe += j->rep.dispatched - j->rep.completions;
        c->owed[ui] = (uint16_t)owe;
        c->owed_count[ui] = j->last_count;
        if (j->state != KDP_J_DONE && j->rep.status == KS_OK)
            j->rep.status = c->status == KS_OK ? KS_TIMEOUT : c->status;
    }
    kdp_quiesce(c);
    return c->status;
}

unsigned kdp_dispatch(struct kdp_ctx *c, struct kdp_job *j)
{
    return kdp_run(c, j, 1);
}

unsigned kdp_quiesce(struct kdp_ctx *c)
{
    if (kdp_wait_idle(c, 0) != KS_OK)
        return KS_TIMEOUT;
    /* RX holds only what no one asked for now (late CU_CTRL replies): drop it, bounded. */
    uint64_t t0 = hal_cycles();
    while (!(hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)) {
        hal_agent_wr32(KA_RX_POP, 1);
        if (kdp_expired(c, t0)) {
            kdp_fail(c, KS_TIMEOUT, KDP_DETAIL(KDP_AWAIT_MAILBOX_RX, 0), hal_agent_rd(KA_RX_STATUS));
            return KS_TIMEOUT;
        }
    }
    return KS_OK;
}
