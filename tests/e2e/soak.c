/* soak.c — the soak (docs/reliability.md "Soak"): against a node booted by
 * `kactl boot` (default unit map, enumerated), submits N mixed commands through libkohaku —
 * NOPs, UNITS, descriptor-list replays, dispatches of TU writes (each its own seed and place) to
 * one or two TUs, NPU programs rotating over the NPs in use, step lists, malformed submissions —
 * and every FAULT_EVERY commands a fault armed through the host port (a unit fault, a dropped
 * completion of a TU or of an NP program's last instruction, a mover AXI error, a slow unit;
 * twice a hung NP, which the soak then stops using: only a reset frees a hang, docs/model.md §8)
 * met by one command, a dropped completion or a hang followed by a command on the same unit or
 * (hang) another NP that must succeed. Checks that every submission completes exactly
 * once, in order, with the status, detail and value status.h and the command say; that every
 * TU write put its own pattern in DRAM and a unit-faulted one wrote nothing; the replayed copy; the
 * progress line of the last step list; the queue indices; and the referee counters zero every
 * 1,000 commands and at the end. Prints its figures (commands, seconds, per-status counts).
 * Usage: soak SOCKET VARIANT N DEMO_DIR      exit 0 and a "PASS:" line only when all held.
 * Expected values are literals: statuses and their detail/value from include/kohaku/status.h
 * and docs/host-interface.md, TIMEOUT's detail and value from docs/reliability.md's fault matrix;
 * the TU WRITE pattern (64-bit lane j of beat b = seed + 4b + j)
 * and encodings from docs/model-mesh.md §5; the default map of docs/model-mesh.md §1. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kohaku/desc_list.h"
#include "kohaku/hostport.h"
#include "kohaku/status.h"
#include "libkohaku.h"

/* The soak's own DRAM, clear of kactl's queue (0x800000) and data area (0x900000..). */
#define S_BASE      UINT64_C(0xA00000)
#define S_PROGS     (S_BASE + 0x00000)    /* 64 one-instruction TU programs, 32 bytes each */
#define S_STEPS     (S_BASE + 0x01000)    /* 64 step lists of 3 steps, 128 bytes apart */
#define S_COPY      (S_BASE + 0x03000)    /* the demo's copy list */
#define S_SOFTMAX   (S_BASE + 0x04000)    /* the demo's NPU program */
#define S_OUT       (S_BASE + 0x10000)    /* TU write slots, 32 bytes each */
#define S_OUT_SLOTS 4096u
#define BATCH_MAX   64u
#define FAULT_EVERY 300u
/* The fault slots (every FAULT_EVERY commands, counted from 0) that hang an NP instead of the
 * rotation: the 6th and the 12th, so the 2,000-command form in `make test` meets one. Each
 * hangs the last NP still in use (4,1, then 3,1); 1,1 and 2,1 serve the rest of the run. */
static const unsigned hang_slot[] = { 5, 11 };
#define NHANG (sizeof hang_slot / sizeof hang_slot[0])
/* The demo's copy list moves X 0x180000 -> 0x100000 (32 bytes) and W 0x181000 -> 0x101000. */
#define X_SRC       UINT64_C(0x180000)
#define X_DST       UINT64_C(0x100000)
#define X_BYTES     32u

