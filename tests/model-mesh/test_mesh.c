/* test_mesh.c — native tests of the mesh side of the device model (agent.c, mesh.c, cu.c,
 * tu.c) against docs/hardware.md §1/§1.1/§2/§7. Every expected value is a
 * literal worked out by hand from those pages (or from docs/model-mesh.md for the TU encoding and
 * the unit map), never computed by the code under test. Prints one PASS:/FAIL: line per test. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "mesh_inject.h"
#include "tu.h"
#include "unit.h"
#include "kohaku/agent_regs.h"

/* ---- harness ---- */

static const char *cur_test;
static char fail_msg[512];
static int n_fail;

#define CHECK(cond, ...) do { if (!(cond) && !fail_msg[0]) { \
    snprintf(fail_msg, sizeof fail_msg, "line %d: ", __LINE__); \
    size_t l_ = strlen(fail_msg); snprintf(fail_msg + l_, sizeof fail_msg - l_, __VA_ARGS__); } } while (0)
#define CHECK_EQ(got, want) do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
    CHECK(g_ == w_, "%s = 0x%llx, want 0x%llx", #got, (unsigned long long)g_, (unsigned long long)w_); } while (0)

/* Every control flit the agent receives, raw (linked with -Wl,--wrap=km_agent_receive). */
static struct kf_flit seen[64];
static unsigned n_seen;
void __real_km_agent_receive(struct km_model *m, const struct kf_flit *f);
void __wrap_km_agent_receive(struct km_model *m, const struct kf_flit *f)
{
    if (n_seen < 64)
        seen[n_seen] = *f;
    n_seen++;
    __real_km_agent_receive(m, f);
}

static struct km_model *M;
static char err[256];

static uint64_t rd(uint32_t off) { return km_agent_read(M, off, KM_FROM_HOST); }
static void wr(uint32_t off, uint64_t v) { km_agent_write(M, off, v, KM_FROM_HOST); }
static void run(uint64_t ns) { fake_run_for(M, ns); }

/* Default map (docs/model-mesh.md): grid=4x2;agent@0,1;NP@1,1;NP@2,1;NP@3,1;NP@4,1;TU@1,2;TU@2,2 */
#define YX(x, y) (((y) << 4) | (x))
#define TU_A YX(1, 2)
#define TU_B YX(2, 2)

static void stage(unsigned slot, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3, uint64_t hdr)
{
    uint32_t base = 0x2000u + 40u * slot;     /* docs/hardware.md §1: 40-byte slots from 0x2000 */
    wr(base + 0x00, w0);
    wr(base + 0x08, w1);
    wr(base + 0x10, w2);
    wr(base + 0x18, w3);
    wr(base + 0x20, hdr);
}

/* A CU_INST header with junk dst/src (the dispatcher must overwrite them): type 5 at [15:12],
 * txn at [11:4], last at [3]. */
static uint64_t inst_hdr(unsigned txn, unsigned last)
{
    return 0xEEEE0000u | (0x5u << 12) | (txn << 4) | (last << 3);
}

static void kick(unsigned base, unsigned len, unsigned dst_yx, unsigned cred)
{
    wr(0x0068, base);   /* PROG_BASE */
    wr(0x0048, len);    /* PROG_LEN */
    wr(0x0040, dst_yx); /* PROG_DST */
    wr(0x0060, cred);   /* PROG_CRED */
    wr(0x0050, 1);      /* PROG_KICK */
}

/* Mailbox: five words then TX_KICK (docs/hardware.md §1: TX_FLIT 0x100.., TX_KICK 0x140). */
static void mailbox(uint64_t w3, uint64_t w2, uint64_t hdr)
{
    wr(0x0100, 0);
    wr(0x0108, 0);
    wr(0x0110, w2);
    wr(0x0118, w3);
    wr(0x0120, hdr);
    wr(0x0140, 1);
}

/* A CU_CTRL read from the agent at (0,1): header dst_x [31:28], dst_y [27:24], src (0,1),
 * type 7, txn, last 1; payload op [255:248] = 0, index [247:240]. */
static void ctrl_read(unsigned x, unsigned y, unsigned index, unsigned txn)
{
    uint64_t hdr = ((uint64_t)x << 28) | ((uint64_t)y << 24) | (0u << 20) | (1u << 16) |
                   (0x7u << 12) | (txn << 4) | (1u << 3);
    mailbox((uint64_t)index << 48, 0, hdr);
}

static struct kf_flit *last_seen(void) { return n_seen ? &seen[(n_seen - 1) % 64] : NULL; }

static void setup(const char *map)
{
    M = fake_model(map, 0, err, sizeof err);
    if (!M) {
        fprintf(stderr, "fake_model: %s\n", err);
        exit(2);
    }
    n_seen = 0;
}

static void teardown(void)
{
    fake_free(M);
    M = NULL;
}

/* ---- tests ---- */

static void t_flit_layout(void)
{
    /* docs/hardware.md §2.1 at the defaults, header = flit [287:256] = word 4 [31:0]. */
    CHECK_EQ(kf_hdr(0xA, 0xB, 0xC, 0xD, 0x6, 0x5A, 1), 0xABCD65A8u);
    CHECK_EQ(KF_HDR_DST_X, 0xF0000000u);
    CHECK_EQ(KF_HDR_TYPE, 0x0000F000u);
    CHECK_EQ(KF_HDR_LAST, 0x8u);
    CHECK_EQ(KF_HDR_RSVD, 0x7u);
    /* §3 type codes, §5 signal codes. */
    CHECK_EQ(KF_T_MEM_RD_REQ, 0x0);
    CHECK_EQ(KF_T_MEM_WR_DATA, 0x4);
    CHECK_EQ(KF_T_CU_INST, 0x5);
    CHECK_EQ(KF_T_CU_SIGNAL, 0x6);
    CHECK_EQ(KF_T_CU_CTRL, 0x7);
    CHECK_EQ(KF_T_CU_DATA, 0x8);
    CHECK_EQ(KF_SIG_INST_COMPLETE, 0x00);
    CHECK_EQ(KF_SIG_BATCH_COMPLETE, 0x01);
    CHECK_EQ(KF_SIG_FAULT, 0x04);
    /* docs/hardware.md §1 NODE_STATUS: code [63:56], arg [55:24], count [23:8], valid [0]. */
    CHECK_EQ(KA_NS_CODE, 0xFF00000000000000ull);
    CHECK_EQ(KA_NS_ARG, 0x00FFFFFFFF000000ull);
    CHECK_EQ(KA_NS_COUNT, 0x0000000000FFFF00ull);
    /* CU_CAPS: type [63:48], version [47:40], buffers [39:36], inst_depth [35:20]. */
    CHECK_EQ(KF_CAPS_INST_DEPTH, 0x0000000FFFF00000ull);
    CHECK_EQ(KF_CAPS_BUFFERS, 0x000000F000000000ull);
}

static void t_caps_status_idle(void)
{
    setup(NULL);
    /* FLIT_WIDTH 288 = 0x120, POS_WIDTH 4, GRID_LO 1 and GRID_HI 4 (docs/hardware.md §1: scalars, the
     * larger side of the 4x2 grid; the model once published {y,x} pairs). */
    CHECK_EQ(rd(0x0010), 0x0000000401040120ull);
    CHECK_EQ(rd(0x0008), 0x4);             /* busy 0, error 0, mesh ready 1 */
    CHECK_EQ(rd(0x01C8), 0x10000);         /* RX empty */
    CHECK_EQ(rd(0x0148), 0);               /* TX not full */
    CHECK_EQ(rd(0x0058), 0);               /* PROG_STAT at reset */
    CHECK_EQ(rd(0x0018), 0);               /* IRQ_STAT reads 0 */
    teardown();
}

/* CAPS GRID_LO/GRID_HI are scalars (docs/hardware.md §1): GRID_LO 1, GRID_HI the
 * larger side of the router grid, whatever the shape. */
static void t_caps_grid_shapes(void)
{
    setup("grid=2x5;agent@0,1;TU@1,1");
    CHECK_EQ(rd(0x0010), 0x0000000501040120ull);   /* tall: GRID_HI 5 */
    teardown();
    setup("grid=3x3;agent@0,2;TU@1,1");
    CHECK_EQ(rd(0x0010), 0x0000000301040120ull);   /* square: GRID_HI 3 */
    teardown();
    setup("grid=7x1;agent@0,1;TU@1,1");
    CHECK_EQ(rd(0x0010), 0x0000000701040120ull);   /* wide: GRID_HI 7 */
    teardown();
}

static void t_registers(void)
{
    setup(NULL);
    struct km_referee *r = &M->ref;
    wr(0x0000, 0x1122334455667788ull);
    CHECK_EQ(rd(0x0000), 0x1122334455667788ull);   /* CTRL stored */
    wr(0x0020, 0xABCD);
    CHECK_EQ(rd(0x0020), 0xABCD);                  /* IRQ_EN stored */
    CHECK_EQ(rd(0x0018), 0);
    CHECK_EQ(r->bad_reg_writes, 0);
    wr(0x0008, 1);          /* STATUS: read-only */
    wr(0x0010, 1);          /* CAPS */
    wr(0x0018, 1);          /* IRQ_STAT */
    wr(0x0058, 1);          /* PROG_STAT */
    wr(0x0028, 1);          /* unlisted */
    wr(0x0900, 1);          /* unlisted */
    wr(0x1000, 1);          /* NODE_STATUS */
    wr(0x01C8, 1);          /* RX_STATUS */
    CHECK_EQ(r->bad_reg_writes, 8);
    CHECK_EQ(rd(0x0028), 0);
    CHECK_EQ(rd(0x0900), 0);
    CHECK_EQ(rd(0x0100), 0);                       /* TX_FLIT reads 0 */
    /* Only [15:0] decode: the map repeats every 64 KB. */
    wr(0x10000, 0x55);
    CHECK_EQ(rd(0x0000), 0x55);
    CHECK_EQ(rd(0x30010), 0x0000000401040120ull);
    /* Masked fields: PROG_DST [7:0], PROG_LEN/CRED/BASE [15:0]. */
    wr(0x0040, 0xFFFF);
    CHECK_EQ(rd(0x0040), 0xFF);
    wr(0x0048, 0x12345);
    CHECK_EQ(rd(0x0048), 0x2345);
    wr(0x0060, 0x1FFFF);
    CHECK_EQ(rd(0x0060), 0xFFFF);
    wr(0x0068, 0x10007);
    CHECK_EQ(rd(0x0068), 0x7);
    teardown();
}

static void t_stage_window(void)
{
    setup(NULL);
    struct km_referee *r = &M->ref;
    /* 128 slots x 40 bytes: 0x2000-0x33FF. */
    wr(0x33F8, 0x1234);
    CHECK_EQ(r->stage_oob_writes, 0);
    CHECK_EQ(rd(0x33F8), 0);                       /* STAGE reads 0 */
    wr(0x3400, 1);
    wr(0xFFF8, 1);
    CHECK_EQ(r->stage_oob_writes, 2);
    CHECK_EQ(r->bad_reg_writes, 0);
    teardown();
}

static void t_dispatch_basic(void)
{
    setup(NULL);
    /* Three TU NOPs (opcode 0 at [255:252], result in [223:192]), txn 0x42, last on the third. */
    stage(0, 0, 0, 0, 0x0000000000000011ull, inst_hdr(0x42, 0));
    stage(1, 0, 0, 0, 0x0000000000000022ull, inst_hdr(0x42, 0));
    stage(2, 0, 0, 0, 0x0000000000000033ull, inst_hdr(0x42, 1));
    kick(0, 3, 0x21, 3);
    CHECK_EQ(rd(0x0058) & 1, 1);                   /* run */
    CHECK_EQ(rd(0x0008) & 1, 1);                   /* busy */
    run(1000);
    /* A finished program: run 0, flits left 1, credit 3 - 3 + 2 = 2. */
    CHECK_EQ(rd(0x0058), (1ull << 1) | (2ull << 17));
    CHECK_EQ(rd(0x0060), 2);
    CHECK_EQ(rd(0x0070), 3);                       /* SIG_DONE */
    /* NODE_STATUS[{2,1}] at 0x1000 + 0x21 * 8: BATCH_COMPLETE (1), arg {24'd0, 0x42},
     * count 3, valid. */
    uint64_t want = (0x01ull << 56) | (0x42ull << 24) | (3ull << 8) | 1u;
    CHECK_EQ(rd(0x1000 + 0x21 * 8), want);
    CHECK_EQ(rd(0x1800 + 0x21 * 8), want);         /* decodes [10:3]: mirrored at 0x1800 */
    CHECK_EQ(rd(0x0008), 0x4);
    /* The raw completions (docs/hardware.md §1.1): dst = the agent (0,1) (the instruction's src after
     * the rewrite), src = the unit (1,2), type 6, txn 0x42, last 1, payload [215:0] zero. */
    CHECK_EQ(n_seen, 3);
    CHECK_EQ(seen[0].w[4], 0x01126428u);
    CHECK_EQ(seen[0].w[3], 0x0000000011000000ull); /* INST_COMPLETE, arg 0x11 at [247:216] */
    CHECK_EQ(seen[1].w[3], 0x0000000022000000ull);
    CHECK_EQ(seen[2].w[3], 0x0100000042000000ull); /* BATCH_COMPLETE, arg = txn */
    CHECK_EQ(seen[2].w[0] | seen[2].w[1] | seen[2].w[2], 0);
    teardown();
}

static void t_header_rewrite(void)
{
    setup(NULL);
    /* A MEM_RD_REQ staged with junk dst/src, txn 0x9C, last 1, rsvd 5, dispatched to the
     * agent's own coordinate (0,1): the memory agent sees dst and src rewritten only. */
    stage(5, 1, 2, 3, 0x0000000000000000ull, 0xFFFF0000u | (0x0u << 12) | (0x9Cu << 4) | 0x8u | 0x5u);
    kick(5, 1, 0x10, 1);
    run(100);
    CHECK_EQ(fake_mem.by_type[0], 1);
    CHECK_EQ(fake_mem.last_hdr[0], 0x010109CDu);
    teardown();
}

static void t_credit_stall(void)
{
    setup(NULL);
    for (unsigned i = 0; i < 4; i++)
        stage(i, 0, 0, 0, 0x5, inst_hdr(0x07, i == 3));
    kick(0, 4, 0x21, 0);           /* credit 0: accepted, run 1, nothing sent */
    CHECK_EQ(rd(0x0058), 1u | (4u << 1));
    run(500);
    CHECK_EQ(rd(0x0058), 1u | (4u << 1));
    CHECK_EQ(rd(0x0070), 0);
    CHECK_EQ(n_seen, 0);
    CHECK_EQ(M->ref.kick_while_running, 0);
    wr(0x0050, 1);                 /* a kick while running: ignored and counted */
    CHECK_EQ(M->ref.kick_while_running, 1);
    CHECK_EQ(rd(0x0058), 1u | (4u << 1));
    wr(0x0060, 1);                 /* PROG_CRED releases it */
    run(2000);
    /* 4 pushed, 3 INST_COMPLETEs returned: 1 - 4 + 3 = 0. */
    CHECK_EQ(rd(0x0058), 1u << 1);
    CHECK_EQ(rd(0x0070), 4);
    CHECK_EQ(M->ref.kick_while_running, 1);
    /* PROG_LEN 0: ignored, not counted. */
    wr(0x0048, 0);
    wr(0x0050, 1);
    CHECK_EQ(rd(0x0058) & 1, 0);
    CHECK_EQ(M->ref.kick_while_running, 1);
    teardown();
}

static void t_credit_wraps(void)
{
    setup(NULL);
    /* 16-bit credit with no clamp: 0xFFFF + one INST_COMPLETE = 0. */
    wr(0x0060, 0xFFFF);
    struct kf_flit s = { { 0, 0, 0, 0, kf_hdr(0, 1, 1, 2, KF_T_CU_SIGNAL, 0, 1) } };
    run(5);
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0060), 0);
    /* Only INST_COMPLETE returns credit: BATCH_COMPLETE, FAULT and unit codes do not. */
    s.w[3] = 0x01ull << 56;
    km_agent_receive(M, &s);
    s.w[3] = 0x04ull << 56;
    km_agent_receive(M, &s);
    s.w[3] = 0x40ull << 56;
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0060), 0);
    CHECK_EQ(rd(0x0070), 4);       /* every signal counted */
    /* A PROG_CRED write wins its cycle over a completion in the same cycle. */
    run(5);
    wr(0x0060, 7);
    s.w[3] = 0;
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0060), 7);
    run(1);
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0060), 8);
    teardown();
}

