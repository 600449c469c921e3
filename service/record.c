/* record.c — records (docs/host-interface.md "Records", docs/service.md "Records"): a
 * descriptor list or a RUN step list checked once, as REPLAY and RUN check theirs, and kept in
 * the record area (cpu_map.h KX_FW_REC_OFFSET), memory the firmware owns: command data
 * overlapping it is refused (KS_BAD_ADDR) and so is every mover walk reaching it
 * (KS_MV_OWNED), the ranges boot extends here. What the firmware cannot refuse (a host write
 * through the host port, a unit program's write) is found by the digest kept here (kq.h
 * kq_rec_digest): REPLAY and RUN by handle recompute it over its span first (RV32: the whole
 * record; RV64: its steps, the lists being sealed moves that check themselves as they run,
 * mover/rv64/sealed.c) and run the kept bytes only when it matches, with no check and no read of
 * the host's memory (queue.c: the native path); else KS_REC_CHANGED and nothing runs. Everything
 * here runs once per RECORD / FORGET / RECORDS, at boot or on a refusal, so it is cold code on
 * RV32 (docs/kvm.md; the entry rules of kq_cold.c): two typed entries, kq_rec_exec (from
 * kq_cold.c, cold-to-cold) and kq_rec_result (from queue.c through HAL_COLD: no native stub). */
#include "kq_svc.h"

#define REC_FREE(slot)  KQ_REC_FREE(slot)
/* A descriptor list's record: one REPLAY step, a step of op 0 (it ends queue.c's loop, whose
 * count, the record's n, is then the list's moves: the value REPLAY ends with), the list. */
#define REC_HDR  (2u * KQ_STEP_BYTES)

static uint32_t round32(uint32_t b)
{
    return (b + 31u) & ~31u;
}

/* The record area: from KX_FW_REC_OFFSET, the boot block's rec_bytes (checked at boot,
 * boot/bootblock.c); the boot block is in the scratchpad, which the host cannot write while the
 * core runs. */
extern const struct kx_bootblock __kx_bootblock;   /* the linker's (boot/start.c): no call */
static uint32_t rec_hi(void)
{
    uint32_t nb = __kx_bootblock.rec_bytes;
    return KX_FW_REC_OFFSET + (nb ? nb : KQ_REC_DEF_BYTES);
}

/* The area's free runs start at its base or at a record's end (where no record covers that
 * point) and end at the next record's start or the area's end. Returns the start of the first
 * (a list's record) or the largest (a step list's, `largest`: its lists are kept after its steps
 * in the same run, so the run that holds it all exists exactly when the largest does) free
 * run of at least `need` bytes, or 0 (the area never starts at 0); *room: that run's bytes. */
static uint32_t rec_alloc(uint32_t need, uint32_t *room, uint32_t largest)
{
    const struct kq_recs *t = &kq_recs;
    uint32_t hi = rec_hi(), best = 0, slots = KQ_RECS_SLOTS(t);
    *room = 0;
    for (uint32_t c = 0; c <= slots; c++) {
        uint32_t at = KX_FW_REC_OFFSET, end = hi;
        if (c < slots) {
            if (!t->r[c].n)
                continue;                           /* free: n 0 (its other words unset) */
            at = t->r[c].ug + t->r[c].bytes;
        }
        for (uint32_t i = 0; i < slots; i++) {
            const struct kq_rec *r = &t->r[i];
            if (!r->n)
                continue;
            if (r->ug <= at && at < r->ug + r->bytes)
                end = at;                           /* inside a record: no run starts here */
            else if (r->ug > at && r->ug < end)
                end = r->ug;
        }
        if (end >= at + need && (!best || (largest ? end - at > *room : at < best))) {
            best = at;
            *room = end - at;
        }
    }
    return best;
}

static uint32_t rec_free_bytes(void)
{
    const struct kq_recs *t = &kq_recs;
    uint32_t used = 0;
    for (uint32_t i = 0; i < KQ_RECS_SLOTS(t); i++)
        if (t->r[i].n)
            used += t->r[i].bytes;
    return rec_hi() - KX_FW_REC_OFFSET - used;
}

static void fill(struct kq_err *e, unsigned st, uint32_t detail, uint64_t value)
{
    e->status = (uint16_t)st;
    e->detail = detail;
    e->value = value;
}

/* n words from host memory (as it is now) into the record area. */
static void rec_copy(uint32_t dst, uint64_t src, uint32_t words)
{
    volatile kq_word *d = (volatile kq_word *)hal_ug_ptr(dst);
    const volatile kq_word *s = (const volatile kq_word *)hal_ug_ptr(src);
    for (uint32_t i = 0; i < words; i++)
        d[i] = s[i];
}

