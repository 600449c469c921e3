/* queue.c — the command-queue service (docs/design.md §2.5, §4; docs/host-interface.md): accept
 * the queue the boot block names, publish the unit table and READY, then take submissions in
 * order, check every field, run NOP, RUN, DISPATCH and UNITS here and REPLAY / STOP through
 * kq_cold.c (docs/service.md "Cold code"), and post one completion each. Shared memory only
 * through hal/shared.h. Written for the RV32 window (docs/service.md "Size"): shared lines move
 * as word copies, a command's outcome is its completion (struct kq_err). */
#include "kq_svc.h"

/* kq_range works on 32-bit offsets: exact only while no reach passes 4 GB, and its test of the
 * firmware's own DRAM only while a board that has some reaches less than 4 GB. */
_Static_assert(HAL_UG_DRAM_END <= (1ull << 32) && HAL_UG_STAGING_BYTES <= (1ull << 32),
               "reach within 2^32 (service/kq_check.c)");
/* The owned range (both variants) inside the DRAM reach and below 2^32 - 2 MB, so kq_range's
 * 32-bit end test is exact for every command range (at most 2 MB) that starts below its end;
 * the board's cold-code range (RV32) inside it. */
_Static_assert((uint64_t)KQ_FW_OWN_HI <= HAL_UG_DRAM_END && KQ_FW_OWN_HI <= (1ull << 32) - (2u << 20),
               "owned DRAM inside the reach (service/kq_check.c)");
_Static_assert(BOARD_FW_DRAM_BYTES == 0 ||
               (BOARD_FW_DRAM_OFFSET >= KQ_FW_OWN_LO &&
                (uint64_t)BOARD_FW_DRAM_OFFSET + BOARD_FW_DRAM_BYTES <= KQ_FW_OWN_HI),
               "the board's firmware DRAM inside the owned range");
_Static_assert(KX_FW_COPY_OFFSET >= KQ_FW_OWN_LO && KX_FW_COPY_OFFSET + KX_FW_COPY_BYTES <= KQ_FW_OWN_HI &&
               KX_FW_COPY_BYTES >= KD_MAX_WRITES * KD_RECORD_BYTES,
               "the copy buffer holds the longest list, inside the owned range");

/* Everything is set before use (kq_boot, kdp_init), so crt0 need not zero it: boot time
 * (bench: boot_insns) does not grow with these tables. */
struct kq_svc kq __attribute__((section(".noinit.kq")));
/* The header once accepted; NULL before, so the fatal hook never writes through garbage. */
volatile struct kq_header *kq_hdr;


static const void *kq_map(uint64_t ug)
{
    return (const void *)(uintptr_t)hal_ug_ptr(ug);
}

/* The records: in .noinit, so crt0 does not clear 264 bytes at every boot (boot_insns); kq_boot
 * marks every slot free (n = 0: the by-handle lookup and record.c want n) and sets the
 * generations and slot count, natively, so a boot (a restart too) starts with none. In the
 * scratchpad on both boards (linker/rv32.ld.S, rv64.ld.S), which neither the host (its load path writes it
 * only while the core is held), nor a unit, nor the mover writes while the core runs: the
 * digests kept there are the reference a record's bytes are checked against. */
struct kq_recs kq_recs __attribute__((section(".noinit.kq")));

/* The ranges no mover walk may reach (kq.h enum kq_own) and the caps that carry them: filled
 * by the cold path before every list validation and replay (kq_cold_owned; the command's two
 * slots by the caller), so never read unset and in .noinit (boot_insns does not clear them). */
struct kmv_span kq_owned[KQ_OWN_N] __attribute__((section(".noinit.kq_owned")));
struct kmv_caps kq_caps __attribute__((section(".noinit.kq_caps")));

/* What the checks need: constant but for the mover caps and the unit count (kq_boot). In
 * .data, so it costs no instructions to set up. */
