/* test_kdp_model.c — dispatch/ run natively against the device model library through the
 * hal stand-in (fakehal.c), under ASan/UBSan: enumeration of the default map (docs: model/mesh.c
 * "grid=4x2;agent@0,1;NP@1,1..4,1;TU@1,2;TU@2,2"), a 1-instruction program, 1,000 instructions
 * to one NP, one program to four units staged once, interleaved programs, a TU fault with its
 * exec_result, a TU hang as TIMEOUT with the node dispatching afterwards, and the model's
 * credit-violation counter: zero throughout, and caught when a test over-seeds on purpose.
 * Expected values are literals from docs/hardware.md, the TU encoding (model/tu.h) and the map. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "dispatch.h"
#include "fakehal.h"
#include "hal/hal.h"
#include "kohaku/npu_isa.h"
#include "tu.h"
#include "km_internal.h"
#include "kohaku/hostport.h"

static int failed_in_test;
#define CHECK(c) do { if (!(c)) { printf("  check failed: %s (line %d)\n", #c, __LINE__); failed_in_test = 1; } } while (0)
#define CHECK_EQ(got, want) do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
    if (g_ != w_) { printf("  check failed: %s == %s: got 0x%" PRIx64 " want 0x%" PRIx64 " (line %d)\n", \
                           #got, #want, g_, w_, __LINE__); failed_in_test = 1; } } while (0)

static void run(const char *name, void (*fn)(void))
{
    failed_in_test = 0;
    fn();
    printf("%s: host-dispatch-model/%s%s\n", failed_in_test ? "FAIL" : "PASS", name,
           failed_in_test ? " see the check lines above" : "");
}

#define AGENT   0x10u                   /* agent@0,1 */
#define NP(x)   KDP_YX(x, 1)
#define TU1     KDP_YX(1, 2)
#define TU2     KDP_YX(2, 2)
#define WAIT    200000u

static uint64_t pay[4096][4] __attribute__((aligned(8)));
static uint64_t pay2[4096][4] __attribute__((aligned(8)));

static void tu(uint64_t p[4], unsigned op, uint32_t imm)
{
    p[0] = p[1] = p[2] = 0;
    p[3] = ((uint64_t)op << 60) | imm;
}

static uint64_t credit_violations(void)
{
    struct km_referee r;
    km_referee_get(fh_model, &r);
    return r.credit_violations + r.stage_overrun + r.kick_while_running + r.bad_reg_writes;
}

static bool agent_quiet(void)
{
    return !(hal_agent_rd(KA_PROG_STAT) & 1u) && (hal_agent_rd(KA_RX_STATUS) & KA_RX_STATUS_EMPTY);
}

static struct kdp_ctx ctx;

static struct kdp_job *kdt_job(struct kdp_job *j, const struct kdp_prog *p, uint8_t yx)
{
    j->prog = p;
    j->yx = yx;
    return j;
}

static void setup(void)
{
    fh_start(NULL);
    kdp_init(&ctx, AGENT, WAIT, 128);
    static const struct kx_unit_entry map[] = {
        { .yx = 0x11, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x12, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x13, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x14, .type = 0x4E50, .version = 1, .inst_depth = 16 },
        { .yx = 0x21, .type = 0x5455, .version = 1, .inst_depth = 16 },
        { .yx = 0x22, .type = 0x5455, .version = 1, .inst_depth = 16 },
    };
    kdp_units_set(&ctx, map, 6);
}

