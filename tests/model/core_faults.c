/* core_faults.c — the model's fault injection (docs/hardware.md §10.1 item 8; docs/model.md "Fault injection"):
 * the faults= property's items and refusals, and the host port's injection registers
 * (include/kohaku/hostport.h), each item observed at the agent as the firmware would see it:
 * NODE_STATUS, SIG_DONE, RX. Expected values are literals from docs/hardware.md §1 (NODE_STATUS =
 * code [63:56], arg [55:24], count [23:8], valid [0]) and docs/model-mesh.md §5 (TU opcodes). */
#include <stdlib.h>
#include <string.h>

#include "kmtest.h"
#include "km_internal.h"
#include "kmagent.h"
#include "kohaku/hostport.h"

static struct kt_plat P;

static struct km_model *model_with(const char *faults, char *err, size_t errlen)
{
    struct km_config c = { .variant = KM_VARIANT_RV64, .faults = faults, .start_held = true };
    struct km_platform plat = {
        .opaque = &P, .instret = kt_instret, .pc = kt_pc, .hart_hold = kt_hold,
        .console = kt_console, .stopped = kt_stopped,
    };
    return km_new(&c, &plat, err, errlen);
}

static void up(const char *faults)
{
    char err[160];
    M = model_with(faults, err, sizeof err);
    if (!M) {
        fprintf(stderr, "km_new(faults=%s): %s\n", faults, err);
        exit(1);
    }
}

static void down(void)
{
    km_free(M);
    M = NULL;
}

/* One TU instruction, alone and last, at slot 0 to the unit at {y,x} = yx, credit 1. */
static void tu_one(unsigned yx, unsigned op, uint32_t field, unsigned txn)
{
    wr(0x2000 + 0x00, 0);
    wr(0x2000 + 0x08, 0);
    wr(0x2000 + 0x10, 0);
    wr(0x2000 + 0x18, ((uint64_t)op << 60) | field);
    wr(0x2000 + 0x20, 0x99990000u | (0x5u << 12) | (txn << 4) | (1u << 3));
    wr(0x0068, 0);      /* PROG_BASE */
    wr(0x0048, 1);      /* PROG_LEN */
    wr(0x0040, yx);     /* PROG_DST */
    wr(0x0060, 1);      /* CREDIT */
    wr(0x0050, 1);      /* PROG_KICK */
}

static uint64_t node_status(unsigned yx) { return rd(0x1000 + 8 * yx); }
#define NS(code, arg, count) (((uint64_t)(code) << 56) | ((uint64_t)(arg) << 24) | ((uint64_t)(count) << 8) | 1u)

/* The host port, one 8-byte register access at KHP_MODEL_BASE + off (tag 1, length 8). */
static unsigned hp_status;
static uint64_t hpm(bool write, uint32_t off, uint64_t v)
{
    uint8_t b[8];
    kt_le(b, 8, v);
    struct kt_rep r = kt_hp(M, write ? KHP_OP_WRITE : KHP_OP_READ, 8, 1, 8, KHP_MODEL_BASE + off, b,
                            write ? 8 : 0);
    KT_EXPECT(r.status != 0xEE);
    hp_status = r.status;
    return r.value;
}

static unsigned arm(unsigned kind, unsigned x, unsigned y, uint32_t n, uint32_t arg)
{
    hpm(true, 0x40, x | (y << 8));
    hpm(true, 0x48, n);
    hpm(true, 0x50, arg);
    hpm(true, 0x58, kind);
    return hp_status;
}

static void spec_items_accepted_and_refused(void)
{
    char err[160];
    struct km_model *m = model_with(" fault@1,2:2:0x77 ; hang@2,2;drop@1,1:3;slow@1,2:4;"
                                    "ctrllate@2,1:10;ctrlmute@3,1;axi@5;none;", err, sizeof err);
    KT_EXPECT(m != NULL);
    km_free(m);
    static const struct { const char *spec, *msg; } bad[] = {
        { "fault@9,9", "no unit at 9,9" },
        { "bogus@1", "unknown item 'bogus@1'" },
        { "axi@x", "cannot parse 'axi@x'" },
        { "fault@1,2:zz", "cannot parse 'fault@1,2:zz'" },
        { "slow@1,2", "cannot parse 'slow@1,2'" },
        { "hang@1,2;axi@", "cannot parse 'axi@'" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        m = model_with(bad[i].spec, err, sizeof err);
        KT_EXPECT(m == NULL);
        KT_EXPECT(strstr(err, bad[i].msg) != NULL);
        km_free(m);
    }
}

/* fault@1,2:2:0x77: the second instruction retires as FAULT 0x77, the first and third run. */
static void property_fault_on_nth_instruction(void)
{
    up("fault@1,2:2:0x77");
    tu_one(0x21, 0x0, 0x1234, 1);          /* NOP, exec_result 0x1234, last: BATCH_COMPLETE */
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x01, 1, 1));
    tu_one(0x21, 0x0, 0x1234, 2);
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x04, 0x77, 2));
    tu_one(0x21, 0x0, 0x1234, 3);
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x01, 3, 3));
    KT_EXPECT_EQ(rd(0x0070), 3);           /* SIG_DONE */
    down();
}

/* Armed through the host port, n counts from arming: hang the next instruction of 2,2. */
static void hostport_hang_counts_from_arming(void)
{
    up(NULL);
    tu_one(0x22, 0x0, 0, 1);
    run(2000);
    KT_EXPECT_EQ(node_status(0x22), NS(0x01, 1, 1));
    KT_EXPECT_EQ(arm(KHP_INJ_HANG, 2, 2, 1, 0), KHP_OK);
    tu_one(0x22, 0x0, 0, 2);
    run(100000);
    KT_EXPECT_EQ(node_status(0x22), NS(0x01, 1, 1));   /* nothing more arrived */
    KT_EXPECT_EQ(rd(0x0070), 1);
    down();
}