static void t_stage_overrun(void)
{
    setup(NULL);
    stage(127, 0, 0, 0, 0, inst_hdr(1, 0));
    kick(127, 2, 0x21, 2);         /* slot 128 is past the 128-slot RAM */
    CHECK_EQ(M->ref.stage_overrun, 1);
    run(200);
    /* The flit past the RAM never becomes a request. Kicked at the agent's
     * own coordinate, an all-zero flit would be a memory read (type 0) of address 0. */
    kick(127, 3, 0x10, 3);
    CHECK_EQ(M->ref.stage_overrun, 2);
    run(200);
    CHECK_EQ(fake_mem.by_type[0], 0);
    CHECK_EQ(rd(0x0058) & 1, 0);   /* the kick finished: both past slots spent */
    teardown();
}

static void t_prog_dst_live(void)
{
    setup(NULL);
    /* DELAY 50 then NOP(last); credit 1, so the second flit waits for the first completion. */
    stage(0, 0, 0, 0, (0x1ull << 60) | 50u, inst_hdr(0x10, 0));
    stage(1, 0, 0, 0, 0x99u, inst_hdr(0x10, 1));
    kick(0, 2, 0x21, 1);
    run(10);
    wr(0x0040, 0x22);              /* PROG_DST is read live: the rest goes to TU (2,2) */
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x00ull << 56) | (50ull << 24) | (1ull << 8) | 1u);
    CHECK_EQ(rd(0x1000 + 0x22 * 8), (0x01ull << 56) | (0x10ull << 24) | (1ull << 8) | 1u);
    teardown();
}