struct kq_env kq_env = {
    .reach = { { HAL_UG_DRAM_END, HAL_UG_STAGING_BYTES }, { KQ_FW_OWN_LO, KQ_FW_OWN_HI } },
    .units = kq.dp.units,
    .caps = &kq_caps,
    .map = kq_map,
    .validate = kmv_validate,
    .owned = kq_owned,
    .prepare = kq_cold_owned,
    .recs = &kq_recs,
    .sealed_check = BOARD_REC_SEALED ? kmv_sealed_check : 0,
};

/* n words from s to d, in order, each one load and one store (shared lines both ways). By
 * pointer to an end: the counted loop took 10 instructions a word on RV64 (an index
 * sign-extended and scaled every turn), this one 5. */
static void kq_copy(volatile kq_word *d, const volatile kq_word *s, unsigned n)
{
    const volatile kq_word *end = s + n;
    while (s != end)
        *d++ = *s++;
}

/* The host wrote an index that breaks the ring rules: nothing it says can be trusted, and
 * there is no completion to carry the news, so the state line does (KQ_FATAL_QUEUE). */
static __attribute__((noreturn)) void kq_broken(uint32_t which, uint64_t host, uint64_t own)
{
    kx_fatal(KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN, "queue", which, host, own);
}

/* Reads a host-written index line (sq_tail or cq_head) after an acquire into the mirror and
 * checks it against the firmware's own: the host's sq_tail 0..entries ahead of sq_head, its
 * cq_head 0..entries behind cq_tail (modulo 2^64); else the queue is broken. One copy for both
 * lines, the line named by which (KQ_BROKEN_*). */
static __attribute__((noinline)) void kq_host_index(unsigned which)
{
    int sq = which == KQ_BROKEN_SQ_TAIL;
    hal_shared_acquire();
    uint64_t host = sq ? kq_hdr->sq_tail.value : kq_hdr->cq_head.value;
    uint64_t own = sq ? kq.m.sq_head : kq.m.cq_tail;
    if ((sq ? host - own : own - host) > (sq ? kq.m.setup.sq_entries : kq.m.setup.cq_entries))
        kq_broken(which, host, own);
    *(sq ? &kq.m.sq_tail : &kq.m.cq_head) = host;
}

/* Counts one more in a firmware index (sq_head, cq_tail) and publishes it on its header line. */
static __attribute__((noinline)) void kq_bump(volatile uint64_t *line, uint64_t *own)
{
    *line = ++*own;
    hal_shared_release();
}

/* The fatal hook (boot/fatal.c): once the queue is accepted, the state line tells the host why
 * the core stopped (before, kq_hdr is NULL and it does nothing). Native, never cold: the fatal
 * path may be reporting the interpreter or the cold segment itself, and must not run either
 * (it once re-entered a missing cold segment nine times). */
_Static_assert(offsetof(struct kx_fatal_record, pc) == offsetof(struct kx_fatal_record, cause) + 8 &&
               offsetof(struct kx_fatal_record, addr) == offsetof(struct kx_fatal_record, cause) + 16,
               "cause, pc, addr copy as the state line's cause, pc, tval");
void kx_fatal_hook(uintptr_t word)
{
    volatile struct kq_header *h = kq_hdr;
    if (!h)
        return;
    /* A trap word is RV64's (the 64-bit variant): the RV32 core has no traps, it halts on a
     * fault, so its fatal words are assertions only (-16 bytes of its window). */
    h->fw.code = sizeof(uintptr_t) == 8 && KX_EXIT_IS_TRAP(word) ? KQ_FATAL_TRAP
               : word == (KX_EXIT_ASSERT_BASE | KQ_SITE_QUEUE_BROKEN) ? KQ_FATAL_QUEUE
               : KQ_FATAL_ASSERT;
    /* cause, pc, tval from the record's cause, pc, addr: six words in a row on both sides. */
    kq_copy((volatile kq_word *)&h->fw.cause, (const kq_word *)&kx_fatal_last.cause, 6);
    hal_shared_release();           /* the details land before the state that points at them */
    h->fw.state = KQ_STATE_FATAL;
    hal_shared_release();
}

