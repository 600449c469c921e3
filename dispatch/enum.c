/* enum.c — unit enumeration through the agent's mailbox (docs/hardware.md §1 "Enumeration", §1.1
 * mailbox rows): CU_CTRL reads of CU_CAPS, one in flight, replies accepted only from the
 * coordinate asked, silence = absent. docs/dispatch.md "Enumeration". */
#include "kdp_internal.h"
#include <stddef.h>
#include "hal/hal.h"

/* kdp_enum_row leaves a unit's word 3 in the table entries as 32-bit words. */
_Static_assert(offsetof(struct kdp_ctx, units) % 4u == 0 && sizeof(struct kx_unit_entry) == 8u,
               "a table entry holds word 3 as two aligned words");

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

unsigned kdp_enumerate(struct kdp_ctx *c, uint8_t lo_yx, uint8_t hi_yx, uint32_t coord_cycles)
{
    /* The table is filled in place (no 256-byte copy on the stack: on RV32 this runs as cold
     * code on the interpreter's stack in the scratchpad): emptied when the first unit
     * answers, counted once every coordinate has been asked. Written for the interpreter:
     * every instruction here costs RV32 about 50 (docs/kvm.md), so the loops per coordinate
     * are a few instructions each (bench: enum_cycles). */
    unsigned nf = 0;
    volatile uintptr_t *d = (volatile uintptr_t *)hal_agent_ptr(KA_TX_FLIT(0));

    c->status = KS_OK;
    c->detail = 0;
    c->value = 0;
    /* Mailbox traffic only with no program running, a few agent cycles after run fell,
     * and with RX emptied first (docs/hardware.md §1.1). */
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    uint32_t t = hal_cycles32();
    while (hal_cycles32() - t < KDP_TX_SETTLE_CYCLES)
        ;
    /* TX_FLIT's payload once: words 0..2 zero, word 3 op READ (0) and index CU_CAPS (0)
     * (docs/hardware.md §2.4.6), every half of every word (byte-enabled memory). TX_FLIT keeps
     * it: each request writes its header only (kdp_ctrl_read, below, writes the same). */
    _Static_assert(KDP_CTRL_READ_W3(KF_CTRL_CU_CAPS) == 0, "a read of CU_CAPS is all zero");
#pragma GCC unroll 1
    for (unsigned i = 0; i < KF_BYTES / sizeof(uintptr_t); i++)
        d[i] = 0;

    /* Row by row; in a row inside the router grid (CAPS scalars GRID_LO..GRID_HI) every column
     * of the rectangle, in a row outside it only the grid's columns (a corner touches no
     * router: docs/hardware.md §2.4.5). A row (at most 16 coordinates) is asked at once: every
     * request sent, then the replies read in any order. TX takes 16 behind an idle agent and
     * each request brings at most one flit into RX (16): its reply, another unit's answer, or
     * itself clamped onto the agent. The agent's own coordinate is asked too: that request
     * lands in RX itself, which reads as "nobody here" like any clamp (a test per coordinate
     * saved). */
    uint32_t g = kdp_grid(), glo = g & 0xFFu, ghi = g >> 8;
    unsigned xl0 = KDP_X(lo_yx), xh0 = KDP_X(hi_yx);
    unsigned gxl = xl0 > glo ? xl0 : glo, gxh = xh0 < ghi ? xh0 : ghi;
    /* A request's header but its dst and txn (kdp_ctrl_hdr): src = the agent, type CU_CTRL,
     * last. */
    const uint32_t hsrc = kdp_ctrl_hdr(0, c->agent_yx, 0);
    for (unsigned y = KDP_Y(lo_yx); y <= KDP_Y(hi_yx) && nf < KX_BOOT_MAX_UNITS; y++) {
        unsigned xl = xl0, xh = xh0;
        if (y - glo > ghi - glo) {
            xl = gxl;
            xh = gxh;
        }
        if (xl > xh)
            continue;
        /* At most the table's room: an answer is written at once at nf + its column, and
         * moved down into scan order below. */
        unsigned n = xh - xl + 1u;
        if (n > KX_BOOT_MAX_UNITS - nf)
            n = KX_BOOT_MAX_UNITS - nf;
        /* TX drained (STATUS.busy 0: at most one flit left in the output stage), so the row's
         * requests all fit; bounded by wait_cycles (detail MAILBOX_TX). */
        if ((hal_agent_rd32(KA_STATUS) & KA_STATUS_BUSY) &&
            kdp_wait_reg(c, KA_STATUS, KA_STATUS_BUSY, 0,
                         KDP_DETAIL(KDP_AWAIT_MAILBOX_TX, KDP_YX(xl, y))) != KS_OK)
            return c->status;
        /* Each request's txn is its coordinate as {x,y}, the byte order of the header's dst
         * and src fields: the next column is one add to the header (dst_x + 1, txn + 16), and
         * a reply's txn names its column. The replies are kdp_enum_row's (dispatch.c,
         * native: that loop was most of RV32's interpreted enumeration). An
         * answer from that coordinate (src = txn), type CU_CTRL, leaves its word 3 in its
         * column's table entry (raw) for the move below, which takes it as a unit when op is
         * 0x02 and index 0. Anything else with that txn (the clamp's answer from another unit,
         * the request itself clamped onto the agent) means "nobody here" at once
         * (docs/hardware.md §1). */
        uint32_t t0 = (xl << 4) | y;
        typedef uint32_t __attribute__((may_alias)) kdp_u32;
        kdp_u32 *raw = (kdp_u32 *)(void *)&c->units[nf];
        /* The requests: TX_FLIT's payload is written above; each writes its header only. */
        uint32_t h = (t0 << 24) | hsrc | (t0 << 4);
        for (unsigned k = n; k; k--) {
            hal_agent_wr32(KA_TX_FLIT(KF_HDR_WORD), h);
            hal_fence();                /* the header is written before the kick reads it */
            hal_agent_wr32(KA_TX_KICK, 1);
            h += (1u << 28) + (16u << 4);       /* the next column: dst_x + 1, txn + 16 */
        }
        uint32_t r = kdp_enum_row(n, coord_cycles, raw, t0);
        uint32_t got = r >> 16, found = r & 0xFFFFu;
        /* Fewer flits than requests (a kick lost, a request dropped by a unit whose reply to
         * another was still pending: docs/hardware.md §1.1, or no answer at all): every column
         * of the row not found is asked again, one request in flight (kdp_ctrl_read),
         * KDP_ENUM_TRIES attempts; silence means absent. */
        uint32_t left = got < n ? ((1u << n) - 1u) & ~found : 0;
        /* Their txns get column 15 and this row or the next ({x,y} 0xF0 | y): a late reply to
         * them can match no column the scan asks later but column 15 of the next row (GRID_HI
         * 14 only). */
        for (unsigned i = 0; left; i++) {
            if (!(left & (1u << i)))
                continue;
            left ^= 1u << i;
            uint64_t caps;
            c->txn_seq = (uint8_t)(0xF0u | y);
            unsigned got = kdp_ctrl_read(c, (uint8_t)KDP_YX(xl + i, y), KF_CTRL_CU_CAPS,
                                         coord_cycles, &caps);
            if (got == KS_TIMEOUT)
                return c->status;
            if (got) {
                found |= 1u << i;
                /* the reply's word 3, as the row's answers are kept */
                uint64_t w3 = kdp_ctrl_reply_w3(KF_CTRL_CU_CAPS, caps);
                raw[2u * i] = (uint32_t)w3;
                raw[2u * i + 1u] = (uint32_t)(w3 >> 32);
            }
        }
        /* Each answer with op 0x02 and index 0 is a unit: its entry, made from its word 3,
         * goes to the next free place, in scan order (at or below its column's: read before
         * written). The first unit empties the table (indices change meaning: nothing owed). */
        for (unsigned k = 0; found; k++, found >>= 1) {
            uint64_t w3 = raw[2u * k] | (uint64_t)raw[2u * k + 1u] << 32;
            if (!(found & 1u) || !kdp_ctrl_reply_op(w3, KF_CTRL_CU_CAPS))
                continue;
            if (nf == 0) {
                c->n_units = 0;
                c->owing = 0;
            }
            kdp_caps_unit((uint8_t)(KDP_YX(xl, y) + k), w3 << 16, &c->units[nf++]);
        }
    }
    if (kdp_quiesce(c) != KS_OK)
        return c->status;
    /* The table's rules (kdp_units_check) hold by construction but one: each coordinate is
     * asked once and found at most once (no duplicate), the agent's own never answers as a
     * unit (its request comes back with op 0), (0,0) is a corner never asked while GRID_LO is
     * at least 1; a depth of 0 (and (0,0), should CAPS publish GRID_LO 0) is checked here: the
     * interpreted pairwise check cost RV32 about 10,000 cycles. */
    c->status = nf ? KS_OK : KS_DISPATCH_NO_UNITS;
    for (unsigned i = 0; i < nf; i++)
        if (c->units[i].inst_depth == 0 || c->units[i].yx == 0)
            c->status = KS_DISPATCH_BAD_UNITS;
    if (c->status == KS_OK)
        c->n_units = (uint8_t)nf;
    return c->status;
}
