/* dispatch.c — program dispatch through PROG_* (docs/hardware.md §1 "Dispatch", "Credit",
 * "Completions", §1.1 rows marked firmware): staging, kicks within each target's inst_depth,
 * completion by NODE_STATUS counts modulo 2^16, faults, timeouts, quiescing. docs/dispatch.md
 * explains the strategy. Variant-free: every access goes through hal/. Time is kept in 32 bits
 * (wait_cycles is 32-bit; differences are exact modulo 2^32), which keeps RV32 code small. */
#include "kdp_internal.h"
#include <stddef.h>
#include "hal/hal.h"

/* The board decides how one target is streamed (board/common/rv32.h, rv64.h); the host model
 * test builds both (dispatch/dispatch.mk). */
#if !defined(BOARD_DISPATCH_STREAM_LOOP)
#error "the board header defines BOARD_DISPATCH_STREAM_LOOP (0 or 1)"
#endif

/* The staging copy moves native words: 32-bit stores on RV32 (the agent window's halves),
 * 64-bit on RV64, so one loop serves both variants without an #ifdef. */
#define KDP_W           (sizeof(uintptr_t))
#define KDP_PAY_WORDS   (KDP_PAYLOAD_BYTES / KDP_W)
#define KDP_SLOT_WORDS  (KF_BYTES / KDP_W)
/* Flits per staging iteration: 16 on RV64, 2 on RV32 (its flit is twice the instructions, and
 * its 8 KB window the tighter budget: 4 costs 136 more bytes for 0.75 instruction a flit less,
 * docs/dispatch.md "Size"). A constant of the word size, not an #ifdef. */
#define KDP_UNROLL      (KDP_W == 8 ? 16u : 2u)

/* RV64 reads the counter inline (its 64-bit count needs no extending); RV32 calls hal_cycles,
 * which keeps its 32-bit count extended (hal.h: at least once every 2^32 cycles; the loops
 * here call it at every turn). A constant of the word size, not an #ifdef. */
static uint32_t kdp_now(void)
{
    return KDP_W == 8 ? hal_cycles32() : (uint32_t)hal_cycles();
}

/* A PROG_* register write. Every value written is below 2^31 (slots, lengths, credit, a
 * coordinate), so on RV64 the sign-extended form its registers hold a 32-bit value in is its
 * zero-extension already: written as it is, no extension instructions at every kick
 * (hal_agent_wr32 clears [63:32] itself). RV32: the one 32-bit store. */
static inline void kdp_prog_wr(uint32_t off, uint32_t v)
{
    if (KDP_W == 8)
        hal_agent_wr(off, (uint64_t)(int64_t)(int32_t)v);
    else
        hal_agent_wr32(off, v);
}

/* Has a wait that last saw progress at t run out? */
static bool kdp_expired(const struct kdp_ctx *c, uint32_t t)
{
    return kdp_now() - t > c->wait_cycles;
}

void kdp_init(struct kdp_ctx *c, uint8_t agent_yx, uint32_t wait_cycles, uint32_t stage_flits)
{
    /* Native words, not bytes (the context is about 500 bytes: boot_insns counts this).
     * may_alias: the words are the context's own storage. */
    typedef uintptr_t __attribute__((may_alias)) kdp_word;
    _Static_assert(sizeof(struct kdp_ctx) % sizeof(kdp_word) == 0, "context in whole words");
    kdp_word *p = (kdp_word *)c;
    for (unsigned i = 0; i < sizeof *c / sizeof *p; i++)
        p[i] = 0;
    c->agent_yx = agent_yx;
    c->wait_cycles = wait_cycles;
    c->stage_flits = stage_flits;
    /* c->running is set by each kdp_run before it is read */
}

unsigned kdp_units_set(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n)
{
    unsigned st = kdp_units_check(u, n, c->agent_yx);
    if (st == KS_OK)
        kdp_units_load(c, u, n);
    return st;
}

