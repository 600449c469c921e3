/* test_copy.c — COPY (mode 0) replayed through the mover layer on both boards (
 * docs/hardware.md §3, §3.1): literal register lists, data checked word by word against mvt.h's
 * reference walker with guard words around: a linear copy, a 6-dimensional walk with negative
 * source strides, a broadcast (source stride 0), a destination bound. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

/* 8 words S+320 -> D+64 (guards: destination words 0-1 and 10.. stay). */
static const struct kd_write l_linear[] = {
    MV_WALK1(0, S + 320, 8, 32),
    MV_WALK1(1, D + 64, 8, 32),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
};
static const struct kmv_walk w_linear_d = { .base = D + 64, .ndim = 1, .count = { 8 }, .stride = { 32 } };
static const struct kmv_walk w_linear_s = { .base = S + 320, .ndim = 1, .count = { 8 }, .stride = { 32 } };

/* Six dimensions of counts 2,2,2,2,2,3; destination contiguous, source negative strides. */
static const struct kd_write l_six[] = {
    MV_W(0x10, MV_HDR(0, S + 4096, 6)),
    MV_W(0x18, MV_DIM(0, 0, 2, -512)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(0, 1, 2, -256)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(0, 2, 2, -128)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(0, 3, 2, -64)),   MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(0, 4, 2, -32)),   MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(0, 5, 3, -1024)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(0, 0, 0, 0)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_W(0x10, MV_HDR(1, D + 256, 6)),
    MV_W(0x18, MV_DIM(1, 0, 2, 1536)), MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 1, 2, 768)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 2, 2, 384)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 3, 2, 192)),  MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 4, 2, 96)),   MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 5, 3, 32)),   MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(1, 0, 0, 0)), MV_W(0x28, MV_BOUND(1, 1, 0, 0)),
    MV_W(0x00, MV_CTRL(0, 1, 0x08)),                /* width 16, write coalescing */
};
static const struct kmv_walk w_six_d = {
    .base = D + 256, .ndim = 6, .count = { 2, 2, 2, 2, 2, 3 },
    .stride = { 1536, 768, 384, 192, 96, 32 } };
static const struct kmv_walk w_six_s = {
    .base = S + 4096, .ndim = 6, .count = { 2, 2, 2, 2, 2, 3 },
    .stride = { -512, -256, -128, -64, -32, -1024 } };

/* Broadcast: 12 destination words from one source word. */
static const struct kd_write l_bcast[] = {
    MV_WALK1(0, S + 96, 12, 0),
    MV_WALK1(1, D + 32, 12, 32),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
};
static const struct kmv_walk w_bcast_d = { .base = D + 32, .ndim = 1, .count = { 12 }, .stride = { 32 } };
static const struct kmv_walk w_bcast_s = { .base = S + 96, .ndim = 1, .count = { 12 }, .stride = { 0 } };

/* Destination bound 1 fed by axis code 2, extent 5: elements 5-7 are not written. */
static const struct kd_write l_dbound[] = {
    MV_WALK1(0, S, 8, 32),
    MV_W(0x10, MV_HDR(1, D, 1)), MV_W(0x18, MV_DIM(1, 0, 8, 32)), MV_W(0x20, MV_AXIS(2, 1)),
    MV_W(0x28, MV_BOUND(1, 0, 0, 0)), MV_W(0x28, MV_BOUND(1, 1, 0, 5)),
    MV_W(0x00, MV_CTRL(0, 2, 0)),
};
static const struct kmv_walk w_dbound_d = {
    .base = D, .ndim = 1, .count = { 8 }, .stride = { 32 }, .axis = { 2 }, .astep = { 1 },
    .bound_extent = { 0, 5 } };
static const struct kmv_walk w_dbound_s = { .base = S, .ndim = 1, .count = { 8 }, .stride = { 32 } };

static void run_copy(const char *what, const struct kd_write *l, uint32_t n,
                     const struct kmv_walk *d, const struct kmv_walk *s)
{
    struct kmv_result r;

    mvt_setup();
    EXPECT_EQ(mvt_run(l, n, &r), KS_OK);
    EXPECT_EQ(r.moves, 1);
    mvt_ref_copy(d, s, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare(what), 0);
}

int main(void)
{
    run_copy("linear", l_linear, MV_N(l_linear), &w_linear_d, &w_linear_s);
    run_copy("six_dims", l_six, MV_N(l_six), &w_six_d, &w_six_s);
    /* Worked by hand: the last destination word (D + 256 + 3040) is source element
     * (1,1,1,1,1,2) at 4096 - 512 - 256 - 128 - 64 - 32 - 2048 = S + 1056. */
    EXPECT_EQ(mvt_cpu(D + 3296)[0], mvt_src_val(S + 1056));
    run_copy("broadcast", l_bcast, MV_N(l_bcast), &w_bcast_d, &w_bcast_s);
    EXPECT_EQ(mvt_cpu(D + 32 + 11 * 32)[7], mvt_src_val(S + 96 + 28));
    run_copy("dst_bound", l_dbound, MV_N(l_dbound), &w_dbound_d, &w_dbound_s);
    EXPECT_EQ(mvt_cpu(D + 5 * 32)[0], mvt_guard_val(D + 5 * 32));
    kt_finish();
}