/* A replay's outcome as REPLAY reports it (kq_cold.c cold_replay_result), under `step` in a
 * RUN (KQ_NO_STEP: a command). */
static void rec_result(struct kq_err *e, unsigned st, const struct kmv_result *r, uint32_t step)
{
    uint64_t v = st == KS_OK || st == KS_XFORM_UNCHECKED ? r->moves
                                                          : ((uint64_t)r->index << 32 | (uint32_t)r->value);
    fill(e, st, r->detail, step != KQ_NO_STEP ? kq_step_value(step, v) : v);
}

/* Validates the n writes at ug (the record area) as REPLAY validates its copy: with the
 * service's caps, the host's command data and list in use (owned) while it runs, and the index
 * words copied into the record at [idx, idx_end) not refused as owned (none: idx = idx_end). */
static unsigned rec_validate(uint32_t ug, uint32_t n, uint64_t cmd, uint64_t cmd_bytes,
                             uint64_t list, struct kmv_result *r, uint32_t idx, uint32_t idx_end)
{
    /* the owned ranges and caps (owned.c): a cold-to-cold call on RV32, on this chain's
     * interpreted stack (docs/kvm.md "Stack": 336 + 64 + its 16) */
    kq_cold_owned();                    /* idx_lo, idx_hi: 0 */
    if (idx != idx_end) {
        kq_caps.idx_lo = idx;
        kq_caps.idx_hi = idx_end;
    }
    kq_owned[KQ_OWN_CMD].lo = cmd;
    kq_owned[KQ_OWN_CMD].hi = cmd + cmd_bytes;
    kq_owned[KQ_OWN_LIST].lo = list;
    kq_owned[KQ_OWN_LIST].hi = list + (uint64_t)n * KD_RECORD_BYTES;
    /* through its native entry: its own interpreted stack on RV32 (docs/kvm.md "Stack") */
    unsigned st = kq_env.validate((const struct kd_write *)(uintptr_t)hal_ug_ptr(ug), n, &kq_caps, r);
    for (unsigned k = KQ_OWN_CMD; k < KQ_OWN_N; k++)
        kq_owned[k].lo = kq_owned[k].hi = 0;
    if (idx != idx_end)
        kq_caps.idx_lo = kq_caps.idx_hi = 0;
    return st;
}

/* A list kept as it is (RV32: BOARD_REC_SEALED 0) at `to`, n writes, validated: when it
 * gathers, the mover reads its index words at each replay, so they are kept in the record too
 * (from at + *used, before at + room), its INDEX writes pointed at them (kq_copy_indices,
 * owned.c) and the list validated again against them: the record holds the indices that were
 * checked, under its digest, whatever the host's copy becomes. KS_OK with *used past them,
 * KS_REC_FULL (no room; detail: at least one word more), or the validation's status in r. */
static unsigned rec_indices(uint32_t at, uint32_t room, uint32_t *used, uint32_t to, uint32_t n,
                            uint64_t cmd, uint64_t cmd_bytes, uint64_t list, struct kmv_result *r)
{
    uint32_t slot = at + *used;
    int slots = kq_copy_indices((struct kd_write *)(uintptr_t)hal_ug_ptr(to), n, slot, at + room);
    if (slots < 0) {
        r->detail = *used + KMV_WORD_BYTES;
        return KS_REC_FULL;
    }
    if (!slots)
        return KS_OK;
    *used += (uint32_t)slots * KMV_WORD_BYTES;
    return rec_validate(to, n, cmd, cmd_bytes, list, r, slot, at + *used);
}

/* A list kept as it is and copied from another record (a RUN's REPLAY_H step) to `to`: its
 * INDEX writes that point into the bytes it was copied from (its index words, kept after it:
 * rec_indices) are pointed at their copies, so this record stands whatever becomes of that one. */
static void rec_relocate(uint32_t to, uint32_t n, uint64_t from, uint32_t bytes)
{
    struct kd_write *w = (struct kd_write *)(uintptr_t)hal_ug_ptr(to);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = kd_value(&w[i]), base = KBF_FIELD_GET(KMV_INDEX_BASE, v);
        if (w[i].off == KMV_REG_INDEX && base - from < bytes)
            w[i] = kd_make(KMV_REG_INDEX, (v & ~(uint64_t)KMV_INDEX_BASE) |
                                          KBF_FIELD_PREP(KMV_INDEX_BASE, base - from + to));
    }
}