/* ---- Commands ---- */

/* The unit table into header lines 7-15: entries as they are (struct kx_unit_entry is the
 * published layout; dispatch/ keeps its rsvd byte 0), then count. Entries past count are left
 * as they are: count says how many are valid (boot time, the bench: boot_insns). Boot only:
 * the UNITS command publishes it again on the cold path (kq_cold.c; no budget). */
static inline __attribute__((always_inline)) unsigned kq_publish_units(volatile struct kq_header *h)
{
    volatile struct kq_units *u = &h->units;
    unsigned n = kq.dp.n_units;
    kq_copy((volatile kq_word *)u->entries, (const kq_word *)kq.dp.units, 2u * n);
    u->count = n;
    hal_shared_release();
    return n;
}

/* Adds job i of a RUN's group: step s's program, with its credit cap, to s->target. Jobs that
 * send the same program (payloads, length, txn) are staged once for all of them: dispatch/
 * matches staged regions by content (docs/design.md §2.3: the same program to several targets).
 * A DISPATCH command shares one kdp_prog among its jobs (kq_dispatch). */
static inline void kq_add_job(unsigned i, const struct kq_step *s)
{
    struct kdp_prog *p = &kq.prog[i];
    p->payload = kq_map(s->addr);
    p->n = s->n;
    p->txn = s->txn;
    p->cap = s->credit_cap;
    kq.job[i].prog = p;
    kq.job[i].yx = s->target;
}

/* DISPATCH, accepted (targets distinct, in the table): one program, one job per target, one
 * kdp_run group like a RUN's; value = instructions sent, all targets. Native: every DISPATCH
 * runs this (bench dispatch_cmd_fixed_cycles); a failure's completion is cold. */
static inline void kq_dispatch(const struct kq_sub *s, struct kq_err *e)
{
    struct kdp_prog *p = &kq.prog[0];   /* one for every target: staged once, found at once */
    p->payload = kq_map(s->addr);
    p->n = s->count;
    p->txn = s->txn;
    p->cap = s->credit_cap;
    unsigned n = s->ntargets;
    uint32_t sent = 0;      /* on success every job sent the whole program */
    for (unsigned i = 0; i < n; i++) {
        kq.job[i].prog = p;
        kq.job[i].yx = s->targets[i];
        sent += s->count;
        __asm__("" : "+r"(sent));       /* an add, not a libgcc multiply (RV32I) */
    }
    unsigned st = kdp_run(&kq.dp, kq.job, n);
    if (st != KS_OK)
        HAL_COLD(kq_cold_group_failed, e, st, n, KQ_NO_STEP);
    else
        e->value = sent;    /* status KS_OK and detail 0: the checks' */
}

/* RUN: the whole list is checked first; then consecutive DISPATCH steps are gathered (up to
 * KDP_MAX_JOBS, distinct units) and run together, and every other step starts once they have
 * all completed — so a WAIT is met when it runs, and SIGNAL reports everything before it done.
 * A REPLAY step replays through kmv_replay_validated: kq_steps_check validated its list when
 * the command was accepted (one validation, not two: the bench's replay cost); its glue is cold
 * (kq_cold_run_replay: no budgeted RUN has a REPLAY step), the moves native. */
/* A recorded list's replay (REPLAY by handle, a recorded RUN's REPLAY step): the list was
 * validated when it was recorded and sits where nothing the firmware accepts can change it.
 * Sealed (BOARD_REC_SEALED: RV64), its moves check themselves as they are written to the mover
 * (step rsvd2: the moves); else its record's digest was found as kept just before the command
 * began (kq_serve) and it runs as it is (kmv_replay_validated). The bench's per-write cost;
 * failures are cold. */
