/* queue.c — the command-queue service (SYSTEM.md §2.5, §4; docs/host-interface.md): accept
 * the queue the boot block names, publish the unit table and READY, then take submissions in
 * order, check every field, run NOP / REPLAY / DISPATCH / RUN / UNITS / STOP through mover/ and
 * dispatch/, and post one completion each. Shared memory only through hal/shared.h. Written
 * for the RV32 window (docs/service.md "Size"): shared lines move as word copies, a command's
 * outcome is its completion (struct kq_err). */
#include "kq.h"
#include "boot.h"
#include "dispatch.h"
#include "hal/shared.h"

/* Enumeration (no table in the boot block): cycles to wait for one coordinate's CU_CTRL reply
 * before calling it absent. A unit answers within a few hundred cycles; the boot block's
 * wait_cycles is for work, far too long to spend on every empty coordinate. */
#define KQ_ENUM_COORD_CYCLES   4000u

/* kq_range works on 32-bit offsets: exact only while no reach passes 4 GB. */
_Static_assert(HAL_UG_DRAM_END <= (1ull << 32) && HAL_UG_STAGING_BYTES <= (1ull << 32),
               "reach within 2^32 (service/kq_check.c)");

/* A 32-bit word that may alias anything: the word copies below move structs of other types. */
typedef uint32_t __attribute__((may_alias)) kq_word;

struct kq_svc {
    volatile struct kq_sub *sq;
    volatile struct kq_cpl *cq;
    uint32_t sq_entries, cq_entries;
    uint64_t sq_head;           /* taken, ever (mirrors header line 2) */
    uint64_t sq_tail_seen;      /* the host's sq_tail as last read */
    uint64_t cq_tail;           /* posted, ever (mirrors header line 3) */
    uint64_t cq_head_seen;      /* the host's cq_head as last read: room is at least this */
    uint32_t wait_cycles;
    struct kdp_ctx dp;
    /* RUN's group of DISPATCH steps (and a DISPATCH command's targets) */
    struct kdp_prog prog[KDP_MAX_JOBS];
    struct kdp_job job[KDP_MAX_JOBS];
    uint32_t step_of[KDP_MAX_JOBS];
};

/* Everything is set before use (kq_boot, kdp_init), so crt0 need not zero it: boot time
 * (issue 8: boot_insns) does not grow with these tables. */
static struct kq_svc kq __attribute__((section(".noinit.kq")));
/* The header once accepted; NULL before, so the fatal hook never writes through garbage. */
static volatile struct kq_header *kq_hdr;

static const void *kq_map(uint64_t ug)
{
    return (const void *)(uintptr_t)hal_ug_ptr(ug);
}

/* What the checks need: constant but for the mover caps and the unit count (kq_boot). In
 * .data, so it costs no instructions to set up. */
static struct kq_env kq_env = {
    .reach = { HAL_UG_DRAM_END, HAL_UG_STAGING_BYTES },
    .units = kq.dp.units,
    .map = kq_map,
};

/* n words from s to d, in order, each one load and one store (shared lines both ways). */
static void kq_copy(volatile kq_word *d, const volatile kq_word *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        d[i] = s[i];
}

static __attribute__((noinline)) void kq_set_state(uint32_t state)
{
    kq_hdr->fw.state = state;
    hal_shared_release();
}

/* ---- Fatal path: the state line tells the host why the core stopped (boot/fatal.c hook) ---- */

_Static_assert(offsetof(struct kx_fatal_record, pc) == offsetof(struct kx_fatal_record, cause) + 8 &&
               offsetof(struct kx_fatal_record, addr) == offsetof(struct kx_fatal_record, cause) + 16,
               "cause, pc, addr copy as the state line's cause, pc, tval");

void kx_fatal_hook(uint64_t word)
{
    volatile struct kq_header *h = kq_hdr;
    if (!h)
        return;
    h->fw.code = KX_EXIT_IS_TRAP(word) ? KQ_FATAL_TRAP
               : word == (KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN) ? KQ_FATAL_QUEUE
               : KQ_FATAL_ASSERT;
    kq_copy((volatile kq_word *)&h->fw.cause, (const kq_word *)&kx_fatal_last.cause, 6);
    hal_shared_release();           /* the details land before the state that points at them */
    kq_set_state(KQ_STATE_FATAL);
}

