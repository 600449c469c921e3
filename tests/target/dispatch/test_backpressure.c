/* test_backpressure.c — on target: the paths the model's backpressure and the
 * dispatcher's real rate make reachable (docs/hardware.md §1.1; docs/model-mesh.md §2, §3), each met and
 * handled by the firmware:
 *  - "TX cannot drain": a unit whose instruction FIFO is full takes no flit, its link holds 4,
 *    the agent's output stage 1 and TX 16; CU_CTRL requests to it (kdp_ctrl_read, two tries a
 *    call) fill TX, and the next call ends KS_TIMEOUT detail MAILBOX_TX << 8 | {y,x} (0x421),
 *    value TX_STATUS (full, 0x10000) within the bounded wait, never a hang; once the unit
 *    drains, the agent quiets and the node dispatches again.
 *  - The STATUS.busy gap: STATUS.busy (TX not empty or run) reads 0 right after run fell while
 *    the last flit has not reached the unit (its NODE_STATUS count has not moved); the
 *    firmware decides completion from NODE_STATUS only (kdp_dispatch below).
 *  - A TX_KICK racing the end of a program: written right after run falls it can be lost
 *    (the revision that loses it; the model loses every one until the last flit's push);
 *    kdp_ctrl_read at that same moment still gets its answer (a lost request is retried).
 * The program that fills the FIFO is written at register level: the dispatch layer never
 * overfills a unit. 17 instructions with one executing fit the FIFO of 16: no credit
 * violation. Expected values: docs/hardware.md §1 offsets and fields, docs/dispatch.md details. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

/* One flit into staging slot `slot`, all five words (native words, as kdp_stage writes). */
static void put_flit(unsigned slot, uint64_t w3, uint32_t hdr)
{
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_STAGE_SLOT(slot));
    uint64_t w[5] = { 0, 0, 0, w3, hdr };
    for (unsigned i = 0; i < 5; i++) {
        if (sizeof(uintptr_t) == 8) {
            d[i] = (uintptr_t)w[i];
        } else {
            d[2 * i] = (uintptr_t)(uint32_t)w[i];
            d[2 * i + 1] = (uintptr_t)(uint32_t)(w[i] >> 32);
        }
    }
}

static void raw_kick(uint8_t yx, unsigned len, unsigned cred)
{
    hal_agent_wr32(KA_PROG_DST, yx);
    hal_agent_wr32(KA_PROG_BASE, 0);
    hal_agent_wr32(KA_PROG_LEN, len);
    hal_agent_wr32(KA_PROG_CRED, cred);
    hal_fence();
    hal_agent_wr32(KA_PROG_KICK, 1);
}

static bool running(void)
{
    return (hal_agent_rd32(KA_PROG_STAT) & KA_PROG_STAT_RUN) != 0;
}

static uint16_t count_of(uint8_t yx)
{
    return (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, hal_agent_rd32(KA_NODE_STATUS(yx)));
}

/* Waits (bounded) until yx's NODE_STATUS count moved by n from c0. */
static bool wait_count(uint8_t yx, uint16_t c0, unsigned n, uint32_t cycles)
{
    uint64_t t = hal_cycles();
    while ((uint16_t)(count_of(yx) - c0) != n)
        if (hal_cycles() - t > cycles)
            return false;
    return true;
}

/* A CU_CTRL read of CU_CAPS of yx into TX_FLIT, every word (the mailbox sends it verbatim). */
static void tx_flit_ctrl(uint8_t yx, uint8_t txn)
{
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));
    for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
        d[i] = 0;
    d[KF_HDR_WORD * 8u / sizeof(uintptr_t)] = kdp_ctrl_hdr(yx, KDT_AGENT, txn);
    hal_fence();
}

/* Pops RX; returns how many flits carried txn. */
static unsigned drain_rx(uint8_t txn)
{
    unsigned got = 0;
    while (!(hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)) {
        uint32_t h = hal_agent_rd32(KA_RX_FLIT(KF_HDR_WORD));
        got += KBF_FIELD_GET(KF_HDR_TXN, h) == txn;
        hal_agent_wr32(KA_RX_POP, 1);
    }
    return got;
}

