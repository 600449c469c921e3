/* enum.c — unit enumeration through the agent's mailbox (BOARD.md §1 "Enumeration", §1.1
 * mailbox rows): CU_CTRL reads of CU_CAPS, one in flight, replies accepted only from the
 * coordinate asked, silence = absent. docs/dispatch.md "Enumeration". */
#include "dispatch.h"
#include "hal/hal.h"

void kdp_scan_range(uint8_t *lo_yx, uint8_t *hi_yx)
{
    uint64_t caps = hal_agent_rd(KA_CAPS);
    unsigned lo = (unsigned)KH_FIELD_GET(KA_CAPS_GRID_LO, caps);
    unsigned hi = (unsigned)KH_FIELD_GET(KA_CAPS_GRID_HI, caps);
    /* Edge endpoints sit one step outside the router grid (flit-format.md §1, §2.1). */
    unsigned x0 = KDP_X(lo) ? KDP_X(lo) - 1 : 0, y0 = KDP_Y(lo) ? KDP_Y(lo) - 1 : 0;
    unsigned x1 = KDP_X(hi) < 15 ? KDP_X(hi) + 1 : 15, y1 = KDP_Y(hi) < 15 ? KDP_Y(hi) + 1 : 15;
    *lo_yx = KDP_YX(x0, y0);
    *hi_yx = KDP_YX(x1, y1);
}

/* The mailbox sends TX_FLIT's header verbatim (no src stamp, BOARD.md §1.1): the whole
 * flit is written, both halves of every word, since TX_FLIT is byte-enabled memory. */
static void kdp_tx_write(const struct kf_flit *f)
{
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));
    const uintptr_t *s = (const uintptr_t *)f->w;
    for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
        d[i] = s[i];
}

static void kdp_rx_read(struct kf_flit *f)
{
    for (unsigned i = 0; i < KF_WORDS; i++)
        f->w[i] = hal_agent_rd(KA_RX_FLIT(i));
}

static bool kdp_rx_empty(void)
{
    return (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY) != 0;
}

/* One CU_CTRL read of CU_CAPS at yx. Returns 1 found (*caps set), 0 silent, or a status
 * (+ KS_TIMEOUT recorded) when the mailbox itself stalls. */
static unsigned kdp_ask(struct kdp_ctx *c, uint8_t yx, uint32_t coord_cycles, uint64_t *caps)
{
    struct kf_flit f;
    uint8_t txn = c->txn_seq++;     /* a late reply to an earlier request never matches */
    kdp_flit_ctrl_read(&f, yx, c->agent_yx, KF_CTRL_CU_CAPS, txn);

    uint32_t t0 = (uint32_t)hal_cycles();
    while (hal_agent_rd32(KA_TX_STATUS) & KA_TX_STATUS_FULL) {
        if ((uint32_t)hal_cycles() - t0 > c->wait_cycles) {
            c->status = KS_TIMEOUT;
            c->detail = KDP_DETAIL(KDP_AWAIT_MAILBOX_TX, yx);
            c->value = hal_agent_rd(KA_TX_STATUS);
            return KS_TIMEOUT;
        }
    }
    kdp_tx_write(&f);
    hal_fence();                    /* the flit is complete before the kick reads it */
    hal_agent_wr32(KA_TX_KICK, 1);

    t0 = (uint32_t)hal_cycles();
    while ((uint32_t)hal_cycles() - t0 <= coord_cycles) {
        if (kdp_rx_empty())
            continue;
        struct kf_flit r;
        kdp_rx_read(&r);
        hal_agent_wr32(KA_RX_POP, 1);
        /* A clamped out-of-grid request is answered by the nearest unit with its own src:
         * refused here, so that unit is never counted twice. */
        if (kdp_ctrl_reply_match(&r, yx, KF_CTRL_CU_CAPS, txn, caps))
            return 1;
    }
    return 0;
}

unsigned kdp_enumerate(struct kdp_ctx *c, uint8_t lo_yx, uint8_t hi_yx, uint32_t coord_cycles)
{
    struct kx_unit_entry found[KX_BOOT_MAX_UNITS];
    unsigned nf = 0;

    c->status = KS_OK;
    c->detail = 0;
    c->value = 0;
    /* Mailbox traffic only with no program running, a few agent cycles after run fell,
     * and with RX emptied first (BOARD.md §1.1). */
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    uint32_t t0 = (uint32_t)hal_cycles();
    while ((uint32_t)hal_cycles() - t0 < KDP_TX_SETTLE_CYCLES)
        ;

    uint64_t caps_reg = hal_agent_rd(KA_CAPS);
    unsigned glo = (unsigned)KH_FIELD_GET(KA_CAPS_GRID_LO, caps_reg);
    unsigned ghi = (unsigned)KH_FIELD_GET(KA_CAPS_GRID_HI, caps_reg);
    for (unsigned y = KDP_Y(lo_yx); y <= KDP_Y(hi_yx); y++) {
        for (unsigned x = KDP_X(lo_yx); x <= KDP_X(hi_yx); x++) {
            uint8_t yx = KDP_YX(x, y);
            bool out_x = x < KDP_X(glo) || x > KDP_X(ghi);
            bool out_y = y < KDP_Y(glo) || y > KDP_Y(ghi);
            /* The agent itself, and positions outside the router grid in both axes (a
             * corner touches no router: flit-format.md §4.7), hold no unit. */
            if (yx == c->agent_yx || (out_x && out_y))
                continue;
            uint64_t caps = 0;
            unsigned got = 0;
            for (unsigned t = 0; t < KDP_ENUM_TRIES && got == 0; t++) {
                got = kdp_ask(c, yx, coord_cycles, &caps);
                if (got == KS_TIMEOUT)
                    return c->status;
            }
            if (got == 1 && nf < KX_BOOT_MAX_UNITS)
                kdp_caps_unit(yx, caps, &found[nf++]);
        }
    }
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    if (nf == 0) {
        c->status = KS_DISPATCH_NO_UNITS;
        return c->status;
    }
    unsigned st = kdp_units_set(c, found, nf);
    c->status = st;
    return st;
}
