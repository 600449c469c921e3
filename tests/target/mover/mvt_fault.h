/* mvt_fault.h — the mover fault tests' runner (tests/target/mover/test_faults_*.c
 * "Tests"; docs/hardware.md §3 fault codes). Each case: the checked replay refuses the list with its
 * named status and writes nothing — or, for codes 2 and 3, which no static check can foresee,
 * runs into the fault; replaying it without validation (kmv_replay_validated) reports
 * KS_MOVER_FAULT with exactly that code at the GO's index and leaves the destination as the fault left it; then a
 * good copy still works. */
#ifndef KOHAKU_TEST_MVT_FAULT_H
#define KOHAKU_TEST_MVT_FAULT_H

#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST

static const struct kd_write good[] = {
    MV_WALK1(0, S + 1024, 4, 32), MV_WALK1(1, D + 2048, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};

enum { NONE, SRC0, ZERO0 };     /* what the fault leaves at destination word 0 */

struct fcase {
    const struct kd_write *l;
    uint8_t n, code, left;
    uint8_t st32, st64;         /* the checked replay's status per board */
};

static void expect_left(unsigned left)
{
    uint32_t v[8];

    for (unsigned l = 0; l < 8; l++)
        v[l] = left == SRC0 ? mvt_src_val(S + 4u * l) : 0;
    if (left != NONE)
        mvt_exp_word(D, v);
}

static void run_cases(const struct fcase *cases, unsigned ncases)
{
    static const struct kmv_walk gd = { .base = D + 2048, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    static const struct kmv_walk gs = { .base = S + 1024, .ndim = 1, .count = { 4 }, .stride = { 32 } };
    struct kmv_result r;

    for (unsigned i = 0; i < ncases; i++) {
        const struct fcase *c = &cases[i];
        unsigned st = mvt_rv32() ? c->st32 : c->st64;

        kt_note("fault", c->code);
        mvt_setup();
        EXPECT_EQ(mvt_run(c->l, c->n, &r), st);
        if (st != KS_MOVER_FAULT) {
            EXPECT_EQ(mvt_compare("refused"), 0);                 /* nothing written */
            EXPECT_EQ(kmv_replay_validated(c->l, c->n, MVT_TIMEOUT, &r), KS_MOVER_FAULT);
        }
        EXPECT_EQ(r.detail, c->code);
        EXPECT_EQ(r.index, c->n - 1u);
        EXPECT_EQ(r.moves, 0);
        expect_left(c->left);
        EXPECT_EQ(mvt_compare("after_fault"), 0);
        /* The mover still works. */
        EXPECT_EQ(mvt_run(good, MV_N(good), &r), KS_OK);
        mvt_ref_copy(&gd, &gs, 0, KMV_WIDTH_32);
        EXPECT_EQ(mvt_compare("good_after"), 0);
    }
}

#endif
