/* test_faults_walk.c — mover fault codes 3 and 6 (raised during the walk, destination partly written) on both boards (docs/hardware.md §3 fault codes,
 * §3.1 fault rows), through mvt_fault.h's runner: the checked replay's refusal with nothing
 * written, the unvalidated replay's exact code and partial destination, the mover working after. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt_fault.h"

#define DROPPED ((UINT64_C(1) << 39) | (UINT64_C(1) << 32))   /* staging aperture 1: AXI error */

/* Fault 3: the source is an unserved aperture; element 0 is written (zeros), then it stops.
 * The validator refuses such a source (KS_MV_ADDR, aperture 1: detail 5 << 8 | 0, the source);
 * kmv_replay_validated runs it for the code. */
static const struct kd_write f3[] = {
    MV_WALK1(0, DROPPED, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};
/* Fault 6: destination stride 48; element 0 is written, element 1 is misaligned. */
static const struct kd_write f6[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 48), MV_W(0x00, MV_CTRL(0, 2, 0)),
};
static const struct fcase cases[] = {
    { f3, MV_N(f3), 3, ZERO0, KS_MV_ADDR, KS_MV_ADDR },
    { f6, MV_N(f6), 6, SRC0, KS_MV_ALIGN, KS_MV_ALIGN },
};

int main(void)
{
    run_cases(cases, MV_N(cases));
    kt_finish();
}