enum kind {
    K_NOP, K_UNITS, K_REPLAY, K_TU_WRITE, K_TU_PAIR, K_NPU, K_RUN, K_BAD_OP, K_BAD_ALIGN,
    K_BAD_TARGET, K_BAD_LEN, K_F_UNIT, K_F_AXI, K_F_SLOW, K_F_DROP_TU, K_F_DROP_NP, K_F_HANG,
    K_AFTER_DROP_TU, K_AFTER_DROP_NP, K_AFTER_HANG, K_KINDS
};
static const char *const kind_name[K_KINDS] = {
    "nop", "units", "replay", "tu-write", "tu-pair", "npu", "run", "bad-op", "bad-align",
    "bad-target", "bad-len", "fault-unit", "fault-axi", "fault-slow", "drop-tu", "drop-np", "hang",
    "after-drop-tu", "after-drop-np", "after-hang",
};
/* The rotation of the fault slots that are not hang slots. */
static const enum kind fault_rot[] = { K_F_UNIT, K_F_DROP_TU, K_F_AXI, K_F_DROP_NP, K_F_SLOW };
#define NROT (sizeof fault_rot / sizeof fault_rot[0])
/* A NOP-heavy mix, every kind present; faults come on their own schedule. */
static const unsigned weight[] = { 30, 4, 8, 20, 6, 4, 10, 3, 3, 3, 3 };

struct expect {
    enum kind kind;
    uint16_t status;
    uint32_t detail;
    uint64_t value;
    int check_value;
    int out_slot;        /* >= 0: the TU write slot to verify */
    uint64_t seed;       /* its pattern */
    int written;         /* 1: the pattern must be there; 0: the slot must be all zero */
};

static struct kh_node node;
static struct kh_queue q;
static unsigned variant;
static uint64_t softmax[64][4];
static uint32_t nsoftmax, ncopy;
static uint64_t status_count[256];
static unsigned kind_count[K_KINDS];
/* The NPs (x of x,1) the soak still uses; a hung one is taken off the end. */
static unsigned np_x[4] = { 1, 2, 3, 4 }, n_np = 4;

/* TIMEOUT's detail (docs/reliability.md "Fault matrix"): (what << 8) | {y,x}, what 2 = the
 * wait for credit, 3 = the wait for the program's last completion. */
static uint32_t timeout_detail(unsigned what, uint8_t yx)
{
    return (what << 8) | yx;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: soak ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return 1;
}

/* One TU WRITE of one beat (len 0) of `seed` to `addr`, alone and last (docs/model-mesh.md §5). */
static void tu_write(uint64_t p[4], uint64_t addr, uint64_t seed)
{
    p[0] = p[1] = 0;
    p[2] = seed;
    p[3] = (UINT64_C(0x2) << 60) | (addr & KBF_GENMASK(39, 0));
}

static int referee_zero(unsigned done)
{
    uint64_t r[KH_REFEREE_COUNT];
    if (kh_referee_read(&node, r))
        return fail("after %u commands: referee: %s", done, kh_error(&node));
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++)
        if (r[i])
            return fail("after %u commands: referee %s=%llu", done, kh_referee_names[i], (unsigned long long)r[i]);
    return 0;
}