void kdp_units_load(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n)
{
    /* In halfwords (an entry's alignment; a struct copy would pull memcpy into a small image),
     * rsvd, the high byte of the second (little-endian), cleared. may_alias: the entries' own
     * storage. Four stores an entry instead of six. */
    typedef uint16_t __attribute__((may_alias)) kdp_half;
    _Static_assert(offsetof(struct kx_unit_entry, rsvd) == 3 && sizeof *u == 8, "entry layout");
    const kdp_half *s = (const kdp_half *)u;
    kdp_half *d = (kdp_half *)c->units;
    for (const kdp_half *e = s + 4u * n; s != e; s += 4, d += 4) {
        d[0] = s[0];
        d[1] = (uint16_t)(s[1] & 0xFFu);
        d[2] = s[2];
        d[3] = s[3];
    }
    c->n_units = (uint8_t)n;
    c->owing = 0;           /* indices change meaning: nothing owed */
}

/* Table index of the unit at yx, or n_units. */
static unsigned kdp_index(const struct kdp_ctx *c, uint8_t yx)
{
    unsigned i = 0;
    while (i < c->n_units && c->units[i].yx != yx)
        i++;
    return i;
}

const struct kx_unit_entry *kdp_unit(const struct kdp_ctx *c, uint8_t yx)
{
    unsigned i = kdp_index(c, yx);
    return i < c->n_units ? &c->units[i] : 0;
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
 * layer (bench budget: RV64 <= 12, RV32 <= 24 instructions per flit, kicks included).
 * KDP_UNROLL flits per iteration: RV64 64 loads + 80 stores + 3 = 9.2 instructions a flit,
 * RV32 16 loads + 18 stores + 3 = 18.5 (docs/dispatch.md). The header word's high half ([63:32],
 * unused, docs/hardware.md §2) is not written on RV32. noinline: one symbol for the bench to find. */
static __attribute__((noinline)) void kdp_stage(uint32_t slot, const struct kdp_prog *p,
                                                uint32_t start, uint32_t len)
{
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_STAGE_SLOT(slot));
    volatile uintptr_t *const end = d + len * KDP_SLOT_WORDS;
    const uintptr_t *s = (const uintptr_t *)p->payload + start * KDP_PAY_WORDS;
    uintptr_t hdr = kdp_inst_hdr(p->txn, false);
    /* RV32: made once, in a register: GCC made the last flit's header again from the txn (two
     * instructions more than the one `or` below, -8 bytes). RV64's stream is left as it is. */
    if (KDP_UNROLL == 2)
        __asm__("" : "+r"(hdr));

    if (KDP_UNROLL == 2) {
        /* RV32, two flits a turn: an odd count enters the loop at its second flit, with the
         * pointers past the first, instead of a third copy of a flit's stores for the odd one
         * out before the loop (-68 bytes of the RV32 window; the loop takes one jump more a
         * turn, half an instruction a flit). The pointers are bumped first and the flits
         * written below them, so neither ever points outside the chunk. len is at least 1
         * (kdp_fill: a chunk of what is left). */
        volatile uintptr_t *e = end;
        __asm__("" : "+r"(e));          /* computed once, here: GCC sank it into the loop */
        if (len & 1u) {
            s += KDP_PAY_WORDS;
            d += KDP_SLOT_WORDS;
            goto odd;
        }
        do {
            s += 2u * KDP_PAY_WORDS;
            d += 2u * KDP_SLOT_WORDS;
            kdp_put(d - 2u * KDP_SLOT_WORDS, s - 2u * KDP_PAY_WORDS, hdr);
        odd:
            kdp_put(d - KDP_SLOT_WORDS, s - KDP_PAY_WORDS, hdr);
        } while (d != e);
    } else {
        /* The flits the unrolled loop does not take (fewer than KDP_UNROLL) first, so that
         * the loop ends at the chunk's end (no second copy of the loop after it). The loop
         * counts slots: the last one's address is then known without recomputing. */
        for (uint32_t k = len % KDP_UNROLL; k; k--, s += KDP_PAY_WORDS, d += KDP_SLOT_WORDS)
            kdp_put(d, s, hdr);
        if (len >= KDP_UNROLL) {
            do {                /* the test at the bottom: one branch per KDP_UNROLL flits */
#pragma GCC unroll 16
                for (unsigned f = 0; f < KDP_UNROLL; f++)
                    kdp_put(d + f * KDP_SLOT_WORDS, s + f * KDP_PAY_WORDS, hdr);
                s += KDP_UNROLL * KDP_PAY_WORDS;
                d += KDP_UNROLL * KDP_SLOT_WORDS;
            } while (d != end);
        }
    }
    /* seed §3: `last` on instruction n-1 only. Its header word is written again rather than
     * the loops above testing for it (one store a program, and no second copy of the loop). */
    if (start + len == p->n)
        (end - KDP_SLOT_WORDS)[KDP_PAY_WORDS] = hdr | (uintptr_t)KF_HDR_LAST;
}

