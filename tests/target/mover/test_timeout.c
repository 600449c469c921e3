/* test_timeout.c — bounded waits of the mover layer on both boards (docs/design.md §6
 * "Every poll loop is bounded"; docs/hardware.md §4 "a second MVGO while busy is an error"). A 2 MB
 * GENERATE given 100 cycles times out with KS_TIMEOUT naming the move (KS_AWAIT_MOVER); a
 * list replayed while it still runs is refused with KS_TIMEOUT naming the idle wait
 * (KS_AWAIT_MOVER_IDLE) without writing a register; given time, the same list then waits for
 * the mover and succeeds. The referee confirms no GO ever reached a busy mover. */
// kohaku-test: expect-referee=busy_go=0
// kohaku-test: expect-referee=bad_reg_writes=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST
#define BIG UINT64_C(0x21000000)

static const struct kd_write l_big[] = {
    MV_WALK1(1, BIG, 65535, 32), MV_W(0x38, 7), MV_W(0x00, MV_CTRL(3, 2, 0)),
};
static const struct kd_write good[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};

int main(void)
{
    static const struct kmv_walk gd = { .base = D, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    static const struct kmv_walk gs = { .base = S, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    struct kmv_result r;

    mvt_setup();
    EXPECT_EQ(kmv_replay(l_big, MV_N(l_big), 100, &r), KS_TIMEOUT);
    EXPECT_EQ(r.detail, KS_AWAIT_MOVER << 8);
    EXPECT_EQ(r.index, MV_N(l_big) - 1u);
    EXPECT_EQ(r.moves, 0);
    EXPECT_TRUE(r.value != 0);                      /* the status word, busy set */

    EXPECT_EQ(kmv_replay(good, MV_N(good), 100, &r), KS_TIMEOUT);
    EXPECT_EQ(r.detail, KS_AWAIT_MOVER_IDLE << 8);
    EXPECT_EQ(r.index, 0);
    EXPECT_EQ(mvt_compare("not_written"), 0);

    EXPECT_EQ(kmv_replay(good, MV_N(good), MVT_TIMEOUT, &r), KS_OK);
    mvt_ref_copy(&gd, &gs, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("after_wait"), 0);
    kt_finish();
}
