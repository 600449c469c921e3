/* test_integ.c — the mesh side inside the whole device model (km_new: real memory agent,
 * real NP, real event queue): programs dispatched through the agent's host-side registers
 * into a TU and an NP, checked in NODE_STATUS, SIG_DONE, RX and DRAM. Expectations are
 * literals from docs/hardware.md §1, §9 and the TU encoding of docs/model-mesh.md. */
#include <stdlib.h>
#include <string.h>

#include "kmtest.h"
#include "km_internal.h"
#include "kmagent.h"
#include "tu.h"
#include "kohaku/hostport.h"

static struct kt_plat plat;

static void stage(unsigned slot, uint64_t w2, uint64_t w3, uint64_t hdr)
{
    uint32_t b = 0x2000u + 40u * slot;
    wr(b + 0x00, 0);
    wr(b + 0x08, 0);
    wr(b + 0x10, w2);
    wr(b + 0x18, w3);
    wr(b + 0x20, hdr);
}

/* CU_INST (type 5 at [15:12]), txn at [11:4], last at [3]; dst/src left as junk. */
static uint64_t inst_hdr(unsigned txn, unsigned last)
{
    return 0x99990000u | (0x5u << 12) | (txn << 4) | (last << 3);
}

static void setup(void)
{
    M = kt_model(&plat, KM_VARIANT_RV32, true);
    if (!M)
        exit(1);
}

static void teardown(void)
{
    km_free(M);
    M = NULL;
}

static void integ_caps_default_map(void)
{
    setup();
    /* Default map grid=4x2: CAPS 288, 4, GRID_LO 1, GRID_HI 4 (scalars, docs/hardware.md §1). */
    KT_EXPECT_EQ(rd(0x0010), 0x0000000401040120ull);
    KT_EXPECT_EQ(rd(0x0008), 0x4);
    teardown();
}

static void integ_tu_write_read_dram(void)
{
    setup();
    /* TU (1,2): WRITE 4 beats (len 3) at DRAM 0x4000 with seed 0x100, then READ them back,
     * then NOP last. */
    stage(0, 0x100, (0x2ull << 60) | (3ull << 40) | 0x4000u, inst_hdr(0x61, 0));
    stage(1, 0, (0x3ull << 60) | (3ull << 40) | 0x4000u, inst_hdr(0x61, 0));
    stage(2, 0, 0, inst_hdr(0x61, 1));
    kick(0, 3, 0x21, 3);
    run(5000);
    /* 16 64-bit words 0x100..0x10F in DRAM. */
    uint64_t w[16];
    KT_EXPECT_EQ(km_mem_read(M, 0x4000, w, sizeof w), KM_MEM_OK);
    for (unsigned i = 0; i < 16; i++)
        KT_EXPECT_EQ(w[i], 0x100u + i);
    KT_EXPECT_EQ(rd(0x0070), 3);
    /* Last signal BATCH_COMPLETE with txn 0x61, count 3. */
    KT_EXPECT_EQ(rd(0x1000 + 0x21 * 8), (0x01ull << 56) | (0x61ull << 24) | (3ull << 8) | 1u);
    /* Credit: 3 - 3 + 2. */
    KT_EXPECT_EQ(rd(0x0058), (1ull << 1) | (2ull << 17));
    /* The READ's checksum (an INST_COMPLETE) went by; read it again as a one-instruction
     * program that is not last: sum of 32-bit words = 16 * 0x100 + (0 + ... + 15) = 0x1078. */
    stage(3, 0, (0x3ull << 60) | (3ull << 40) | 0x4000u, inst_hdr(0x62, 0));
    kick(3, 1, 0x21, 1);
    run(5000);
    KT_EXPECT_EQ(rd(0x1000 + 0x21 * 8), (0x00ull << 56) | (0x1078ull << 24) | (4ull << 8) | 1u);
    KT_EXPECT_EQ(M->ref.credit_violations + M->ref.rx_dropped + M->ref.bad_reg_writes, 0);
    teardown();
}

static void integ_np_reserved_opcode_faults(void)
{
    setup();
    /* docs/hardware.md §9: a reserved NP opcode retires as a fault. NP at (1,1), opcode 0xF. */
    stage(0, 0, 0xFull << 60, inst_hdr(0x70, 1));
    kick(0, 1, 0x11, 1);
    run(5000);
    uint64_t ns = rd(0x1000 + 0x11 * 8);
    KT_EXPECT_EQ(ns >> 56, 0x04);              /* FAULT */
    KT_EXPECT_EQ(ns & 0xFFFF01u, 0x000101u);   /* count 1, valid */
    teardown();
}

static void integ_ctrl_caps_np(void)
{
    setup();
    /* CU_CTRL read of CU_CAPS from the NP at (4,1), src = the agent (0,1), txn 0x12. */
    wr(0x0118, 0);
    wr(0x0120, 0x41017128u);
    wr(0x0140, 1);
    run(1000);
    KT_EXPECT_EQ(rd(0x01C8), 0);
    KT_EXPECT_EQ(rd(0x0180 + 0x20), 0x01417128u);   /* dst (0,1), src (4,1), type 7, txn 0x12 */
    KT_EXPECT_EQ(rd(0x0180 + 0x18) >> 48, 0x0200);  /* reply, index 0 */
    /* inst_depth = CU_CAPS[35:20] = value[35:20] = word 3 [19:4] */
    KT_EXPECT_EQ((rd(0x0180 + 0x18) >> 4) & 0xFFFF, 16);
    teardown();
}

