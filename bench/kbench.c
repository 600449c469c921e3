/* kbench.c — the host side of `make bench` (docs/bench.md): drives the real firmware
 * image through the host port (libkohaku, docs/host-interface.md) and prints the figures that
 * need the command queue or the host, one "fig <name> <value>" line each (bench/bench.sh turns
 * them into "bench <board> <name> <value> <unit>"), or "missing <name> <why>":
 *   boot_insns          release to READY (queue header line 6, the firmware's own counters)
 *   cmd_overhead_insns  a NOP from its submission taken to its completion ready (its cycles)
 *   dispatch_cmd_fixed_cycles, units_cmd_cycles  the same for a DISPATCH of one instruction
 *                       to one unit and for UNITS
 *   host_vs_fw          200 programs of 8 instructions over the four NP units, a wait after
 *                       each: one RUN command (firmware) against kh_hd_dispatch (host) — both
 *                       in the model's virtual time
 *   records           a 1,001-write list of 91 one-word COPY moves, RECORDed, replayed by
 *                       handle: its completion's cycles and mover_cycles (the processor's waits
 *                       for the mover, excluded as move_cycles is); a recorded RUN of 8 REPLAY
 *                       steps of that list: its cycles beyond 8 x 91 moves, a move's cost being
 *                       what 90 more moves add to a by-handle replay (91 moves against 1)
 * Usage: kbench SOCKET FW.elf
 * The machine must be fresh (core held, nothing loaded: QEMU started with hostport= and no
 * -kernel). Everything the firmware measures is deterministic under -icount; the host-driven
 * run is made with the core stopped, so the model's clock moves only by the host's requests
 * and the units' work. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/desc_list.h"
#include "kohaku/mover_regs.h"
#include "kohaku/npu_isa.h"
#include "kohaku/status.h"
#include "libkohaku.h"

#define PROGS       200u
#define REC_MOVES   91u     /* one-word COPY moves of the recorded list: 91 x 11 = 1,001 writes */
#define REC_STEPS   8u      /* REPLAY steps of the recorded RUN */
#define PROG_INSNS  8u
#define NOPS        3u
#define RELEASE_SLOT_NS 1001u   /* see the boot figure below */

static struct kh_node node;

static void die(const char *what)
{
    fprintf(stderr, "kbench: %s: %s\n", what, kh_error(&node));
    exit(1);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    char *b = kh_read_file(path, len);
    if (!b) {
        fprintf(stderr, "kbench: cannot read %s: %s\n", path, strerror(errno));
        exit(2);
    }
    return (uint8_t *)b;
}

static uint64_t now_ns(void)
{
    uint64_t v;
    if (kh_reg_read(&node, KHP_CPU_BASE + KHP_CPU_NOW_NS, &v))
        die("reading the model's time");
    return v;
}

/* The default map (docs/model-mesh.md §1), as kactl's --units would give it. */
static const struct kx_unit_entry units[6] = {
    { .yx = 0x11, .version = 1, .type = 0x4E50, .inst_depth = 16 },
    { .yx = 0x12, .version = 1, .type = 0x4E50, .inst_depth = 16 },
    { .yx = 0x13, .version = 1, .type = 0x4E50, .inst_depth = 16 },
    { .yx = 0x14, .version = 1, .type = 0x4E50, .inst_depth = 16 },
    { .yx = 0x21, .version = 1, .type = 0x5455, .inst_depth = 16 },
    { .yx = 0x22, .version = 1, .type = 0x5455, .inst_depth = 16 },
};

/* Program k: eight MEMSETs of fmap shapes (4 unit cycles each, docs/npu.md §5) — the presets a
 * layer starts with; short, so the figure is about dispatch, not the units' arithmetic. */
static void program(uint64_t (*p)[4], unsigned k)
{
    for (unsigned i = 0; i < PROG_INSNS; i++)
        np_payload(p[i], np_memset_shape(i, (uint16_t)(k + 1), (uint16_t)(i + 1), 16));
}

static uint8_t target(unsigned k)
{
    return (uint8_t)(0x11 + k % 4u);       /* NP@1,1 .. NP@4,1 */
}

