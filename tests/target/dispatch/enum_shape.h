/* enum_shape.h — the body of the enumeration tests on mesh shapes other than the default
 * (test_enum_tall.c, test_enum_square.c; docs/hardware.md §1 CAPS): CAPS as published, the scan
 * range from its scalars, every unit of the map found with its CU_CAPS in scan order, fast
 * (a clamped coordinate counts as empty at once), and every unit found serving one instruction.
 * Expected values come from each test's map and the model's units ("NP" 0x4E50, "TU" 0x5455,
 * version 1, depth 16). */
#ifndef ENUM_SHAPE_H
#define ENUM_SHAPE_H
#include "kdt.h"

static struct kdp_ctx ctx;

/* caps: CAPS as the hardware publishes it for the map; agent: the agent's {y,x}; hi: the scan's
 * upper corner (GRID_HI + 1 on both axes); empty: coordinates asked that hold no unit. */
static void kdt_enum_shape(uint64_t caps, uint8_t agent, uint8_t hi_want, unsigned empty,
                           const uint8_t want[6], const uint16_t type[6])
{
    EXPECT_EQ(hal_agent_rd(KA_CAPS), caps);
    kdp_init(&ctx, agent, KDT_WAIT, KA_STAGE_FLITS_DEFAULT);
    uint8_t lo, hi;
    kdp_scan_range(&lo, &hi);
    EXPECT_EQ(lo, 0x00);
    EXPECT_EQ(hi, hi_want);
    uint64_t c0 = hal_cycles();
    EXPECT_EQ(kdp_enumerate(&ctx, lo, hi, 100000), KS_OK);
    uint64_t took = hal_cycles() - c0;
    kt_note("enum_cycles", took);
    /* waiting for silence at every empty coordinate would take at least empty x 2 x 100,000
     * cycles; answered at once, not even one wait each (RV32's interpreted enumeration costs
     * about 10,000 cycles a coordinate) */
    EXPECT_TRUE(took < empty * 100000u);
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
}
#endif