/* Sealed boards (BOARD_REC_SEALED): the n writes at src copied into the firmware's copy buffer
 * and validated there, as REPLAY validates its copy; KS_OK with *bytes = what sealing them
 * takes (kmv_seal sizing them, rounded up to 32), else the validation's status in r. */
static unsigned rec_stage(uint64_t src, uint32_t n, uint64_t cmd, uint64_t cmd_bytes,
                          struct kmv_result *r, uint32_t *bytes)
{
    rec_copy(KX_FW_COPY_OFFSET, src, n * KD_RECORD_WORDS);
    unsigned vs = rec_validate(KX_FW_COPY_OFFSET, n, cmd, cmd_bytes, src, r, 0, 0);
    uint32_t moves;
    *bytes = round32(kmv_seal(0, (const struct kd_write *)(uintptr_t)hal_ug_ptr(KX_FW_COPY_OFFSET), n,
                              &moves) * 8u);
    return vs;
}

/* The staged list (rec_stage) sealed at `to`, kept as the REPLAY step *k runs it: n its writes,
 * addr its moves, rsvd2 how many, rsvd3 their bytes (a RUN's REPLAY_H step copies them). */
static void rec_seal(struct kq_step *k, uint32_t to, uint32_t n, uint32_t bytes)
{
    uint32_t moves;
    (void)kmv_seal((volatile uint64_t *)(uintptr_t)hal_ug_ptr(to),
                   (const struct kd_write *)(uintptr_t)hal_ug_ptr(KX_FW_COPY_OFFSET), n, &moves);
    k->op = KQ_STEP_REPLAY;
    k->n = n;
    k->addr = to;
    k->rsvd2 = moves;
    k->rsvd3 = bytes;
}

/* The slot a new record takes, or KQ_REC_SLOTS (none free). */
static uint32_t rec_slot(void)
{
    uint32_t i = 0;
    while (i < KQ_RECS_SLOTS(&kq_recs) && kq_recs.r[i].n)
        i++;
    return i < KQ_RECS_SLOTS(&kq_recs) ? i : KQ_REC_SLOTS;
}

/* writes (a descriptor list: its REPLAY step's n) or steps */
static uint32_t rec_count(const struct kq_rec *r)
{
    if (r->handle & KQ_H_STEPS)
        return r->n;
    return ((const struct kq_step *)(uintptr_t)hal_ug_ptr(r->ug))->n;   /* r->n: its moves */
}

