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
    uint32_t wait_cycles;
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

/* ---- queue.c, for kq_cold.c ---- */
unsigned kq_publish_units(void);                /* the unit table into the header; its count */
/* `first` / `step` of kq_cold_group_failed / kq_cold_replay_result for a command (not a
 * RUN's steps) */
#define KQ_NO_STEP  0xFFFFFFFFu

/* ---- Cold paths (kq_cold.c: run once at boot or only on failure; docs/service.md "Cold
 * code") ---- */

/* Boot refused: the queue the boot block names broke setup rule `rule` (KQ_SETUP_*): says so
 * on the console and stops the core with KX_BOOT_BAD_QUEUE; rule 0: dispatch/ refused the boot
 * block's unit table, the core stops with KX_BOOT_BAD_UNITS. */
void kq_cold_refuse(unsigned rule) __attribute__((noreturn));

/* No unit table in the boot block: enumerates the default scan range into kq.dp
 * (per-coordinate reply wait min(wait_cycles, 4000)); finding none is not fatal. */
void kq_cold_enumerate(uint32_t wait_cycles);

/* A restart found a submission taken and never completed: e becomes its KS_ABORTED
 * completion (the tag kept on the sq_head line, detail, value and cycles 0). */
void kq_cold_aborted(struct kq_err *e);

/* The commands no issue 8 figure measures, once kq_sub_check accepted s: REPLAY (kmv_replay
 * validates, then runs: each move is native), DISPATCH (one group of ntargets jobs through
 * kdp_run), UNITS, STOP (nothing to do before its completion); fills e. NOP and RUN stay
 * in queue.c (cmd_overhead_insns, host_vs_fw_ratio). */
void kq_cold_exec(const struct kq_sub *s, struct kq_err *e);

/* e from a replay's outcome st and r: OK with the moves done; else r's detail and value = the
 * write concerned in [63:32], the mover status word's low half in [31:0] — under the step
 * index (value[63:48]) for a RUN's REPLAY step, as it is for a command (step KQ_NO_STEP). */
void kq_cold_replay_result(struct kq_err *e, unsigned st, const struct kmv_result *r,
                           uint32_t step);

/* The group kq.job[0..n-1] failed in kdp_run with st: e = dispatch/'s first error (detail,
 * value), the value under the failing job's step in a RUN (the group is the consecutive
 * DISPATCH steps first .. first + n - 1; value[63:48]), as it is for a DISPATCH command
 * (first KQ_NO_STEP). */
void kq_cold_group_failed(struct kq_err *e, unsigned st, unsigned n, uint32_t first);

/* A STOP was posted with e: when it was accepted (KS_OK), marks the state line STOPPED and
 * stops the core; else returns (a refused STOP stops nothing). */
void kq_cold_stop(const struct kq_err *e);

/* The fatal hook's work (boot/fatal.c kx_fatal_hook, which queue.c defines to call this): the
 * state line FATAL with its code, cause, PC and tval, when a queue was accepted. */
void kq_cold_fatal(uint64_t word);

#endif