static void enumerate(void)
{
    fh_start(NULL);
    kdp_init(&ctx, AGENT, WAIT, 128);
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    CHECK_EQ(hal_agent_rd(KA_CAPS), 0x401040120ull);  /* GRID_LO 1, GRID_HI 4 (docs/hardware.md §1) */
    CHECK_EQ(lo, 0x00);                 /* both axes GRID_LO-1 .. GRID_HI+1 */
    CHECK_EQ(hi, 0x55);
    CHECK_EQ(kdp_enumerate(&ctx, lo, hi, 2000), KS_OK);
    CHECK_EQ(ctx.n_units, 6);           /* the clamped edge coordinates are not counted */
    static const uint8_t want[6] = { 0x11, 0x12, 0x13, 0x14, 0x21, 0x22 };
    for (unsigned i = 0; i < 6 && i < ctx.n_units; i++) {
        CHECK_EQ(ctx.units[i].yx, want[i]);
        CHECK_EQ(ctx.units[i].type, i < 4 ? 0x4E50 : 0x5455);   /* "NP", "TU" */
        CHECK_EQ(ctx.units[i].inst_depth, 16);
        CHECK_EQ(ctx.units[i].version, 1);
    }
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
    /* A host-given table replaces the scan; a bad one is refused and changes nothing. */
    struct kx_unit_entry one = { .yx = 0x22, .type = 0x5455, .inst_depth = 4 };
    CHECK_EQ(kdp_units_set(&ctx, &one, 1), KS_OK);
    CHECK_EQ(ctx.n_units, 1);
    struct kx_unit_entry bad[2] = { one, one };
    CHECK_EQ(kdp_units_set(&ctx, bad, 2), KS_DISPATCH_BAD_UNITS);
    CHECK_EQ(ctx.n_units, 1);
}

static void one_instruction(void)
{
    setup();
    tu(pay[0], TU_OP_NOP, 0x1234);
    struct kdp_prog p = { .payload = pay, .n = 1, .txn = 0x42 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    uint64_t t_call = hal_cycles();
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_OK);
    CHECK_EQ(r->dispatched, 1);
    CHECK_EQ(r->completions, 1);
    CHECK_EQ(r->last_code, 0x01);        /* BATCH_COMPLETE, arg = {24'd0, txn} */
    CHECK_EQ(r->last_arg, 0x42);
    CHECK(r->t_done > t_call);           /* seen complete after the call, on the run's clock */
    CHECK(r->t_done < hal_cycles());
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
}

static void thousand_to_np(void)
{
    setup();
    for (unsigned i = 0; i < 1000; i++)
        np_payload(pay[i], np_memset_shape(i % 64, (uint16_t)(i + 1), 2, 3));
    struct kdp_prog p = { .payload = pay, .n = 1000, .txn = 0x07 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, NP(3))), KS_OK);
    CHECK_EQ(r->dispatched, 1000);
    CHECK_EQ(r->completions, 1000);
    CHECK_EQ(r->last_code, 0x01);
    CHECK_EQ(r->last_arg, 0x07);
    CHECK_EQ(ctx.staged_flits, 1000);   /* longer than STAGE: streamed, each flit staged once */
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
    /* A TU stream of 1,000 with delays, through the same context afterwards. */
    for (unsigned i = 0; i < 1000; i++)
        tu(pay[i], i % 3 ? TU_OP_NOP : TU_OP_DELAY, 5 + i % 7);
    p.txn = 0x08;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU2)), KS_OK);
    CHECK_EQ(r->completions, 1000);
    CHECK_EQ(r->last_arg, 0x08);
    CHECK_EQ(credit_violations(), 0);
}

static void four_units(void)
{
    setup();
    for (unsigned i = 0; i < 24; i++)
        np_payload(pay[i], np_memset_shape(i, 4, 5, (uint16_t)i));
    struct kdp_prog p = { .payload = pay, .n = 24, .txn = 0x33 };
    struct kdp_job jobs[4];
    memset(jobs, 0, sizeof jobs);
    for (unsigned i = 0; i < 4; i++) {
        jobs[i].prog = &p;
        jobs[i].yx = NP(i + 1);
    }
    CHECK_EQ(kdp_run(&ctx, jobs, 4), KS_OK);
    for (unsigned i = 0; i < 4; i++) {
        CHECK_EQ(jobs[i].rep.dispatched, 24);
        CHECK_EQ(jobs[i].rep.completions, 24);
        CHECK_EQ(jobs[i].rep.last_code, 0x01);
        CHECK_EQ(jobs[i].rep.last_arg, 0x33);
        CHECK_EQ(jobs[i].rep.status, KS_OK);
    }
    CHECK_EQ(ctx.staged_flits, 24);     /* staged once for all four targets */
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
}