/* One register write of a descriptor list (include/kohaku/desc_list.h). */
static void put_w(struct kd_write *l, uint32_t *n, uint32_t off, uint64_t v)
{
    l[*n].off = off;
    l[*n].lo = (uint32_t)v;
    l[*n].hi = (uint32_t)(v >> 32);
    (*n)++;
}

/* A one-word COPY src -> dst, 32-bit elements, as mover/'s builder writes it for two
 * one-dimensional walkers (docs/hardware.md §3 bit positions: HDR base [43:4], ndim [47:44];
 * DIM dim [3:1], count [19:4], stride [51:20]; BOUND walker [0], bound [1]; CTRL mode [2:0],
 * width [4:3], GO [16]): 11 writes, within RV64's reach (offsets below 0x40). */
static void copy_move(struct kd_write *l, uint32_t *n, uint64_t src, uint64_t dst)
{
    for (unsigned w = 0; w < 2; w++) {
        put_w(l, n, KMV_REG_HDR, (uint64_t)w | ((w ? dst : src) << 4) | ((uint64_t)1 << 44));
        put_w(l, n, KMV_REG_DIM, (uint64_t)w | ((uint64_t)1 << 4) | ((uint64_t)32 << 20));
        put_w(l, n, KMV_REG_AXIS, 0);
        put_w(l, n, KMV_REG_BOUND, (uint64_t)w);
        put_w(l, n, KMV_REG_BOUND, (uint64_t)w | 2u);
    }
    put_w(l, n, KMV_REG_CTRL, (uint64_t)0 | ((uint64_t)2 << 3) | ((uint64_t)1 << 16));
}

/* One command that must complete OK; its completion. */
static struct kq_cpl ok_cmd(struct kh_queue *q, struct kq_sub *s, const char *what)
{
    struct kq_cpl c;
    if (kh_command(&node, q, s, &c))
        die(what);
    if (c.status != KS_OK) {
        fprintf(stderr, "kbench: %s status 0x%x detail 0x%x value 0x%llx\n", what, c.status, c.detail,
                (unsigned long long)c.value);
        exit(1);
    }
    return c;
}

/* A command's own cost: s run NOPS times (a DISPATCH with txn + i, so no two share a txn), each
 * OK with value `want` (ANY_VALUE: not checked); prints "raw <name>_<i> <cycles>" for each and
 * returns the last one's cycles, any first-time cost gone. */
#define ANY_VALUE UINT64_MAX
static uint64_t cmd_cycles(struct kh_queue *q, struct kq_sub s, const char *name, uint64_t want)
{
    uint64_t cycles = 0;
    for (unsigned i = 0; i < NOPS; i++) {
        struct kq_sub si = s;
        if (s.op == KQ_OP_DISPATCH)
            si.txn = (uint8_t)(s.txn + i);
        struct kq_cpl c = ok_cmd(q, &si, name);
        if (want != ANY_VALUE && c.value != want) {
            fprintf(stderr, "kbench: %s value 0x%llx, expected 0x%llx\n", name,
                    (unsigned long long)c.value, (unsigned long long)want);
            exit(1);
        }
        printf("raw %s_%u %llu\n", name, i, (unsigned long long)c.cycles);
        cycles = c.cycles;
    }
    return cycles;
}

/* Records: the 1,001-write list recorded and replayed by handle (the second replay is the
 * figure: the first pays any first-time cost), then a recorded RUN of 8 REPLAY steps naming
 * it. Raw counts; bench.sh divides. */