static bool kdp_running(void)
{
    return (hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN) != 0;
}

/* A job's program is over: every pushed instruction retired, and nothing more to send. */
static void kdp_done(struct kdp_job *j)
{
    j->rep.t_done = hal_cycles();
    j->state = KDP_J_DONE;
}

/* Reads the target's NODE_STATUS and accounts the signals that arrived since the last read.
 * Returns true when something arrived. Signals first pay off the instructions an earlier
 * failed run left in the unit (j->skip): a unit retires in order, so those come first.
 * Called once per kick on the streaming path: kept a leaf, its common case straight. */
static inline __attribute__((always_inline)) bool kdp_poll(struct kdp_ctx *c, struct kdp_job *j)
{
    /* One load of the whole word where it is one load (RV64: at the address the job keeps);
     * the count half first where it is two (RV32: the offset recomputed, 4 bytes a job less
     * to keep). */
#if KDP_NS_AT
    uint64_t w = hal_agent_rd_at(j->ns);
#else
    uint32_t off = KA_NODE_STATUS(j->yx);
    uint64_t w = hal_agent_rd32(off);
#endif
    uint16_t now = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, w);
    if (now == j->last_count)
        return false;
#if !KDP_NS_AT
    {
        /* Code and arg straddle RV32's halves: low, high, low again; equal lows (the count is
         * in the low half) mean no signal came between, so the halves belong together. Read
         * once more while they differ: each turn takes a new signal, and a unit signals only
         * for the instructions it holds (at most its depth), so this ends. (Retrying once
         * without checking again let a third signal tear the word: the exec_result of a FAULT
         * reported with the low byte of the signal before it.) */
        while ((uint32_t)(w = hal_agent_rd(off)) != hal_agent_rd32(off))
            ;
        now = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, w);
    }
#endif
    uint32_t got = kdp_count_since(now, j->last_count);
    j->last_count = now;
    if (j->skip) {          /* here, not in recover.c: a call would keep w's halves on the stack */
        uint32_t k = got < j->skip ? got : j->skip;
        j->skip = (uint16_t)(j->skip - k);
        if (!(got -= k))
            return true;
    }
    j->rep.completions += got;
    j->rep.last_code = (uint8_t)KBF_FIELD_GET(KA_NS_CODE, w);
    j->rep.last_arg = (uint32_t)KBF_FIELD_GET(KA_NS_ARG, w);
    /* The credit check's counts: of the `got` signals only the newest was seen; it returned no
     * credit unless its code is INST_COMPLETE (docs/hardware.md §1.1), the others are due one each */
    j->polls++;
    c->cred_due += got - (j->rep.last_code != KF_SIG_INST_COMPLETE);
    if (j->rep.last_code == KF_SIG_FAULT)
        HAL_COLD(kdp_fault, c, j);  /* recover.c: the program ends, in-flight work retires */
    if (j->rep.completions >= j->rep.dispatched && (j->rep.dispatched == j->prog->n || j->state == KDP_J_STOP))
        kdp_done(j);
    return true;
}