int main(void)
{
    kdt_setup(&ctx);
    ctx.wait_cycles = 20000;            /* each wait bounded short: the test meets timeouts */

    /* ---- TX cannot drain ---- */
    uint16_t c0 = count_of(KDT_TU1);
    put_flit(0, ((uint64_t)TU_OP_DELAY << 60) | 300000u, kdp_inst_hdr(0x31, false));
    for (unsigned i = 1; i <= 16; i++)
        put_flit(i, (uint64_t)TU_OP_NOP << 60, kdp_inst_hdr(0x31, i == 16));
    raw_kick(KDT_TU1, 17, 17);
    EXPECT_EQ(kdp_quiesce(&ctx), KS_OK);            /* the 17 left the agent */
    unsigned calls = 0, st = 0;
    uint64_t v;
    while (calls < 20 && (st = kdp_ctrl_read(&ctx, KDT_TU1, KF_CTRL_CU_STATUS, 2000, &v)) == 0)
        calls++;
    kt_note("ctrl_reads_before_tx_full", calls);
    EXPECT_EQ(st, KS_TIMEOUT);
    EXPECT_EQ(ctx.status, KS_TIMEOUT);
    EXPECT_EQ(ctx.detail, 0x421);                   /* MAILBOX_TX << 8 | {y,x} of 1,2 */
    EXPECT_EQ(ctx.value, 0x10000);                  /* TX_STATUS: full */
    /* 4 in the link + 1 in the output stage + 16 in TX, two requests a call: full during the
     * 11th call's second request (the 21st) */
    EXPECT_EQ(calls, 10);
    /* Handled: the unit drains once its DELAY retires; then the agent is quiet again and the
     * node serves, the unit included. */
    EXPECT_TRUE(wait_count(KDT_TU1, c0, 17, 1000000));
    ctx.status = KS_OK;
    EXPECT_EQ(kdp_quiesce(&ctx), KS_OK);
    uint64_t (*pay)[4] = kdt_dram(0);
    kdt_tu(pay[0], TU_OP_NOP, 7);
    struct kdp_prog p = { .payload = pay, .n = 1, .txn = 0x32 };
    struct kdp_job job;
    EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, KDT_TU1)), KS_OK);
    EXPECT_EQ(job.rep.last_code, 0x01);
    EXPECT_TRUE(kdt_quiet());

    /* ---- the STATUS.busy gap ---- */
    c0 = count_of(KDT_TU2);
    put_flit(0, (uint64_t)TU_OP_NOP << 60, kdp_inst_hdr(0x33, true));
    raw_kick(KDT_TU2, 1, 1);
    while (running())
        ;
    uint32_t busy = hal_agent_rd32(KA_STATUS) & KA_STATUS_BUSY;
    uint16_t c1 = count_of(KDT_TU2);
    EXPECT_EQ(busy, 0);                 /* "not busy" ... */
    EXPECT_EQ((uint16_t)(c1 - c0), 0);  /* ... and not delivered: the unit has not answered */
    EXPECT_TRUE(wait_count(KDT_TU2, c0, 1, 100000));    /* it is delivered later */

    /* ---- a TX_KICK racing the end of a program ---- */
    /* A raw TX_KICK k nops after a one-flit kick, without looking at run (k = 0..15, one
     * processor cycle each): early ones land while the program runs and are dropped (docs/hardware.md
     * §1.1: refused while a program runs, not deferred), the ones right after run fell are
     * lost in the revision that loses them (the model loses every one until the last flit's
     * push), later ones are sent. The firmware never does this: it issues mailbox traffic only
     * after reading run 0 (kdp_quiesce), waits KDP_TX_SETTLE_CYCLES before an enumeration, and
     * retries a CU_CTRL whose reply does not come. */
    uint32_t lost_mask = 0;
    for (unsigned k = 0; k < 16; k++) {
        put_flit(0, (uint64_t)TU_OP_NOP << 60, kdp_inst_hdr(0x34, true));
        tx_flit_ctrl(KDT_TU2, (uint8_t)(0x80 + k));
        c0 = count_of(KDT_TU2);
        raw_kick(KDT_TU2, 1, 1);
        for (unsigned n = 0; n < k; n++)
            __asm__ volatile("nop");
        hal_agent_wr32(KA_TX_KICK, 1);
        EXPECT_TRUE(wait_count(KDT_TU2, c0, 1, 100000));
        uint64_t t = hal_cycles();
        while (hal_cycles() - t < 3000)
            ;
        if (!drain_rx((uint8_t)(0x80 + k)))
            lost_mask |= 1u << k;
    }
    kt_note("tx_kicks_lost_mask", lost_mask);
    EXPECT_TRUE(lost_mask & 1u);                    /* the race is there ... */
    EXPECT_TRUE(!(lost_mask & 0x8000u));            /* ... at the end of a program only, */
    EXPECT_EQ(lost_mask & (lost_mask + 1u), 0);     /* every kick before the first sent one */
    /* The firmware's CU_CTRL read right after run fell gets its answer. */
    put_flit(0, (uint64_t)TU_OP_NOP << 60, kdp_inst_hdr(0x35, true));
    c0 = count_of(KDT_TU2);
    raw_kick(KDT_TU2, 1, 1);
    while (running())
        ;
    ctx.status = KS_OK;
    EXPECT_EQ(kdp_ctrl_read(&ctx, KDT_TU2, KF_CTRL_CU_CAPS, 4000, &v), 1);
    EXPECT_EQ(v >> 48, 0x5455);         /* "TU" */
    EXPECT_TRUE(wait_count(KDT_TU2, c0, 1, 100000));
    EXPECT_EQ(kdp_quiesce(&ctx), KS_OK);
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
