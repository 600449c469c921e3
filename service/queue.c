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
    uint64_t cq_tail;           /* posted, ever (mirrors header line 3) */
    /* The host's indices as last read, low words only: each was checked to be within
     * [0, entries] <= 4096 of the firmware's own index (modulo 2^64) when read, so the low
     * words' difference modulo 2^32 is the whole difference, and 32-bit compares are exact. */
    uint32_t sq_tail_seen;      /* the host's sq_tail */
    uint32_t cq_head_seen;      /* the host's cq_head: room is at least this */
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
volatile struct kq_header *kq_hdr;

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

/* The host wrote an index that breaks the ring rules: nothing it says can be trusted, and
 * there is no completion to carry the news, so the state line does (KQ_FATAL_QUEUE). */
static __attribute__((noinline, noreturn)) void kq_broken(uint32_t which, uint64_t host, uint64_t own)
{
    kx_fatal(KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN, "queue", which, host, own);
}

/* Checks a host-written index line (sq_tail or cq_head), read by the caller after an acquire,
 * against the firmware's own: the host's sq_tail 0..entries ahead of sq_head, its cq_head
 * 0..entries behind cq_tail (modulo 2^64); else the queue is broken. Returns its low word
 * (struct kq_svc: exact once checked). One copy for both lines; no call but the fatal one. */
static __attribute__((noinline)) uint32_t kq_host_index(const volatile uint64_t *line, uint64_t own,
                                                        uint32_t entries, uint32_t which)
{
    uint64_t host = *line;
    if ((which == KQ_BROKEN_SQ_TAIL ? host - own : own - host) > entries)
        kq_broken(which, host, own);
    return (uint32_t)host;
}

/* Counts one more in a firmware index (sq_head, cq_tail) and publishes it on its header line. */
static __attribute__((noinline)) void kq_bump(volatile uint64_t *line, uint64_t *own)
{
    *line = ++*own;
    hal_shared_release();
}

/* ---- Commands ---- */

/* The unit table into header lines 7-15: entries as they are (struct kx_unit_entry is the
 * published layout; dispatch/ keeps its rsvd byte 0), then count. Entries past count are left
 * as they are: count says how many are valid (boot time, issue 8: boot_insns). */
unsigned kq_publish_units(void)
{
    volatile struct kq_units *u = &kq_hdr->units;
    unsigned n = kq.dp.n_units;
    kq_copy((volatile kq_word *)u->entries, (const kq_word *)kq.dp.units, 2u * n);
    u->count = n;
    hal_shared_release();
    return n;
}

/* Runs the jobs gathered in kq.job[0..n-1] (each program with its credit cap) and fills e: OK
 * with the instructions sent, or dispatch/'s first error (in a RUN, with the failing job's
 * step in value[63:48]). */
unsigned kq_run_jobs(unsigned n, struct kq_err *e, int in_run)
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

/* Adds job i of the group: step s's program, with its credit cap, to s->target. Jobs that send
 * the same program (payloads, length, txn) are staged once for all of them: dispatch/ matches
 * staged regions by content (SYSTEM.md §2.3: the same program to several targets). */
