/* test_enum_square.c — enumeration on a square 3x3 mesh (issue 14 item 1; docs/hardware.md §1 CAPS): the
 * model publishes CAPS GRID_LO 1 and GRID_HI 3 (scalars, the larger side), the firmware scans
 * both axes GRID_LO-1 .. GRID_HI+1 (0x00 .. 0x44) and finds exactly the units of the map
 *   grid=3x3;agent@0,2;NP@1,1;NP@2,2;NP@3,3;TU@4,1;TU@2,4;NP@1,0
 * in scan order (edge endpoints included); coordinates of that square holding no unit are
 * clamped onto real units, whose answers (another src) count as empty at once: the scan takes
 * less than one reply wait per such coordinate. Expected values: the map and CU_CAPS of
 * the model's units ("NP" 0x4E50, "TU" 0x5455, version 1, depth 16). */
// kohaku-test: qemu-opts=units=grid=3x3;agent@0,,2;NP@1,,1;NP@2,,2;NP@3,,3;TU@4,,1;TU@2,,4;NP@1,,0
// kohaku-test: expect-referee=credit_violations=0
// kohaku-test: expect-referee=rx_dropped=0
#include "kdt.h"

static struct kdp_ctx ctx;

int main(void)
{
    EXPECT_EQ(hal_agent_rd(KA_CAPS), 0x301040120ull);     /* 288 | 4 << 16 | 1 << 24 | 3 << 32 */
    kdp_init(&ctx, 0x20, KDT_WAIT, KA_STAGE_FLITS_DEFAULT);
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    EXPECT_EQ(lo, 0x00);
    EXPECT_EQ(hi, 0x44);
    uint64_t c0 = hal_cycles();
    EXPECT_EQ(kdp_enumerate(&ctx, lo, hi, 100000), KS_OK);
    uint64_t took = hal_cycles() - c0;
    kt_note("enum_cycles", took);
    /* 20 coordinates asked, 14 of them holding no unit: waiting for silence there would
     * take at least 14 x 2 x 100,000 cycles; answered at once, not even one wait each (RV32's
     * interpreted enumeration costs about 10,000 cycles a coordinate) */
    EXPECT_TRUE(took < 14u * 100000u);
    static const uint8_t want[6] = { 0x01, 0x11, 0x14, 0x22, 0x33, 0x42 };
    static const uint16_t type[6] = { 0x4E50, 0x4E50, 0x5455, 0x4E50, 0x4E50, 0x5455 };
    EXPECT_EQ(ctx.n_units, 6);
    for (unsigned i = 0; i < 6 && i < ctx.n_units; i++) {
        EXPECT_EQ(ctx.units[i].yx, want[i]);
        EXPECT_EQ(ctx.units[i].type, type[i]);
        EXPECT_EQ(ctx.units[i].version, 1);
        EXPECT_EQ(ctx.units[i].inst_depth, 16);
    }
    EXPECT_TRUE(kdt_quiet());
    /* every unit found serves: one TU NOP / NP MEMSET each */
    uint64_t (*pay)[4] = kdt_dram(0);
    for (unsigned i = 0; i < ctx.n_units; i++) {
        if (ctx.units[i].type == 0x5455)
            kdt_tu(pay[0], TU_OP_NOP, i);
        else
            np_payload(pay[0], np_memset_shape(0, 1, 2, 3));
        struct kdp_prog p = { .payload = pay, .n = 1, .txn = (uint8_t)i };
        struct kdp_job job;
        EXPECT_EQ(kdp_dispatch(&ctx, kdt_job(&job, &p, ctx.units[i].yx)), KS_OK);
        EXPECT_EQ(job.rep.last_code, 0x01);
    }
    kt_finish();
}
