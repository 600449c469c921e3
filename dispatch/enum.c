/* enum.c — unit enumeration through the agent's mailbox (docs/hardware.md §1 "Enumeration", §1.1
 * mailbox rows): CU_CTRL reads of CU_CAPS, one in flight, replies accepted only from the
 * coordinate asked, silence = absent. docs/dispatch.md "Enumeration". */
#include "dispatch.h"
#include "hal/hal.h"

/* CAPS GRID_LO in [7:0], GRID_HI in [15:8] (docs/hardware.md §1: CAPS [31:24], [39:32]): two scalar
 * router coordinates, the same bounds on both axes (a rectangular mesh publishes its larger
 * side; the coordinates of that square holding no router are clamped onto real ones). */
static uint32_t kdp_grid(void)
{
    return (uint32_t)(hal_agent_rd(KA_CAPS) >> KBF_FIELD_SHIFT(KA_CAPS_GRID_LO)) & 0xFFFFu;
}

void kdp_scan_range(uint8_t *lo_yx, uint8_t *hi_yx)
{
    uint32_t g = kdp_grid();
    /* Edge endpoints sit one step outside the router grid (docs/hardware.md §2, §2.1): both axes
     * GRID_LO - 1 .. GRID_HI + 1, clipped to what a coordinate holds (0..15). */
    uint32_t lo = g & 0xFFu, hi = g >> 8;
    lo = lo ? lo - 1u : 0u;
    hi = hi < 15u ? hi + 1u : 15u;
    if (lo > 15u)
        lo = 15u;
    *lo_yx = (uint8_t)(lo * 0x11u);
    *hi_yx = (uint8_t)(hi * 0x11u);
}

unsigned kdp_ctrl_read(struct kdp_ctx *c, uint8_t yx, uint8_t index, uint32_t cycles, uint64_t *v)
{
    /* Cold code on RV32 (docs/dispatch.md "Size"): written for few values live across calls,
     * so few registers saved. */
    for (unsigned t = KDP_ENUM_TRIES; t; t--) {
        uint8_t txn = c->txn_seq++;     /* a late reply to an earlier request never matches */
        if (kdp_wait_reg(c, KA_TX_STATUS, KA_TX_STATUS_FULL, 0,
                         KDP_DETAIL(KDP_AWAIT_MAILBOX_TX, yx)) != KS_OK)
            return KS_TIMEOUT;
        /* The mailbox sends TX_FLIT's header verbatim (no src stamp, docs/hardware.md §1.1), and
         * TX_FLIT is byte-enabled memory: every half of every word is written. Payload words
         * 0..2 of a read are zero; word 3 holds op READ (0) and the index in [55:48]
         * (docs/hardware.md §2.4.6): the last native word of word 3 on both variants. */
        volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));
#pragma GCC unroll 1
        for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
            d[i] = 0;
        _Static_assert(KBF_FIELD_PREP(KF_W3_CTRL_OP, KF_CTRL_OP_READ) == 0, "a read is op 0");
        d[4u * 8u / sizeof(uintptr_t) - 1u] =
            (uintptr_t)(KBF_FIELD_PREP(KF_W3_CTRL_INDEX, index) >> (64u - 8u * sizeof(uintptr_t)));
        d[KF_HDR_WORD * 8u / sizeof(uintptr_t)] = kdp_ctrl_hdr(yx, c->agent_yx, txn);
        hal_fence();                    /* the flit is complete before the kick reads it */
        hal_agent_wr32(KA_TX_KICK, 1);

        /* The reply's header: src = the unit asked, type CU_CTRL, the txn echoed. A request
         * to a coordinate holding no unit is clamped onto a real one, which answers with its
         * own src (or, clamped onto the agent, lands in RX itself): with this request's txn
         * and another src, or not a reply, it means "nobody here" at once (docs/hardware.md §1), and
         * that unit is never counted twice. A flit of another txn (a late reply to an earlier
         * request) is popped and the wait goes on. */
        uint32_t want = kdp_ctrl_hdr(0, yx, txn);
        uint32_t t0 = (uint32_t)hal_cycles();
        while ((uint32_t)hal_cycles() - t0 <= cycles) {
            if (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)
                continue;
            uint32_t h = hal_agent_rd32(KA_RX_FLIT(KF_HDR_WORD));
            uint64_t w3 = hal_agent_rd(KA_RX_FLIT(3));
            hal_agent_wr32(KA_RX_POP, 1);
            if (((h ^ want) & (KF_HDR_TYPE | KF_HDR_TXN)) != 0)
                continue;
            if (((h ^ want) & KDP_REPLY_MASK) == 0 && (w3 >> 48) == KDP_REPLY_OP_INDEX(index)) {
                *v = w3 << 16;
                return 1;
            }
            return 0;
        }
    }
    return 0;
}

unsigned kdp_enumerate(struct kdp_ctx *c, uint8_t lo_yx, uint8_t hi_yx, uint32_t coord_cycles)
{
    /* The table is filled in place (no 256-byte copy on the stack: on RV32 this runs as cold
     * code on the interpreter's stack in the scratchpad): emptied when the first unit
     * answers, counted once every coordinate has been asked. */
    unsigned nf = 0;

    c->status = KS_OK;
    c->detail = 0;
    c->value = 0;
    /* Mailbox traffic only with no program running, a few agent cycles after run fell,
     * and with RX emptied first (docs/hardware.md §1.1). */
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    uint32_t t0 = (uint32_t)hal_cycles();
    while ((uint32_t)hal_cycles() - t0 < KDP_TX_SETTLE_CYCLES)
        ;

    /* The rectangle row by row ({y,x} counts x first); the router grid GRID_LO..GRID_HI on
     * both axes (CAPS scalars). */
    uint32_t g = kdp_grid(), glo = g & 0xFFu, gspan = (g >> 8) - glo;
    for (unsigned yx = lo_yx; yx <= hi_yx; yx++) {
        unsigned x = KDP_X(yx), y = KDP_Y(yx);
        /* Each range test as one unsigned compare: v in [a, b] <=> v - a <= b - a. */
        bool out_x = x - glo > gspan;
        bool out_y = y - glo > gspan;
        /* Outside the rectangle's columns; the agent itself; positions outside the router
         * grid in both axes (a corner touches no router: docs/hardware.md §2.4.5): no unit. */
        if (x - KDP_X(lo_yx) > KDP_X(hi_yx) - KDP_X(lo_yx) || yx == c->agent_yx ||
            (out_x && out_y) || nf == KX_BOOT_MAX_UNITS)
            continue;
        /* CU_CAPS lies wholly in word 3 (value [63:16]; the fields start at value bit 20). */
        uint64_t caps;
        unsigned got = kdp_ctrl_read(c, (uint8_t)yx, KF_CTRL_CU_CAPS, coord_cycles, &caps);
        if (got == KS_TIMEOUT)
            return c->status;
        if (got) {
            if (nf == 0) {
                c->n_units = 0;
                c->owing = 0;           /* indices change meaning: nothing owed */
            }
            kdp_caps_unit((uint8_t)yx, caps, &c->units[nf++]);
        }
    }
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    c->status = nf ? kdp_units_check(c->units, nf, c->agent_yx) : KS_DISPATCH_NO_UNITS;
    if (c->status == KS_OK)
        c->n_units = (uint8_t)nf;
    return c->status;
}