static void interleaved(void)
{
    setup();
    for (unsigned i = 0; i < 300; i++) {
        tu(pay[i], TU_OP_DELAY, 3 + i % 5);
        tu(pay2[i], TU_OP_NOP, 0x100 + i);
    }
    for (unsigned i = 300; i < 400; i++)
        np_payload(pay[i], np_memset_shape(i % 64, 1, 1, 1));
    struct kdp_prog a = { .payload = pay, .n = 300, .txn = 1 };
    struct kdp_prog b = { .payload = pay2, .n = 37, .txn = 2 };
    struct kdp_prog c = { .payload = pay[300], .n = 100, .txn = 3 };
    struct kdp_prog d = { .payload = pay[350], .n = 5, .txn = 4 };
    struct kdp_job jobs[5];
    memset(jobs, 0, sizeof jobs);
    jobs[0].prog = &a; jobs[0].yx = TU1;
    jobs[1].prog = &b; jobs[1].yx = TU2;
    jobs[2].prog = &c; jobs[2].yx = NP(1);
    jobs[3].prog = &d; jobs[3].yx = NP(2);
    jobs[4].prog = &c; jobs[4].yx = NP(4);
    CHECK_EQ(kdp_run(&ctx, jobs, 5), KS_OK);
    static const uint32_t n[5] = { 300, 37, 100, 5, 100 };
    for (unsigned i = 0; i < 5; i++) {
        CHECK_EQ(jobs[i].rep.completions, n[i]);
        CHECK_EQ(jobs[i].rep.dispatched, n[i]);
        CHECK_EQ(jobs[i].rep.last_code, 0x01);
        CHECK_EQ(jobs[i].rep.last_arg, i == 4 ? 3 : i + 1);
    }
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
}

static void tu_fault(void)
{
    setup();
    tu(pay[0], TU_OP_NOP, 1);
    tu(pay[1], TU_OP_NOP, 2);
    tu(pay[2], TU_OP_FAULT, 0xBAD5);
    struct kdp_prog p = { .payload = pay, .n = 3, .txn = 9 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_UNIT_FAULT);
    CHECK_EQ(ctx.detail, TU1);
    CHECK_EQ(ctx.value, 0xBAD5);
    CHECK_EQ(r->last_code, 0x04);
    CHECK_EQ(r->completions, 3);
    /* A fault in the middle: what is in flight retires before the report. */
    tu(pay[0], TU_OP_DELAY, 50);
    tu(pay[1], TU_OP_FAULT, 0x77);
    tu(pay[2], TU_OP_DELAY, 400);
    tu(pay[3], TU_OP_DELAY, 400);
    p.n = 4;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU2)), KS_UNIT_FAULT);
    CHECK_EQ(ctx.detail, TU2);
    CHECK_EQ(ctx.value, 0x77);
    CHECK_EQ(r->dispatched, 4);
    CHECK_EQ(r->completions, 4);
    CHECK(agent_quiet());
    /* A fault inside a long streamed program: its kick ends early, the rest never reaches
     * the unit, what was pushed retires, RX drops nothing (slow instructions after the fault
     * keep its code visible until polled: docs/dispatch.md "Limits"). */
    for (unsigned i = 0; i < 60; i++)
        tu(pay[i], i == 20 ? TU_OP_FAULT : TU_OP_DELAY, i == 20 ? 0xF20 : i < 20 ? 30 : 3000);
    p.n = 60;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_UNIT_FAULT);
    CHECK_EQ(ctx.value, 0xF20);
    CHECK(r->dispatched >= 21 && r->dispatched < 60);
    CHECK_EQ(r->completions, r->dispatched);
    CHECK(agent_quiet());
    struct km_referee ref;
    km_referee_get(fh_model, &ref);
    CHECK_EQ(ref.rx_dropped, 0);
    /* The node still dispatches. */
    tu(pay[0], TU_OP_NOP, 3);
    p.n = 1;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU2)), KS_OK);
    CHECK_EQ(credit_violations(), 0);
}

