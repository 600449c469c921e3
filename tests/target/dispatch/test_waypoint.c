/* test_waypoint.c — the central bounded waits write the waypoint the host reads
 * (docs/host-interface.md §2.2): at scratchpad offset 0x200, `what` = the dispatcher wait's
 * detail (await code << 8 | {y,x}; draining RX is await 5) and `since` = the cycle it began;
 * `mover_since` = the cycle the last mover wait began. Both variants. */
#include "kdt.h"
#include "kmv_port.h"
#include "kdp_flit.h"

static struct kdp_ctx ctx;

int main(void)
{
    kdt_setup(&ctx);
    /* Where the host reads it: 0x200 into the scratchpad, right after the boot block's 512. */
    EXPECT_EQ((uintptr_t)&kx_waypoint, (uintptr_t)BOARD_SPAD_BASE + 0x200u);

    /* Something for the quiesce to drain: a quiet agent is left at once, with no wait begun
     * and no waypoint written. A CU_CTRL read of NP 1,1's CU_CAPS puts its reply in RX. */
    struct kf_flit f;
    kdp_flit_ctrl_read(&f, 0x11, KDT_AGENT, 0, 0x77);
    for (unsigned i = 0; i < 5; i++)
        hal_agent_wr(KA_TX_FLIT(i), f.w[i]);
    hal_agent_wr32(KA_TX_KICK, 1);
    for (uint32_t t = hal_cycles32(); hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY;)
        ASSERT_TRUE(hal_cycles32() - t < KDT_WAIT);

    uint32_t t0 = hal_cycles32();
    EXPECT_EQ(kdp_quiesce(&ctx), KS_OK);     /* RX drained until empty (await 5, no unit) */
    uint32_t t1 = hal_cycles32();
    EXPECT_EQ(kx_waypoint.what, 0x0500u);
    EXPECT_TRUE(kx_waypoint.since - t0 <= t1 - t0);

    uint64_t raw;
    t0 = hal_cycles32();
    kmv_port_wait(1000, &raw, 0);           /* the mover is idle: returns at once */
    t1 = hal_cycles32();
    EXPECT_TRUE(kx_waypoint.mover_since - t0 <= t1 - t0);
    EXPECT_EQ(kx_waypoint.what, 0x0500u);   /* the dispatcher's words are left as they were */
    kt_finish();
}
