/* test_xform.c — XFORM (mode 5) through the reference occupant at id 1 on both boards (
 * docs/hardware.md §3, §3.1 XFORM row; docs/mover-model.md §4: FP16 -> FP8 E5M2, 8 source
 * words in, 4 words out per entry). The expected bytes come from a conversion written here
 * from that description. Occupant mode 0 (overflow -> infinity) and 1 (saturating) in one
 * list; mode 2 is an occupant fault: RV32 reports it (MVGO [11:8]) as KS_XFORM_FAULT, RV64 has
 * no way to see it (MVSTAT carries the mover's fault only) and the entry's output is zero, so
 * every RV64 list with an XFORM move ends KS_XFORM_UNCHECKED (never a plain OK, docs/hardware.md
 * §3.1), detail = its XFORM moves. A destination whose 4-word bursts would cross a 4 KB page
 * (base D + 0xFE0: the burst runs to D + 0x1060) is refused on both, nothing written. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

/* Two entries (16 source words) -> two 4-word outputs, destination stride 4 x 32. */
static const struct kd_write l_xf[] = {
    MV_W(0x10, MV_HDRX(S, 1, 1, 0)), MV_W(0x18, MV_DIM(0, 0, 16, 32)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(0, 0, 0, 0)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_WALK1(1, D, 2, 128),
    MV_W(0x00, MV_CTRL(5, 2, 0)),
    MV_W(0x10, MV_HDRX(S, 1, 1, 1)),                /* saturating */
    MV_W(0x10, MV_HDR(1, D + 512, 1)),
    MV_W(0x00, MV_CTRL(5, 2, 0)),
};
static const struct kd_write l_xf_bad[] = {
    MV_W(0x10, MV_HDRX(S, 1, 1, 2)),                /* no such occupant mode */
    MV_W(0x10, MV_HDR(1, D + 1024, 1)),
    MV_W(0x18, MV_DIM(0, 0, 16, 32)), MV_W(0x20, 0), /* re-stated: every setting in the list */
    MV_W(0x28, MV_BOUND(0, 0, 0, 0)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_W(0x18, MV_DIM(1, 0, 2, 128)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(1, 0, 0, 0)), MV_W(0x28, MV_BOUND(1, 1, 0, 0)),
    MV_W(0x00, MV_CTRL(5, 2, 0)),
};

/* The first list's first move with its destination at D + 0xFE0. */
static const struct kd_write l_xf_4k[] = {
    MV_W(0x10, MV_HDRX(S, 1, 1, 0)), MV_W(0x18, MV_DIM(0, 0, 16, 32)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(0, 0, 0, 0)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_WALK1(1, D + 0xFE0, 2, 128),
    MV_W(0x00, MV_CTRL(5, 2, 0)),
};

static uint16_t fp16_in(unsigned i)
{
    return (uint16_t)(i * 0x9E37u ^ 0x55AAu);   /* all classes: normals, subnormals, Inf, NaN */
}

/* FP16 -> E5M2: same sign, exponent width and bias; drop the low 8 mantissa bits rounding to
 * nearest, ties to even; Inf -> sign|0x7C, NaN -> sign|0x7F; finite overflow -> 0x7C, or 0x7B
 * when saturating. */
static uint8_t e5m2(uint16_t h, int sat)
{
    uint8_t sign = (uint8_t)((h & 0x8000u) >> 8);
    unsigned mag = h & 0x7FFFu, keep = mag >> 8, rest = mag & 0xFFu;

    if ((mag >> 10) == 0x1Fu)
        return (uint8_t)(sign | ((mag & 0x3FFu) ? 0x7Fu : 0x7Cu));
    if (rest > 0x80u || (rest == 0x80u && (keep & 1u)))
        keep++;
    if (keep >= 0x7Cu)
        keep = sat ? 0x7Bu : 0x7Cu;
    return (uint8_t)(sign | keep);
}

static void expect_entries(uint64_t dst, int sat, int zero)
{
    for (unsigned e = 0; e < 2; e++) {
        for (unsigned w = 0; w < 4; w++) {
            uint32_t v[8];
            for (unsigned l = 0; l < 8; l++) {
                uint32_t lane = 0;
                for (unsigned b = 0; b < 4; b++) {
                    unsigned i = 128 * e + 32 * w + 4 * l + b;
                    lane |= (uint32_t)(zero ? 0 : e5m2(fp16_in(i), sat)) << (8 * b);
                }
                v[l] = lane;
            }
            mvt_exp_word(dst + 128 * e + 32 * w, v);
        }
    }
}

int main(void)
{
    struct kmv_result r;

    mvt_setup();
    for (unsigned j = 0; j < 128; j++)
        mvt_cpu(S)[j] = fp16_in(2 * j) | (uint32_t)fp16_in(2 * j + 1) << 16;
    EXPECT_EQ(mvt_run(l_xf_4k, MV_N(l_xf_4k), &r), KS_MV_XFORM);
    EXPECT_EQ(r.detail, 5);
    EXPECT_EQ(r.index, 10);
    EXPECT_EQ(mvt_compare("xform_4k_refused"), 0);
    EXPECT_EQ(mvt_run(l_xf, MV_N(l_xf), &r), mvt_rv32() ? KS_OK : KS_XFORM_UNCHECKED);
    EXPECT_EQ(r.moves, 2);
    EXPECT_EQ(r.detail, mvt_rv32() ? 0 : 2);
    expect_entries(D, 0, 0);
    expect_entries(D + 512, 1, 0);
    /* Literal spot checks: 0x7BFF (largest finite) overflows to 0x7C, saturates to 0x7B. */
    EXPECT_EQ(e5m2(0x7BFFu, 0), 0x7C);
    EXPECT_EQ(e5m2(0x7BFFu, 1), 0x7B);
    EXPECT_EQ(e5m2(0x3C80u, 0), 0x3C);              /* 1.125: tie, even stays */
    EXPECT_EQ(e5m2(0x3D80u, 0), 0x3E);              /* tie, odd rounds up */
    EXPECT_EQ(mvt_compare("xform"), 0);

    EXPECT_EQ(mvt_run(l_xf_bad, MV_N(l_xf_bad), &r),
              mvt_rv32() ? KS_XFORM_FAULT : KS_XFORM_UNCHECKED);
    EXPECT_EQ(r.detail, 1);                         /* RV32: occupant fault 1; RV64: 1 XFORM move */
    expect_entries(D + 1024, 0, 1);
    EXPECT_EQ(mvt_compare("xform_occ_fault"), 0);
    kt_finish();
}
