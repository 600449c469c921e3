/* test_faults_go.c — mover fault codes 1, 2, 4, 5 and 7 (raised at GO, nothing written) on both boards (docs/hardware.md §3 fault codes,
 * §3.1 fault rows; docs/mover-model.md §5 for code 2, which only the model raises), through mvt_fault.h's runner: the checked replay's refusal with nothing
 * written, the unvalidated replay's exact code and partial destination, the mover working after. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt_fault.h"

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
/* Fault 4: TRANSPOSE. */
static const struct kd_write f4[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(1, 2, 0)),
};
/* Fault 5: element width 3. */
static const struct kd_write f5[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 3, 0)),
};
/* Fault 7: XFORM with a source bound out of range at the first entry's first word (base -1,
 * extent 4, no axis feeding it: docs/hardware.md §3.1; a bound that excludes nothing would run). */
static const struct kd_write f7[] = {
    MV_W(0x10, MV_HDRX(S, 1, 1, 0)), MV_W(0x18, MV_DIM(0, 0, 16, 32)), MV_W(0x20, 0),
    MV_W(0x28, MV_BOUND(0, 0, -1, 4)), MV_W(0x28, MV_BOUND(0, 1, 0, 0)),
    MV_WALK1(1, D, 2, 128), MV_W(0x00, MV_CTRL(5, 2, 0)),
};
static const struct fcase cases[] = {
    { f1, MV_N(f1), 1, NONE, KS_MV_UNSET, KS_NO_REACH },      /* GATHER (0x50) not in the list */
    { f2, MV_N(f2), 2, NONE, KS_MOVER_FAULT, KS_MOVER_FAULT },
    { f4, MV_N(f4), 4, NONE, KS_MV_TRANSPOSE, KS_MV_TRANSPOSE },
    { f5, MV_N(f5), 5, NONE, KS_MV_WIDTH, KS_MV_WIDTH },
    { f7, MV_N(f7), 7, NONE, KS_MV_XFORM, KS_MV_XFORM },
};

int main(void)
{
    run_cases(cases, MV_N(cases));
    kt_finish();
}