/* A fault is never reported as success. A fault armed at every position of
 * programs of n instructions (n in 1, 2, 3, 16, 17, 64, 65, 200), TU and NP, one target and two:
 * every run ends KS_UNIT_FAULT. docs/hardware.md §1.1: only code 0x00 returns credit, so a FAULT that
 * NODE_STATUS overwrote before it was read shows as a missing credit: detail 0x100 | {y,x}
 * (0x300 when two jobs had unseen signals), value = jobs that may hold it << 16 | 1. Seen, it is
 * detail {y,x} and value its exec_result (the armed code). The run after each succeeds. */
static void fault_every_position(void)
{
    static const unsigned ns[] = { 1, 2, 3, 16, 17, 64, 65, 200 };
    static const uint8_t target[2] = { TU1, NP(2) }, other[2] = { TU2, NP(3) };
    unsigned runs = 0, hidden = 0, unplaced = 0;
    setup();
    for (unsigned ty = 0; ty < 2; ty++)
        for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            unsigned n = ns[k];
            for (unsigned i = 0; i < n; i++) {
                if (ty == 0)
                    tu(pay[i], TU_OP_NOP, i);
                else
                    np_payload(pay[i], np_memset_shape(i % 64, 1, 2, 3));
            }
            struct kdp_prog p = { .payload = pay, .n = n, .txn = (uint8_t)(0x50 + k) };
            for (unsigned multi = 0; multi < 2; multi++)
                for (unsigned pos = 0; pos < n; pos++) {
                    struct kdp_job jobs[2];
                    unsigned nj = multi ? 2 : 1, ti = multi ? 1 : 0;
                    kdt_job(&jobs[0], &p, multi ? other[ty] : target[ty]);
                    kdt_job(&jobs[1], &p, target[ty]);
                    uint8_t yx = target[ty];
                    uint32_t code = 0xFA000000u | (ty << 16) | pos;
                    CHECK_EQ(km_inject(fh_model, KHP_INJ_FAULT, yx & 15u, yx >> 4, pos + 1, code), 0);
                    unsigned st = kdp_run(&ctx, jobs, nj);
                    km_inject_clear(fh_model);
                    runs++;
                    if (st != KS_UNIT_FAULT) {
                        printf("  ty %u n %u pos %u multi %u: status 0x%x detail 0x%x\n", ty, n,
                               pos, multi, st, (unsigned)ctx.detail);
                        CHECK_EQ(st, KS_UNIT_FAULT);
                        continue;
                    }
                    CHECK_EQ(jobs[ti].rep.status, KS_UNIT_FAULT);
                    if (!(ctx.detail & KDP_FAULT_HIDDEN)) {
                        CHECK_EQ(ctx.detail, yx);
                        CHECK_EQ(ctx.value, code);
                    } else {
                        hidden++;
                        CHECK(pos != n - 1);    /* the last instruction's FAULT is the last signal */
                        CHECK_EQ(ctx.value & 0xFFFFu, 1);
                        CHECK((ctx.value >> 16) & (1u << ti));
                        if (ctx.detail & KDP_FAULT_UNPLACED)
                            unplaced++;
                        else
                            CHECK_EQ(ctx.detail, KDP_FAULT_HIDDEN | yx);
                    }
                    CHECK(agent_quiet());
                }
            /* the node serves on: the same program with nothing armed */
            struct kdp_job j;
            CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&j, &p, target[ty])), KS_OK);
        }
    CHECK_EQ(runs, 2u * 2u * 368u);
    CHECK_EQ(credit_violations(), 0);
    printf("  %u runs, %u faults seen only by credit (%u of them in one of two units)\n", runs,
           hidden, unplaced);
    CHECK(hidden > 0);          /* the check is exercised, not only the mirror */
}