static unsigned kq_replay_rec(const struct kq_step *c, struct kq_err *e, uint32_t step)
{
    struct kmv_result r;
    unsigned st = BOARD_REC_SEALED
        ? kmv_replay_sealed(kq_map(c->addr), c->rsvd2, kq.dp.wait_cycles, &r)
        : kmv_replay_validated(kq_map(c->addr), c->n, kq.dp.wait_cycles, &r);
    if (st != KS_OK)
        st = HAL_COLD(kq_rec_result, e, st, &r, step);
    return st;
}

/* The by-handle command's record: set by kq_serve's lookup before its first check, read by
 * nothing else, so never read unset (.noinit: boot_insns does not clear it). A word here, not
 * the lookup again from kq_env.sub (-16 RV32 bytes) nor an argument through kq_run (+40). */
static const struct kq_rec *kq_rec_cur __attribute__((section(".noinit.kq")));
/* The by-handle command's record (kq_rec_cur), every byte: 0 when it gives the digest RECORD
 * kept (kq.h kq_rec_digest), else it was changed since (a host write, a unit program). One
 * copy for the check before a by-handle command and the one after each group of a recorded
 * RUN. The caller acquires first (RV32: no line cached from before), so this calls nothing
 * but the sum: a tail call, no frame (-8 RV32 bytes net, one cache drop fewer a group). */
static __attribute__((noinline)) kq_sum kq_rec_changed(void)
{
    const struct kq_rec *r = kq_rec_cur;
    /* kq_rec_digest's sum, through hal's one loop (RV32: shared with the cold-segment check) */
    const volatile uintptr_t *p = kq_map(r->ug);
    return hal_sum4(r->sum, p, (const volatile uintptr_t *)((uintptr_t)p + r->span));
}

/* Runs the group kq.job[0..nj-1] (kdp_run). Time has passed: what comes after is read from
 * memory as it is now, not from lines cached before (RV32; a fence on RV64), so what runs is
 * checked as it is. check (a recorded RUN): the group's programs may have
 * written into the record itself (a unit writes DRAM wherever its program says), so the steps
 * left run only if it still gives its digest, else KS_REC_CHANGED. Steps already read (the
 * next step's op, the group's jobs) came from the record as it was checked: nothing changed
 * has run. Out of line: inlined into kq_run's loop (itself inlined into the serve loop) the
 * same check cost 164 RV32 bytes more. */
static __attribute__((noinline)) unsigned kq_group(unsigned nj, uint32_t check)
{
    unsigned gs = kdp_run(&kq.dp, kq.job, nj);
    hal_shared_release();
    hal_shared_acquire();               /* kq_rec_changed's too */
    if (gs == KS_OK && check && kq_rec_changed())
        gs = KS_REC_CHANGED;
    return gs;
}

/* h: the header, kq_serve's (not kq_hdr loaded again: -4 RV32 bytes), for SIGNAL's progress.
 * rec (not 0): the steps are the by-handle command's record's (checked when recorded, REPLAY steps' lists in the
 * record area): each runs as it is. A REPLAY by handle runs here too, its record's one step. */