static int arm(const char *item)
{
    struct kh_fault f;
    if (kh_parse_fault(item, &f) || kh_inject(&node, &f))
        return fail("arming %s: %s", item, kh_error(&node));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: soak SOCKET VARIANT N DEMO_DIR\n");
        return 2;
    }
    variant = (unsigned)atoi(argv[2]);
    unsigned total = (unsigned)strtoul(argv[3], NULL, 0);
    if (kh_open_link(&node, argv[1], 0))
        return fail("connect: %s", kh_error(&node));
    struct kx_bootblock bb;
    if (kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &q, bb.queue_addr))
        return fail("attach: %s", kh_error(&node));

    /* The demo's copy list and NPU program, through the parsers kactl uses. */
    char path[512];
    size_t len;
    char *txt;
    struct kd_write copy[64];
    struct kd_text_err de;
    struct kh_text_err pe;
    snprintf(path, sizeof path, "%s/copy.txt", argv[4]);
    if (!(txt = kh_read_file(path, &len)) || kd_text_parse(txt, len, copy, 64, &ncopy, &de))
        return fail("cannot read %s", path);
    free(txt);
    snprintf(path, sizeof path, "%s/softmax.prog", argv[4]);
    if (!(txt = kh_read_file(path, &len)) || kh_parse_program(txt, len, softmax, 64, &nsoftmax, &pe))
        return fail("cannot read %s", path);
    free(txt);
    uint8_t xsrc[X_BYTES], xdst[X_BYTES];
    for (unsigned i = 0; i < X_BYTES; i++)
        xsrc[i] = (uint8_t)(0xA5 ^ (i * 29u));
    if (kh_mem_write(&node, S_COPY, copy, kd_list_bytes(ncopy)) ||
        kh_mem_write(&node, S_SOFTMAX, softmax, (size_t)nsoftmax * 32) ||
        kh_mem_write(&node, X_SRC, xsrc, X_BYTES) || kh_mem_zero(&node, X_DST, X_BYTES) ||
        kh_mem_zero(&node, S_OUT, (size_t)S_OUT_SLOTS * 32))
        return fail("setup: %s", kh_error(&node));

    unsigned wsum = 0, cum[16];
    for (unsigned i = 0; i < sizeof weight / sizeof weight[0]; i++)
        cum[i] = (wsum += weight[i]);
    unsigned batch = q.sq_entries < BATCH_MAX ? q.sq_entries : BATCH_MAX;
    if (batch > q.cq_entries)
        batch = q.cq_entries;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t rng = 0x50AC;
    unsigned done = 0, faults = 0, next_fault = FAULT_EVERY, next_referee = 1000, npu_rr = 0;
    unsigned hangs = 0, drops = 0, tu_drops = 0;
    uint64_t want_progress = 0;
    int replayed = 0;
    while (done < total) {
        struct kq_sub subs[BATCH_MAX];
        struct expect ex[BATCH_MAX];
        static uint64_t progs[BATCH_MAX][4];
        static struct kq_step steps[BATCH_MAX][4];
        unsigned k = total - done < batch ? total - done : batch;
        int fault_batch = done >= next_fault;
        enum kind fk = K_KINDS;
        uint8_t fyx = 0;         /* the unit the fault is armed on */
        if (fault_batch) {
            /* An armed fault meets exactly one command; a dropped completion or a hang is
             * followed in the same batch by one command that must succeed: on the same unit
             * (drop: the firmware forgives a unit that reads idle, 1b3a596) or on another NP
             * (hang: the hung unit keeps its instructions and is not used again). */
            fk = hangs < NHANG && faults == hang_slot[hangs] ? K_F_HANG : fault_rot[(faults - hangs) % NROT];
            k = fk == K_F_DROP_TU || fk == K_F_DROP_NP || fk == K_F_HANG ? 2 : 1;
            if (total - done < k)
                k = total - done;
        }
        memset(subs, 0, sizeof subs);
        for (unsigned i = 0; i < k; i++) {
            unsigned n = done + i;
            struct kq_sub *s = &subs[i];
            struct expect *e = &ex[i];
            memset(e, 0, sizeof *e);
            e->out_slot = -1;
            enum kind kd;
            if (fault_batch) {
                kd = i == 0 ? fk
                   : fk == K_F_DROP_TU ? K_AFTER_DROP_TU : fk == K_F_DROP_NP ? K_AFTER_DROP_NP : K_AFTER_HANG;
            } else {
                rng = rng * 1103515245u + 12345u;
                unsigned r = (rng >> 8) % wsum, j = 0;
                while (r >= cum[j])
                    j++;
                kd = (enum kind)j;
            }
            e->kind = kd;
            e->status = KS_OK;
            e->check_value = 1;
            unsigned slot = n % S_OUT_SLOTS;
            uint64_t seed = (uint64_t)(n + 1) << 8;
            switch (kd) {
            case K_NOP:
                s->op = KQ_OP_NOP;
                break;
            case K_UNITS:
                s->op = KQ_OP_UNITS;
                e->value = 6;
                break;
            case K_REPLAY:
                s->op = KQ_OP_REPLAY;
                s->addr = S_COPY;
                s->count = ncopy;
                e->value = 2;        /* two moves */
                replayed = 1;
                break;
            case K_TU_WRITE:
            case K_TU_PAIR:
            case K_F_UNIT:
            case K_F_DROP_TU:
            case K_AFTER_DROP_TU:
                tu_write(progs[i], S_OUT + 32u * slot, seed);
                s->op = KQ_OP_DISPATCH;
                s->addr = S_PROGS + 32u * i;
                s->count = 1;
                s->txn = (uint8_t)(n & 0xFF);
                s->ntargets = kd == K_TU_PAIR ? 2 : 1;
                s->targets[0] = kd == K_F_UNIT ? 0x21 : (n & 1 ? 0x22 : 0x21);
                if (kd == K_F_DROP_TU)   /* alternate the two TUs, 1,2 first */
                    fyx = s->targets[0] = tu_drops % 2 ? 0x22 : 0x21;
                if (kd == K_AFTER_DROP_TU)
                    s->targets[0] = fyx;
                s->targets[1] = s->targets[0] == 0x21 ? 0x22 : 0x21;
                e->value = s->ntargets;     /* one flit to each target */
                e->out_slot = (int)slot;
                e->seed = seed;
                e->written = 1;
                if (kd == K_F_UNIT) {
                    e->status = KS_UNIT_FAULT;
                    e->detail = 0x21;
                    e->value = 0xF0000u + faults;
                    e->written = 0;      /* the faulted instruction did not execute */
                }
                if (kd == K_F_DROP_TU) {
                    /* The instruction retired (its write is in DRAM), its one signal never
                     * came: the wait for the last completion times out, 0 signals of 1. */
                    e->status = KS_TIMEOUT;
                    e->detail = timeout_detail(3, fyx);
                    e->value = 1;
                }
                break;
            case K_NPU:
            case K_F_SLOW:
            case K_F_DROP_NP:
            case K_AFTER_DROP_NP:
            case K_F_HANG:
            case K_AFTER_HANG:
                s->op = KQ_OP_DISPATCH;
                s->addr = S_SOFTMAX;
                s->count = nsoftmax;
                s->txn = 1;
                s->ntargets = 1;
                /* A hang takes the last NP in use; the command after it goes to another. */
                s->targets[0] = (uint8_t)(0x10 | (kd == K_F_HANG ? np_x[n_np - 1] : np_x[npu_rr++ % n_np]));
                if (kd == K_AFTER_HANG && s->targets[0] == fyx)
                    s->targets[0] = (uint8_t)(0x10 | np_x[npu_rr++ % n_np]);
                if (kd == K_AFTER_DROP_NP)
                    s->targets[0] = fyx;
                if (kd == K_F_DROP_NP || kd == K_F_HANG)
                    fyx = s->targets[0];
                e->value = nsoftmax;
                if (kd == K_F_DROP_NP) {
                    /* The program's last completion (BATCH_COMPLETE) is lost: all of it
                     * dispatched, one signal short. */
                    e->status = KS_TIMEOUT;
                    e->detail = timeout_detail(3, fyx);
                    e->value = ((uint64_t)(nsoftmax - 1) << 32) | nsoftmax;
                }
                if (kd == K_F_HANG) {
                    /* The first instruction never retires: 16 fill the unit's FIFO and the
                     * wait for credit runs out with no signal seen. */
                    e->status = KS_TIMEOUT;
                    e->detail = timeout_detail(2, fyx);
                    e->value = 16;
                }
                break;
            case K_RUN:
                tu_write(progs[i], S_OUT + 32u * slot, seed);
                memset(steps[i], 0, sizeof steps[i]);
                steps[i][0] = (struct kq_step){ .op = KQ_STEP_DISPATCH, .target = 0x22, .txn = 3, .n = 1,
                                                .addr = S_PROGS + 32u * i };
                steps[i][1] = (struct kq_step){ .op = KQ_STEP_WAIT, .target = 0x22, .n = 1 };
                steps[i][2] = (struct kq_step){ .op = KQ_STEP_SIGNAL, .addr = 0x5A000000u + n };
                s->op = KQ_OP_RUN;
                s->addr = S_STEPS + 128u * i;
                s->count = 3;
                e->value = 3;
                e->out_slot = (int)slot;
                e->seed = seed;
                e->written = 1;
                break;
            case K_BAD_OP:
                s->op = 9;                  /* past RECORDS (8): queue.h */
                e->status = KS_BAD_OP;
                e->detail = 9;
                break;
            case K_BAD_ALIGN:
                s->op = KQ_OP_REPLAY;
                s->addr = S_COPY + 2;
                s->count = ncopy;
                e->status = KS_BAD_ALIGN;
                e->detail = 4;
                e->value = S_COPY + 2;
                break;
            case K_BAD_TARGET:
                s->op = KQ_OP_DISPATCH;
                s->addr = S_SOFTMAX;
                s->count = nsoftmax;
                s->ntargets = 1;
                s->targets[0] = 0x99;
                e->status = KS_BAD_TARGET;
                e->detail = 0x99;
                break;
            case K_BAD_LEN:
                s->op = KQ_OP_REPLAY;
                s->addr = S_COPY;
                s->count = 0;
                e->status = KS_BAD_LEN;
                break;
            case K_F_AXI:
                /* The mover's first access of the replay fails: MOVER_FAULT 3 at move 0's GO,
                 * write index 10 in value[63:32]; the status word below it is the mover's. */
                s->op = KQ_OP_REPLAY;
                s->addr = S_COPY;
                s->count = ncopy;
                e->status = KS_MOVER_FAULT;
                e->detail = 3;
                e->value = UINT64_C(10) << 32;
                e->check_value = 2;      /* value[63:32] only */
                break;
            case K_KINDS:
                break;
            }
            s->tag = kh_tag_next(&q);
        }
        if (kh_mem_write(&node, S_PROGS, progs, sizeof progs[0] * k) ||
            kh_mem_write(&node, S_STEPS, steps, sizeof steps[0] * k))
            return fail("after %u commands: data: %s", done, kh_error(&node));
        for (unsigned i = 0; i < k; i++)
            if (ex[i].out_slot >= 0 && kh_mem_zero(&node, S_OUT + 32u * (unsigned)ex[i].out_slot, 32))
                return fail("after %u commands: clearing: %s", done, kh_error(&node));
        if (fault_batch) {
            char item[64];
            switch (ex[0].kind) {
            case K_F_UNIT:
                snprintf(item, sizeof item, "fault@1,2:1:0x%x", 0xF0000u + faults);
                break;
            case K_F_AXI:
                snprintf(item, sizeof item, "axi@1");
                break;
            case K_F_DROP_TU:
                snprintf(item, sizeof item, "drop@%u,%u:1", fyx & 0xFu, fyx >> 4);
                break;
            case K_F_DROP_NP:
                snprintf(item, sizeof item, "drop@%u,%u:%u", fyx & 0xFu, fyx >> 4, nsoftmax);
                break;
            case K_F_HANG:
                snprintf(item, sizeof item, "hang@%u,%u", fyx & 0xFu, fyx >> 4);
                break;
            default:
                snprintf(item, sizeof item, "slow@%u,1:8", subs[0].targets[0] & 0xFu);
                break;
            }
            if (arm(item))
                return 1;
        }
        struct kq_cpl c[BATCH_MAX];
        unsigned got = 0;
        if (kh_submit(&node, &q, subs, k) || kh_wait_cq(&node, &q, q.cq_head + k, "a soak batch") ||
            kh_reap(&node, &q, c, k, &got))
            return fail("after %u commands: %s", done, kh_error(&node));
        if (got != k)
            return fail("batch of %u at %u gave %u completions", k, done, got);
        if (fault_batch) {
            if (kh_inject_clear(&node))
                return fail("clearing faults: %s", kh_error(&node));
            if (fk == K_F_HANG) {
                hangs++;
                n_np--;          /* it keeps its instructions for good: not used again */
            }
            if (fk == K_F_DROP_TU || fk == K_F_DROP_NP)
                drops++;
            if (fk == K_F_DROP_TU)
                tu_drops++;
            faults++;
            next_fault += FAULT_EVERY;
        }
        for (unsigned i = 0; i < k; i++) {
            const struct expect *e = &ex[i];
            kind_count[e->kind]++;
            status_count[c[i].status & 0xFF]++;
            if (c[i].tag != subs[i].tag)
                return fail("completion %u has tag %u, expected %u (lost, duplicated or reordered)",
                            done + i, c[i].tag, subs[i].tag);
            int vbad = e->check_value == 1 ? c[i].value != e->value
                     : e->check_value == 2 ? (c[i].value >> 32) != (e->value >> 32) : 0;
            if (c[i].status != e->status || c[i].detail != e->detail || vbad)
                return fail("command %u (%s): status=%s detail=0x%x value=0x%llx, want %s detail=0x%x value=0x%llx",
                            done + i, kind_name[e->kind], kh_status_name(c[i].status), c[i].detail,
                            (unsigned long long)c[i].value, kh_status_name(e->status), e->detail,
                            (unsigned long long)e->value);
            if (e->kind == K_RUN)
                want_progress = 0x5A000000u + done + i;
            if (e->out_slot < 0)
                continue;
            uint64_t w[4];
            if (kh_mem_read(&node, S_OUT + 32u * (unsigned)e->out_slot, w, sizeof w))
                return fail("reading results: %s", kh_error(&node));
            for (unsigned j = 0; j < 4; j++) {
                uint64_t want = e->written ? e->seed + j : 0;
                if (w[j] != want)
                    return fail("command %u (%s): DRAM 0x%llx lane %u = 0x%llx, want 0x%llx", done + i,
                                kind_name[e->kind], (unsigned long long)(S_OUT + 32u * (unsigned)e->out_slot), j,
                                (unsigned long long)w[j], (unsigned long long)want);
            }
        }
        done += k;
        if (done >= next_referee || done == total) {
            if (referee_zero(done))
                return 1;
            next_referee += 1000;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);

    /* Nothing extra was posted, the firmware's indices agree, the last RUN's signal stands,
     * the replayed copy is in place. */
    struct kh_queue_view v;
    if (kh_queue_view(&node, &q, &v))
        return fail("view: %s", kh_error(&node));
    if (v.sq_head != q.sq_tail || v.cq_tail != q.cq_head)
        return fail("indices: sq %llu/%llu cq %llu/%llu", (unsigned long long)v.sq_head,
                    (unsigned long long)q.sq_tail, (unsigned long long)v.cq_tail, (unsigned long long)q.cq_head);
    if (want_progress && v.progress != want_progress)
        return fail("progress line 0x%llx, want 0x%llx", (unsigned long long)v.progress,
                    (unsigned long long)want_progress);
    if (replayed) {
        if (kh_mem_read(&node, X_DST, xdst, X_BYTES))
            return fail("reading the copy: %s", kh_error(&node));
        if (memcmp(xdst, xsrc, X_BYTES))
            return fail("the replayed copy at 0x%llx differs from its source", (unsigned long long)X_DST);
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("soak: RV%u %u commands in %.1f s (%.0f per s), %u injected faults (%u dropped completions, %u hung NPs)\n",
           variant, done, secs, secs > 0 ? done / secs : 0.0, faults, drops, hangs);
    printf("soak: statuses");
    for (unsigned i = 0; i < 256; i++)
        if (status_count[i])
            printf(" %s=%llu", kh_status_name(i), (unsigned long long)status_count[i]);
    printf("\nsoak: kinds");
    for (unsigned i = 0; i < K_KINDS; i++)
        printf(" %s=%u", kind_name[i], kind_count[i]);
    printf("\nPASS: soak_%u_commands\n", done);
    kh_close(&node);
    return 0;
}
