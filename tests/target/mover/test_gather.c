/* test_gather.c — GATHER (mode 2) on both boards (docs/hardware.md §3, §3.1 GATHER
 * row, §3 reach): four 32-bit indices read first, rows of two words at source base + index x
 * pitch, the destination walk setting the count. RV32 runs it, checked word by word; RV64
 * cannot write GATHER (0x50) and refuses with NO_REACH naming it, writing nothing — also when
 * the list leaves GATHER out, since RV64 can never set it. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

static const uint32_t idx[4] = { 3, 0, 2, 1 };

static const struct kd_write l_gather[] = {
    MV_W(0x10, MV_HDR(0, S + 512, 0)),
    MV_WALK1(1, D + 64, 8, 32),
    MV_W(0x30, MV_INDEX(MVT_AUX, 4)),
    MV_W(0x50, MV_GATHERV(64, 2)),
    MV_W(0x00, MV_CTRL(2, 2, 0)),
};
/* The same without the GATHER write. */
static const struct kd_write l_nogather[] = {
    MV_W(0x10, MV_HDR(0, S + 512, 0)),
    MV_WALK1(1, D + 64, 8, 32),
    MV_W(0x30, MV_INDEX(MVT_AUX, 4)),
    MV_W(0x00, MV_CTRL(2, 2, 0)),
};

int main(void)
{
    struct kmv_result r;

    mvt_setup();
    for (unsigned i = 0; i < 8; i++)
        mvt_cpu(MVT_AUX)[i] = i < 4 ? idx[i] : 0xFFFFFFFFu;
    if (mvt_rv32()) {
        EXPECT_EQ(mvt_run(l_gather, MV_N(l_gather), &r), KS_OK);
        /* Element e: row e / 2, word e % 2, at S + 512 + idx[row] * 64 + word * 32. */
        for (unsigned e = 0; e < 8; e++) {
            uint64_t sa = S + 512 + idx[e >> 1] * 64u + (e & 1u) * 32u;
            uint32_t v[8];
            for (unsigned l = 0; l < 8; l++)
                v[l] = mvt_src_val(sa + 4u * l);
            mvt_exp_word(D + 64 + 32 * e, v);
        }
        EXPECT_EQ(mvt_compare("gather"), 0);
        /* Literal: element 0 is row index 3, word 0 -> S + 512 + 192. */
        EXPECT_EQ(mvt_cpu(D + 64)[0], mvt_src_val(S + 704));
        EXPECT_EQ(mvt_run(l_nogather, MV_N(l_nogather), &r), KS_MV_UNSET);
        EXPECT_EQ(r.detail, KM_REG_GATHER);
    } else {
        EXPECT_EQ(mvt_run(l_gather, MV_N(l_gather), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KM_REG_GATHER);
        EXPECT_EQ(r.index, 7);
        EXPECT_EQ(mvt_run(l_nogather, MV_N(l_nogather), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KM_REG_GATHER);
        EXPECT_EQ(r.index, 7);
        EXPECT_EQ(mvt_compare("gather_refused"), 0);
    }
    kt_finish();
}