static uint32_t kdp_out(const struct kdp_job *j)
{
    return j->rep.dispatched > j->rep.completions ? j->rep.dispatched - j->rep.completions : 0;
}

/* Free places in the target's instruction FIFO as far as the firmware can know. */
static uint32_t kdp_room(const struct kdp_job *j)
{
    uint32_t out = kdp_out(j) + j->skip;
    return out >= j->depth ? 0 : j->depth - out;
}

/* The region holding instruction `cursor` of p, or KDP_REGIONS. */
static unsigned kdp_find(const struct kdp_ctx *c, const struct kdp_prog *p, uint32_t cursor)
{
    for (unsigned r = 0; r < KDP_REGIONS; r++) {
        const struct kdp_region *g = &c->reg[r];
        /* the range first: it is what usually differs (unsigned: one compare for both ends;
         * a region emptied at the run's start has prog NULL, never p); then the program
         * itself (jobs sharing one kdp_prog), else its content */
        if (cursor - g->start < g->len &&
            (g->prog == p || (g->prog && g->prog->payload == p->payload &&
                              g->prog->txn == p->txn && g->prog->n == p->n)))
            return r;
    }
    return KDP_REGIONS;
}

/* Stages the chunk of p from cursor into region r of rs slots (from its base, r x rs: kdp_run
 * sets the bases at the run's start). */
static void kdp_fill(struct kdp_ctx *c, unsigned r, uint32_t rs, const struct kdp_prog *p,
                     uint32_t cursor)
{
    uint32_t len = kdp_plan_chunk(p->n, cursor, rs);
    struct kdp_region *g = &c->reg[r];
    g->prog = p;            /* recorded first: nothing needs keeping across the call */
    g->start = cursor;
    g->len = (uint16_t)len;
    c->staged_flits += len;
    kdp_stage(g->base, p, cursor, len);
}

/* PROG_CRED at the run's first kick only: from then on it counts every INST_COMPLETE exactly
 * (a rewrite would lose those that came between a read and the write), which the credit
 * check at the end of the run needs (docs/dispatch.md "Faults NODE_STATUS hides"). */
static void kdp_seed(struct kdp_ctx *c, uint32_t cred)
{
    if (c->cred_state == KDP_CRED_NONE) {
        kdp_prog_wr(KA_PROG_CRED, cred);
        c->cred_due += cred;
        c->cred_state = KDP_CRED_ON;
    }
}

/* Writes the PROG_* registers of one kick and starts it (only while run is 0: PROG_DST is read
 * live at every flit). Top-ups: len <= room, credit seeded KDP_TOPUP_CREDIT; the stream: len
 * = staged, credit seeded with the unit's room and carried from kick to kick (it stays at most
 * the room: each push takes one, each retirement gives at most one back). */
static void kdp_kick(struct kdp_ctx *c, struct kdp_job *j, uint32_t slot, uint32_t len,
                     uint32_t cred)
{
    kdp_prog_wr(KA_PROG_DST, j->yx);
    kdp_prog_wr(KA_PROG_BASE, slot);
    kdp_prog_wr(KA_PROG_LEN, len);
    kdp_seed(c, cred);
    hal_fence();
    kdp_prog_wr(KA_PROG_KICK, 1);
    j->rep.dispatched += len;
    c->cred_due -= len;
}

/* The single-target stream, the path `make bench` measures: region r kicked while region r^1
 * is staged (the RAM in two halves), each kick streaming a whole half on the credit of the unit's own completions
 * (kdp_plan_kick with no other unit owing credit). Returns when everything is kicked and the
 * last kick finished, or at a fault (its kick ended early) or a timeout (recorded); kdp_run
 * then waits for the completions. Per region in the steady state: a poll, five PROG_*
 * stores and one run check besides the staging. */
