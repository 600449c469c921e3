/* faultpos.c — end to end: a fault is never reported as success. Against a
 * node booted by `kactl boot` (default unit map, enumerated), for programs of n instructions
 * (n in 1, 2, 3, 16, 17, 64, 65, 200) of TU NOPs and of NP MEMSETs, a FAULT armed through the
 * host port on every position 0..n-1 in turn (fault@X,Y:pos+1:CODE), met by a DISPATCH and by a
 * RUN, each to the one faulting unit and to two units (the faulting one second). Every command
 * must complete UNIT_FAULT:
 *   - seen at NODE_STATUS: detail = the unit's {y,x}, value = CODE (the FAULT's exec_result);
 *   - seen only as the credit it did not return (docs/hardware.md §1.1: only INST_COMPLETE returns
 *     credit; docs/dispatch.md "Faults NODE_STATUS hides"): detail 0x100 | {y,x}, or 0x300 |
 *     {y,x} of the first candidate when two units had signals NODE_STATUS never showed; value
 *     [15:0] = 1 fault, [23:16] = the jobs that may hold it, the faulting one among them.
 * RUN values carry the failing step in [63:48] (docs/host-interface.md §6): the faulting
 * step, or under 0x300 the first candidate's. After each (n, unit) the same program runs clean
 * (OK) and at the end the referee counters are zero.
 * Usage: faultpos SOCKET     prints its figures and PASS:/FAIL: lines; exit 0 only when all held.
 * Expected values are literals from include/kohaku/status.h, docs/dispatch.md and the default
 * map (TU 1,2 / 2,2; NP 2,1 / 3,1: docs/model-mesh.md §1); TU NOP = opcode 0 (§5). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/hostport.h"
#include "kohaku/npu_isa.h"
#include "kohaku/status.h"
#include "libkohaku.h"

#define F_PROG   UINT64_C(0xA00000)    /* 200 payloads of each type, clear of kactl's areas */
#define F_STEPS  UINT64_C(0xA10000)    /* one step list of two steps */
#define HIDDEN   0x100u
#define UNPLACED 0x200u

static struct kh_node node;
static struct kh_queue q;
static unsigned failures;

static void failf(const char *fmt, unsigned a, unsigned b, unsigned c, unsigned d,
                  const struct kq_cpl *cp)
{
    if (failures++ < 20) {
        printf("FAIL: ");
        printf(fmt, a, b, c, d);
        if (cp)
            printf(": status 0x%x detail 0x%x value 0x%llx", cp->status, cp->detail,
                   (unsigned long long)cp->value);
        printf("\n");
    }
}