static void integ_reset_mid_program(void)
{
    setup();
    for (unsigned i = 0; i < 8; i++)
        stage(i, 0, (0x1ull << 60) | 100u, inst_hdr(0x80, i == 7));
    kick(0, 8, 0x21, 8);
    run(150);
    km_reset(M);
    KT_EXPECT_EQ(rd(0x0058), 0);
    KT_EXPECT_EQ(rd(0x0008), 0x4);
    run(5000);
    KT_EXPECT_EQ(rd(0x0070), 0);
    /* The staging RAM kept its flits: the same program runs again, to the end. */
    kick(0, 8, 0x21, 8);
    run(5000);
    KT_EXPECT_EQ(rd(0x0070), 8);
    KT_EXPECT_EQ(rd(0x1000 + 0x21 * 8) >> 56, 0x01);
    teardown();
}

/* ---- through the host port (hostport.h): the way kactl drives the node ---- */

static const uint8_t *hp_data;     /* the last reply's data */

static uint64_t hp(uint8_t op, uint8_t width, uint64_t addr, const void *data, uint32_t len)
{
    struct kt_rep r = kt_hp(M, op, width, 0x5A, len, addr, data, op == KHP_OP_WRITE ? len : 0);
    KT_EXPECT(r.status != 0xEE);
    KT_EXPECT(r.total >= 16);
    KT_EXPECT_EQ(r.status, KHP_OK);
    hp_data = r.data;
    return r.value;
}

static void hp_w(uint32_t off, uint64_t v) { hp(KHP_OP_WRITE, 8, KHP_AGENT_BASE + off, &v, 8); }
static uint64_t hp_r(uint32_t off) { return hp(KHP_OP_READ, 8, KHP_AGENT_BASE + off, NULL, 8); }

static void hp_stage(unsigned slot, uint64_t w2, uint64_t w3, uint64_t hdr)
{
    uint64_t f[5] = { 0, 0, w2, w3, hdr };
    for (unsigned i = 0; i < 5; i++)
        hp_w(0x2000u + 40u * slot + 8u * i, f[i]);
}

static void hp_kick(unsigned base, unsigned len, unsigned dst, unsigned cred)
{
    hp_w(0x0068, base);
    hp_w(0x0048, len);
    hp_w(0x0040, dst);
    hp_w(0x0060, cred);
    hp_w(0x0050, 1);
}

static void integ_hostport_tu_and_np(void)
{
    setup();
    /* 256 bytes of pattern at DRAM 0x100000 through the host port, outside address
     * (0 + 1) << 40 | 0x100000. */
    uint8_t pat[256], back[256];
    for (unsigned i = 0; i < 256; i++)
        pat[i] = (uint8_t)(i * 7u + 3u);
    hp(KHP_OP_WRITE, 0, KHP_MEM(0, 0x100000), pat, sizeof pat);

    /* NP at (2,1): the words of docs/npu.md §8 — host base 0x100000, fmap 0 = (4 rows, 32
     * elements, packed), MEMCPY host+0 -> L2 0 (shape 0), then MEMCPY L2 0 -> host + 0x100
     * lines (= 0x102000), shape 0, last. */
    hp_stage(0, 0, 0x3800000001000000ull, inst_hdr(0x90, 0));
    hp_stage(1, 0, 0x3000004002000000ull, inst_hdr(0x90, 0));
    hp_stage(2, 0, 0x2800000000000000ull, inst_hdr(0x90, 0));
    hp_stage(3, 0, 0x2400000000008000ull, inst_hdr(0x90, 1));
    hp_kick(0, 4, 0x12, 4);
    run(20000);
    KT_EXPECT_EQ(hp_r(0x1000 + 0x12 * 8), (0x01ull << 56) | (0x90ull << 24) | (4ull << 8) | 1u);
    hp(KHP_OP_READ, 0, KHP_MEM(0, 0x102000), NULL, sizeof back);
    memcpy(back, hp_data, sizeof back);
    KT_EXPECT(memcmp(back, pat, sizeof back) == 0);

    /* TU at (2,2): WRITE 1 beat (len 0) of seed 0xC0DE00 at 0x200000, then NOP last. */
    hp_stage(4, 0xC0DE00, (0x2ull << 60) | 0x200000u, inst_hdr(0x91, 0));
    hp_stage(5, 0, 0, inst_hdr(0x91, 1));
    hp_kick(4, 2, 0x22, 2);
    run(20000);
    KT_EXPECT_EQ(hp_r(0x1000 + 0x22 * 8), (0x01ull << 56) | (0x91ull << 24) | (2ull << 8) | 1u);
    KT_EXPECT_EQ(hp_r(0x0070), 6);     /* SIG_DONE: 4 from the NP, 2 from the TU */
    hp(KHP_OP_READ, 0, KHP_MEM(0, 0x200000), NULL, 32);
    uint64_t w[4];
    memcpy(w, hp_data, sizeof w);
    KT_EXPECT_EQ(w[0], 0xC0DE00u);
    KT_EXPECT_EQ(w[1], 0xC0DE01u);
    KT_EXPECT_EQ(w[2], 0xC0DE02u);
    KT_EXPECT_EQ(w[3], 0xC0DE03u);
    KT_EXPECT_EQ(M->ref.credit_violations + M->ref.bad_reg_writes + M->ref.rx_dropped +
                 M->ref.kick_while_running + M->ref.stage_overrun, 0);
    teardown();
}

int main(void)
{
    KT_RUN(integ_caps_default_map);
    KT_RUN(integ_tu_write_read_dram);
    KT_RUN(integ_np_reserved_opcode_faults);
    KT_RUN(integ_ctrl_caps_np);
    KT_RUN(integ_reset_mid_program);
    KT_RUN(integ_hostport_tu_and_np);
    return kt_failures ? 1 : 0;
}