static void kq_run(const struct kq_step *st, uint32_t n, struct kq_err *e, uint32_t rec,
                   volatile struct kq_header *h)
{
    unsigned nj = 0;
    uint32_t busy = 0;                  /* units in the group, bit = table index */
    /* Checked once, used once: each step runs from a copy in firmware
     * memory, whose every field the step reads is checked again there (kq_step_use), so a
     * step list rewritten since kq_steps_check accepted it never runs unchecked. */
    struct kq_step cur;
    const struct kq_step *c = &cur;                 /* the step that runs */
    uint32_t changed = 0;
    for (uint32_t i = 0;; i++, st++) {
        unsigned op = 0;                            /* 0: past the last step, or changed */
        int ui = 0;
        if (i < n) {
            /* a record's steps were checked when recorded and sit in memory the firmware
             * owns: they run as they are (a DISPATCH's unit index from kq_step_use; a
             * descriptor list's record ends its one REPLAY step with an op-0 step). Where
             * the board has the bytes (RV64) they are read where they are: a copy of owned
             * memory guards nothing (bench record_run_overhead_insns: about 85 cycles a
             * step). A REPLAY_H step is copied all the same: the cold path rewrites it. */
            if (BOARD_QUEUE_FAST && rec && (op = st->op) != KQ_STEP_REPLAY_H) {
                c = st;
                ui = op == KQ_STEP_DISPATCH ? kq_step_use(c, &kq_env) : 0;
            } else {
                kq_copy((volatile kq_word *)&cur, (const volatile kq_word *)st, KQ_STEP_BYTES / 4);
                c = &cur;
                op = cur.op;
                /* a record's step other than a DISPATCH needs no unit index, and its
                 * at-use check is moot (RV32: record_run_overhead_insns 2,510 -> 2,494, +4 bytes) */
                if ((!rec || op == KQ_STEP_DISPATCH) && (ui = kq_step_use(&cur, &kq_env)) < 0 && !rec) {
                    op = 0;
                    changed = i + 1;                /* run the group pending, then stop */
                }
            }
        }
        /* The group runs before this step unless it is a DISPATCH to a unit not in it and
         * there is room: any other step sees busy & ~0, nonzero exactly when nj > 0. */
        uint32_t bit = ~0u;
        if (op == KQ_STEP_DISPATCH)
            bit = 1u << ui;                         /* checked at use: known */
        if ((busy & bit) || nj == KDP_MAX_JOBS) {
            /* the group is steps i - nj .. i - 1 */
            unsigned gs = kq_group(nj, rec);
            if (gs != KS_OK) {
                HAL_COLD(kq_cold_group_failed, e, gs, nj, i - nj);
                return;
            }
            nj = 0, busy = 0;
        }
        if (op == KQ_STEP_DISPATCH) {
            kq_add_job(nj++, c);
            busy |= bit;
        } else if (op == KQ_STEP_REPLAY && rec) {
            if (kq_replay_rec(c, e, i) != KS_OK)
                return;
        } else if (op == KQ_STEP_REPLAY || op == KQ_STEP_REPLAY_H) {
            /* cold: a REPLAY_H's handle is looked up on the copy, which becomes the REPLAY of
             * its record's list */
            if (HAL_COLD(kq_cold_run_replay, e, &cur, i) != KS_OK)
                return;                         /* e: the replay's failure, under step i */
        } else if (op == KQ_STEP_SIGNAL) {
            h->info.progress = c->addr;
            hal_shared_release();
        } else if (!op) {
            break;
        }
        /* WAIT and BARRIER: met, every program before them has completed. */
    }
    /* status and detail: KS_OK and 0 from kq_steps_check, kept since (or a REPLAY step's
     * KS_XFORM_UNCHECKED); a step that failed its check at use: KS_CHANGED. A REPLAY by
     * handle ends with its record's n, the list's moves, as REPLAY does (record.c: its one
     * step ends the loop, an op-0 step after it). */
    e->value = n;
    if (changed)
        HAL_COLD(kq_cold_changed, e, &cur, changed - 1);
}

/* ---- Boot and the loop ---- */

/* Returns the header it accepted (kq_hdr): the loop keeps it in a register, not loaded again
 * from kq_hdr after boot's calls (-8 RV32 bytes; the unit table's publishing likewise, -4). */