static int command(struct kq_sub *s, struct kq_cpl *c)
{
    s->tag = kh_tag_next(&q);
    if (kh_command(&node, &q, s, c)) {
        printf("FAIL: faultpos: command: %s\n", kh_error(&node));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: faultpos SOCKET\n");
        return 2;
    }
    struct kh_transport t;
    struct kx_bootblock bb;
    if (kh_transport_unix(argv[1], &t, node.err, sizeof node.err) || kh_open(&node, &t) ||
        kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &q, bb.queue_addr)) {
        printf("FAIL: faultpos: connect: %s\n", kh_error(&node));
        return 1;
    }
    static uint64_t pay[2][200][4];
    for (unsigned i = 0; i < 200; i++) {
        pay[0][i][3] = i;                                       /* TU NOP, IMM = i */
        np_payload(pay[1][i], np_memset_shape(i % 64, 1, 2, 3));
    }
    if (kh_mem_write(&node, F_PROG, pay, sizeof pay)) {
        printf("FAIL: faultpos: setup: %s\n", kh_error(&node));
        return 1;
    }
    static const unsigned ns[] = { 1, 2, 3, 16, 17, 64, 65, 200 };
    static const uint8_t target[2] = { 0x21, 0x12 }, other[2] = { 0x22, 0x13 };
    unsigned cmds = 0, hidden = 0, unplaced = 0;
    for (unsigned ty = 0; ty < 2; ty++)
        for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            unsigned n = ns[k];
            uint64_t addr = F_PROG + ty * sizeof pay[0];
            for (unsigned run = 0; run < 2; run++)
                for (unsigned multi = 0; multi < 2; multi++)
                    for (unsigned pos = 0; pos < n; pos++) {
                        uint8_t yx = target[ty];
                        uint32_t code = 0xFA000000u | (ty << 20) | (run << 17) | (multi << 16) | pos;
                        struct kh_fault f = { .kind = KHP_INJ_FAULT, .yx = yx, .n = pos + 1,
                                              .arg = code };
                        struct kq_sub s = { 0 };
                        struct kq_cpl c;
                        if (run) {
                            struct kq_step st[2] = { { 0 } };
                            st[0].op = st[1].op = KQ_STEP_DISPATCH;
                            st[0].target = multi ? other[ty] : yx;
                            st[1].target = yx;
                            st[0].txn = st[1].txn = (uint8_t)(0x60 + k);
                            st[0].n = st[1].n = n;
                            st[0].addr = st[1].addr = addr;
                            if (kh_mem_write(&node, F_STEPS, st, sizeof st)) {
                                printf("FAIL: faultpos: steps: %s\n", kh_error(&node));
                                return 1;
                            }
                            s.op = KQ_OP_RUN;
                            s.addr = F_STEPS + (multi ? 0 : sizeof st[0]);
                            s.count = multi ? 2 : 1;
                        } else {
                            s.op = KQ_OP_DISPATCH;
                            s.addr = addr;
                            s.count = n;
                            s.txn = (uint8_t)(0x60 + k);
                            s.ntargets = multi ? 2 : 1;
                            s.targets[0] = multi ? other[ty] : yx;
                            s.targets[1] = yx;
                        }
                        if (kh_inject(&node, &f)) {
                            printf("FAIL: faultpos: arming: %s\n", kh_error(&node));
                            return 1;
                        }
                        if (command(&s, &c))
                            return 1;
                        if (kh_inject_clear(&node)) {
                            printf("FAIL: faultpos: clearing: %s\n", kh_error(&node));
                            return 1;
                        }
                        cmds++;
                        if (getenv("FAULTPOS_VERBOSE"))
                            printf("ty %u n %u run %u multi %u pos %u: status 0x%x detail 0x%x value 0x%llx\n",
                                   ty, n, run, multi, pos, c.status, c.detail,
                                   (unsigned long long)c.value);
                        unsigned ti = multi ? 1 : 0;     /* the faulting job's index */
                        uint64_t inner = run ? c.value & UINT64_C(0xFFFFFFFFFFFF) : c.value;
                        unsigned step = run ? (unsigned)(c.value >> 48) : ti;
                        if (c.status != KS_UNIT_FAULT) {
                            failf("type %u multi %u n %u pos %u: not UNIT_FAULT", ty, multi, n,
                                  pos, &c);
                            continue;
                        }
                        if (!(c.detail & HIDDEN)) {
                            if (c.detail != yx || inner != code || step != ti)
                                failf("type %u multi %u n %u pos %u: seen fault wrong", ty, multi,
                                      n, pos, &c);
                            continue;
                        }
                        hidden++;
                        bool ok = pos != n - 1 && (inner & 0xFFFFu) == 1 &&
                                  ((inner >> 16) & (1u << ti)) && !(inner >> 24);
                        if (c.detail & UNPLACED) {
                            unplaced++;
                            /* the first candidate's unit and step */
                            ok = ok && multi && c.detail == (HIDDEN | UNPLACED | other[ty]) &&
                                 (!run || step == 0);
                        } else {
                            ok = ok && c.detail == (HIDDEN | yx) && step == ti;
                        }
                        if (!ok)
                            failf("type %u multi %u n %u pos %u: hidden fault wrong", ty, multi,
                                  n, pos, &c);
                    }
            /* the same program with nothing armed: OK */
            struct kq_sub s = { .op = KQ_OP_DISPATCH, .addr = addr, .count = n, .ntargets = 2,
                                .txn = 0x5F, .targets = { target[ty], other[ty] } };
            struct kq_cpl c;
            if (command(&s, &c))
                return 1;
            if (c.status != KS_OK || c.value != 2u * n)
                failf("type %u n %u: clean run after faults not OK%.0u%.0u", ty, n, 0, 0, &c);
        }
    uint64_t r[KH_REFEREE_COUNT];
    if (kh_referee_read(&node, r)) {
        printf("FAIL: faultpos: referee: %s\n", kh_error(&node));
        return 1;
    }
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++)
        if (r[i]) {
            printf("FAIL: faultpos: referee %s=%llu\n", kh_referee_names[i], (unsigned long long)r[i]);
            failures++;
        }
    printf("faultpos: %u commands (want 2944), %u faults seen only by credit, %u of them in one of two units\n",
           cmds, hidden, unplaced);
    if (cmds != 2944u || !hidden)
        failures++;
    if (failures)
        printf("FAIL: faultpos/every_position %u failures\n", failures);
    else
        printf("PASS: faultpos/every_position\n");
    return failures ? 1 : 0;
}