/* The host wrote an index that breaks the ring rules: nothing it says can be trusted, and
 * there is no completion to carry the news, so the state line does (KQ_FATAL_QUEUE). */
static void __attribute__((noreturn)) kq_broken(uint32_t which, uint64_t host, uint64_t own)
{
    kx_fatal(KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN, "queue", which, host, own);
}

/* Reads a host-written index line (sq_tail or cq_head) after an acquire and checks it against
 * the firmware's own: the host's sq_tail 0..entries ahead of sq_head, its cq_head 0..entries
 * behind cq_tail (modulo 2^64); else the queue is broken. */
static uint64_t kq_host_index(const volatile uint64_t *line, uint64_t own, uint32_t entries,
                              uint32_t which)
{
    hal_shared_acquire();
    uint64_t host = *line;
    if ((which == KQ_BROKEN_SQ_TAIL ? host - own : own - host) > entries)
        kq_broken(which, host, own);
    return host;
}

/* ---- Completions ---- */

/* Posts the completion e once the ring has room. Waiting for the host to consume is not a
 * hardware wait and is not bounded: the firmware has nothing else to do and the host sees a
 * full ring (docs/host-interface.md "Flow control"). */
static void kq_post(const struct kq_err *e)
{
    volatile struct kq_header *h = kq_hdr;
    while (kq.cq_tail - kq.cq_head_seen >= kq.cq_entries)
        kq.cq_head_seen = kq_host_index(&h->cq_head.value, kq.cq_tail, kq.cq_entries,
                                        KQ_BROKEN_CQ_HEAD);
    kq_copy((volatile kq_word *)&kq.cq[kq_slot(kq.cq_tail, kq.cq_entries)], (const kq_word *)e,
            KQ_CPL_BYTES / 4);
    /* The entry is in memory before the index that publishes it. */
    hal_shared_release();
    h->cq_tail.value = ++kq.cq_tail;
    hal_shared_release();
}

/* ---- Commands ---- */

/* The unit table into header lines 7-15: entries as they are (struct kx_unit_entry is the
 * published layout; dispatch/ keeps its rsvd byte 0), then count. Entries past count are left
 * as they are: count says how many are valid (boot time, issue 8: boot_insns). */
static void kq_publish_units(void)
{
    volatile struct kq_units *u = &kq_hdr->units;
    kq_copy((volatile kq_word *)u->entries, (const kq_word *)kq.dp.units, 2u * kq.dp.n_units);
    u->count = kq.dp.n_units;
    hal_shared_release();
}

/* Runs the jobs gathered in kq.job[0..n-1] (each program with its credit cap) and fills e: OK
 * with the instructions sent, or dispatch/'s first error (in a RUN, with the failing job's
 * step in value[63:48]). */
static unsigned kq_run_jobs(unsigned n, struct kq_err *e, int in_run)
{
    unsigned st = kdp_run(&kq.dp, kq.job, n);
    uint32_t sent = 0, failed = 0;
    for (unsigned i = n; i-- > 0;) {        /* downwards: the first failed job is kept */
        sent += kq.job[i].rep.dispatched;
        if (kq.job[i].rep.status != KS_OK)
            failed = i;
    }
    e->status = (uint16_t)st;
    e->detail = 0;
    e->value = sent;
    if (st != KS_OK) {
        e->detail = kq.dp.detail;
        e->value = in_run ? kq_step_value(kq.step_of[failed], kq.dp.value) : kq.dp.value;
    }
    return st;
}

/* A descriptor list through the mover: kmv_replay (validates, then runs) for a REPLAY command,
 * kmv_replay_validated for a RUN's REPLAY step, whose list kq_steps_check validated when the
 * command was accepted (one validation, not two: issue 8's replay cost). */
typedef unsigned kq_replay_fn(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res);

static unsigned kq_replay(kq_replay_fn *replay, uint64_t addr, uint32_t n, struct kq_err *e)
{
    struct kmv_result r;
    unsigned st = replay((const struct kd_write *)kq_map(addr), n, kq.wait_cycles, &r);
    e->status = (uint16_t)st;
    e->detail = r.detail;
    /* OK: moves done. Else: the write concerned in [63:32], the mover status word's low half. */
    e->value = st == KS_OK ? r.moves : ((uint64_t)r.index << 32 | (uint32_t)r.value);
    return st;
}