/* drop: the instruction retires (the unit is free again) but its completion never leaves. */
static void hostport_drop_then_clear(void)
{
    up(NULL);
    KT_EXPECT_EQ(arm(KHP_INJ_DROP, 1, 2, 0, 0), KHP_OK);      /* every completion */
    tu_one(0x21, 0x0, 0, 1);
    run(2000);
    KT_EXPECT_EQ(rd(0x0070), 0);
    KT_EXPECT_EQ(node_status(0x21) & 1u, 0);                  /* never valid */
    hpm(true, 0x60, 1);                                       /* CLEAR */
    KT_EXPECT_EQ(hp_status, KHP_OK);
    tu_one(0x21, 0x0, 0, 2);
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x01, 2, 1));
    down();
}

/* drop, n 1: only the next completion is lost; the one after arrives (NODE_STATUS count 1). */
static void hostport_drop_only_the_nth(void)
{
    up(NULL);
    KT_EXPECT_EQ(arm(KHP_INJ_DROP, 2, 2, 1, 0), KHP_OK);
    tu_one(0x22, 0x0, 0, 1);
    run(2000);
    KT_EXPECT_EQ(node_status(0x22) & 1u, 0);
    tu_one(0x22, 0x0, 0, 2);
    run(2000);
    KT_EXPECT_EQ(node_status(0x22), NS(0x01, 2, 1));
    tu_one(0x22, 0x0, 0, 3);
    run(2000);
    KT_EXPECT_EQ(node_status(0x22), NS(0x01, 3, 2));
    down();
}

/* slow@1,2:100: DELAY 10 takes 10 x 100 ns instead of 10 ns. */
static void property_slow_unit(void)
{
    up("slow@1,2:100");
    tu_one(0x21, 0x1, 10, 1);
    run(800);
    KT_EXPECT_EQ(rd(0x0070), 0);
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x01, 1, 1));
    down();
}

/* A CU_CTRL read of CU_CAPS from NP 4,1 by the agent (0,1), txn 0x12 (as test_integ). */
static void ctrl_read_4_1(void)
{
    wr(0x0118, 0);
    wr(0x0120, 0x41017128u);
    wr(0x0140, 1);
}

static void ctrl_mute_and_late(void)
{
    up("ctrlmute@4,1");
    ctrl_read_4_1();
    run(100000);
    KT_EXPECT_EQ(rd(0x01C8) & (1u << 16), 1u << 16);         /* RX_STATUS empty: no answer */
    ctrl_read_4_1();                                          /* only the first is muted */
    run(1000);
    KT_EXPECT_EQ(rd(0x01C8) & (1u << 16), 0);
    KT_EXPECT_EQ(rd(0x0180 + 0x20), 0x01417128u);             /* dst (0,1), src (4,1), type 7 */
    down();

    up("ctrllate@4,1:2000");
    ctrl_read_4_1();
    run(1000);
    KT_EXPECT_EQ(rd(0x01C8) & (1u << 16), 1u << 16);         /* not yet */
    run(2000);
    KT_EXPECT_EQ(rd(0x01C8) & (1u << 16), 0);
    KT_EXPECT_EQ(rd(0x0180 + 0x20), 0x01417128u);
    down();
}

static void hostport_registers(void)
{
    up(NULL);
    KT_EXPECT_EQ(hpm(true, 0x40, 0xFFFF0201u), 0x0201u);      /* UNIT keeps [15:0] */
    KT_EXPECT_EQ(hpm(false, 0x40, 0), 0x0201u);
    KT_EXPECT_EQ(hpm(true, 0x48, 7), 7);
    KT_EXPECT_EQ(hpm(false, 0x50, 0), 0);
    KT_EXPECT_EQ(arm(0, 1, 2, 1, 0), KHP_E_ADDR);              /* no kind 0 */
    KT_EXPECT_EQ(arm(8, 1, 2, 1, 0), KHP_E_ADDR);              /* nor 8 */
    KT_EXPECT_EQ(arm(KHP_INJ_FAULT, 9, 9, 1, 0), KHP_E_ADDR);  /* no unit at 9,9 */
    KT_EXPECT_EQ(hpm(false, 0x58, 0), 0);                     /* nothing armed yet */
    KT_EXPECT_EQ(arm(KHP_INJ_FAULT, 1, 2, 1, 0x55), KHP_OK);
    KT_EXPECT_EQ(arm(KHP_INJ_AXI, 0, 0, 3, 0), KHP_OK);
    KT_EXPECT_EQ(hpm(false, 0x58, 0), 2);
    hpm(false, 0x60, 0);
    KT_EXPECT_EQ(hp_status, KHP_E_ADDR);                      /* CLEAR is write-only */
    hpm(false, 0x68, 0);
    KT_EXPECT_EQ(hp_status, KHP_E_ADDR);
    hpm(true, 0x00, 0);
    KT_EXPECT_EQ(hp_status, KHP_E_ADDR);                      /* referee stays read-only */
    tu_one(0x21, 0x0, 0, 1);
    run(2000);
    KT_EXPECT_EQ(node_status(0x21), NS(0x04, 0x55, 1));
    down();
}

int main(void)
{
    KT_RUN(spec_items_accepted_and_refused);
    KT_RUN(property_fault_on_nth_instruction);
    KT_RUN(hostport_hang_counts_from_arming);
    KT_RUN(hostport_drop_then_clear);
    KT_RUN(hostport_drop_only_the_nth);
    KT_RUN(property_slow_unit);
    KT_RUN(ctrl_mute_and_late);
    KT_RUN(hostport_registers);
    return kt_failures ? 1 : 0;
}