static void t_ctrl_enumeration(void)
{
    setup(NULL);
    ctrl_read(1, 2, 0, 0x33);      /* CU_CAPS of the TU at (1,2) */
    run(100);
    CHECK_EQ(rd(0x01C8), 0);       /* RX not empty */
    /* Reply header: dst (0,1), src (1,2), type 7, txn 0x33, last 1. */
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127338u);
    /* op 0x02 [255:248], index 0, value [239:176] = CU_CAPS: type 0x5455, version 1,
     * buffers 0, inst_depth 16 = 0x5455010001000000. value[63:16] is word 3 [47:0],
     * value[15:0] word 2 [63:48]. */
    CHECK_EQ(rd(0x0180 + 0x18), 0x0200545501000100ull);
    CHECK_EQ(rd(0x0180 + 0x10), 0);
    CHECK_EQ(rd(0x0180 + 0x08), 0);
    CHECK_EQ(rd(0x0180 + 0x00), 0);
    wr(0x01C0, 1);
    CHECK_EQ(rd(0x01C8), 0x10000);
    CHECK_EQ(rd(0x0180 + 0x20), 0);
    /* CU_STATUS idle: busy 0, free slots 16 at [47:32]. */
    ctrl_read(1, 2, 1, 0x34);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0x0201000000100000ull);
    CHECK_EQ(rd(0x0180 + 0x10), 0);
    wr(0x01C0, 1);
    /* Index 7: reads 0, index echoed. */
    ctrl_read(1, 2, 7, 0x35);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0x0207000000000000ull);
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127358u);
    wr(0x01C0, 1);
    /* op 1 (write) is answered as a read: the value comes back unchanged. */
    mailbox((0x01ull << 56) | (0ull << 48) | 0xFFFFFFFFFFFFull, 0xFFFF000000000000ull,
            0x12017368u);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0x0200545501000100ull);
    wr(0x01C0, 1);
    teardown();
}

