/* test_copy_pad.c — COPY with source padding on both boards (docs/hardware.md §3,
 * §3.1 "Padding does not shift the source", §3 reach): three moves in one list pad with IMM at
 * widths 8, 16 and 32 (settings persist from move to move). RV32 runs them, checked word by
 * word against mvt.h's reference walker; RV64 refuses the list with NO_REACH naming IMM and
 * writes nothing (the destination keeps its guard pattern). */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

/* Source positions -2..5 on bound 0 (axis code 1, step 1, extent 4): elements 0, 1, 6, 7 pad. */
static const struct kd_write l_pad[] = {
    MV_W(0x10, MV_HDR(0, S + 1024, 1)), MV_W(0x18, MV_DIM(0, 0, 8, 32)), MV_W(0x20, MV_AXIS(1, 1)),
    MV_W(0x28, MV_BOUND(0, 0, -2, 4)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_WALK1(1, D + 128, 8, 32),
    MV_W(0x40, 0x1234A5u),
    MV_W(0x00, MV_CTRL(0, 0, 0)),                   /* width 8 */
    MV_W(0x10, MV_HDR(1, D + 512, 1)),
    MV_W(0x40, 0x12BEEFu),
    MV_W(0x00, MV_CTRL(0, 1, 0)),                   /* width 16 */
    MV_W(0x10, MV_HDR(1, D + 1024, 1)),
    MV_W(0x40, 0x12345678u),
    MV_W(0x00, MV_CTRL(0, 2, 0)),                   /* width 32 */
};

static struct kmv_walk wd = { .ndim = 1, .count = { 8 }, .stride = { 32 } };
static struct kmv_walk ws = { .ndim = 1, .count = { 8 }, .stride = { 32 } };

static void padding(void)
{
    static const uint32_t pad[3] = { 0x1234A5u, 0x12BEEFu, 0x12345678u };
    struct kmv_result r;

    mvt_setup();
    if (mvt_rv32()) {
        EXPECT_EQ(mvt_run(l_pad, MV_N(l_pad), &r), KS_OK);
        EXPECT_EQ(r.moves, 3);
        ws.base = S + 1024;
        ws.axis[0] = 1;
        ws.astep[0] = 1;
        ws.bound_base[0] = -2;
        ws.bound_extent[0] = 4;
        for (unsigned k = 0; k < 3; k++) {
            wd.base = k == 0 ? D + 128 : k == 1 ? D + 512 : D + 1024;
            mvt_ref_copy(&wd, &ws, pad[k], k);
        }
        /* Literal lanes: element 0 padded, element 2 is source element 2. */
        EXPECT_EQ(mvt_cpu(D + 128)[0], 0xA5A5A5A5u);
        EXPECT_EQ(mvt_cpu(D + 512)[1], 0xBEEFBEEFu);
        EXPECT_EQ(mvt_cpu(D + 1024 + 7 * 32)[2], 0x12345678u);
        EXPECT_EQ(mvt_cpu(D + 512 + 64)[0], mvt_src_val(S + 1024 + 64));
    } else {
        /* RV64 reaches 0x00-0x3F only: refused at the first IMM write, nothing written. */
        EXPECT_EQ(mvt_run(l_pad, MV_N(l_pad), &r), KS_NO_REACH);
        EXPECT_EQ(r.detail, KMV_REG_IMM);
        EXPECT_EQ(r.index, 10);
    }
    EXPECT_EQ(mvt_compare("padding"), 0);
}

int main(void)
{
    padding();
    kt_finish();
}
