/* kq_svc.h — the service's firmware-only state and internals, shared by queue.c (the loop)
 * and the cold files (kq_cold.c, owned.c, record.c: the paths that run once or only on
 * failure), and the cold entries' prototypes. Not for host builds: it needs dispatch/ and
 * hal/. kq.h is the service's API. */
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

/* `first` of kq_cold_group_failed (and a replay result's step, kq_cold.c) for a command (not
 * a RUN's steps) */
#define KQ_NO_STEP  0xFFFFFFFFu

/* ---- Cold paths (kq_cold.c: run once at boot or only on failure; docs/service.md "Cold
 * code") ----
 * One typed entry per path. queue.c calls each through HAL_COLD (hal.h; docs/kvm.md "Cold
 * entries"): on RV32, where kq_cold.c is cold (mk/firmware.mk FW_COLD_rv32, the one list of
 * cold files and their entries), the call site enters the interpreter itself (an entry load
 * and a call of kvm_call, no native stub per entry); on RV64 a plain call. Not the fatal
 * path: that is native and runs once (queue.c kx_fatal_hook), never through the interpreter
 * it may be reporting. */

/* Boot refused: the queue the boot block names broke setup rule `rule` (KQ_SETUP_*): says so
 * on the console and stops the core with KX_BOOT_BAD_QUEUE; rule 0: dispatch/ refused the boot
 * block's unit table, the core stops with KX_BOOT_BAD_UNITS. */
__attribute__((noreturn)) void kq_cold_refuse(unsigned rule);

/* No unit table in the boot block: enumerates the default scan range into kq.dp
 * (per-coordinate reply wait min(kq.dp.wait_cycles, 4000): the boot block's, kdp_init set it);
 * finding none is not fatal. */
void kq_cold_enumerate(void);

/* A restart found a submission taken and never completed: e becomes its KS_ABORTED
 * completion (the tag kept on the sq_head line, detail, value and cycles 0). */
void kq_cold_aborted(struct kq_err *e);

/* The commands no bench figure measures, once kq_sub_check accepted s: REPLAY (copied,
 * validated, then replayed from the copy: each move is native), UNITS (the table published
 * again), STOP (nothing to do before its completion); RECORD, FORGET, RECORDS and a REPLAY /
 * RUN by a handle queue.c's lookup did not find (record.c kq_rec_exec, called from here
 * cold-to-cold: docs/kvm.md "Stack"); fills e. NOP, RUN and DISPATCH stay in queue.c
 * (cmd_overhead_insns, host_vs_fw_ratio, dispatch_cmd_fixed_cycles). */
void kq_cold_exec(const struct kq_sub *s, struct kq_err *e);

/* The group kq.job[0..n-1] failed in kdp_run with st: e = dispatch/'s first error (detail,
 * value), the value under the failing job's step in a RUN (the group is the consecutive
 * DISPATCH steps first .. first + n - 1; value[63:48]), as it is for a DISPATCH command
 * (first KQ_NO_STEP). st KS_REC_CHANGED (queue.c kq_group): the group ran and a recorded RUN's
 * record no longer gives its digest: e = KS_REC_CHANGED, detail = the handle, value = step
 * first + n, the first not run (n: every step ran, the record changed under the last group). */
void kq_cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first);

/* A STOP was posted with e: when it was accepted (KS_OK), marks the state line STOPPED and
 * stops the core; else returns (a refused STOP stops nothing). */
void kq_cold_stop(const struct kq_err *e);

/* A RUN's REPLAY step i, st (the step's checked copy): copies its list into the firmware's
 * copy buffer, validates the copy (kq_steps_check validated the list in place when the RUN was
 * accepted; this second validation is what makes a list rewritten since harmless) and replays
 * it from there (cold_replay_copy: validation through kq_env.validate, then
 * kmv_replay_validated, the moves native). A refusal at use is KS_CHANGED (detail = the
 * validator's status); any other failure is the REPLAY command's, under step i
 * (value[63:48]). RV64's KS_XFORM_UNCHECKED is kept in e and the RUN goes on (returns KS_OK).
 * The glue is cold: no bench figure runs a RUN with a REPLAY step (host_vs_fw_ratio's RUN is
 * DISPATCH and WAIT steps; replay_insns_per_write calls kmv_replay_validated itself). */
unsigned kq_cold_run_replay(struct kq_err *e, const struct kq_step *st, uint32_t i);

/* RUN step i (its copy at use, st) failed kq_step_use (the host rewrote it mid-command): e
 * becomes KS_CHANGED, detail = the status the step's full check gives (kq_step_check on the
 * copy), value = step i | that check's value. */
void kq_cold_changed(struct kq_err *e, const struct kq_step *st, uint32_t i);

/* Before a list is validated (kq_env.prepare: a RUN's REPLAY step list at acceptance; record.c
 * cold-to-cold) and before every replay of a copy: kq_caps = this variant's caps with the
 * owned ranges (kq_owned: the firmware's DRAM, the queue header, both rings; the command's
 * slots are set by the caller) and the index reader (kq_env.map, the processor's DRAM
 * reach), installed for kmv_replay (kmv_caps_use) and used by the service's own validations.
 * On the cold path, not at boot: boot_insns does not pay for it. */
void kq_cold_owned(void);
/* owned.c: a gathering list's index words copied to firmware memory from slot_ug (before
 * end_ug), its INDEX writes pointed there; the slots used, or -1 (no room). */
int kq_copy_indices(struct kd_write *w, uint32_t n, uint64_t slot_ug, uint64_t end_ug);

/* record.c's entries (cold on RV32):
 * kq_rec_exec (from kq_cold_exec, cold-to-cold): RECORD, FORGET, RECORDS; a REPLAY / RUN by
 *   handle whose handle queue.c's lookup did not find, or whose record no longer gave its
 *   digest: the named status (KS_REC_*);
 * kq_rec_result (queue.c kq_replay_rec, through HAL_COLD): a recorded list's replay ended
 *   st != KS_OK: e as REPLAY reports it (under step in a RUN; a REPLAY by handle: as the
 *   command); returns KS_OK where a RUN goes on (RV64 KS_XFORM_UNCHECKED), else st.
 * An unrecorded RUN's REPLAY_H step becomes, in its at-use copy, the REPLAY of its record's
 * list (kq_check_cold.c), and runs as REPLAY steps do. */
void kq_rec_exec(const struct kq_sub *s, struct kq_err *e);
unsigned kq_rec_result(struct kq_err *e, unsigned st, const struct kmv_result *r, uint32_t step);
#endif