static void t_ctrl_while_busy(void)
{
    setup(NULL);
    /* HANG into the TU at (1,2), then CU_STATUS: busy 1, free 16 (the executing instruction
     * is not counted). */
    stage(0, 0, 0, 0, 0x5ull << 60, inst_hdr(1, 1));
    kick(0, 1, 0x21, 1);
    run(100);
    ctrl_read(1, 2, 1, 1);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0x0201800000100000ull);
    wr(0x01C0, 1);
    /* Three more instructions queue behind the HANG: free slots 16 - 3 = 13. */
    stage(1, 0, 0, 0, 0, inst_hdr(2, 0));
    stage(2, 0, 0, 0, 0, inst_hdr(2, 0));
    stage(3, 0, 0, 0, 0, inst_hdr(2, 1));
    kick(1, 3, 0x21, 3);
    run(100);
    ctrl_read(1, 2, 1, 1);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0x02018000000D0000ull);
    wr(0x01C0, 1);
    /* Two requests back to back: the second arrives while the first reply is pending and is
     * accepted and discarded. */
    ctrl_read(1, 2, 0, 2);
    wr(0x0140, 1);
    run(100);
    CHECK_EQ(n_seen, 3);
    wr(0x01C0, 1);
    CHECK_EQ(rd(0x01C8), 0x10000);
    /* The unit still answers afterwards. */
    ctrl_read(1, 2, 2, 3);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18) >> 48, 0x0202);       /* reply, index 2 */
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127038u);
    teardown();
}

/* (docs/hardware.md §1.1): while a unit's instruction FIFO is full its endpoint takes no
 * flit of any type; a CU_CTRL request waits in the mesh until an instruction issues. DELAY 1000
 * executing plus 16 NOPs queued (the executing one is not in the FIFO: 16 free slots filled,
 * no credit violation). */
static void t_fifo_full_takes_nothing(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, (0x1ull << 60) | 1000u, inst_hdr(1, 0));
    for (unsigned i = 1; i <= 16; i++)
        stage(i, 0, 0, 0, 0, inst_hdr(1, i == 16));
    kick(0, 17, 0x21, 17);
    run(200);
    ctrl_read(1, 2, 1, 5);          /* CU_STATUS */
    run(500);
    CHECK_EQ(n_seen, 0);            /* not taken: no reply, the DELAY still runs */
    run(2000);
    /* Taken once the DELAY retired and the first NOP issued (15 queued: 1 free); the reply
     * leaves after the completions queued then, so it is not the first flit seen. */
    CHECK_EQ(rd(0x01C8) & 0x10000, 0);            /* RX holds the reply */
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127058u);     /* dst (0,1), src (1,2), type 7, txn 5 */
    CHECK_EQ(rd(0x0180 + 0x18) >> 48, 0x0201);    /* reply, index 1 */
    CHECK((rd(0x0180 + 0x18) >> 16 & 0xFFFF) >= 1, "free slots 0 in the reply");
    CHECK_EQ(M->ref.credit_violations, 0);
    teardown();
}

/* (docs/hardware.md §1.1): TX_FLIT has no reset; a TX_KICK after a reset resends what
 * it held (here a CU_CTRL read of CU_CAPS of the TU at (1,2), txn 0x44: its reply comes; an
 * all-zero flit would have been a memory read of address 0 instead). */
static void t_tx_flit_no_reset(void)
{
    setup(NULL);
    ctrl_read(1, 2, 0, 0x44);
    run(100);
    CHECK_EQ(n_seen, 1);
    wr(0x01C0, 1);
    km_agent_reset(M->agent);
    wr(0x0140, 1);                  /* TX_KICK only */
    run(100);
    CHECK_EQ(n_seen, 2);
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127448u);     /* the reply to txn 0x44 again */
    CHECK_EQ(rd(0x0180 + 0x18), 0x0200545501000100ull);
    CHECK_EQ(fake_mem.by_type[0], 0);
    teardown();
}

/* (docs/hardware.md §1.1): CU_COUNTERS [63:32] retired, [31:0] the cycles with
 * CU_STATUS.busy set (executing, or instructions queued, or completions queued), not only the
 * executing ones. Three NOPs kicked back to back: busy from the first arrival to the last
 * completion leaving; in the model a NOP takes 1 cycle, the next issues a cycle after the
 * retirement and a completion leaves a cycle after it is queued: 6 cycles (the upstream RTL
 * takes 9, its datapath a cycle more per instruction: docs/model-mesh.md §3). Executing
 * alone would be 3. */
static void t_counters_busy_cycles(void)
{
    setup(NULL);
    for (unsigned i = 0; i < 3; i++)
        stage(i, 0, 0, 0, i, inst_hdr(7, i == 2));
    kick(0, 3, 0x21, 3);
    run(500);
    ctrl_read(1, 2, 2, 6);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18) >> 48, 0x0202);
    /* value [63:0] = word 3 [47:0] << 16 | word 2 [63:48] */
    uint64_t v = (rd(0x0180 + 0x18) << 16) | (rd(0x0180 + 0x10) >> 48);
    CHECK_EQ(v >> 32, 3);
    CHECK_EQ(v & 0xFFFFFFFFu, 6);
    teardown();
}

/* (the upstream dispatcher reads a staged flit one 64-bit word a cycle, five
 * words a flit; docs/model-mesh.md §3): ten NOPs to the TU at (1,2), credit 10, kicked at t0.
 * Flit k starts at t0 + 1 + 5k, so flits left drops at each fifth word and run falls at
 * t0 + 50 (the last flit's fifth word), not at t0 + 10 as one flit a cycle would. */
static void t_dispatch_rate(void)
{
    setup(NULL);
    for (unsigned i = 0; i < 10; i++)
        stage(i, 0, 0, 0, 0, inst_hdr(3, i == 9));
    kick(0, 10, 0x21, 10);
    run(5);                                         /* t0 + 5: flit 0's fifth word */
    CHECK_EQ((rd(0x0058) >> 1) & 0xFFFF, 9);
    CHECK_EQ((rd(0x0058) >> 17) & 0xFFFF, 9);       /* credit 10 - 1 (flit 1 not started) */
    run(20);                                        /* t0 + 25 */
    CHECK_EQ((rd(0x0058) >> 1) & 0xFFFF, 5);
    run(24);                                        /* t0 + 49 */
    CHECK_EQ(rd(0x0058) & 1, 1);
    run(1);                                         /* t0 + 50 */
    CHECK_EQ(rd(0x0058) & 1, 0);
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8) >> 8 & 0xFFFF, 10);
    teardown();
}

/* (docs/hardware.md §1.1): a PROG_CRED write wins its cycle over a flit's start. A
 * kick at t0 starts its first flit at t0 + 1; PROG_CRED = 7 written at t0 + 1 before that
 * event runs: the flit still starts, and credit reads 7, not 6. */
static void t_cred_write_wins_over_start(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, 0, inst_hdr(5, 0));
    stage(1, 0, 0, 0, 0, inst_hdr(5, 1));
    kick(0, 2, 0x21, 2);
    M->now += 1;                    /* the clock at t0 + 1, its events not run yet */
    wr(0x0060, 7);
    run(0);                         /* the first flit starts in the write's cycle */
    CHECK_EQ(rd(0x0060), 7);
    run(5);                         /* the second starts at t0 + 6 and spends one */
    CHECK_EQ(rd(0x0060), 6);
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8) >> 8 & 0xFFFF, 2);
    teardown();
}

