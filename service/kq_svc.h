/* kq_svc.h — the service's firmware-only state and internals, shared by queue.c (the loop)
 * and kq_cold.c (the paths that run once or only on failure). Not for host builds: it needs
 * dispatch/ and hal/. kq.h is the service's API. */
#ifndef KOHAKU_KQ_SVC_H
#define KOHAKU_KQ_SVC_H

#include "kq.h"
#include "boot.h"
#include "dispatch.h"
#include "hal/shared.h"

/* A 32-bit word that may alias anything: the word copies below move structs of other types. */
typedef uint32_t __attribute__((may_alias)) kq_word;

/* The queue as the firmware keeps it: the setup line and the four index values, taken at boot.
 * The host's indices (sq_tail, cq_head) are compared by their low words only: each was
 * checked to be within [0, entries] <= 4096 of the firmware's own index (modulo 2^64) when read
 * (kq_host_index), so the low words' difference modulo 2^32 is the whole difference. */
struct kq_lines {
    struct kq_setup setup;          /* as accepted: a host that changes it later is not heard */
    uint64_t sq_tail;               /* the host's sq_tail as last read */
    uint64_t sq_head;               /* taken, ever (the firmware's; header line 2 mirrors it) */
    uint64_t cq_tail;               /* posted, ever (the firmware's; header line 3 mirrors it) */
    uint64_t cq_head;               /* the host's cq_head as last read: room is at least this */
};

struct kq_svc {
    struct kq_lines m;
    struct kdp_ctx dp;
    /* RUN's group of DISPATCH steps (and a DISPATCH command's targets) */
    struct kdp_prog prog[KDP_MAX_JOBS];
    struct kdp_job job[KDP_MAX_JOBS];
};

/* The service's state (queue.c; in .noinit: kq_boot and kdp_init set it before use). */
extern struct kq_svc kq;
/* The header once accepted (queue.c); NULL before, so the fatal hook never writes through
 * garbage. */
extern volatile struct kq_header *kq_hdr;
/* The checks' environment, the owned ranges and the caps that carry them (queue.c). */
extern struct kq_env kq_env;
extern struct kmv_span kq_owned[KQ_OWN_N];
extern struct kmv_caps kq_caps;
/* The records (queue.c, .noinit: kq_boot frees every slot, n = 0). */
extern struct kq_recs kq_recs;

/* ---- For kq_cold.c ---- */
/* `first` of kq_cold_group_failed (and a replay result's step, kq_cold.c) for a command (not
 * a RUN's steps) */
#define KQ_NO_STEP  0xFFFFFFFFu

/* ---- Cold paths (kq_cold.c: run once at boot or only on failure; docs/service.md "Cold
 * code") ----
 * One entry, kq_cold, for all of them: each cold entry costs the RV32 window a 12-byte native
 * stub (hal/rv32/kvm_stub.c), and one `li` of `what` at a call site is 4. The typed wrappers
 * below are the API; `what` picks the path and says which arguments follow (32-bit scalars and
 * pointers: the variadic words travel in a1..a5 exactly as fixed ones would, so the stub's
 * register pass-through carries them). Not the fatal path: that is native and runs once
 * (queue.c kx_fatal_hook), never through the interpreter it may be reporting. */
enum kq_cold_what {
    /* 0 .. KQ_SETUP_INDICES: kq_cold_refuse(rule), the rule itself as `what` (no argument) */
    KQ_COLD_ENUMERATE = 16,         /* () */
    KQ_COLD_ABORTED,                /* (struct kq_err *) */
    KQ_COLD_EXEC,                   /* (struct kq_err *, const struct kq_sub *) */
    KQ_COLD_GROUP_FAILED,           /* (struct kq_err *, unsigned st, unsigned n, uint32_t first) */
    KQ_COLD_STOP,                   /* (const struct kq_err *) */
    KQ_COLD_RUN_REPLAY,             /* (struct kq_err *, const struct kq_step *, uint32_t i) */
    KQ_COLD_OWNED,                  /* () */
    KQ_COLD_CHANGED,                /* (struct kq_err *, const struct kq_step *, uint32_t i) */
    KQ_COLD_REC_RESULT,             /* (struct kq_err *, unsigned st, const struct kmv_result *,
                                     *  uint32_t step) */
};
_Static_assert(KQ_COLD_OWNED == KQ_PREPARE_OWNED, "kq_env.prepare's one call");
_Static_assert((unsigned)KQ_SETUP_INDICES < (unsigned)KQ_COLD_ENUMERATE, "refusal rules below the other paths");
uint32_t kq_cold(unsigned what, ...);
/* The owned ranges and the caps that carry them (KQ_COLD_OWNED's body, kq_cold.c): before a
 * list is validated. An entry of its own for record.c's cold-to-cold call. */
void kq_cold_owned(void);

/* Boot refused: the queue the boot block names broke setup rule `rule` (KQ_SETUP_*): says so
 * on the console and stops the core with KX_BOOT_BAD_QUEUE; rule 0: dispatch/ refused the boot
 * block's unit table, the core stops with KX_BOOT_BAD_UNITS. */
static inline __attribute__((noreturn)) void kq_cold_refuse(unsigned rule)
{
    kq_cold(rule);
    __builtin_unreachable();
}

