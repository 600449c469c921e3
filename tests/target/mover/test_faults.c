/* test_faults.c — every mover fault code 1-7 on both boards (issue 4 "Tests"; BOARD.md §3
 * fault codes, §3.1 fault rows; docs/mover-model.md §5 for code 2, which only the model
 * raises). Each case: the checked replay refuses the list with its named status and writes
 * nothing — or, for codes 2 and 3, which no static check can foresee, runs into the fault;
 * the unchecked replay (kmv_replay_unchecked) reports KS_MOVER_FAULT with exactly that code
 * at the GO's index and leaves the destination as the fault left it; then a good copy
 * still works. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST
#define DROPPED ((UINT64_C(1) << 39) | (UINT64_C(1) << 32))   /* staging aperture 1: AXI error */

/* Fault 1: more than 2048 indices (raised at GO; GATHER's own register is not needed). */
static const struct kd_write f1[] = {
    MV_W(0x10, MV_HDR(0, S, 0)), MV_WALK1(1, D, 4, 32),
    MV_W(0x30, MV_INDEX(MVT_AUX, 2049)), MV_W(0x00, MV_CTRL(2, 2, 0)),
};
/* Fault 2 (model only): a walk of 65535 x 512 elements, more than the model's 2^24. */
static const struct kd_write f2[] = {
    MV_W(0x10, MV_HDR(1, D, 2)),
    MV_W(0x18, MV_DIM(1, 0, 65535, 0)), MV_W(0x20, 0),
    MV_W(0x18, MV_DIM(1, 1, 512, 0)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(1, 0, 0, 0)), MV_W(0x28, MV_BOUND(1, 1, 0, 0)),
    MV_W(0x00, MV_CTRL(3, 2, 0)),
};
/* Fault 3: the source is an unserved aperture; element 0 is written (zeros), then it stops. */
static const struct kd_write f3[] = {
    MV_WALK1(0, DROPPED, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};
/* Fault 4: TRANSPOSE. */
static const struct kd_write f4[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(1, 2, 0)),
};
/* Fault 5: element width 3. */
static const struct kd_write f5[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 3, 0)),
};
/* Fault 6: destination stride 48; element 0 is written, element 1 is misaligned. */
static const struct kd_write f6[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 48), MV_W(0x00, MV_CTRL(0, 2, 0)),
};
/* Fault 7: XFORM with a bound enabled on the source walker. */
static const struct kd_write f7[] = {
    MV_W(0x10, MV_HDRX(S, 1, 1, 0)), MV_W(0x18, MV_DIM(0, 0, 16, 32)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(0, 0, 0, 4)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_WALK1(1, D, 2, 128), MV_W(0x00, MV_CTRL(5, 2, 0)),
};
static const struct kd_write good[] = {
    MV_WALK1(0, S + 1024, 4, 32), MV_WALK1(1, D + 2048, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};

enum { NONE, SRC0, ZERO0 };     /* what the fault leaves at destination word 0 */

struct fcase {
    const struct kd_write *l;
    uint8_t n, code, left;
    uint8_t st32, st64;         /* the checked replay's status per board */
};

static const struct fcase cases[] = {
    { f1, MV_N(f1), 1, NONE, KS_MV_UNSET, KS_NO_REACH },      /* GATHER (0x50) not in the list */
    { f2, MV_N(f2), 2, NONE, KS_MOVER_FAULT, KS_MOVER_FAULT },
    { f3, MV_N(f3), 3, ZERO0, KS_MOVER_FAULT, KS_MOVER_FAULT },
    { f4, MV_N(f4), 4, NONE, KS_MV_TRANSPOSE, KS_MV_TRANSPOSE },
    { f5, MV_N(f5), 5, NONE, KS_MV_WIDTH, KS_MV_WIDTH },
    { f6, MV_N(f6), 6, SRC0, KS_MV_ALIGN, KS_MV_ALIGN },
    { f7, MV_N(f7), 7, NONE, KS_MV_XFORM, KS_MV_XFORM },
};

static void expect_left(unsigned left)
{
    uint32_t v[8];

    for (unsigned l = 0; l < 8; l++)
        v[l] = left == SRC0 ? mvt_src_val(S + 4u * l) : 0;
    if (left != NONE)
        mvt_exp_word(D, v);
}

int main(void)
{
    static const struct kmv_walk gd = { .base = D + 2048, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    static const struct kmv_walk gs = { .base = S + 1024, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    struct kmv_result r;

    for (unsigned i = 0; i < MV_N(cases); i++) {
        const struct fcase *c = &cases[i];
        unsigned st = mvt_rv32() ? c->st32 : c->st64;

        kt_note("fault", c->code);
        mvt_setup();
        EXPECT_EQ(mvt_run(c->l, c->n, &r), st);
        if (st != KS_MOVER_FAULT) {
            EXPECT_EQ(mvt_compare("refused"), 0);                 /* nothing written */
            EXPECT_EQ(kmv_replay_unchecked(c->l, c->n, MVT_TIMEOUT, &r), KS_MOVER_FAULT);
        }
        EXPECT_EQ(r.detail, c->code);
        EXPECT_EQ(r.index, c->n - 1u);
        EXPECT_EQ(r.moves, 0);
        expect_left(c->left);
        EXPECT_EQ(mvt_compare("after_fault"), 0);
        /* The mover still works. */
        EXPECT_EQ(mvt_run(good, MV_N(good), &r), KS_OK);
        mvt_ref_copy(&gd, &gs, 0, KM_WIDTH_32);
        EXPECT_EQ(mvt_compare("good_after"), 0);
    }
    kt_finish();
}
