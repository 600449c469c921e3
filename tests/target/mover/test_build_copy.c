/* test_build_copy.c — builder-made COPY lists replayed through the mover layer (
 * docs/hardware.md §3 modes, §3.1): data checked word by word against the reference walker
 * of mvt.h with guard words around; a linear copy, 6-dimensional walks with negative strides,
 * broadcast (source stride 0). */
// kohaku-test: boards=qemu-rv64
/* RV64 only: with the builder, the validator and the harness the image outgrows RV32's 8 KB
 * window; the literal-list tests (test_copy.c, ...) cover both boards. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

static struct kd_write list[96];

static void copy_linear(void)
{
    struct kmv_builder b;
    struct kmv_walk d, s;
    struct kmv_result r;

    mvt_setup();
    kmv_walk_linear(&d, MVT_DST + 64, 8);       /* guards: words 0-1 before, 10.. after */
    kmv_walk_linear(&s, MVT_SRC + 320, 8);
    kmv_build_init(&b, list, 96);
    kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    EXPECT_EQ(r.moves, 1);
    mvt_ref_copy(&d, &s, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_compare("copy_linear"), 0);
}

static void copy_six_dims_negative(void)
{
    static const uint16_t cnt[6] = { 2, 2, 2, 2, 2, 3 };
    static const int32_t dstr[6] = { 1536, 768, 384, 192, 96, 32 };     /* contiguous */
    static const int32_t sstr[6] = { -512, -256, -128, -64, -32, -1024 };
    struct kmv_builder b;
    struct kmv_walk d = { .base = MVT_DST + 256, .ndim = 6 };
    struct kmv_walk s = { .base = MVT_SRC + 4096, .ndim = 6 };
    struct kmv_result r;

    mvt_setup();
    for (unsigned i = 0; i < 6; i++) {
        d.count[i] = s.count[i] = cnt[i];
        d.stride[i] = dstr[i];
        s.stride[i] = sstr[i];
    }
    kmv_build_init(&b, list, 96);
    kmv_build_copy(&b, &d, &s, KMV_WIDTH_16, 0, KMV_CTRL_FLAG_COALESCE >> 8);
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    mvt_ref_copy(&d, &s, 0, KMV_WIDTH_16);
    /* A sample worked by hand: destination word 95 (the last) is source element
     * (1,1,1,1,1,2): 4096 - 512 - 256 - 128 - 64 - 32 - 2048 = 1056. */
    EXPECT_EQ(mvt_cpu(MVT_EXP + (MVT_DST + 256 + 95 * 32 - MVT_DST))[0], mvt_src_val(MVT_SRC + 1056));
    EXPECT_EQ(mvt_compare("copy_six_dims"), 0);
}

static void copy_broadcast(void)
{
    struct kmv_builder b;
    struct kmv_walk d, s;
    struct kmv_result r;

    mvt_setup();
    kmv_walk_linear(&d, MVT_DST + 32, 12);
    kmv_walk_linear(&s, MVT_SRC + 96, 12);
    s.stride[0] = 0;                            /* docs/hardware.md §3: stride 0 broadcasts */
    kmv_build_init(&b, list, 96);
    kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
    EXPECT_EQ(mvt_replay(&b, &r), KS_OK);
    mvt_ref_copy(&d, &s, 0, KMV_WIDTH_32);
    EXPECT_EQ(mvt_cpu(MVT_DST + 32 + 11 * 32)[7], mvt_src_val(MVT_SRC + 96 + 28));
    EXPECT_EQ(mvt_compare("copy_broadcast"), 0);
}

int main(void)
{
    copy_linear();
    copy_six_dims_negative();
    copy_broadcast();
    kt_finish();
}
