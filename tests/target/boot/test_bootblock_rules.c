/* test_bootblock_rules.c — every rule of kx_bootblock_check (boot.h, docs/firmware.md "Boot")
 * on blocks built here in the scratchpad, one rule broken at a time, plus the order when two
 * are broken (the first wins). Expected reasons are the numbers docs/firmware.md lists
 * (1 magic, 2 version, 3 size/count, 4 flags, 6 wait, 7 unit table, 8 wait above 2^31 - 1, 10 record limits), written
 * as literals. */
#include "harness.h"
#include "boot.h"

static struct kx_bootblock kt_bb;

/* A good block with n units: yx 0x20, 0x21, ... (clear of (0,0) and of the agent's own
 * coordinate 0x10, x 0 y 1 of the default map, docs/model-mesh.md), depth 16, the flag set
 * when n > 0. */
static struct kx_bootblock *kt_good(unsigned n)
{
    struct kx_bootblock *bb = &kt_bb;
    bb->magic = 0x4B424F54u;
    bb->version = 1;
    bb->size = (uint16_t)(32 + 8 * n);
    bb->flags = n ? 1 : 0;
    bb->wait_cycles = 1000;
    bb->queue_addr = 0x800000;
    bb->unit_count = (uint16_t)n;
    bb->rec_handles = 0;                /* the records' defaults */
    bb->rec_bytes = 0;
    for (unsigned i = 0; i < 32; i++) {
        bb->units[i].yx = (uint8_t)(0x20 + i);
        bb->units[i].type = 1;
        bb->units[i].inst_depth = 16;
    }
    return bb;
}

int main(void)
{
    struct kx_bootblock *bb;

    EXPECT_EQ(kx_bootblock_check(kt_good(0)), 0);
    EXPECT_EQ(kx_bootblock_check(kt_good(1)), 0);
    EXPECT_EQ(kx_bootblock_check(kt_good(6)), 0);
    EXPECT_EQ(kx_bootblock_check(kt_good(32)), 0);

    bb = kt_good(3); bb->magic = 0x4B424F55u;
    EXPECT_EQ(kx_bootblock_check(bb), 1);
    bb = kt_good(3); bb->version = 2;
    EXPECT_EQ(kx_bootblock_check(bb), 2);
    bb = kt_good(3); bb->size = 32 + 8 * 3 + 8;
    EXPECT_EQ(kx_bootblock_check(bb), 3);
    bb = kt_good(3); bb->size = 32 + 8 * 3 - 1;
    EXPECT_EQ(kx_bootblock_check(bb), 3);
    bb = kt_good(32); bb->unit_count = 33; bb->size = 32 + 8 * 33;     /* size matches, count too big */
    EXPECT_EQ(kx_bootblock_check(bb), 3);
    bb = kt_good(3); bb->flags = 0x3;
    EXPECT_EQ(kx_bootblock_check(bb), 4);
    bb = kt_good(0); bb->flags = 0x80000000u;
    EXPECT_EQ(kx_bootblock_check(bb), 4);
    bb = kt_good(3); bb->wait_cycles = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 6);
    /* the records' limits (exitword.h KX_BOOT_BAD_RECORDS 10; queue.h: 8 records, 1 MB, 32-byte units) */
    bb = kt_good(3); bb->rec_handles = 8; bb->rec_bytes = 0x100000;
    EXPECT_EQ(kx_bootblock_check(bb), 0);
    bb = kt_good(3); bb->rec_handles = 9;
    EXPECT_EQ(kx_bootblock_check(bb), 10);
    bb = kt_good(3); bb->rec_bytes = 0x100020;
    EXPECT_EQ(kx_bootblock_check(bb), 10);
    bb = kt_good(3); bb->rec_bytes = 100;
    EXPECT_EQ(kx_bootblock_check(bb), 10);
    bb = kt_good(3); bb->flags = 0;                                 /* a table without the flag */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(0); bb->flags = 1;                                 /* the flag without a table */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(3); bb->units[2].inst_depth = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(3); bb->units[0].inst_depth = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(5); bb->units[4].yx = 0x21;                        /* repeats entry 1 */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(32); bb->units[31].yx = 0x20;                      /* last repeats first */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(32); bb->units[30].yx = 0x3F;                      /* repeats entry 31 */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(3); bb->units[1].yx = 0x00;                        /* (0,0): a corner, no unit */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(3); bb->units[2].yx = 0x10;                        /* the agent's own coordinate */
    EXPECT_EQ(kx_bootblock_check(bb), 7);
    bb = kt_good(3); bb->units[3].yx = 0x10;       /* past the count: not looked at */
    bb->units[3].inst_depth = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 0);

    /* Two rules broken: the first in the order wins. */
    bb = kt_good(3); bb->version = 7; bb->flags = 0x10;
    EXPECT_EQ(kx_bootblock_check(bb), 2);
    bb = kt_good(3); bb->size = 0x200; bb->wait_cycles = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 3);
    bb = kt_good(3); bb->wait_cycles = 0; bb->units[1].inst_depth = 0;
    EXPECT_EQ(kx_bootblock_check(bb), 6);
    kt_finish();
}