/* (docs/hardware.md §1.1): STATUS.busy (TX not empty or run) reads 0 while the last
 * flit has not reached the unit, and a TX_KICK in that gap is lost (the revision that loses a
 * TX_KICK right after run falls; the model loses every one up to the last flit's push). One
 * NOP kicked at t0: its first word at t0 + 1, run falls at t0 + 5, the push into TX at t0 + 7. */
static void t_busy_gap_and_late_tx_kick(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, 0, inst_hdr(4, 1));
    kick(0, 1, 0x21, 1);
    run(3);
    ctrl_read(1, 2, 0, 0x20);                       /* run 1: refused, dropped */
    run(2);
    CHECK_EQ(rd(0x0058) & 1, 0);                    /* run 0 */
    CHECK_EQ(rd(0x0008) & 1, 0);                    /* busy 0 ... */
    CHECK_EQ(rd(0x1000 + 0x21 * 8) >> 8 & 0xFFFF, 0);   /* ... and nothing delivered */
    run(1);                                         /* t0 + 6: inside the gap */
    ctrl_read(1, 2, 0, 0x21);                       /* TX_KICK lost */
    run(200);
    CHECK_EQ(rd(0x1000 + 0x21 * 8) >> 8 & 0xFFFF, 1);   /* the program ran */
    CHECK_EQ(rd(0x01C8) & 0x10000, 0x10000);        /* no reply: the request was lost */
    ctrl_read(1, 2, 0, 0x22);                       /* after the gap: answered */
    run(200);
    CHECK_EQ(rd(0x0180 + 0x20), 0x01127228u);
    teardown();
}

/* Finite buffering (KM_LINK_FLITS = 4 flits a destination's link holds that it
 * has not taken, docs/model-mesh.md §2). The TU at (1,2) takes nothing while its FIFO is full
 * (DELAY 3000 executing, 16 NOPs queued); CU_CTRL requests to it fill its link (4), then the
 * agent's output stage (1), then the 16-deep TX FIFO: after 21 TX_KICKs TX reads full and a
 * 22nd is refused. Once the DELAY retires everything drains; nothing is lost but the requests
 * the unit drops while a reply is pending. */
static void t_backpressure_tx_full(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, (0x1ull << 60) | 3000u, inst_hdr(1, 0));
    for (unsigned i = 1; i <= 16; i++)
        stage(i, 0, 0, 0, 0, inst_hdr(1, i == 16));
    kick(0, 17, 0x21, 17);
    run(200);
    CHECK_EQ(rd(0x0058) & 1, 0);
    for (unsigned i = 0; i < 20; i++) {
        ctrl_read(1, 2, 0, i);
        run(20);
    }
    CHECK_EQ(rd(0x0148), 0);                        /* 20 held: not full yet */
    ctrl_read(1, 2, 0, 20);
    run(20);
    CHECK_EQ(rd(0x0148), 0x10000);                  /* TX full */
    CHECK_EQ(rd(0x0008) & 1, 1);                    /* busy: TX not empty */
    run(4000);
    CHECK_EQ(rd(0x0148), 0);                        /* drained */
    CHECK_EQ(rd(0x0008) & 1, 0);
    CHECK_EQ(rd(0x1000 + 0x21 * 8) >> 8 & 0xFFFF, 17);
    CHECK_EQ(M->ref.credit_violations, 0);
    teardown();
}

static void t_tx_rx_capacity(void)
{
    setup(NULL);
    /* 18 mailbox kicks in one instant to the agent itself (0,1): TX takes 17 (16 + output
     * stage) and refuses the 18th. */
    uint64_t hdr0 = 0x01017008u;   /* dst (0,1), src (0,1), CU_CTRL, last */
    for (unsigned i = 0; i < 18; i++) {
        mailbox(0, 0, hdr0 | ((uint64_t)i << 4));
        if (i == 15)
            CHECK_EQ(rd(0x0148), 0);
    }
    CHECK_EQ(rd(0x0148), 0x10000);  /* TX full */
    CHECK_EQ(rd(0x0008), 0x5);      /* busy: TX not empty */
    run(200);
    CHECK_EQ(n_seen, 17);
    /* RX holds 16; the 17th was accepted, dropped and counted; overflow is sticky. */
    CHECK_EQ(M->ref.rx_dropped, 1);
    CHECK_EQ(rd(0x01C8), 0x20000);
    for (unsigned i = 0; i < 16; i++) {
        CHECK_EQ(rd(0x0180 + 0x20), hdr0 | ((uint64_t)i << 4));   /* in order */
        wr(0x01C0, 1);
    }
    CHECK_EQ(rd(0x01C8), 0x30000);  /* empty, overflow still set */
    wr(0x01C0, 1);                  /* pop of an empty FIFO: nothing */
    CHECK_EQ(rd(0x01C8), 0x30000);
    /* The sticky overflow clears only at reset. */
    km_agent_reset(M->agent);
    CHECK_EQ(rd(0x01C8), 0x10000);
    teardown();
}

static void t_tx_kick_while_running(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, 0, inst_hdr(1, 1));
    kick(0, 1, 0x21, 0);           /* stalled, run 1 */
    mailbox(0, 0, 0x01017008u);    /* refused: a program runs */
    run(100);
    CHECK_EQ(n_seen, 0);
    CHECK_EQ(rd(0x01C8), 0x10000);
    /* TX_FLIT keeps its content: after the program, a bare TX_KICK sends it. */
    wr(0x0060, 1);
    run(100);
    wr(0x0140, 1);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x20), 0x01017008u);
    teardown();
}

static void t_signal_counts_wrap(void)
{
    setup(NULL);
    struct kf_flit s = { { 0, 0, 0, 0x4000000012345678ull, kf_hdr(0, 1, 3, 2, KF_T_CU_SIGNAL, 9, 1) } };
    for (unsigned i = 0; i < 65537; i++)
        km_agent_receive(M, &s);
    /* 16-bit counts wrap: 65537 signals read 1. Code [63:56] 0x40, arg [55:24] 0x12. */
    CHECK_EQ(rd(0x0070), 1);
    CHECK_EQ(rd(0x1000 + 0x23 * 8), 0x4000000012000101ull);
    /* Any write clears SIG_DONE; NODE_STATUS has no clear. */
    wr(0x0070, 0);
    CHECK_EQ(rd(0x0070), 0);
    CHECK_EQ(rd(0x1000 + 0x23 * 8) & 0xFFFF01u, 0x000101u);
    km_agent_reset(M->agent);
    CHECK_EQ(rd(0x1000 + 0x23 * 8) & 0xFFFF01u, 0x000101u);
    teardown();
}