/* RECORD: checked as REPLAY / RUN check theirs, then kept; value = the handle. */
static void rec_record(const struct kq_sub *s, struct kq_err *e)
{
    uint32_t steps = s->flags & KQ_SUB_F_STEPS ? KQ_H_STEPS : 0;
    uint32_t n = s->count;
    uint32_t first = steps ? n * KQ_STEP_BYTES : n * KD_RECORD_BYTES;
    uint32_t hdr = steps ? 0 : REC_HDR;
    uint32_t room, slot;
    /* The host's data as it is in memory now (RV32: write back, then drop every line). */
    hal_shared_release();
    hal_shared_acquire();
    struct kmv_result r;
    r.value = 0;                                    /* validation reads no mover status */
    uint32_t kept = round32(first);                 /* the bytes the list (or the steps) take */
    if (BOARD_REC_SEALED && !steps) {
        unsigned vs = rec_stage(s->addr, n, s->addr, first, &r, &kept);
        if (vs != KS_OK) {
            rec_result(e, vs, &r, KQ_NO_STEP);
            return;
        }
    }
    /* no free handle (value 1) or no free run of bytes (2): detail = the bytes it would hold */
    slot = rec_slot();
    uint32_t at = slot == KQ_REC_SLOTS ? 0 : rec_alloc(hdr + kept, &room, steps);
    if (!at) {
        fill(e, KS_REC_FULL, hdr + kept, slot == KQ_REC_SLOTS ? 1 : 2);
        return;
    }
    uint32_t detail, used = hdr + kept;
    struct kq_step *st = (struct kq_step *)(uintptr_t)hal_ug_ptr(at);
    /* the digest's span when sealed: the steps (a list's record: its two); else every byte */
    uint32_t span = steps ? n * KQ_STEP_BYTES : REC_HDR;
    if (!BOARD_REC_SEALED || steps)
        rec_copy(at + hdr, s->addr, first / 4u);
    if (!steps) {
        if (!BOARD_REC_SEALED) {
            unsigned vs = rec_validate(at + hdr, n, s->addr, first, s->addr, &r, 0, 0);
            if (vs == KS_OK)
                vs = rec_indices(at, room, &used, at + hdr, n, s->addr, first, s->addr, &r);
            if (vs == KS_REC_FULL) {
                fill(e, vs, r.detail, 2);
                return;
            }
            if (vs != KS_OK) {
                rec_result(e, vs, &r, KQ_NO_STEP);
                return;
            }
        }
        /* the step that runs it (queue.c runs every record as steps) */
        volatile kq_word *w = (volatile kq_word *)st;
        for (unsigned k = 0; k < REC_HDR / 4u; k++)
            w[k] = 0;
        if (BOARD_REC_SEALED) {
            rec_seal(st, at + hdr, n, kept);
        } else {
            st->op = KQ_STEP_REPLAY;
            st->n = n;
            st->addr = at + hdr;
            st->rsvd3 = used - hdr;                 /* the list and its index words */
        }
        detail = n;
        n = r.moves;                                /* >= 1: a valid list ends with a GO */
    } else {
        /* The RUN's checks on the kept steps (WAITs against the DISPATCHes before them, every
         * field, every REPLAY_H's handle); each REPLAY step's list is copied after the steps
         * and validated there, where it will run, so checked and kept are the same bytes. */
        uint32_t tally[KX_BOOT_MAX_UNITS];
        for (unsigned u = 0; u < KX_BOOT_MAX_UNITS; u++)
            tally[u] = 0;
        kq_env.at_use = 2;              /* lists validated below, on their copies; steps kept */
        for (uint32_t i = 0; i < n; i++) {
            if (kq_step_check(&st[i], &kq_env, tally, e) != KS_OK) {
                e->value = kq_step_value(i, e->value);
                kq_env.at_use = 0;
                return;
            }
        }
        kq_env.at_use = 0;
        for (uint32_t i = 0; i < n; i++, st++) {
            if (st->op != KQ_STEP_REPLAY && st->op != KQ_STEP_REPLAY_H)
                continue;
            uint32_t w = st->n;
            uint64_t src = st->addr;
            const struct kq_rec *h = 0;
            const struct kq_step *hs = 0;
            uint32_t b = round32(w * KD_RECORD_BYTES);
            if (st->op == KQ_STEP_REPLAY_H) {
                /* a recorded list: its bytes copied in (checked when it was recorded; sealed
                 * moves as they are, still sealed), so this record stands whatever becomes of
                 * that one */
                struct kq_err he;
                (void)kq_rec_check(&kq_env, (uint32_t)src, 0, &he, &h);   /* checked above */
                hs = (const struct kq_step *)(uintptr_t)hal_ug_ptr(h->ug);
                w = hs->n;
                src = hs->addr;
                b = (uint32_t)hs->rsvd3;            /* kept: with its index words (RV32) */
            } else if (BOARD_REC_SEALED) {
                /* refused as RUN's check refuses it: value = the step | the write */
                unsigned vs = rec_stage(src, w, s->addr, first, &r, &b);
                if (vs != KS_OK) {
                    fill(e, vs, r.detail, kq_step_value(i, r.index));
                    return;
                }
            }
            if (b > room - used) {
                fill(e, KS_REC_FULL, used + b, 2);
                return;
            }
            uint32_t to = at + used;
            if (BOARD_REC_SEALED && !h) {
                rec_seal(st, to, w, b);
                used += b;
                continue;
            }
            rec_copy(to, src, h ? b / 4u : w * KD_RECORD_WORDS);
            if (h && !BOARD_REC_SEALED)
                rec_relocate(to, w, src, b);
            if (!BOARD_REC_SEALED && !h) {
                /* refused as RUN's check refuses it: value = the step | the write */
                uint32_t u = used + b;
                unsigned vs = rec_validate(to, w, s->addr, first, src, &r, 0, 0);
                if (vs == KS_OK)
                    vs = rec_indices(at, room, &u, to, w, s->addr, first, src, &r);
                if (vs == KS_REC_FULL) {
                    fill(e, vs, r.detail, 2);
                    return;
                }
                if (vs != KS_OK) {
                    fill(e, vs, r.detail, kq_step_value(i, r.index));
                    return;
                }
                b = u - used;                       /* the list and its index words */
            }
            /* kept in the form a recorded RUN runs: a REPLAY of a list in the record area */
            st->op = KQ_STEP_REPLAY;
            st->n = w;
            st->addr = to;
            if (BOARD_REC_SEALED)
                st->rsvd2 = hs->rsvd2;
            st->rsvd3 = b;
            used += b;
        }
        detail = n;
    }
    uint32_t handle = ((uint32_t)kq.m.sq_head << KQ_H_GEN_SHIFT) | steps | slot;
    struct kq_rec *k = &kq_recs.r[slot];
    k->key = KQ_REC_KEY(handle);
    k->handle = handle;
    k->n = n;
    k->ug = at;
    k->bytes = used;
    k->span = BOARD_REC_SEALED ? span : used;
    /* what every use checks first (queue.c): the bytes as kept, every one of the span (a
     * list's padding too), read as the use reads them once the lines below are written back */
    k->sum = 0 - kq_rec_digest(hal_ug_ptr(at), k->span, 0);
    kq_recs.gen_hi = ((uint32_t)kq.m.sq_head + 1u) & 0xFFFFFFu;
    /* in memory, not only in the cache: the at-use reads come after acquires that drop lines */
    hal_shared_release();
    fill(e, KS_OK, detail, handle);
}

