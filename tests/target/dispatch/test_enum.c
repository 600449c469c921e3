/* test_enum.c — enumeration of the default map through the mailbox (docs/hardware.md
 * §1 "Enumeration"): exactly the six units, in scan order, with their CU_CAPS; the edge
 * coordinates a clamped request reaches (answered by a real unit with its own src) are not
 * counted twice; RX empty after. Dispatch from an enumerated table: test_one and the others
 * use the same table given by the host (kdt_setup), which this test shows equal to the scan. */
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdp_init(&ctx, KDT_AGENT, KDT_WAIT, KA_STAGE_FLITS_DEFAULT);
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    /* CAPS GRID_LO 1, GRID_HI 4 (scalars: the larger side of 4x2, docs/hardware.md §1), widened by one
     * step on both axes */
    EXPECT_EQ(hal_agent_rd(KA_CAPS), 0x401040120ull);   /* 288 | 4 << 16 | 1 << 24 | 4 << 32 */
    EXPECT_EQ(lo, 0x00);
    EXPECT_EQ(hi, 0x55);
    uint64_t c0 = hal_cycles();
    EXPECT_EQ(kdp_enumerate(&ctx, lo, hi, 4000), KS_OK);
    kt_note("enum_cycles", hal_cycles() - c0);
    EXPECT_EQ(ctx.n_units, 6);
    static const uint8_t want[6] = { 0x11, 0x12, 0x13, 0x14, 0x21, 0x22 };
    for (unsigned i = 0; i < 6 && i < ctx.n_units; i++) {
        EXPECT_EQ(ctx.units[i].yx, want[i]);
        EXPECT_EQ(ctx.units[i].type, i < 4 ? 0x4E50 : 0x5455);   /* "NP", "TU" */
        EXPECT_EQ(ctx.units[i].version, 1);
        EXPECT_EQ(ctx.units[i].inst_depth, 16);
    }
    EXPECT_TRUE(kdt_quiet());
    /* TX_FLIT has no reset and keeps its content (docs/hardware.md §1.1): the firmware writes all of it
     * before every kick. Every byte set first: a word left as it was would change the
     * request's index (word 3) or its header, and no matching reply would come. */
    volatile uintptr_t *tx = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));
    for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
        tx[i] = ~(uintptr_t)0;
    uint64_t caps;
    EXPECT_EQ(kdp_ctrl_read(&ctx, KDT_TU1, KF_CTRL_CU_CAPS, 4000, &caps), 1);
    EXPECT_EQ(caps >> 48, 0x5455);                /* "TU" */
    EXPECT_EQ((caps >> 20) & 0xFFFF, 16);         /* inst_depth */
    EXPECT_TRUE(kdt_quiet());
    /* A range of only out-of-grid edge positions (x = 5, east of the grid): every request is
     * clamped onto NP (4,1), which answers with its own src; nothing is counted, and each
     * such answer means "empty" at once (less than one 100,000-cycle reply wait in all, where
     * silence would take 2 x 2 of them). */
    c0 = hal_cycles();
    EXPECT_EQ(kdp_enumerate(&ctx, KDP_YX(5, 1), KDP_YX(5, 2), 100000), KS_DISPATCH_NO_UNITS);
    EXPECT_TRUE(hal_cycles() - c0 < 100000u);
    EXPECT_EQ(ctx.n_units, 6);          /* refused: the table is unchanged */
    EXPECT_TRUE(kdt_quiet());
    kt_finish();
}