static void t_faults(void)
{
    setup(NULL);
    /* FAULT (opcode 4, code 0x1234) not last, then NOP last; credit 2. The fault returns no
     * credit: 2 - 2 + 0 = 0. */
    stage(0, 0, 0, 0, (0x4ull << 60) | 0x1234u, inst_hdr(0x20, 0));
    stage(1, 0, 0, 0, 0, inst_hdr(0x20, 1));
    kick(0, 2, 0x21, 2);
    run(500);
    CHECK_EQ(rd(0x0060), 0);
    CHECK_EQ(rd(0x0070), 2);
    CHECK_EQ(seen[0].w[3], 0x0400001234000000ull);   /* FAULT, arg 0x1234 */
    /* A faulting last instruction reports FAULT (arg = exec_result), not BATCH_COMPLETE. */
    stage(2, 0, 0, 0, (0x4ull << 60) | 0xBEEFu, inst_hdr(0x21, 1));
    kick(2, 1, 0x21, 1);
    run(500);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x04ull << 56) | (0xBEEFull << 24) | (3ull << 8) | 1u);
    /* Unknown opcode 0xF retires as a fault with arg 0xBAD0000F (docs/model-mesh.md). */
    stage(3, 0, 0, 0, 0xFull << 60, inst_hdr(0x22, 0));
    kick(3, 1, 0x21, 1);
    run(500);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x04ull << 56) | (0xBAD0000Full << 24) | (4ull << 8) | 1u);
    teardown();
}

static void t_tu_memory(void)
{
    setup(NULL);
    /* WRITE: opcode 2, len 1 (2 beats) at 0x100, seed 0x1000 in word 2. */
    stage(0, 0, 0, 0x1000, (0x2ull << 60) | (1ull << 40) | 0x100u, inst_hdr(0x30, 0));
    kick(0, 1, 0x21, 1);
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x00ull << 56) | (64ull << 24) | (1ull << 8) | 1u);
    CHECK_EQ(fake_mem.by_type[1], 1);      /* one MEM_WR_REQ */
    CHECK_EQ(fake_mem.by_type[4], 2);      /* two MEM_WR_DATA */
    CHECK_EQ(fake_mem.wr_data_last, 1);    /* last on the final beat only */
    /* The request came from the TU itself (1,2) to the memory agent (0,1), last 0. */
    CHECK_EQ(fake_mem.last_hdr[1] & 0xFFFF000Fu, 0x01120000u);
    uint64_t w[8];
    memcpy(w, fake_dram(M) + 0x100, sizeof w);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(w[i], 0x1000u + i);
    /* READ: opcode 3, len 1 at 0x100: checksum of the sixteen 32-bit words
     * 0x1000..0x1007 and zeros = 0x801C. */
    stage(1, 0, 0, 0, (0x3ull << 60) | (1ull << 40) | 0x100u, inst_hdr(0x31, 0));
    kick(1, 1, 0x21, 1);
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x00ull << 56) | (0x801Cull << 24) | (2ull << 8) | 1u);
    CHECK_EQ(fake_mem.by_type[0], 1);
    /* A WRITE longer than 8 beats faults with 0xBAD10000 | len. */
    stage(2, 0, 0, 0, (0x2ull << 60) | (8ull << 40), inst_hdr(0x32, 0));
    kick(2, 1, 0x21, 1);
    run(1000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x04ull << 56) | (0xBAD10008ull << 24) | (3ull << 8) | 1u);
    teardown();
}

static void t_tu_timing(void)
{
    setup(NULL);
    stage(0, 0, 0, 0, (0x1ull << 60) | 300u, inst_hdr(0x40, 0));    /* DELAY 300 */
    kick(0, 1, 0x21, 1);
    run(250);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), 0);
    run(200);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x00ull << 56) | (300ull << 24) | (1ull << 8) | 1u);
    /* HANG never retires. */
    stage(1, 0, 0, 0, 0x5ull << 60, inst_hdr(0x41, 1));
    kick(1, 1, 0x21, 1);
    run(100000);
    CHECK_EQ(rd(0x1000 + 0x21 * 8) & 0xFFFF00u, 1ull << 8);
    CHECK_EQ(rd(0x0070), 1);
    teardown();
}

static void t_credit_violation(void)
{
    setup(NULL);
    /* 18 DELAY 200 instructions with credit 18 into a TU of inst_depth 16: one executes,
     * 16 queue, the 18th overfills the FIFO. */
    for (unsigned i = 0; i < 18; i++)
        stage(i, 0, 0, 0, (0x1ull << 60) | 200u, inst_hdr(0x50, i == 17));
    kick(0, 18, 0x21, 18);
    run(500);
    CHECK_EQ(M->ref.credit_violations, 1);
    /* Not silently absorbed and not lost: held until a slot frees, then executed. */
    run(10000);
    CHECK_EQ(rd(0x0070), 18);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x01ull << 56) | (0x50ull << 24) | (18ull << 8) | 1u);
    /* CU_COUNTERS: retired 18 at [63:32]; [31:0] the cycles with busy set (docs/hardware.md §1.1):
     * 18 x 200 executing, the 17 cycles between a retirement and the next issue (instructions
     * queued meanwhile) and the cycle the last completion waits to leave = 3618. */
    ctrl_read(1, 2, 2, 1);
    run(100);
    CHECK_EQ(kf_ctrl_value_get(last_seen()), (18ull << 32) | 3618u);
    teardown();
}

static void t_clamping(void)
{
    /* Routers at 1..3 x 1..3; edge endpoints east at (4,2) and west at (0,3); units on the
     * routers (3,2) and (1,3) so a missed outward hop would land somewhere else. */
    setup("grid=3x3;agent@0,1;TU@1,1;TU@3,3;TU@4,2;TU@3,2;TU@0,3;TU@1,3");
    ctrl_read(9, 2, 0, 1);       /* clamps to router (3,2), outward east: (4,2) */
    run(100);
    CHECK_EQ((rd(0x0180 + 0x20) >> 16) & 0xFF, 0x42);    /* src_x 4, src_y 2 */
    wr(0x01C0, 1);
    ctrl_read(15, 15, 0, 2);     /* clamps to (3,3): the TU there answers */
    run(100);
    CHECK_EQ((rd(0x0180 + 0x20) >> 16) & 0xFF, 0x33);
    wr(0x01C0, 1);
    ctrl_read(0, 9, 0, 3);       /* clamps to (1,3), outward west first (XY): (0,3) */
    run(100);
    CHECK_EQ((rd(0x0180 + 0x20) >> 16) & 0xFF, 0x03);
    wr(0x01C0, 1);
    teardown();
    setup("grid=3x3;agent@0,1;TU@1,1;TU@3,3");
    ctrl_read(2, 9, 0, 4);       /* (2,4) and router (2,3) are empty: the nearest, (3,3) */
    run(100);
    CHECK_EQ((rd(0x0180 + 0x20) >> 16) & 0xFF, 0x33);
    wr(0x01C0, 1);
    /* CAPS GRID_LO 1, GRID_HI 3 (scalars, docs/hardware.md §1). */
    CHECK_EQ((rd(0x0010) >> 24) & 0xFFFF, 0x0301);
    teardown();
}

