/* test_build_bounds.c — builder-made COPY lists through the mover layer (
 * docs/hardware.md §3, §3.1): destination bounds, source padding (RV32; RV64 refuses it with NO_REACH
 * naming IMM and writes nothing), a move longer than the RV32 scratchpad buffer, and several
 * moves in one list, each checked word by word against mvt.h's reference walker. */
// kohaku-test: boards=qemu-rv64
/* RV64 only: with the builder, the validator and the harness the image outgrows RV32's 8 KB
 * window; the literal-list tests (test_copy.c, ...) cover both boards. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

static struct kd_write list[96];

/* Destination bound: axis code 2 feeds bound 1; elements at positions 5.. are suppressed. */
static void copy_dst_bound(void)
{
    struct kmv_builder b;
    struct kmv_walk d, s;
    struct kmv_result r;

    mvt_setup();
    kmv_walk_linear(&d, MVT_DST, 8);
    d.axis[0] = 2;
    d.astep[0] = 1;
    d.bound_extent[1] = 5;
    kmv_walk_linear(&s, MVT_SRC, 8);
    kmv_build_init(&b, list, 96);
    kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    mvt_ref_copy(&d, &s, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("copy_dst_bound"), 0);
    EXPECT_EQ(mvt_cpu(MVT_DST + 5 * 32)[0], mvt_guard_val(MVT_DST + 5 * 32));
}

/* Source padding: positions -2..5 on bound 0 with extent 4, so elements 0, 1, 6, 7 take the
 * pad pattern of IMM at the element width. RV64 cannot write IMM: NO_REACH, nothing written. */
static void copy_padding(unsigned width, uint32_t pad, uint32_t lane)
{
    struct kmv_builder b;
    struct kmv_walk d, s;
    struct kmv_result r;

    mvt_setup();
    kmv_walk_linear(&d, MVT_DST + 128, 8);
    kmv_walk_linear(&s, MVT_SRC + 1024, 8);
    s.axis[0] = 1;
    s.astep[0] = 1;
    s.bound_base[0] = -2;
    s.bound_extent[0] = 4;
    kmv_build_init(&b, list, 96);
    kmv_build_copy(&b, &d, &s, width, pad, 0);
    if (mvt_rv32()) {
        EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
        mvt_ref_copy(&d, &s, pad, width);
        /* Literal check of the pattern (element 0 padded, element 2 = source element 2). */
        EXPECT_EQ(mvt_cpu(MVT_DST + 128)[3], lane);
        EXPECT_EQ(mvt_cpu(MVT_DST + 128 + 64)[0], mvt_src_val(MVT_SRC + 1024 + 64));
    } else {
        EXPECT_EQ(mvt_replay(&b, &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_IMM);
    }
    EXPECT_EQ(mvt_compare("copy_padding"), 0);
}

/* One move longer than the RV32 scratchpad buffer (32 writes): 40 SEED writes first, so the
 * descriptor goes out in two MVGOs and only the last carries the GO. Then three moves in one
 * list, the second and third reusing settings of the first. */
static void copy_long_and_multi(void)
{
    struct kmv_builder b;
    struct kmv_walk d, s;
    struct kmv_result r;

    mvt_setup();
    kmv_build_init(&b, list, 96);
    for (unsigned i = 0; i < 40; i++)
        kmv_build_raw(&b, KMV_REG_SEED, i);
    kmv_walk_linear(&d, MVT_DST, 4);
    kmv_walk_linear(&s, MVT_SRC + 2048, 4);
    kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
    EXPECT_EQ(b.n, 51);
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    EXPECT_EQ(r.moves, 1);
    mvt_ref_copy(&d, &s, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("copy_long"), 0);

    mvt_setup();
    kmv_build_init(&b, list, 96);
    for (unsigned m = 0; m < 3; m++) {
        kmv_walk_linear(&d, MVT_DST + 512 * m, 5);
        kmv_walk_linear(&s, MVT_SRC + 4096 + 1024 * m, 5);
        kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
        mvt_ref_copy(&d, &s, 0, KMV_WIDTH_32);
    }
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    EXPECT_EQ(r.moves, 3);
    EXPECT_EQ(mvt_compare("copy_multi"), 0);
}

int main(void)
{
    copy_dst_bound();
    copy_padding(KMV_WIDTH_8, 0x1234A5u, 0xA5A5A5A5u);
    copy_padding(KMV_WIDTH_16, 0x12BEEFu, 0xBEEFBEEFu);
    copy_padding(KMV_WIDTH_32, 0x12345678u, 0x12345678u);
    copy_long_and_multi();
    kt_finish();
}
