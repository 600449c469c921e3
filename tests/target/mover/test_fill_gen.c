/* test_fill_gen.c — FILL (mode 4) and GENERATE (mode 3) on both boards (
 * docs/hardware.md §3, §3.1 GENERATE row, §3 reach). FILL at widths 8/16/32 in one list: RV32 runs
 * it; RV64 cannot write IMM and refuses it with NO_REACH, writing nothing. GENERATE (reachable
 * from both) against a Philox-4x32-10 written here from §3.1's description, once as one move
 * and once as two moves over the halves, which must give the same bytes. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define D MVT_DST

static const struct kd_write l_fill[] = {
    MV_WALK1(1, D, 3, 32),
    MV_W(0x40, 0xCAFE12A5u),
    MV_W(0x00, MV_CTRL(4, 0, 0)),                   /* width 8 */
    MV_W(0x10, MV_HDR(1, D + 256, 1)),
    MV_W(0x00, MV_CTRL(4, 1, 0)),                   /* width 16, same IMM */
    MV_W(0x10, MV_HDR(1, D + 512, 1)),
    MV_W(0x00, MV_CTRL(4, 2, 0)),                   /* width 32 */
};

#define SEED UINT64_C(0x0123456789ABCDEF)
#define GEN_BASE (D + 1024)

static const struct kd_write l_gen_one[] = {
    MV_WALK1(1, GEN_BASE, 8, 32),
    MV_W(0x38, SEED),
    MV_W(0x00, MV_CTRL(3, 2, 0)),
};
static const struct kd_write l_gen_two[] = {
    MV_WALK1(1, GEN_BASE + 128, 4, 32),
    MV_W(0x38, SEED),
    MV_W(0x00, MV_CTRL(3, 0, 0)),                   /* width plays no part */
    MV_W(0x10, MV_HDR(1, GEN_BASE, 1)),
    MV_W(0x00, MV_CTRL(3, 1, 0)),
};

/* Philox-4x32-10 (Salmon et al., SC11): ten rounds of two 32x32->64 multiplies with the
 * round constants 0xD2511F53 / 0xCD9E8D57, the key bumped by 0x9E3779B9 / 0xBB67AE85. */
static void philox(uint32_t c[4], uint32_t k0, uint32_t k1)
{
    for (int round = 0; round < 10; round++) {
        uint64_t a = (uint64_t)c[0] * 0xD2511F53u, b = (uint64_t)c[2] * 0xCD9E8D57u;
        uint32_t x0 = (uint32_t)(b >> 32) ^ c[1] ^ k0, x2 = (uint32_t)(a >> 32) ^ c[3] ^ k1;
        c[1] = (uint32_t)b;
        c[3] = (uint32_t)a;
        c[0] = x0;
        c[2] = x2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* The expected word at destination byte address a: counter {a>>5 [31:0], (a>>5)[34:32] << 1
 * | half, 0, 0}, key {SEED[31:0], SEED[63:32]}; half 0 gives bytes 0-15. */
static void gen_expect(uint64_t a)
{
    uint32_t v[8];
    uint64_t wa = a >> 5;

    for (unsigned half = 0; half < 2; half++) {
        uint32_t c[4] = { (uint32_t)wa, (uint32_t)(((wa >> 32) & 7u) << 1) | half, 0, 0 };
        philox(c, (uint32_t)SEED, (uint32_t)(SEED >> 32));
        for (unsigned l = 0; l < 4; l++)
            v[4 * half + l] = c[l];
    }
    mvt_exp_word(a, v);
}

int main(void)
{
    struct kmv_result r;

    mvt_setup();
    if (mvt_rv32()) {
        EXPECT_EQ(mvt_run(l_fill, MV_N(l_fill), &r), KS_OK);
        EXPECT_EQ(r.moves, 3);
        for (unsigned w = 0; w < 3; w++) {
            uint32_t lane = w == 0 ? 0xA5A5A5A5u : w == 1 ? 0x12A512A5u : 0xCAFE12A5u;
            for (unsigned i = 0; i < 24; i++)
                mvt_cpu(MVT_EXP + 256 * w)[i] = lane;
        }
    } else {
        EXPECT_EQ(mvt_run(l_fill, MV_N(l_fill), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_IMM);
        EXPECT_EQ(r.index, 5);
    }
    EXPECT_EQ(mvt_compare("fill"), 0);

    mvt_setup();
    EXPECT_EQ(mvt_run(l_gen_one, MV_N(l_gen_one), &r), KS_OK);
    for (unsigned i = 0; i < 8; i++)
        gen_expect(GEN_BASE + 32 * i);
    EXPECT_EQ(mvt_compare("generate"), 0);

    mvt_setup();        /* guards again; the expected image stays the generator's */
    for (unsigned i = 0; i < 8; i++)
        gen_expect(GEN_BASE + 32 * i);
    EXPECT_EQ(mvt_run(l_gen_two, MV_N(l_gen_two), &r), KS_OK);
    EXPECT_EQ(r.moves, 2);
    EXPECT_EQ(mvt_compare("generate_split"), 0);
    kt_finish();
}
