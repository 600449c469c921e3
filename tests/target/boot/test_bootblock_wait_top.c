/* test_bootblock_wait_top.c — the longest accepted wait_cycles, 2^31 - 1 (
 * KX_BOOT_WAIT_MAX): the block is accepted, main runs with it, and a replay given the most a
 * caller can ask (2^64 - 1 cycles, clamped to 2^31 - 1 by replay.c) waits for its move and
 * succeeds with the data moved. */
// kohaku-test: bootblock=--wait 0x7FFFFFFF
#include "../mover/mvt.h"
#include "boot.h"

int main(void)
{
    static const struct kd_write good[] = {
        MV_WALK1(0, MVT_SRC, 4, 32), MV_WALK1(1, MVT_DST, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
    };
    static const struct kmv_walk gd = { .base = MVT_DST, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    static const struct kmv_walk gs = { .base = MVT_SRC, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    struct kmv_result r;

    EXPECT_EQ(kx_bootblock()->wait_cycles, 0x7FFFFFFFu);
    mvt_setup();
    EXPECT_EQ(kmv_replay(good, MV_N(good), UINT64_MAX, &r), KS_OK);
    mvt_ref_copy(&gd, &gs, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("after_wait"), 0);
    kt_finish();
}
