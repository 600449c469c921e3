/* test_copy_long.c — a move longer than the RV32 scratchpad buffer, on both boards (
 * docs/hardware.md §4 descriptor form): 40 SEED writes and a copy in one move, which RV32
 * sends as two MVGOs with only the last carrying the GO; checked word by word against mvt.h's
 * reference walker. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

/* The 11 writes of a 4-word copy S+2048 -> D, after 40 SEED writes in the same move. */
static const struct kd_write l_tail[] = {
    MV_WALK1(0, S + 2048, 4, 32),
    MV_WALK1(1, D, 4, 32),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
};
static struct kd_write l_long[51];

static struct kmv_walk wd = { .ndim = 1, .count = { 4 }, .stride = { 32 } };
static struct kmv_walk ws = { .ndim = 1, .count = { 4 }, .stride = { 32 } };

static void long_move(void)
{
    struct kmv_result r;

    mvt_setup();
    for (unsigned i = 0; i < 40; i++)
        l_long[i] = kd_make(KMV_REG_SEED, i);
    for (unsigned i = 0; i < MV_N(l_tail); i++)
        l_long[40 + i] = l_tail[i];
    EXPECT_EQ(mvt_run(l_long, MV_N(l_long), &r), KS_OK);
    EXPECT_EQ(r.moves, 1);
    wd.base = D;
    ws.base = S + 2048;
    mvt_ref_copy(&wd, &ws, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("long_move"), 0);
}

int main(void)
{
    long_move();
    kt_finish();
}