/* Adds job i of the group: step s's program, with its credit cap, to s->target. Jobs that send
 * the same program (payloads, length, txn) are staged once for all of them: dispatch/ matches
 * staged regions by content (SYSTEM.md §2.3: the same program to several targets). */
static void kq_add_job(unsigned i, const struct kq_step *s, uint32_t step)
{
    struct kdp_prog *p = &kq.prog[i];
    p->payload = kq_map(s->addr);
    p->n = s->n;
    p->txn = s->txn;
    p->cap = s->credit_cap;
    kq.job[i].prog = p;
    kq.job[i].yx = s->target;
    kq.step_of[i] = step;
}

/* RUN: the whole list is checked first; then consecutive DISPATCH steps are gathered (up to
 * KDP_MAX_JOBS, distinct units) and run together, and every other step starts once they have
 * all completed — so a WAIT is met when it runs, and SIGNAL reports everything before it done. */
static void kq_run(const struct kq_step *st, uint32_t n, struct kq_err *e)
{
    unsigned nj = 0;
    uint32_t busy = 0;                  /* units in the group, bit = table index */
    for (uint32_t i = 0; i <= n; i++) {
        const struct kq_step *s = &st[i];
        int disp = i < n && s->op == KQ_STEP_DISPATCH;
        unsigned ui = disp ? (unsigned)kq_unit_index(&kq_env, s->target) : 0;
        if (nj && (!disp || nj == KDP_MAX_JOBS || (busy >> ui & 1u))) {
            if (kq_run_jobs(nj, e, 1) != KS_OK)
                return;
            nj = 0, busy = 0;
        }
        if (disp) {
            kq_add_job(nj++, s, i);
            busy |= 1u << ui;
        } else if (i < n && s->op == KQ_STEP_REPLAY) {
            if (kq_replay(kmv_replay_validated, s->addr, s->n, e) != KS_OK) {
                e->value = kq_step_value(i, e->value);
                return;
            }
        } else if (i < n && s->op == KQ_STEP_SIGNAL) {
            kq_hdr->info.progress = s->addr;
            hal_shared_release();
        }
        /* WAIT and BARRIER: met, every program before them has completed. */
    }
    e->status = KS_OK;
    e->detail = 0;
    e->value = n;
}

static void kq_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (kq_sub_check(s, &kq_env, e) != KS_OK)
        return;
    if (s->op == KQ_OP_REPLAY) {
        kq_replay(kmv_replay, s->addr, s->count, e);
    } else if (s->op == KQ_OP_DISPATCH) {
        /* One job per target (distinct, checked): one group, like RUN's. */
        struct kq_step t;
        t.addr = s->addr;
        t.n = s->count;
        t.txn = s->txn;
        t.credit_cap = s->credit_cap;
        for (unsigned i = 0; i < s->ntargets; i++) {
            t.target = s->targets[i];
            kq_add_job(i, &t, 0);
        }
        kq_run_jobs(s->ntargets, e, 0);
    } else if (s->op == KQ_OP_RUN) {
        const struct kq_step *st = (const struct kq_step *)kq_map(s->addr);
        if (kq_steps_check(st, s->count, &kq_env, e) == KS_OK)
            kq_run(st, s->count, e);
    } else if (s->op == KQ_OP_UNITS) {
        kq_publish_units();
        e->value = kq.dp.n_units;
    }
    /* NOP; STOP completes first, see kq_serve */
}

/* ---- Boot and the loop ---- */

static void __attribute__((noreturn)) kq_refuse(unsigned rule)
{
    hal_puts("kohaku-fw " BOARD_NAME ": queue refused, rule=");
    hal_put_hex(rule);
    hal_puts("\n");
    hal_exit(KX_EXIT_BOOT(KX_BOOT_BAD_QUEUE));
}