static void kdp_stream(struct kdp_ctx *c, struct kdp_job *j)
{
    const struct kdp_prog *p = j->prog;
    const uint32_t rs = c->stage_flits / 2u;       /* two halves: the longest kicks */
    const uint32_t want = (j->depth + 1u) / 2u;
    uint32_t len = kdp_plan_chunk(p->n, 0, rs), base = 0, t;

    kdp_stage(0, p, 0, len);
    c->staged_flits += len;
    kdp_prog_wr(KA_PROG_DST, j->yx);             /* one target: written once */
    t = kdp_now();
    for (;;) {
        uint32_t room, need = len < want ? len : want;
        if (j->rep.dispatched)      /* nothing to hear of before the first kick */
            kdp_poll(c, j);         /* completions since the staging (a FAULT among them
                                     * stops the stream): room only grows */
        while ((room = kdp_room(j)) < need) {
            if (kdp_poll(c, j))
                t = kdp_now();
            else if (kdp_expired(c, t)) {
                kdp_timeout(c, j, 0);
                return;
            }
            if (j->state != KDP_J_RUN)
                return;
        }
        /* the whole half on the unit's own returned credit, seeded with its room at the first
         * kick and carried since (kdp_kick) */
        const struct kdp_kick k = kdp_plan_kick(len, room, true);
        kdp_prog_wr(KA_PROG_BASE, base);
        kdp_prog_wr(KA_PROG_LEN, k.len);
        kdp_seed(c, k.credit);
        hal_fence();
        kdp_prog_wr(KA_PROG_KICK, 1);
        j->rep.dispatched += len;
        c->cred_due -= len;
        base = base ? 0 : rs;
        len = kdp_plan_chunk(p->n, j->rep.dispatched, rs);
        if (len) {                  /* the next half, while this one streams */
            kdp_stage(base, p, j->rep.dispatched, len);
            c->staged_flits += len;
        }
        if (kdp_running()) {        /* usually done already: the staging took longer */
            t = kdp_now();
            do {
                if (kdp_poll(c, j))
                    t = kdp_now();
                if (j->state == KDP_J_STOP || kdp_expired(c, t)) {
                    kdp_abort(c, j);    /* recover.c; records the stall's timeout */
                    return;
                }
            } while (kdp_running());
        }
        t = kdp_now();
        if (j->state != KDP_J_RUN)
            return;
        if (!len) {
            /* Everything kicked: the last completions, in this loop's own wait (a lone job
             * needs no pass over several; bench dispatch_cmd_fixed_cycles) */
            while (j->state != KDP_J_DONE) {
                if (kdp_poll(c, j))
                    t = kdp_now();
                else if (kdp_expired(c, t)) {
                    kdp_timeout(c, 0, j);       /* what kdp_run's loop would record */
                    return;
                }
            }
            return;
        }
    }
}

__attribute__((noipa)) unsigned kdp_run(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n)
{
    c->status = KS_OK;      /* detail and value are written with the first error */
    struct kdp_job *const end = jobs + n;
    /* Every job checked and set up in one pass; anything wrong and recover.c names the first
     * failing check (EMPTY, BAD_PROG, BAD_TARGET in order). A refusal leaves the agent and the
     * context's unit state as they were. */
    uint32_t seen = 0;          /* table indices: two jobs on one unit would share its room */
    /* The staging RAM too small is the first job's BAD_TARGET unless that job is refused
     * earlier (EMPTY, BAD_PROG): kdp_refuse(c, jobs) says which. A job count out of range
     * stops at no job (NULL). */
    struct kdp_job *j = n - 1u < KDP_MAX_JOBS ? jobs : 0;
    if (j && c->stage_flits >= KDP_REGIONS)
        for (; j != end; j++) {
            const struct kdp_prog *p = j->prog;
            const uint8_t yx = j->yx;   /* kept: the job's stores below made GCC load it again */
            unsigned ui;
            if (!p || p->n == 0 || ((uintptr_t)p->payload & 7u) != 0 ||
                (ui = kdp_index(c, yx)) == c->n_units || ((seen >> ui) & 1u))
                break;
            seen |= UINT32_C(1) << ui;
            /* The report and the private state from 0 in native words (as kdp_init: fewer
             * instructions than a store a field); then what does not start at 0. */
            typedef uintptr_t __attribute__((may_alias)) kdp_word;
            _Static_assert(offsetof(struct kdp_job, rep) % sizeof(kdp_word) == 0 &&
                           sizeof(struct kdp_job) % sizeof(kdp_word) == 0, "job state in words");
            for (kdp_word *w = (kdp_word *)&j->rep; w != (kdp_word *)(j + 1); w++)
                *w = 0;
            j->ui = (uint8_t)ui;
            uint32_t d = c->units[ui].inst_depth, cap = p->cap;
            d = cap - 1u < d ? cap : d;                         /* cap 0 (none) wraps: d */
            j->depth = (uint8_t)(d < 255u ? d : 255u);
            j->state = KDP_J_RUN;
#if KDP_NS_AT
            j->ns = hal_agent_addr(KA_NODE_STATUS(yx));
            j->last_count = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, hal_agent_rd_at(j->ns));
#else
            j->last_count = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT,
                                                   hal_agent_rd32(KA_NODE_STATUS(yx)));