static volatile struct kq_header *kq_boot(void)
{
    const struct kx_bootblock *bb = kx_bootblock();

    /* kq_setup_check reads the header only once its address is known to be reachable. */
    volatile struct kq_header *h = (volatile struct kq_header *)hal_ug_ptr(bb->queue_addr);
    hal_shared_acquire();
    unsigned rule = kq_setup_check(&kq_env.reach, bb->queue_addr, (const struct kq_header *)h);
    if (rule) {
        HAL_COLD(kq_cold_refuse, rule);
        __builtin_unreachable();        /* kq_cold_refuse stops the core */
    }

    /* A restart resumes from the indices in the header: the host's queue carries on. The
     * setup check accepted these lines as they are. */
    kq_copy((kq_word *)&kq.m.setup, (const volatile kq_word *)&h->setup, KQ_LINE / 4);
    kq.m.sq_tail = kq.m.sq_head = h->sq_head.value;   /* nothing seen yet */
    kq.m.cq_tail = h->cq_tail.value;
    kq.m.cq_head = h->cq_head.value;
    kq_hdr = h;

    /* Records: none held (every slot's n 0); this run's generations from sq_head + 1 on
     * (modulo 2^24), [26:24] the slots the boot block allows - 1 (boot/ refused limits out of
     * range, KX_BOOT_BAD_RECORDS; rec_handles 0, the default, reads as every slot). */
    _Static_assert(KQ_REC_DEF_HANDLES == KQ_REC_SLOTS, "rec_handles 0 - 1 reads as every slot");
    for (unsigned i = 0; i < KQ_REC_SLOTS; i++)
        kq_recs.r[i].n = 0;
    uint32_t g = ((uint32_t)kq.m.sq_head + 1u) & 0xFFFFFFu;
    /* rec_handles 0: 0xFF << 24, [26:24] 7 (readers take [26:24] only: KQ_RECS_SLOTS) */
    kq_recs.lo_slots = g | (bb->rec_handles - 1u) << 24;
    kq_recs.gen_hi = g;

    kdp_init(&kq.dp, BOARD_AGENT_YX, bb->wait_cycles, KA_STAGE_FLITS_DEFAULT);
    if (bb->flags & KX_BOOT_F_UNITS) {
        /* boot/ checked it by dispatch/'s rules (count, depth, duplicates, (0,0), the agent's
         * coordinate): loaded as it is. */
        kdp_units_load(&kq.dp, bb->units, bb->unit_count);
    } else {
        HAL_COLD0(kq_cold_enumerate);
    }
    kq_env.n_units = kq_publish_units(h);
    /* code, cause, pc, tval: a FATAL of the last run is cleared */
    volatile kq_word *fw = (volatile kq_word *)&h->fw.code;
    for (unsigned i = 0; i < 7; i++)
        fw[i] = 0;
    h->info.ready_instret = hal_instret_boot();
    h->info.ready_cycles = hal_cycles();
    h->fw.state = KQ_STATE_READY;
    hal_shared_release();
    return h;
}