static void rec_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (s->op == KQ_OP_RECORD) {
        rec_record(s, e);
    } else if (s->op == KQ_OP_FORGET) {
        const struct kq_rec *r;
        uint32_t h = (uint32_t)s->addr;
        if (kq_rec_check(&kq_env, h, h & KQ_H_STEPS, e, &r) == KS_OK) {
            struct kq_rec *k = &kq_recs.r[h & KQ_H_SLOT];
            uint32_t b = k->bytes;
            k->key = REC_FREE(h & KQ_H_SLOT);
            k->n = 0;
            fill(e, KS_OK, 0, b);
        }
    } else {                                        /* KQ_OP_RECORDS */
        volatile kq_word *d = (volatile kq_word *)hal_ug_ptr(s->addr);
        uint32_t live = 0;
        for (uint32_t i = 0; i < KQ_RECS_SLOTS(&kq_recs); i++) {
            const struct kq_rec *r = &kq_recs.r[i];
            if (!r->n)
                continue;
            if (live < s->count) {
                volatile kq_word *l = d + live * (sizeof(struct kq_rec_info) / 4u);
                l[0] = r->handle;
                l[1] = rec_count(r);
                l[2] = r->bytes;
                l[3] = r->ug;
                for (unsigned k = 4; k < 8; k++)
                    l[k] = 0;
            }
            live++;
        }
        hal_shared_release();
        fill(e, KS_OK, rec_free_bytes(), live);
    }
}

/* kq_svc.h: RECORD, FORGET, RECORDS; a REPLAY / RUN by handle that queue.c's lookup did not
 * find gets its named status here (KS_REC_*). Called from kq_cold_exec (cold-to-cold). */
void kq_rec_exec(const struct kq_sub *s, struct kq_err *e)
{
    if (s->flags & KQ_SUB_F_HANDLE) {
        const struct kq_rec *r;
        /* Held and of this kind, yet queue.c did not run it: its bytes no longer gave the
         * digest RECORD kept. Nothing ran; the record stays held (every use checks again). */
        if (kq_rec_check(&kq_env, (uint32_t)s->addr, s->op == KQ_OP_RUN ? KQ_H_STEPS : 0, e, &r) == KS_OK)
            fill(e, KS_REC_CHANGED, (uint32_t)s->addr, 0);
    } else {
        rec_exec(s, e);
    }
}

/* kq_svc.h: a recorded list's replay ended st != KS_OK. */
unsigned kq_rec_result(struct kq_err *e, unsigned st, const struct kmv_result *r, uint32_t step)
{
    if (kq_env.sub->op == KQ_OP_REPLAY)
        step = KQ_NO_STEP;                          /* a REPLAY by handle: as REPLAY reports */
    if (st == KS_XFORM_UNCHECKED) {
        /* RV64: the moves ran; the RUN goes on and ends saying so */
        e->status = KS_XFORM_UNCHECKED;
        e->detail += r->detail;
        return KS_OK;
    }
    if (st == KS_REC_CHANGED) {
        /* a sealed move no longer as recorded (mover/rv64/sealed.c): it and every move after
         * it did not run; detail = the command's handle, value = the moves that ran (under
         * the step in a RUN) */
        fill(e, st, (uint32_t)kq_env.sub->addr,
             step != KQ_NO_STEP ? kq_step_value(step, r->moves) : r->moves);
        return st;
    }
    rec_result(e, st, r, step);
    return st;
}