#endif
        }
    if (!j || j != end)         /* !j: the job count out of range (n 0 with jobs NULL too) */
        return HAL_COLD(kdp_refuse, c, j);
    if (kdp_quiesce(c) != KS_OK)        /* a quiet agent to start from: RX emptied as well */
        return c->status;
    c->running = KDP_REGIONS;
    c->cred_state = KDP_CRED_NONE;
    c->cred_due = 0;

    /* An earlier failed run left instructions in some unit: recover.c takes them off every
     * job's counts (each job's unit, one target or several), and says whether a unit outside
     * the run may still return credit (then nothing streams on returned credit, credit being
     * one counter). (Until 2026-12-02 only a lone job's were taken: a run of several targets
     * could overfill a unit still holding a failed run's instructions.) */
    bool stream = !(c->owing && HAL_COLD(kdp_owed_start, c, jobs, n, seen)) && end == jobs + 1;
    if (BOARD_DISPATCH_STREAM_LOOP && stream) {
        kdp_stream(c, jobs);
        /* one bounded wait was enough; a job done needs no pass of the loop below */
        if (KS_IS_TIMEOUT(c->status) || jobs->state == KDP_J_DONE)
            goto out;
    }

    /* Several targets (or the stream's tail; the one-target stream too on a board without
     * BOARD_DISPATCH_STREAM_LOOP, RV32's): poll every
     * target; kick the first, round robin, with room for its next kick once the previous one
     * finished, its region staged meanwhile (PROG_BASE double buffering); one staged program
     * serves every job sharing it. Several targets kick top-ups (len = credit <= room): none
     * waits for a returned credit, so another unit's completion cannot overfill a target and
     * run always falls by itself. RV32's one target streams (len = staged, credit = room,
     * two regions, the next staged right after each kick) and ends its kick early at a FAULT
     * or a stall (recover.c kdp_abort). After a failure nothing more is kicked and what was
     * pushed retires. Every wait is bounded from the last progress (a signal or a kick). */
    _Static_assert(KDP_REGIONS == 4u, "regions by a shift: RV32 has no divide");
    const unsigned nreg = stream ? 2u : KDP_REGIONS;
    const uint32_t rs = c->stage_flits >> (stream ? 1 : 2);
    /* A region is trusted within one run only; region r starts at slot r x rs, as sums (the
     * RV32 core has no multiply, docs/hardware.md §4): with rs = the RAM / 4, region 3 ends on
     * its last slot, so no chunk wraps to slot 0 (docs/hardware.md §1.1). */
    for (uint32_t r = 0, b = 0; r < KDP_REGIONS; r++, b += rs) {
        c->reg[r].prog = 0;
        c->reg[r].base = (uint16_t)b;
    }
    struct kdp_job *rr = jobs;
    uint32_t t = kdp_now();
    for (;;) {
        struct kdp_job *pick = 0, *need = 0, *pend = 0, *j = rr;
        uint32_t proom = 0;
        do {
            if (kdp_poll(c, j))
                t = kdp_now();      /* progress: a signal (no flag kept across the pass) */
            if (kdp_out(j) && !pend)
                pend = j;
            uint32_t want = j->prog->n - j->rep.dispatched;
            if (j->state == KDP_J_RUN && want && c->status == KS_OK) {
                if (!need)
                    need = j;
                /* Kick once half the FIFO (or the rest of the program) fits: fewer, longer
                 * kicks, and the unit still holds work while the next region is staged. */
                uint32_t half = (j->depth + 1u) / 2u, room = kdp_room(j);
                if (!pick && room >= (want < half ? want : half)) {
                    pick = j;
                    proom = room;   /* the staging below reads nothing: room is still this */
                    break;          /* the rest are polled in a pass that kicks nothing */
                }
            }
            if (++j == end)
                j = jobs;
        } while (j != rr);
        bool run = c->running != KDP_REGIONS && kdp_running();
        if (run && stream && (jobs->state == KDP_J_STOP || kdp_expired(c, t))) {
            if (HAL_COLD(kdp_abort, c, jobs))   /* recover.c: a stall, its timeout recorded there */
                break;
            run = false;
        }
        if (!run)
            c->running = KDP_REGIONS;       /* the last kick finished: its region is free */
        if (need) {
            /* Stage what the next kick needs while the running kick pushes and the units
             * work, into the least recently kicked region the running kick is not reading. */
            j = pick ? pick : need;
            unsigned r = kdp_find(c, j->prog, j->rep.dispatched);
            for (;;) {
                if (r == KDP_REGIONS) {
                    /* The regions are taken in turn, the one the running kick reads skipped:
                     * the one staged longest ago (jobs sharing a program move through its
                     * regions together; a region staged and not yet kicked is not the next
                     * one taken). */
                    r = c->fill & (nreg - 1u);
                    if (r == c->running)
                        r = (r + 1u) & (nreg - 1u);
                    c->fill = (uint16_t)(r + 1u);   /* masked at its use: nreg is 2 or 4 */
                    kdp_fill(c, r, rs, j->prog, j->rep.dispatched);
                }
                /* The lookup (and any staging) took a while: the running kick has often
                 * finished (c->running is let go at the next turn's check). */
                if (run && !kdp_running())
                    run = false;
                if (!pick || run)
                    break;
                struct kdp_region *g = &c->reg[r];
                uint32_t off = pick->rep.dispatched - g->start;
                /* top-ups: len = min(staged, room); the stream's len = staged, on the unit's
                 * own returned credit */
                uint32_t len = g->len - off;
                const struct kdp_kick k = kdp_plan_kick(len, proom, stream);
                kdp_kick(c, pick, g->base + off, k.len, k.credit);
                c->running = (uint8_t)r;
                rr = pick + 1 == end ? jobs : pick + 1;
                t = kdp_now();
                run = true;
                /* The stream stages its next region at once, while this kick pushes (it
                 * cannot be staged earlier: the stream's chunks follow each other). */
                if (!stream)
                    goto next;      /* just kicked: no wait can have run out */
                if (j->rep.dispatched == j->prog->n)
                    break;
                pick = 0;
                r = KDP_REGIONS;
            }
        }
        if (!run && !need && !pend)
            break;
        if (kdp_expired(c, t)) {
            HAL_COLD(kdp_timeout, c, need, pend);   /* recover.c: which of them was waited for */
            break;
        }
next:;
    }