static void tu_hang(void)
{
    setup();
    ctx.wait_cycles = 20000;
    tu(pay[0], TU_OP_NOP, 1);
    tu(pay[1], TU_OP_HANG, 0);
    tu(pay[2], TU_OP_NOP, 2);
    struct kdp_prog p = { .payload = pay, .n = 3, .txn = 5 };
    struct kdp_job job;
    struct kdp_report *const r = &job.rep;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_TIMEOUT);
    CHECK_EQ(ctx.detail, 0x0321);       /* awaited: completion (3), of unit {2,1} */
    CHECK_EQ(ctx.value, (UINT64_C(1) << 32) | 3);   /* 1 signal seen of 3 dispatched */
    CHECK_EQ(r->status, KS_TIMEOUT);
    CHECK(agent_quiet());
    /* Still able to dispatch, to another unit. */
    tu(pay[0], TU_OP_NOP, 0x99);
    p.n = 1;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU2)), KS_OK);
    CHECK_EQ(r->last_arg, 5);
    /* The hung unit keeps its two instructions: a long program to it never overfills it. */
    for (unsigned i = 0; i < 40; i++)
        tu(pay[i], TU_OP_NOP, i);
    p.n = 40;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_TIMEOUT);
    CHECK_EQ(KDP_DETAIL_WHAT(ctx.detail), KDP_AWAIT_CREDIT);
    CHECK_EQ(r->dispatched, 14);         /* depth 16 less the HANG and the NOP behind it */
    CHECK(agent_quiet());
    CHECK_EQ(credit_violations(), 0);
}

/* The referee catches a dispatcher seeded past inst_depth: 40 slow instructions to a TU with
 * 40 credits, written by hand (the layer never does this). */
static void overseed_caught(void)
{
    setup();
    volatile uint64_t *st = (volatile uint64_t *)hal_agent_ptr(KA_STAGE_SLOT(0));
    for (unsigned i = 0; i < 40; i++) {
        for (unsigned w = 0; w < 4; w++)
            st[i * 5 + w] = w == 3 ? ((uint64_t)TU_OP_DELAY << 60) | 500 : 0;
        st[i * 5 + 4] = kdp_inst_hdr(1, i == 39);
    }
    hal_fence();
    hal_agent_wr(KA_PROG_BASE, 0);
    hal_agent_wr(KA_PROG_LEN, 40);
    hal_agent_wr(KA_PROG_DST, TU1);
    hal_agent_wr(KA_PROG_CRED, 40);
    hal_agent_wr(KA_PROG_KICK, 1);
    fh_advance(100000);
    struct km_referee ref;
    km_referee_get(fh_model, &ref);
    CHECK(ref.credit_violations > 0);
}

/* Bad input gets its status and changes nothing: no kick, no staging (docs/design.md §4). */
static void bad_input(void)
{
    setup();
    tu(pay[0], TU_OP_NOP, 1);
    struct kdp_prog p = { .payload = pay, .n = 1, .txn = 1 };
    struct kdp_prog empty = { .payload = pay, .n = 0, .txn = 1 };
    struct kdp_prog odd = { .payload = (const uint8_t *)pay + 4, .n = 1, .txn = 1 };
    struct kdp_job job;
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, 0x33)), KS_DISPATCH_BAD_TARGET);
    CHECK_EQ(ctx.detail, 0x33);
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &empty, TU1)), KS_DISPATCH_EMPTY);
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &odd, TU1)), KS_DISPATCH_BAD_PROG);
    struct kdp_job two[2] = { { .prog = &p, .yx = TU1 }, { .prog = &p, .yx = TU1 } };
    CHECK_EQ(kdp_run(&ctx, two, 2), KS_DISPATCH_BAD_TARGET);        /* one unit twice */
    struct kdp_job many[KDP_MAX_JOBS + 1];
    CHECK_EQ(kdp_run(&ctx, many, KDP_MAX_JOBS + 1), KS_DISPATCH_BAD_PROG);
    CHECK_EQ(kdp_run(&ctx, many, 0), KS_DISPATCH_BAD_PROG);
    CHECK_EQ(ctx.staged_flits, 0);
    CHECK_EQ((hal_agent_rd(KA_NODE_STATUS(TU1)) >> 8) & 0xFFFF, 0);  /* nothing was sent */
    CHECK_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, TU1)), KS_OK);     /* and it still works */
    CHECK_EQ(credit_violations(), 0);
}

int main(void)
{
    run("enumerate", enumerate);
    run("one_instruction", one_instruction);
    run("thousand_to_np", thousand_to_np);
    run("four_units", four_units);
    run("interleaved", interleaved);
    run("tu_fault", tu_fault);
    run("fault_every_position", fault_every_position);
    run("tu_hang", tu_hang);
    run("overseed_caught", overseed_caught);
    run("bad_input", bad_input);
    return 0;
}
