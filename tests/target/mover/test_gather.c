/* test_gather.c — GATHER (mode 2) on both boards (docs/hardware.md §3, §3.1 GATHER
 * row, §3 reach): four 32-bit indices read first, rows of two words at source base + index x
 * pitch, the destination walk setting the count. RV32 runs it, checked word by word; RV64
 * cannot write GATHER (0x50) and refuses with NO_REACH naming it, writing nothing — also when
 * the list leaves GATHER out, since RV64 can never set it. The erratum (docs/hardware.md §3.1: row 8
 * takes index[0]): a gather of 10 rows is refused (KS_MV_GATHER_ROWS, nothing written); the
 * same gather as two moves of 8 and 2 rows (index base 32 bytes further) moves the right data. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

static const uint32_t idx[4] = { 3, 0, 2, 1 };
/* Ten indices at MVT_AUX + 64: rows of one word at S + 512 + index x 32. */
static const uint32_t idx10[10] = { 9, 4, 7, 1, 0, 5, 8, 2, 6, 3 };
#define AUX10 (MVT_AUX + 64)

static const struct kd_write l_gather10[] = {
    MV_W(0x10, MV_HDR(0, S + 512, 0)),
    MV_WALK1(1, D + 1024, 10, 32),
    MV_W(0x30, MV_INDEX(AUX10, 10)),
    MV_W(0x50, MV_GATHERV(32, 1)),
    MV_W(0x00, MV_CTRL(2, 2, 0)),
};
/* Split as the builder does (mover/build.c): rows 0-7, then rows 8-9 with their own index word. */
static const struct kd_write l_gather10_split[] = {
    MV_W(0x10, MV_HDR(0, S + 512, 0)),
    MV_WALK1(1, D + 1024, 8, 32),
    MV_W(0x30, MV_INDEX(AUX10, 8)),
    MV_W(0x50, MV_GATHERV(32, 1)),
    MV_W(0x00, MV_CTRL(2, 2, 0)),
    MV_W(0x10, MV_HDR(1, D + 1024 + 256, 1)),
    MV_W(0x18, MV_DIM(1, 0, 2, 32)), MV_W(0x20, 0),
    MV_W(0x30, MV_INDEX(AUX10 + 32, 2)),
    MV_W(0x00, MV_CTRL(2, 2, 0)),
};

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
    for (unsigned i = 0; i < 16; i++)
        mvt_cpu(AUX10)[i] = i < 10 ? idx10[i] : 0xFFFFFFFFu;
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
        EXPECT_EQ(r.detail, KMV_REG_GATHER);
        /* Ten rows in one move: refused, nothing written. */
        EXPECT_EQ(mvt_run(l_gather10, MV_N(l_gather10), &r), KS_MV_GATHER_ROWS);
        EXPECT_EQ(r.detail, 10);
        EXPECT_EQ(r.index, 8);
        EXPECT_EQ(mvt_compare("gather10_refused"), 0);
        /* Split in two moves: every row from its own index. */
        EXPECT_EQ(mvt_run(l_gather10_split, MV_N(l_gather10_split), &r), KS_OK);
        EXPECT_EQ(r.moves, 2);
        for (unsigned e = 0; e < 10; e++) {
            uint32_t v[8];
            for (unsigned l = 0; l < 8; l++)
                v[l] = mvt_src_val(S + 512 + idx10[e] * 32u + 4u * l);
            mvt_exp_word(D + 1024 + 32 * e, v);
        }
        EXPECT_EQ(mvt_compare("gather10_split"), 0);
        /* Literal: row 8 is index 6 -> S + 512 + 192 (the erratum would give index 9, S + 800). */
        EXPECT_EQ(mvt_cpu(D + 1024 + 256)[0], mvt_src_val(S + 704));
    } else {
        EXPECT_EQ(mvt_run(l_gather, MV_N(l_gather), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_GATHER);
        EXPECT_EQ(r.index, 7);
        EXPECT_EQ(mvt_run(l_nogather, MV_N(l_nogather), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_GATHER);
        EXPECT_EQ(r.index, 7);
        EXPECT_EQ(mvt_run(l_gather10, MV_N(l_gather10), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_GATHER);
        EXPECT_EQ(mvt_compare("gather_refused"), 0);
    }
    kt_finish();
}