out:
    kdp_quiesce(c);         /* (c->running is set again when the next run starts) */
    /* Every signal counted has arrived: a FAULT that NODE_STATUS hid shows as a credit it did
     * not return (recover.c kdp_hidden). Modulo 2^16 like the register (a run's shortfall is
     * far below 2^15); a late signal of an earlier run can only add credit: a lower bound. */
    if (c->cred_state == KDP_CRED_ON) {
        uint32_t d = c->cred_due - hal_agent_rd32(KA_PROG_CRED);
        if ((int16_t)d > 0)
            HAL_COLD(kdp_hidden, c, jobs, end, d);       /* taken modulo 2^16 there */
    }
    /* After a failure, or with some unit owing from an earlier one (then this run's units, all
     * done if it succeeded, owe nothing now): recover.c, what each unit still owes and each
     * job's status. A run that succeeds with nothing owed changes no unit's debt. */
    if (c->status != KS_OK || c->owing)
        HAL_COLD(kdp_settle, c, jobs, end);
    return c->status;
}

unsigned kdp_dispatch(struct kdp_ctx *c, struct kdp_job *j)
{
    return kdp_run(c, j, 1);
}

unsigned kdp_quiesce(struct kdp_ctx *c)
{
    /* Usually quiet already (every run and enumeration leaves it so): two reads, no wait set up
     * (every DISPATCH passes here twice: bench dispatch_cmd_fixed_cycles). The waits are
     * wait.c's: only a failure (an ended kick, a late reply) leaves something to wait for. */
    if (!kdp_running() && (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY))
        return KS_OK;
    return kdp_drain(c);    /* wait.c: a kick still running or RX holding something */
}