void kq_add_job(unsigned i, const struct kq_step *s, uint32_t step)
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
 * all completed — so a WAIT is met when it runs, and SIGNAL reports everything before it done.
 * A REPLAY step replays through kmv_replay_validated: kq_steps_check validated its list when
 * the command was accepted (one validation, not two: issue 8's replay cost). */
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
            struct kmv_result r;
            unsigned rs = kmv_replay_validated((const struct kd_write *)kq_map(s->addr), s->n,
                                               kq.wait_cycles, &r);
            if (rs != KS_OK) {
                /* as a REPLAY command's (kq_cold.c), under the step index */
                kq_cold_replay_result(e, rs, &r);
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

/* ---- Boot and the loop ---- */

static void kq_boot(void)
{
    const struct kx_bootblock *bb = kx_bootblock();
    kq_env.caps = kmv_caps_self();

    /* kq_setup_check reads the header only once its address is known to be reachable. */
    volatile struct kq_header *h = (volatile struct kq_header *)hal_ug_ptr(bb->queue_addr);
    hal_shared_acquire();
    unsigned rule = kq_setup_check(&kq_env.reach, bb->queue_addr, (const struct kq_header *)h);
    if (rule)
        kq_cold_refuse(rule);

    kq.sq = (volatile struct kq_sub *)hal_ug_ptr(h->setup.sq_addr);
    kq.cq = (volatile struct kq_cpl *)hal_ug_ptr(h->setup.cq_addr);
    kq.sq_entries = h->setup.sq_entries;
    kq.cq_entries = h->setup.cq_entries;
    /* A restart resumes from the indices in the header: the host's queue carries on. */
    kq.sq_tail_seen = (uint32_t)(kq.sq_head = h->sq_head.value);
    kq.cq_tail = h->cq_tail.value;
    kq.cq_head_seen = (uint32_t)h->cq_head.value;
    kq.wait_cycles = bb->wait_cycles;
    kq_hdr = h;

    kdp_init(&kq.dp, BOARD_AGENT_YX, bb->wait_cycles, KA_STAGE_FLITS_DEFAULT);
    if (bb->flags & KX_BOOT_F_UNITS) {
        /* boot/ checked count, depth and duplicates; dispatch/ also refuses the agent's own
         * coordinate, which boot/ cannot know. */
        if (kdp_units_set(&kq.dp, bb->units, bb->unit_count) != KS_OK)
            hal_exit(KX_EXIT_BOOT(KX_BOOT_BAD_UNITS));
    } else {
        kq_cold_enumerate(&kq.dp, bb->wait_cycles);
    }
    kq_env.n_units = kq_publish_units();
    /* code, cause, pc, tval: a FATAL of the last run is cleared */
    volatile kq_word *fw = (volatile kq_word *)&h->fw.code;
    for (unsigned i = 0; i < 7; i++)
        fw[i] = 0;
    h->info.ready_instret = hal_instret();
    h->info.ready_cycles = hal_cycles();
    h->fw.state = KQ_STATE_READY;
    hal_shared_release();
}

void kq_serve(void)
{
    kq_boot();
    volatile struct kq_header *h = kq_hdr;
    struct kq_sub s;
    struct kq_err e;
    e.rsvd0 = 0;                        /* no path writes them */
    e.rsvd1 = 0;
    /* Taken before a restart and never completed: it may have run partly; say so once, as the
     * first completion this run posts. The setup check keeps sq_head - cq_tail in {0, 1}, so
     * the low words tell. */
    int aborted = (uint32_t)kq.sq_head != (uint32_t)kq.cq_tail;
    for (;;) {
        if (aborted) {
            aborted = 0;
            s.op = KQ_OP_NOP;
            kq_cold_aborted(&e);
        } else {
            /* One acquire covers every submission the tail read here publishes: the host
             * wrote them (and their data) before the tail, and no line of them is cached. */
            while ((uint32_t)kq.sq_head == kq.sq_tail_seen) {
                hal_shared_acquire();
                kq.sq_tail_seen = kq_host_index(&h->sq_tail.value, kq.sq_head, kq.sq_entries,
                                                KQ_BROKEN_SQ_TAIL);
            }
            uint64_t t0 = hal_cycles();
            /* Take: copy the submission out, then hand its slot back with the tag kept. */
            kq_copy((volatile kq_word *)&s,
                    (const volatile kq_word *)&kq.sq[kq_slot(kq.sq_head, kq.sq_entries)],
                    KQ_SUB_BYTES / 4);
            h->sq_head.tag = s.tag;
            kq_bump(&h->sq_head.value, &kq.sq_head);
            /* The checks fill status, detail and value on every path. */
            e.tag = s.tag;
            if (kq_sub_check(&s, &kq_env, &e) == KS_OK) {
                if (s.op == KQ_OP_RUN) {
                    const struct kq_step *st = (const struct kq_step *)kq_map(s.addr);
                    if (kq_steps_check(st, s.count, &kq_env, &e) == KS_OK)
                        kq_run(st, s.count, &e);
                } else if (s.op != KQ_OP_NOP) {
                    kq_cold_exec(&s, &e, kq.wait_cycles);
                }
            }
            e.cycles = hal_cycles() - t0;
        }
        /* Post once the ring has room. Waiting for the host to consume is not a hardware wait
         * and is not bounded: the firmware has nothing else to do and the host sees a full
         * ring (docs/host-interface.md "Flow control"). */
        while ((uint32_t)kq.cq_tail - kq.cq_head_seen >= kq.cq_entries) {
            hal_shared_acquire();
            kq.cq_head_seen = kq_host_index(&h->cq_head.value, kq.cq_tail, kq.cq_entries,
                                            KQ_BROKEN_CQ_HEAD);
        }
        kq_copy((volatile kq_word *)&kq.cq[kq_slot(kq.cq_tail, kq.cq_entries)],
                (const kq_word *)&e, KQ_CPL_BYTES / 4);
        /* The entry is in memory before the index that publishes it. */
        hal_shared_release();
        kq_bump(&h->cq_tail.value, &kq.cq_tail);
        if (s.op == KQ_OP_STOP && e.status == KS_OK)
            kq_cold_stop();
    }
}