static void records(struct kh_queue *q, uint64_t nop_cycles)
{
    static struct kd_write l[REC_MOVES * 11u];
    uint32_t n = 0;
    for (uint32_t k = 0; k < REC_MOVES; k++)
        copy_move(l, &n, 0x100000u + 32u * k, 0x200000u + 32u * k);
    const uint64_t list_ug = KH_DEF_DATA_UG + 0x80000u, steps_ug = list_ug + 0x10000u;
    if (kh_mem_write(&node, list_ug, l, n * sizeof l[0]))
        die("uploading the recorded list");
    struct kq_sub s = { .op = KQ_OP_RECORD, .addr = list_ug, .count = n };
    uint32_t hl = (uint32_t)ok_cmd(q, &s, "RECORD of the list").value;
    struct kq_cpl c;
    for (unsigned i = 0; i < 2; i++) {
        struct kq_sub r = { .op = KQ_OP_REPLAY, .flags = KQ_SUB_F_HANDLE, .addr = hl };
        c = ok_cmd(q, &r, "REPLAY by handle");
        if (c.value != REC_MOVES) {
            fprintf(stderr, "kbench: REPLAY by handle value %llu, want %u moves\n",
                    (unsigned long long)c.value, REC_MOVES);
            exit(1);
        }
    }
    printf("raw rec_replay_writes %u\nraw rec_replay_cycles %llu\nraw rec_replay_mover_cycles %u\n", n,
           (unsigned long long)c.cycles, c.mover_cycles);
    uint64_t replay_cycles = c.cycles;

    struct kq_step st[REC_STEPS];
    memset(st, 0, sizeof st);
    for (unsigned i = 0; i < REC_STEPS; i++) {
        st[i].op = KQ_STEP_REPLAY_H;
        st[i].addr = hl;
    }
    if (kh_mem_write(&node, steps_ug, st, sizeof st))
        die("uploading the recorded RUN");
    struct kq_sub rs = { .op = KQ_OP_RECORD, .flags = KQ_SUB_F_STEPS, .addr = steps_ug, .count = REC_STEPS };
    uint32_t hr = (uint32_t)ok_cmd(q, &rs, "RECORD of the RUN").value;
    for (unsigned i = 0; i < 2; i++) {
        struct kq_sub r = { .op = KQ_OP_RUN, .flags = KQ_SUB_F_HANDLE, .addr = hr };
        c = ok_cmd(q, &r, "RUN by handle");
    }
    printf("raw rec_run_cycles %llu\nraw rec_run_mover_cycles %u\n", (unsigned long long)c.cycles,
           c.mover_cycles);
    /* Beyond its moves: a move's cost r (staging, GO, the wait, the bookkeeping) is what 90
     * more moves add to a by-handle replay: the 91-move list against its first move alone
     * (the same 11 writes each); the RUN replays 8 x 91 of them. */
    struct kq_sub r1 = { .op = KQ_OP_RECORD, .addr = list_ug, .count = 11 };
    uint32_t h1 = (uint32_t)ok_cmd(q, &r1, "RECORD of one move").value;
    struct kq_cpl c1;
    for (unsigned i = 0; i < 2; i++) {
        struct kq_sub r = { .op = KQ_OP_REPLAY, .flags = KQ_SUB_F_HANDLE, .addr = h1 };
        c1 = ok_cmd(q, &r, "REPLAY by handle of one move");
    }
    printf("raw rec_replay1_cycles %llu\n", (unsigned long long)c1.cycles);
    double move = (double)(replay_cycles - c1.cycles) / (REC_MOVES - 1u);
    printf("raw rec_move_cycles %.1f\n", move);
    printf("fig record_run_overhead_insns %.0f\n", (double)c.cycles - REC_STEPS * REC_MOVES * move);
    (void)nop_cycles;
    struct kq_sub f1 = { .op = KQ_OP_FORGET, .addr = h1 };
    ok_cmd(q, &f1, "FORGET of one move");
    struct kq_sub f = { .op = KQ_OP_FORGET, .addr = hr };
    ok_cmd(q, &f, "FORGET of the RUN");
    f.addr = hl;
    ok_cmd(q, &f, "FORGET of the list");
}

/* Waits for the core to stop after the STOP command completed. */
static void wait_stopped(void)
{
    struct kh_core_status cs;
    for (unsigned i = 0;; i++) {
        if (kh_core_status(&node, &cs))
            die("reading the core");
        if (cs.state == KHP_CPU_EXITED || cs.state == KHP_CPU_HALTED)
            return;
        if (i > 100000) {
            fprintf(stderr, "kbench: the core did not stop\n");
            exit(1);
        }
    }
}