uint32_t kdp_enum_row(uint32_t n, uint32_t coord_cycles, uint32_t *raw, uint32_t t0)
{
    /* Native on every board: on RV32 enumeration (enum.c) is cold code, about 50 cycles an
     * instruction, and this loop was most of its instructions (22 for each flit read;
     * docs/dispatch.md "Enumeration"). The row's requests (7 instructions each) stay in
     * enum.c: native they cost RV32's window 36 bytes for about 12,000 of enum_cycles. The
     * agent's registers through one base the compiler cannot see through (it kept a register
     * for each address otherwise), in native words: the low half on RV32 and the whole
     * register on RV64, as hal_agent_rd32 reads them. */
    volatile uintptr_t *ag = (volatile uintptr_t *)hal_agent_ptr(0);
    __asm__("" : "+r"(ag));
#define KDP_AG(off) ag[(off) / sizeof(uintptr_t)]
    /* The replies, in any order: a flit whose txn is a column of the row is that request's
     * answer, from that coordinate (src = txn) and of type CU_CTRL the unit's own (its word 3
     * kept: enum.c checks op and index); a flit of no column of the row (a late reply) is
     * popped. The wait ends coord_cycles after the call (the kicks) or the row's last answer. */
    uint32_t got = 0, found = 0, t = hal_cycles32();
    while (got < n && hal_cycles32() - t <= coord_cycles) {
        if (KDP_AG(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)
            continue;
        uint32_t hh = (uint32_t)KDP_AG(KA_RX_FLIT(KF_HDR_WORD));
        uint32_t txn = (hh >> 4) & 0xFFu, dd = txn - t0, col = dd >> 4;
        if (!(dd & 15u) && col < n) {
            got++;
            t = hal_cycles32();         /* the wait is from the last answer */
            /* src (the header's [23:16], {x,y}) = txn, and the type ([15:12]) CU_CTRL: the two
             * fields side by side, compared as one 12-bit field, the dst bits above it shifted
             * out (a shift, not a mask: 0xFFF takes a register and two instructions to make) */
            if ((((hh >> 12) ^ (txn << 4 | KF_T_CU_CTRL)) << 20) == 0) {
                found |= 1u << col;
                raw[2u * col] = (uint32_t)KDP_AG(KA_RX_FLIT(3));
                raw[2u * col + 1u] = sizeof(uintptr_t) == 8
                                         ? (uint32_t)((uint64_t)KDP_AG(KA_RX_FLIT(3)) >> 32)
                                         : (uint32_t)KDP_AG(KA_RX_FLIT(3) + 4u);
            }
        }
        KDP_AG(KA_RX_POP) = 1;
    }
#undef KDP_AG
    return got << 16 | found;
}