static void t_unit_map(void)
{
    setup(NULL);
    /* The default map holds four NP and two TU. */
    static const unsigned np[4][2] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 } };
    for (unsigned i = 0; i < 4; i++) {
        struct km_cu *cu = km_mesh_unit_at(M->mesh, np[i][0], np[i][1]);
        CHECK(cu && !strcmp(km_cu_class(cu)->name, "NP"), "no NP at %u,%u", np[i][0], np[i][1]);
    }
    CHECK(km_mesh_unit_at(M->mesh, 1, 2) && !strcmp(km_cu_class(km_mesh_unit_at(M->mesh, 1, 2))->name, "TU"), "TU 1,2");
    CHECK(km_mesh_unit_at(M->mesh, 2, 2) && !strcmp(km_cu_class(km_mesh_unit_at(M->mesh, 2, 2))->name, "TU"), "TU 2,2");
    CHECK(km_mesh_unit_at(M->mesh, 0, 1) == NULL, "agent is not a unit");
    unsigned ax = 99, ay = 99;
    km_mesh_agent_xy(M->mesh, &ax, &ay);
    CHECK_EQ(ax, 0);
    CHECK_EQ(ay, 1);
    teardown();
    static const char *const bad[] = {
        "grid=4x4;TU@1,1",                     /* no agent */
        "grid=4x4;agent@0,0",                  /* a corner */
        "grid=4x4;agent@0,1;XX@1,1",           /* unknown type */
        "grid=15x2;agent@0,1",                 /* grid above 14 */
        "grid=4x4;agent@0,1;TU@1,1;NP@1,1",    /* two at one place */
        "grid=4x4;agent@0,1;agent@0,2",        /* two agents */
        "grid=4x4;agent@0,1;TU@6,1",           /* off the grid and its edge */
        "grid=4x4;agent@0,1;TU@1",             /* bad coordinate */
        "size=4x4;agent@0,1",                  /* unknown key */
        "grid=4x;agent@0,1",                   /* bad grid */
        "grid=4x4;hop=;agent@0,1",             /* bad hop */
        "grid=4x4;agent@0,1;TU",               /* neither key nor unit */
        "grid=4x4;agent@0,1;TU@1,1,",          /* trailing junk */
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct km_model *m = fake_model(bad[i], 0, err, sizeof err);
        CHECK(m == NULL && err[0], "map '%s' accepted", bad[i]);
        fake_free(m);
    }
    /* An empty property means the default map. */
    struct km_model *m = fake_model(" ; ", 0, err, sizeof err);
    CHECK(m != NULL && km_mesh_unit_at(m->mesh, 4, 1) != NULL, "empty map is not the default");
    fake_free(m);
    m = fake_model(" grid = 2x1 ; hop=5; agent@0,1 ;tu@1,1; ", 0, err, sizeof err);
    CHECK(m != NULL, "spaced map refused: %s", err);
    if (m)
        CHECK(km_mesh_unit_at(m->mesh, 1, 1) != NULL, "tu@1,1 missing");
    fake_free(m);
}

static void t_in_order_latency(void)
{
    setup("grid=4x1;hop=10;agent@0,1;TU@4,1");
    /* A CU_CTRL to (4,1) and its reply: each way 4 routers x 10 ns. Sent at t=1 (the
     * output stage leaves one agent cycle after TX_KICK), reply queued on arrival at 41,
     * leaves at 42, arrives at 82. */
    ctrl_read(4, 1, 0, 1);
    fake_run_until(M, M->now + 81);
    CHECK_EQ(n_seen, 0);
    fake_run_until(M, M->now + 1);
    CHECK_EQ(n_seen, 1);
    teardown();
}

static void t_aux(void)
{
    setup(NULL);
    fake_mover.aux_stat = 0x0000030000050000ull;
    CHECK_EQ(km_agent_read(M, 0x0078, KM_FROM_HOST), 0x0000030000050000ull);
    CHECK_EQ(km_agent_read(M, 0x0078, KM_FROM_CPU), 0);
    km_agent_write(M, 0x0800 + 0x38, 0x1234, KM_FROM_HOST);   /* AUX_CFG -> mover SEED */
    CHECK_EQ(fake_mover.writes, 1);
    CHECK_EQ(fake_mover.last_off, 0x38);
    CHECK_EQ(fake_mover.last_val, 0x1234);
    km_agent_write(M, 0x0800 + 0x00, 0x10000, KM_FROM_CPU);   /* host only: dropped */
    CHECK_EQ(fake_mover.writes, 1);
    CHECK_EQ(M->ref.cpu_aux_cfg_writes, 1);
    CHECK_EQ(rd(0x0080), 0);                                    /* AUX_STATW: no aux client */
    teardown();
}

static void t_byte_enables(void)
{
    setup(NULL);
    /* TX_FLIT is byte-enabled: narrow stores merge into the word (val carries the bytes in
     * place, as cpu.c passes them); bytes outside [lo, lo+len) are ignored. */
    km_agent_write_bytes(M, 0x0120, 0, 4, 0x01017008u);
    km_agent_write_bytes(M, 0x0118, 4, 4, 0xAABBCCDD00000000ull);
    km_agent_write_bytes(M, 0x0118, 0, 2, 0xFFFFFFFFFFFF1122ull);
    wr(0x0140, 1);
    run(100);
    CHECK_EQ(rd(0x0180 + 0x18), 0xAABBCCDD00001122ull);
    CHECK_EQ(rd(0x0180 + 0x20), 0x01017008u);
    teardown();
}


static void t_busy_output_stage(void)
{
    setup(NULL);
    /* docs/hardware.md §1.1: STATUS.busy (TX not empty or run) can read 0 while the last flit still
     * sits in the output stage. */
    mailbox(0, 0, 0x01017008u);
    CHECK_EQ(rd(0x0008), 0x4);
    CHECK_EQ(n_seen, 0);
    run(100);
    CHECK_EQ(n_seen, 1);
    teardown();
}

static void t_signal_edges(void)
{
    setup(NULL);
    struct kf_flit s = { { 0, 0, 0, 0x0000000077000000ull, kf_hdr(0, 1, 1, 2, KF_T_CU_SIGNAL, 1, 1) } };
    run(3);
    /* A SIG_DONE clear wins over a signal in the same cycle; NODE_STATUS still counts it. */
    km_agent_receive(M, &s);
    wr(0x0070, 1);
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0070), 0);
    CHECK_EQ(rd(0x1000 + 0x21 * 8), (0x77ull << 24) | (2ull << 8) | 1u);
    run(1);
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x0070), 1);
    /* RX full (16 flits to itself), then a signal: it sets the sticky overflow bit but is
     * summarised as usual, not dropped. */
    for (unsigned i = 0; i < 16; i++)
        mailbox(0, 0, 0x01017008u);
    run(100);
    CHECK_EQ(rd(0x01C8), 0);
    km_agent_receive(M, &s);
    CHECK_EQ(rd(0x01C8), 0x20000);
    CHECK_EQ(M->ref.rx_dropped, 0);
    CHECK_EQ(rd(0x0070), 2);
    teardown();
}

