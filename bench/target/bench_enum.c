/* bench_enum.c — bench figure 1, enum_cycles: enumeration of the model's default map by the
 * real dispatch layer (dispatch/enum.c, docs/dispatch.md "Enumeration") exactly as the queue
 * service does it at boot without a unit table (service/queue.c: kdp_scan_range, 4,000 cycles
 * per coordinate), timed with the processor's own counters. Its own image: the RV32 window
 * cannot hold enumeration and the streaming path beside the harness. */
#include "kb.h"

#define KB_ENUM_COORD_CYCLES 4000u     /* service/queue.c KQ_ENUM_COORD_CYCLES */

static struct kdp_ctx ctx;

int main(void)
{
    uint8_t lo, hi;
    kdp_init(&ctx, KDT_AGENT, KDT_WAIT, KA_STAGE_FLITS_DEFAULT);
    uint64_t c0 = hal_cycles(), i0 = hal_instret();
    kdp_scan_range(&lo, &hi);
    unsigned st = kdp_enumerate(&ctx, lo, hi, KB_ENUM_COORD_CYCLES);
    uint64_t ecyc = hal_cycles() - c0, eins = hal_instret() - i0;
    EXPECT_EQ(st, KS_OK);
    EXPECT_EQ(ctx.n_units, 6);              /* default map: NP@1..4,1, TU@1,2, TU@2,2 */
    kb_raw("enum_cycles", ecyc);
    kb_raw("enum_insns", eins);
    kt_finish();
}