static void kq_boot(void)
{
    const struct kx_bootblock *bb = kx_bootblock();
    kq_env.caps = kmv_caps_self();

    /* kq_setup_check reads the header only once its address is known to be reachable. */
    volatile struct kq_header *h = (volatile struct kq_header *)hal_ug_ptr(bb->queue_addr);
    hal_shared_acquire();
    unsigned rule = kq_setup_check(&kq_env.reach, bb->queue_addr, (const struct kq_header *)h);
    if (rule)
        kq_refuse(rule);

    kq.sq = (volatile struct kq_sub *)hal_ug_ptr(h->setup.sq_addr);
    kq.cq = (volatile struct kq_cpl *)hal_ug_ptr(h->setup.cq_addr);
    kq.sq_entries = h->setup.sq_entries;
    kq.cq_entries = h->setup.cq_entries;
    /* A restart resumes from the indices in the header: the host's queue carries on. */
    kq.sq_head = kq.sq_tail_seen = h->sq_head.value;
    kq.cq_tail = h->cq_tail.value;
    kq.cq_head_seen = h->cq_head.value;
    kq.wait_cycles = bb->wait_cycles;
    kq_hdr = h;

    kdp_init(&kq.dp, BOARD_AGENT_YX, bb->wait_cycles, KA_STAGE_FLITS_DEFAULT);
    if (bb->flags & KX_BOOT_F_UNITS) {
        /* boot/ checked count, depth and duplicates; dispatch/ also refuses the agent's own
         * coordinate, which boot/ cannot know. */
        if (kdp_units_set(&kq.dp, bb->units, bb->unit_count) != KS_OK)
            hal_exit(KX_EXIT_BOOT(KX_BOOT_BAD_UNITS));
    } else {
        uint8_t lo, hi;
        kdp_scan_range(&lo, &hi);
        uint32_t coord = bb->wait_cycles < KQ_ENUM_COORD_CYCLES ? bb->wait_cycles : KQ_ENUM_COORD_CYCLES;
        /* No unit found is not fatal: REPLAY still works, DISPATCH says KS_BAD_TARGET. */
        (void)kdp_enumerate(&kq.dp, lo, hi, coord);
    }
    kq_env.n_units = kq.dp.n_units;

    kq_publish_units();
    /* code, cause, pc, tval: a FATAL of the last run is cleared */
    volatile kq_word *fw = (volatile kq_word *)&h->fw.code;
    for (unsigned i = 0; i < 7; i++)
        fw[i] = 0;
    h->info.ready_instret = hal_instret();
    h->info.ready_cycles = hal_cycles();
    kq_set_state(KQ_STATE_READY);
}

void kq_serve(void)
{
    kq_boot();
    volatile struct kq_header *h = kq_hdr;
    struct kq_sub s;
    struct kq_err e;
    /* Taken before a restart and never completed: it may have run partly; say so once, as the
     * first completion this run posts. */
    int aborted = kq.sq_head != kq.cq_tail;
    for (;;) {
        e.rsvd0 = 0;
        e.rsvd1 = 0;
        if (aborted) {
            aborted = 0;
            s.op = KQ_OP_NOP;
            e.tag = h->sq_head.tag;
            e.status = KS_ABORTED;
            e.detail = 0;
            e.value = 0;
            e.cycles = 0;
        } else {
            /* One acquire covers every submission the tail read here publishes: the host
             * wrote them (and their data) before the tail, and no line of them is cached. */
            while (kq.sq_head == kq.sq_tail_seen)
                kq.sq_tail_seen = kq_host_index(&h->sq_tail.value, kq.sq_head, kq.sq_entries,
                                                KQ_BROKEN_SQ_TAIL);
            uint64_t t0 = hal_cycles();
            /* Take: copy the submission out, then hand its slot back with the tag kept. */
            kq_copy((volatile kq_word *)&s,
                    (const volatile kq_word *)&kq.sq[kq_slot(kq.sq_head, kq.sq_entries)],
                    KQ_SUB_BYTES / 4);
            h->sq_head.tag = s.tag;
            h->sq_head.value = ++kq.sq_head;
            hal_shared_release();
            /* The checks fill status, detail and value on every path. */
            e.tag = s.tag;
            kq_exec(&s, &e);
            e.cycles = hal_cycles() - t0;
        }
        kq_post(&e);
        if (s.op == KQ_OP_STOP && e.status == KS_OK) {
            kq_set_state(KQ_STATE_STOPPED);
            hal_exit(KX_EXIT_OK);
        }
    }
}
