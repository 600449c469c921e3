/* wait.c — the dispatch layer's bounded waits on the agent (docs/dispatch.md "Failures",
 * "Enumeration"): a register wait (kdp_wait_reg), the waits of a quiesce that found the agent
 * busy (kdp_drain), one CU_CTRL register read through the mailbox with one request in flight
 * (kdp_ctrl_read: enumeration's retries, recover.c's CU_STATUS read of a unit that may still
 * owe), and the first-error record their timeouts write (kdp_fail, recover.c's too). Shared by
 * dispatch.c (kdp_quiesce), recover.c and enum.c, and calling none of them: calls among
 * dispatch/'s files go one way (docs/firmware.md "Reading paths"). None of it runs on a run
 * that succeeds with a quiet agent, so on RV32 this file is cold code too (mk/firmware.mk
 * FW_COLD_rv32; the entry rules of recover.c), every wait measured in processor cycles, never
 * in loop turns, so an interpreted wait is as long as a native one. */
#include "kdp_internal.h"
#include "hal/hal.h"

void kdp_fail(struct kdp_ctx *c, uint32_t status, uint32_t detail, uint64_t value)
{
    if (c->status == KS_OK) {       /* the first error wins (docs/design.md §6 "Errors") */
        c->status = status;
        c->detail = detail;
        c->value = value;
    }
}

/* Waits, bounded, until (register `off` & bit) == want: PROG_STAT.run to fall (run alone
 * decides "sent", docs/hardware.md §1.1: a finished program reads "flits left" 1), or RX to empty,
 * popping what it holds (late CU_CTRL replies nobody asked for now), or TX to leave "full"
 * (enum.c). On timeout: KS_TIMEOUT recorded (the first error wins), with `detail`, value the
 * register. */
unsigned kdp_wait_reg(struct kdp_ctx *c, uint32_t off, uint32_t bit, uint32_t want,
                      uint32_t detail)
{
    /* The counter's low half (hal_cycles32, inline): kdp_run's own loop calls hal_cycles
     * (kdp_now) at every turn, which keeps RV32's 64-bit count extended (hal.h); one wait
     * here is shorter than 2^32. */
    uint32_t t = hal_cycles32();
    kx_wait_mark(detail, t);        /* the host's "waiting for <what> since <t>" (boot.h) */
    while ((hal_agent_rd32(off) & bit) != want) {
        if (off == KA_RX_STATUS)
            hal_agent_wr32(KA_RX_POP, 1);
        if (hal_cycles32() - t > c->wait_cycles) {
            kdp_fail(c, KS_TIMEOUT, detail, hal_agent_rd(off));
            return KS_TIMEOUT;
        }
    }
    return KS_OK;
}

unsigned kdp_drain(struct kdp_ctx *c)
{
    if (kdp_wait_reg(c, KA_PROG_STAT, KA_PROG_STAT_RUN, 0, KDP_DETAIL(KDP_AWAIT_RUN, 0)) != KS_OK)
        return KS_TIMEOUT;
    return kdp_wait_reg(c, KA_RX_STATUS, KA_RX_STATUS_EMPTY, KA_RX_STATUS_EMPTY,
                        KDP_DETAIL(KDP_AWAIT_MAILBOX_RX, 0));
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
        d[4u * 8u / sizeof(uintptr_t) - 1u] =
            (uintptr_t)(kdp_ctrl_read_w3(index) >> (64u - 8u * sizeof(uintptr_t)));
        d[KF_HDR_WORD * 8u / sizeof(uintptr_t)] = kdp_ctrl_hdr(yx, c->agent_yx, txn);
        hal_fence();                    /* the flit is complete before the kick reads it */
        hal_agent_wr32(KA_TX_KICK, 1);

        /* The reply's header: src = the unit asked, type CU_CTRL, the txn echoed. A request
         * to a coordinate holding no unit is clamped onto a real one, which answers with its
         * own src (or, clamped onto the agent, lands in RX itself): with this request's txn
         * and another src, or not a reply, it means "nobody here" at once (docs/hardware.md §1), and
         * that unit is never counted twice. A flit of another txn (a late reply to an earlier
         * request) is popped and the wait goes on. */
        uint32_t t0 = (uint32_t)hal_cycles();
        while ((uint32_t)hal_cycles() - t0 <= cycles) {
            if (hal_agent_rd32(KA_RX_STATUS) & KA_RX_STATUS_EMPTY)
                continue;
            uint32_t h = hal_agent_rd32(KA_RX_FLIT(KF_HDR_WORD));
            uint64_t w3 = hal_agent_rd(KA_RX_FLIT(3));
            hal_agent_wr32(KA_RX_POP, 1);
            if (!kdp_ctrl_for_txn(h, txn))
                continue;
            if (kdp_ctrl_reply_ok(h, w3, yx, index, txn)) {
                *v = w3 << 16;
                return 1;
            }
            return 0;
        }
    }
    return 0;
}