static void t_reply_after_completions(void)
{
    setup(NULL);
    /* docs/hardware.md §1.1: the CU_CTRL reply leaves after every completion already queued. Deliver
     * a NOP straight to the TU at (1,2); it retires one cycle later and its completion waits a
     * cycle in the output queue; a CU_CTRL taken in that cycle queues behind it. */
    struct km_endpoint *ep = km_cu_endpoint(km_mesh_unit_at(M->mesh, 1, 2));
    struct kf_flit nop = { { 0, 0, 0, 0xABu, kf_hdr(1, 2, 0, 1, KF_T_CU_INST, 5, 0) } };
    struct kf_flit ctl = { { 0, 0, 0, 0x0001000000000000ull, kf_hdr(1, 2, 0, 1, KF_T_CU_CTRL, 6, 1) } };
    ep->deliver(M, ep, &nop);
    run(1);
    ep->deliver(M, ep, &ctl);
    run(100);
    CHECK_EQ(n_seen, 2);
    CHECK_EQ((seen[0].w[4] >> 12) & 0xF, 0x6);    /* the completion first */
    CHECK_EQ((seen[1].w[4] >> 12) & 0xF, 0x7);    /* then the reply */
    /* Sampled when taken: CU_STATUS busy (the completion was queued), free 16. */
    CHECK_EQ(kf_ctrl_value_get(&seen[1]), 0x8000001000000000ull);
    teardown();
}

static void t_ctrl_ping_pong(void)
{
    setup(NULL);
    /* docs/hardware.md §1.1: a CU_CTRL whose src is another unit makes the two answer each other
     * forever (op is ignored, so a reply is taken as a request). TU (1,2) asked "from"
     * TU (2,2): dst (1,2), src (2,2), type 7, last. */
    mailbox(0, 0, 0x12227008u);
    run(100000);
    CHECK(!fake_idle(M), "the exchange stopped");
    CHECK_EQ(n_seen, 0);
    teardown();
}


static void t_fault_injection(void)
{
    setup(NULL);
    CHECK_EQ(km_mesh_inject(M->mesh, "fault@1,2:2:0x77", err, sizeof err), 1);
    CHECK_EQ(km_mesh_inject(M->mesh, "drop@2,2:1", err, sizeof err), 1);
    CHECK_EQ(km_mesh_inject(M->mesh, "axi@3", err, sizeof err), 0);      /* not a unit item */
    CHECK_EQ(km_mesh_inject(M->mesh, "hang@9,9", err, sizeof err), -1);  /* no unit there */
    CHECK_EQ(km_mesh_inject(M->mesh, "slow@1,2", err, sizeof err), -1);  /* k missing */
    CHECK_EQ(km_mesh_inject(M->mesh, "fault@1,2:x", err, sizeof err), -1);
    /* Three NOPs (results 1, 2, 3) into (1,2): the second retires as FAULT 0x77. */
    for (unsigned i = 0; i < 3; i++)
        stage(i, 0, 0, 0, i + 1u, inst_hdr(0x0A, 0));
    kick(0, 3, 0x21, 3);
    run(1000);
    CHECK_EQ(n_seen, 3);
    CHECK_EQ(seen[0].w[3], 0x0000000001000000ull);
    CHECK_EQ(seen[1].w[3], 0x0400000077000000ull);
    CHECK_EQ(seen[2].w[3], 0x0000000003000000ull);
    /* (2,2): the first completion is lost, the second arrives. */
    kick(0, 2, 0x22, 2);
    run(1000);
    CHECK_EQ(n_seen, 4);
    CHECK_EQ(rd(0x1000 + 0x22 * 8), (2ull << 24) | (1ull << 8) | 1u);
    /* A slow unit: DELAY 10 at 10x takes 100 ns. */
    CHECK_EQ(km_mesh_inject(M->mesh, " slow@2,2:10 ", err, sizeof err), 1);
    stage(5, 0, 0, 0, (0x1ull << 60) | 10u, inst_hdr(0x0B, 0));
    kick(5, 1, 0x22, 1);
    run(80);
    CHECK_EQ(n_seen, 4);
    run(200);
    CHECK_EQ(n_seen, 5);
    /* A hang on every instruction. */
    CHECK_EQ(km_mesh_inject(M->mesh, "hang@1,2:0", err, sizeof err), 1);
    kick(5, 1, 0x21, 1);
    run(10000);
    CHECK_EQ(n_seen, 5);
    teardown();
}

int main(void)
{
    static const struct { const char *name; void (*fn)(void); } tests[] = {
        { "flit_layout", t_flit_layout },
        { "caps_status_idle", t_caps_status_idle },
        { "caps_grid_shapes", t_caps_grid_shapes },
        { "fifo_full_takes_nothing", t_fifo_full_takes_nothing },
        { "tx_flit_no_reset", t_tx_flit_no_reset },
        { "counters_busy_cycles", t_counters_busy_cycles },
        { "dispatch_rate", t_dispatch_rate },
        { "cred_write_wins_over_start", t_cred_write_wins_over_start },
        { "busy_gap_and_late_tx_kick", t_busy_gap_and_late_tx_kick },
        { "backpressure_tx_full", t_backpressure_tx_full },
        { "registers", t_registers },
        { "stage_window", t_stage_window },
        { "dispatch_basic", t_dispatch_basic },
        { "header_rewrite", t_header_rewrite },
        { "credit_stall", t_credit_stall },
        { "credit_wraps", t_credit_wraps },
        { "stage_overrun", t_stage_overrun },
        { "prog_dst_live", t_prog_dst_live },
        { "ctrl_enumeration", t_ctrl_enumeration },
        { "ctrl_while_busy", t_ctrl_while_busy },
        { "tx_rx_capacity", t_tx_rx_capacity },
        { "tx_kick_while_running", t_tx_kick_while_running },
        { "signal_counts_wrap", t_signal_counts_wrap },
        { "faults", t_faults },
        { "tu_memory", t_tu_memory },
        { "tu_timing", t_tu_timing },
        { "credit_violation", t_credit_violation },
        { "clamping", t_clamping },
        { "unit_map", t_unit_map },
        { "in_order_latency", t_in_order_latency },
        { "aux", t_aux },
        { "byte_enables", t_byte_enables },
        { "busy_output_stage", t_busy_output_stage },
        { "signal_edges", t_signal_edges },
        { "reply_after_completions", t_reply_after_completions },
        { "ctrl_ping_pong", t_ctrl_ping_pong },
        { "fault_injection", t_fault_injection },
    };
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        cur_test = tests[i].name;
        fail_msg[0] = 0;
        tests[i].fn();
        if (fail_msg[0]) {
            printf("FAIL: model-mesh.%s %s\n", cur_test, fail_msg);
            n_fail++;
        } else {
            printf("PASS: model-mesh.%s\n", cur_test);
        }
        if (M)
            teardown();
    }
    return n_fail ? 1 : 0;
}
