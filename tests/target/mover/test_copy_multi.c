/* test_copy_multi.c — several moves in one list on both boards (
 * docs/hardware.md §3.1 "Every setting persists across moves"): three copies in one list, the second
 * and third rewriting only the two headers, checked word by word against mvt.h's reference
 * walker; the same list through kmv_replay_validated and its O(1) guards. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

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

static struct kmv_walk wd = { .ndim = 1, .count = { 5 }, .stride = { 32 } };
static struct kmv_walk ws = { .ndim = 1, .count = { 5 }, .stride = { 32 } };

static void expect_multi(void)
{
    for (unsigned k = 0; k < 3; k++) {
        wd.base = D + 512 * k;
        ws.base = S + 4096 + 1024 * k;
        mvt_ref_copy(&wd, &ws, 0, KMV_WIDTH_32);
    }
}

static void multi(void)
{
    struct kmv_result r;

    mvt_setup();
    EXPECT_EQ(mvt_run(l_multi, MV_N(l_multi), &r), KS_OK);
    EXPECT_EQ(r.moves, 3);
    expect_multi();
    EXPECT_EQ(mvt_compare("multi"), 0);
}

/* kmv_replay_validated: the same list, validated once up front, replayed without validation;
 * its O(1) guards refuse an empty list, a list not ending with a GO and an overlong one. */
static void validated(void)
{
    struct kmv_result r;

    EXPECT_EQ(kmv_validate(l_multi, MV_N(l_multi), kmv_caps_self(), &r), KS_OK);
    mvt_setup();
    EXPECT_EQ(kmv_replay_validated(l_multi, MV_N(l_multi), MVT_TIMEOUT, &r), KS_OK);
    EXPECT_EQ(r.moves, 3);
    expect_multi();
    EXPECT_EQ(mvt_compare("validated"), 0);
    EXPECT_EQ(kmv_replay_validated(l_multi, 0, MVT_TIMEOUT, &r), KS_NO_GO);
    EXPECT_EQ(kmv_replay_validated(l_multi, MV_N(l_multi) - 1u, MVT_TIMEOUT, &r), KS_NO_GO);
    EXPECT_EQ(kmv_replay_validated(l_multi, KD_MAX_WRITES + 1u, MVT_TIMEOUT, &r), KS_LIST_TOO_LONG);
    EXPECT_EQ(mvt_compare("validated_refused"), 0);
}

int main(void)
{
    multi();
    validated();
    kt_finish();
}