/* No unit table in the boot block: enumerates the default scan range into kq.dp
 * (per-coordinate reply wait min(kq.dp.wait_cycles, 4000): the boot block's, kdp_init set it);
 * finding none is not fatal. */
static inline void kq_cold_enumerate(void)
{
    kq_cold(KQ_COLD_ENUMERATE);
}

/* A restart found a submission taken and never completed: e becomes its KS_ABORTED
 * completion (the tag kept on the sq_head line, detail, value and cycles 0). */
static inline void kq_cold_aborted(struct kq_err *e)
{
    kq_cold(KQ_COLD_ABORTED, e);
}

/* The commands no bench figure measures, once kq_sub_check accepted s: REPLAY (copied,
 * validated, then replayed from the copy: each move is native), STOP (nothing to do before its
 * completion); RECORD, FORGET, RECORDS and a REPLAY / RUN by a handle queue.c's lookup did not
 * find (record.c kq_rec_exec, called from kq_cold: kq_cold 144 + kq_rec_exec 336 + rec_validate
 * 64 + kq_cold_owned 16 = 560 of the interpreted stack's 576, docs/kvm.md "Stack"); fills e.
 * NOP, RUN, DISPATCH and UNITS stay in queue.c (cmd_overhead_insns, host_vs_fw_ratio,
 * dispatch_cmd_fixed_cycles, units_cmd_cycles). */
static inline void kq_cold_exec(const struct kq_sub *s, struct kq_err *e)
{
    kq_cold(KQ_COLD_EXEC, e, s);
}

/* A recorded list's replay (queue.c kq_replay_rec) ended st != KS_OK: e as REPLAY reports it
 * (under step in a RUN; a REPLAY by handle: as the command); returns KS_OK where a RUN goes on
 * (RV64 KS_XFORM_UNCHECKED), else st. record.c kq_rec_result, through kq_cold. */
static inline unsigned kq_cold_rec_result(struct kq_err *e, unsigned st, const struct kmv_result *r,
                                          uint32_t step)
{
    return kq_cold(KQ_COLD_REC_RESULT, e, st, r, step);
}

/* The group kq.job[0..n-1] failed in kdp_run with st: e = dispatch/'s first error (detail,
 * value), the value under the failing job's step in a RUN (the group is the consecutive
 * DISPATCH steps first .. first + n - 1; value[63:48]), as it is for a DISPATCH command
 * (first KQ_NO_STEP). */
static inline void kq_cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first)
{
    kq_cold(KQ_COLD_GROUP_FAILED, e, st, n, first);
}

/* A STOP was posted with e: when it was accepted (KS_OK), marks the state line STOPPED and
 * stops the core; else returns (a refused STOP stops nothing). */
static inline void kq_cold_stop(const struct kq_err *e)
{
    kq_cold(KQ_COLD_STOP, e);
}

/* A RUN's REPLAY step i, st (the step's checked copy): copies its list into the firmware's
 * copy buffer, validates the copy (kq_steps_check validated the list in place when the RUN was
 * accepted; this second validation is what makes a list rewritten since harmless) and replays
 * it from there (cold_replay_copy: validation through kq_env.validate, then
 * kmv_replay_validated, the moves native). A refusal at use is KS_CHANGED (detail = the
 * validator's status); any other failure is the REPLAY command's, under step i
 * (value[63:48]). RV64's KS_XFORM_UNCHECKED is kept in e and the RUN goes on (returns KS_OK).
 * The glue is cold: no bench figure runs a RUN with a REPLAY step (host_vs_fw_ratio's RUN is
 * DISPATCH and WAIT steps; replay_insns_per_write calls kmv_replay_validated itself). */
static inline unsigned kq_cold_run_replay(struct kq_err *e, const struct kq_step *st, uint32_t i)
{
    return kq_cold(KQ_COLD_RUN_REPLAY, e, st, i);
}


/* KQ_COLD_OWNED (through kq_env.prepare, before every list validation, and before every
 * replay): kq_caps = this variant's caps with the owned ranges (kq_owned: the firmware's DRAM,
 * the queue header, both rings; the command's slots are set by the caller) and the index
 * reader (kq_env.map, the processor's DRAM reach), installed for kmv_replay (kmv_caps_use) and used by the service's own validations.
 * On the cold path, not at boot: boot_insns does not pay for it. */

/* RUN step i (its copy at use, st) failed kq_step_use (the host rewrote it mid-command): e
 * becomes KS_CHANGED, detail = the status the step's full check gives (kq_step_check on the
 * copy), value = step i | that check's value. */
static inline void kq_cold_changed(struct kq_err *e, const struct kq_step *st, uint32_t i)
{
    kq_cold(KQ_COLD_CHANGED, e, st, i);
}


/* record.c's entries (cold on RV32, called only from kq_cold.c):
 * kq_rec_exec: RECORD, FORGET, RECORDS; a REPLAY / RUN by handle whose handle queue.c's lookup
 *   did not find, or whose record no longer gave its digest: the named status (KS_REC_*);
 * kq_rec_result: kq_cold_rec_result's body.
 * An unrecorded RUN's REPLAY_H step becomes, in its at-use copy, the REPLAY of its record's
 * list (kq_check_cold.c), and runs as REPLAY steps do. */
void kq_rec_exec(const struct kq_sub *s, struct kq_err *e);
unsigned kq_rec_result(struct kq_err *e, unsigned st, const struct kmv_result *r, uint32_t step);
#endif
