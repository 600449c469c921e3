/* test_copy_multi.c — lists of several writes and moves on both boards (issue 4 "Tests";
 * BOARD.md §3, §3.1, §4 descriptor form): a move longer than the RV32 scratchpad buffer
 * (split into two MVGOs, only the last carrying the GO) and three copies in one list reusing
 * settings, checked word by word against mvt.h's reference walker. */
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

/* Three 5-word copies; the second and third reuse everything but the two headers. */
static const struct kd_write l_multi[] = {
    MV_WALK1(0, S + 4096, 5, 32),
    MV_WALK1(1, D, 5, 32),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
    MV_W(0x10, MV_HDR(0, S + 5120, 1)), MV_W(0x10, MV_HDR(1, D + 512, 1)),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
    MV_W(0x10, MV_HDR(0, S + 6144, 1)), MV_W(0x10, MV_HDR(1, D + 1024, 1)),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
};

static struct kmv_walk wd = { .ndim = 1, .count = { 4 }, .stride = { 32 } };
static struct kmv_walk ws = { .ndim = 1, .count = { 4 }, .stride = { 32 } };

static void long_move(void)
{
    struct kmv_result r;

    mvt_setup();
    for (unsigned i = 0; i < 40; i++)
        l_long[i] = kd_make(KM_REG_SEED, i);
    for (unsigned i = 0; i < MV_N(l_tail); i++)
        l_long[40 + i] = l_tail[i];
    EXPECT_EQ(mvt_run(l_long, MV_N(l_long), &r), KS_OK);
    EXPECT_EQ(r.moves, 1);
    wd.base = D;
    ws.base = S + 2048;
    mvt_ref_copy(&wd, &ws, 0, KM_WIDTH_32);
    EXPECT_EQ(mvt_compare("long_move"), 0);
}

static void multi(void)
{
    struct kmv_result r;

    mvt_setup();
    EXPECT_EQ(mvt_run(l_multi, MV_N(l_multi), &r), KS_OK);
    EXPECT_EQ(r.moves, 3);
    wd.count[0] = ws.count[0] = 5;
    for (unsigned k = 0; k < 3; k++) {
        wd.base = D + 512 * k;
        ws.base = S + 4096 + 1024 * k;
        mvt_ref_copy(&wd, &ws, 0, KM_WIDTH_32);
    }
    EXPECT_EQ(mvt_compare("multi"), 0);
}

int main(void)
{
    long_move();
    multi();
    kt_finish();
}