void kq_serve(void)
{
    volatile struct kq_header *h = kq_boot();
    struct kq_sub s;
    struct kq_err e;
    e.rsvd0 = 0;                        /* no path writes it */
    kq_env.sub = &s;                    /* the command being checked or run: its data is in use */
    /* Taken before a restart and never completed: it may have run partly; say so once, as the
     * first completion this run posts. The setup check keeps sq_head - cq_tail in {0, 1}, so
     * the low words tell. */
    int aborted = (uint32_t)kq.m.sq_head != (uint32_t)kq.m.cq_tail;
    for (;;) {
        if (aborted) {
            aborted = 0;
            s.op = KQ_OP_NOP;
            HAL_COLD(kq_cold_aborted, &e);
        } else {
            /* One acquire covers every submission the tail read here publishes: the host
             * wrote them (and their data) before the tail, and no line of them is cached. */
            while ((uint32_t)kq.m.sq_head == (uint32_t)kq.m.sq_tail)
                kq_host_index(KQ_BROKEN_SQ_TAIL);
            uint64_t t0 = hal_cycles();
            /* Take: copy the submission out, then hand its slot back with the tag kept. */
            kq_copy((volatile kq_word *)&s,
                    (const volatile kq_word *)&((volatile struct kq_sub *)hal_ug_ptr(
                        kq.m.setup.sq_addr))[kq_slot(kq.m.sq_head, kq.m.setup.sq_entries)],
                    KQ_SUB_BYTES / 4);
            h->sq_head.tag = e.tag = s.tag;
            kq_bump(&h->sq_head.value, &kq.m.sq_head);
            kmv_wait_cycles = 0;
            /* The checks fill status, detail and value on every path. */
            if ((BOARD_QUEUE_FAST && kq_sub_fast(&s, &kq_env, &e)) ||
                kq_sub_check(&s, &kq_env, &e) == KS_OK) {
                uint64_t d = s.addr;
                uint32_t n = s.count, rec = s.flags & KQ_SUB_F_HANDLE, run = s.op == KQ_OP_RUN;
                if (rec) {
                    /* REPLAY or RUN by handle (the rows allow the flag nowhere else): the
                     * record's steps run with no check (status and detail: KS_OK, 0). A
                     * descriptor list's record starts with the one REPLAY step that runs it.
                     * A handle that names no record of this kind goes to the cold path with
                     * the flag still set: its named status (KS_REC_*, record.c). */
                    uint32_t h = (uint32_t)d;
                    const struct kq_rec *r = &kq_recs.r[h & KQ_H_SLOT];
                    n = r->n;
                    d = r->ug;
                    run = r->key == (h ^ (uint32_t)s.op << 3) && n;
                    kq_rec_cur = r;
                    /* Its bytes as they are in memory now (RV32: no line cached from before),
                     * its digest's span (RV32: every byte; RV64: the steps, its sealed moves
                     * checking themselves as they run), before anything runs: changed since
                     * RECORD (a host write, a unit program), the cold path names it
                     * (KS_REC_CHANGED) and nothing runs. */
                    if (run) {
                        hal_shared_acquire();
                        run = !kq_rec_changed();
                    }
                }
                if (run) {
                    const struct kq_step *st = (const struct kq_step *)kq_map(d);
                    if (rec || kq_steps_check(st, n, &kq_env, &e) == KS_OK)
                        kq_run(st, n, &e, rec, h);
                } else if (s.op == KQ_OP_DISPATCH) {
                    kq_dispatch(&s, &e);
                } else if (s.op != KQ_OP_NOP) {
                    /* REPLAY, UNITS, STOP, RECORD, FORGET, RECORDS: cold (no budget) */
                    HAL_COLD(kq_cold_exec, &s, &e);
                }
            }
            e.mover_cycles = kmv_wait_cycles;
            e.cycles = hal_cycles() - t0;
            /* A failure may be the symptom of damaged cold code (RV32): check
             * the segment again before reporting it (a named fatal when it is no longer the
             * one linked). RV64 has none: nothing. */
            if (e.status != KS_OK)
                hal_cold_verify();
        }
        /* Post once the ring has room. Waiting for the host to consume is not a hardware wait
         * and is not bounded: the firmware has nothing else to do and the host sees a full
         * ring (docs/host-interface.md "Flow control"). */
        while ((uint32_t)kq.m.cq_tail - (uint32_t)kq.m.cq_head >= kq.m.setup.cq_entries)
            kq_host_index(KQ_BROKEN_CQ_HEAD);
        kq_copy((volatile kq_word *)&((volatile struct kq_cpl *)hal_ug_ptr(kq.m.setup.cq_addr))
                    [kq_slot(kq.m.cq_tail, kq.m.setup.cq_entries)],
                (const kq_word *)&e, KQ_CPL_BYTES / 4);
        /* The entry is in memory before the index that publishes it. */
        hal_shared_release();
        kq_bump(&h->cq_tail.value, &kq.m.cq_tail);
        if (s.op == KQ_OP_STOP)
            HAL_COLD(kq_cold_stop, &e);         /* when it was accepted */
    }
}