/* The same 200 programs host-driven (kh_hd_dispatch: PROG_*, STAGE and NODE_STATUS through the
 * host port, each request charged the glue's host-latency-ns), each waited for, with the core
 * stopped so the firmware does not touch the agent. Time: the model's clock before and after. */
static void host_driven(uint64_t (*progs)[PROG_INSNS][4])
{
    uint64_t t0 = now_ns(), reqs0 = node.requests;
    for (unsigned k = 0; k < PROGS; k++) {
        struct kh_hd_result r;
        if (kh_hd_dispatch(&node, target(k), (uint8_t)k, (const uint64_t (*)[4])progs[k], PROG_INSNS, 0,
                           30000, &r))
            die("host-driven dispatch");
        if (r.status != KS_OK) {
            fprintf(stderr, "kbench: host-driven program %u status 0x%x\n", k, r.status);
            exit(1);
        }
    }
    uint64_t host_ns = now_ns() - t0;
    printf("raw host_ns %llu\nraw host_requests %llu\n", (unsigned long long)host_ns,
           (unsigned long long)(node.requests - reqs0));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kbench SOCKET FW.elf\n");
        return 2;
    }
    struct kh_transport t;
    char err[KH_ERR_LEN];
    if (kh_transport_unix(argv[1], &t, err, sizeof err)) {
        fprintf(stderr, "kbench: %s\n", err);
        return 1;
    }
    if (kh_open(&node, &t))
        die("opening the node");
    size_t len;
    uint8_t *img = read_file(argv[2], &len);
    struct kh_elf e;
    if (kh_elf_parse(img, len, &e, err, sizeof err)) {
        fprintf(stderr, "kbench: %s: %s\n", argv[2], err);
        return 2;
    }

    /* ---- boot: hold, flash, queue, boot block with the default map, release ---- */
    struct kh_queue q;
    struct kx_bootblock bb;
    if (kh_core_hold(&node, true) || kh_load_elf(&node, &e))
        die("flashing");
    if (kh_queue_create(&node, &q, KH_DEF_QUEUE_UG, KH_DEF_ENTRIES, KH_DEF_ENTRIES))
        die("creating the queue");
    kh_bootblock_make(&bb, KH_DEF_QUEUE_UG, KH_DEF_WAIT_CYCLES, units, 6);
    if (kh_bootblock_write(&node, &bb))
        die("writing the boot block");
    /* While the core is held nothing else runs, so the model's clock stands still between
     * requests: the release runs exactly one request slot after this read (docs/bench.md). */
    uint64_t t_before = now_ns();
    if (kh_core_hold(&node, false))
        die("releasing the core");
    q.timeout_ms = 30000;
    static uint64_t progs[PROGS][PROG_INSNS][4];
    for (unsigned k = 0; k < PROGS; k++)
        program(progs[k], k);
    if (kh_wait_ready(&node, &q))
        die("waiting for READY");
    struct kh_queue_view v;
    if (kh_queue_view(&node, &q, &v))
        die("reading the queue header");
    printf("raw ready_instret %llu\nraw ready_cycles %llu\nraw t_before %llu\n",
           (unsigned long long)v.ready_instret, (unsigned long long)v.ready_cycles,
           (unsigned long long)t_before);
    printf("raw units %u\n", v.units.count);
    /* RV32's LCTL INSTRET counts from the release: line 6 is the boot cost as it stands. RV64's
     * minstret under -icount is QEMU's virtual clock (docs/host-interface.md §9), which is also
     * the model's clock: boot = READY's count - the release's time. The release ran one
     * request slot after t_before: the glue's host-latency-ns (1000) after it arrived, and no
     * earlier than the READ's own cost, km_hp_cost_ns = 1000 + ceil(8 / 32) (docs/qemu.md §6). */
    if (node.variant == 32)
        printf("fig boot_insns %llu\n", (unsigned long long)v.ready_instret);
    else if (v.ready_instret > t_before + RELEASE_SLOT_NS)
        printf("fig boot_insns %llu\n", (unsigned long long)(v.ready_instret - t_before - RELEASE_SLOT_NS));
    else
        printf("missing boot_insns line 6 reports %llu, before the release\n",
               (unsigned long long)v.ready_instret);

    /* ---- a few NOPs, each printed; the figure is the last (any first-time cost gone) ---- */
    uint64_t nop_cycles = cmd_cycles(&q, (struct kq_sub){ .op = KQ_OP_NOP }, "nop_cycles", ANY_VALUE);
    printf("fig cmd_overhead_insns %llu\n", (unsigned long long)nop_cycles);
    records(&q, nop_cycles);

    /* ---- DISPATCH of one instruction to one unit, and UNITS: each command whole, from its
     * submission taken to its completion ready (its cycles); a few of each, the last the
     * figure. The program: one MEMSET (program 0's first), written where the RUN's go. ---- */
    if (kh_mem_write(&node, KH_DEF_DATA_UG, progs[0], sizeof progs[0][0]))
        die("uploading the DISPATCH program");
    struct kq_sub disp = { .op = KQ_OP_DISPATCH, .addr = KH_DEF_DATA_UG, .count = 1, .txn = 0xE0,
                           .ntargets = 1, .targets = { 0x11 } };
    /* value: instructions sent, all targets */
    uint64_t disp_cycles = cmd_cycles(&q, disp, "dispatch_cmd_cycles", 1);
    printf("fig dispatch_cmd_fixed_cycles %llu\n", (unsigned long long)disp_cycles);
    /* value: the units in the table */
    uint64_t units_cycles = cmd_cycles(&q, (struct kq_sub){ .op = KQ_OP_UNITS }, "units_cmd_cycles", 6);
    printf("fig units_cmd_cycles %llu\n", (unsigned long long)units_cycles);

    /* ---- firmware-driven: one RUN of 200 DISPATCH + WAIT pairs ---- */
    static struct kq_step steps[2 * PROGS];
    unsigned per_unit[4] = { 0, 0, 0, 0 };
    const uint64_t prog_ug = KH_DEF_DATA_UG, steps_ug = KH_DEF_DATA_UG + sizeof progs;
    for (unsigned k = 0; k < PROGS; k++) {
        struct kq_step *d = &steps[2 * k], *w = &steps[2 * k + 1];
        memset(d, 0, 2 * sizeof *d);
        d->op = KQ_STEP_DISPATCH;
        d->target = target(k);
        d->txn = (uint8_t)k;
        d->n = PROG_INSNS;
        d->addr = prog_ug + (uint64_t)k * sizeof progs[0];
        w->op = KQ_STEP_WAIT;
        w->target = target(k);
        w->n = ++per_unit[k % 4u];          /* programs dispatched to it so far, all done */
    }
    if (kh_mem_write(&node, prog_ug, progs, sizeof progs) ||
        kh_mem_write(&node, steps_ug, steps, sizeof steps))
        die("uploading the RUN");
    struct kq_sub s = { .op = KQ_OP_RUN, .addr = steps_ug, .count = 2 * PROGS };
    struct kq_cpl c;
    if (kh_command(&node, &q, &s, &c))
        die("RUN");
    if (c.status != KS_OK || c.value != 2 * PROGS) {
        fprintf(stderr, "kbench: RUN status 0x%x value 0x%llx\n", c.status, (unsigned long long)c.value);
        return 1;
    }
    printf("raw fw_run_ns %llu\n", (unsigned long long)c.cycles);

    /* ---- stop the firmware: the host drives the agent alone from here ---- */
    struct kq_sub stop = { .op = KQ_OP_STOP };
    if (kh_command(&node, &q, &stop, &c) || c.status != KS_OK)
        die("STOP");
    wait_stopped();
    host_driven(progs);
    uint64_t ref[KH_REFEREE_COUNT];
    if (kh_referee_read(&node, ref))
        die("reading the referee");
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++)
        printf("raw referee_%s %llu\n", kh_referee_names[i], (unsigned long long)ref[i]);
    kh_close(&node);
    return 0;
}
