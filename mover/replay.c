/* replay.c — descriptor list replay on both variants (SYSTEM.md §2.2, issue 4 item 3): checks
 * the list before any write, then runs it chunk by chunk through the variant's port
 * (kmv_port.h), waiting for every move with a bounded timeout and decoding its fault.
 * BOARD.md §3.1 last row: a FILL/GENERATE move gets KMV_FILL_MARGIN_CYCLES after busy falls. */
#include "hal/hal.h"
#include "kmv.h"
#include "kmv_port.h"

/* Waits for busy to fall, at most `timeout` cycles; returns the last status (KMV_ST_*). The
 * clock is read only once the first look finds the mover busy: a descriptor fetch or a short
 * move is often over by then, and the count starts a few instructions late at most. Elapsed
 * time is taken in 32 bits: exact, since the loop reads the clock far more often than every
 * 2^32 cycles. */
static uint32_t wait_idle(uint32_t timeout, uint64_t *raw)
{
    uint32_t st = kmv_port_status(raw), t0;

    if (st & KMV_ST_BUSY) {
        t0 = (uint32_t)hal_cycles();
        while ((st = kmv_port_status(raw)) & KMV_ST_BUSY)
            if ((uint32_t)hal_cycles() - t0 > timeout)
                return kmv_port_status(raw);    /* one last look: it may have finished */
    }
    return st;
}

/* kmv_replay (validate first) and kmv_replay_validated in one body, so the RV32 image holds
 * one copy of the loop. */
static __attribute__((noinline)) unsigned replay(const struct kd_write *w, uint32_t n,
                                                 uint64_t timeout_cycles,
                                                 struct kmv_result *res, int validate)
{
    const struct kd_write *p = w, *end = w + n, *next;
    /* Timeouts count in 32 bits: a longer one waits 2^32 - 1 cycles (4.3 s at 1 GHz). */
    uint32_t tmo = timeout_cycles >> 32 ? UINT32_MAX : (uint32_t)timeout_cycles;
    uint32_t st = KS_OK, detail = 0, s, mode;      /* mode: 1 << the GO's mode, 0 for none */

    res->value = 0;
    if (validate && kmv_validate(w, n, kmv_caps_self(), res) != KS_OK)
        return res->status;
    res->moves = 0;
    /* O(1): the loops stop at the first GO, so a GO last keeps them inside the list. */
    if (n - 1u >= KD_MAX_WRITES || !kd_is_go(&w[n - 1u])) {
        st = n > KD_MAX_WRITES ? KS_LIST_TOO_LONG : KS_NO_GO;
        detail = n;
        p = end;
        goto out;
    }
    /* A move that timed out earlier may still run: a GO now would be refused (§4: a second
     * MVGO while busy is an error), so wait for it, within the same bound. Nothing written. */
    if (wait_idle(tmo, &res->value) & KMV_ST_BUSY) {
        st = KS_TIMEOUT;
        detail = KS_AWAIT_MOVER_IDLE << 8;
        goto out;
    }

    /* The mover reads memory behind the data cache: what the CPU wrote must be there. */
    hal_dcache_flush();
    kmv_port_stage(w);
    do {
        next = kmv_port_start(&mode);
        /* Stage the next chunk while this one runs (RV32 copies into the other buffer). */
        if (next != end)
            kmv_port_stage(next);
        p = next - 1;                                   /* a refusal names the chunk's last write */
        s = wait_idle(tmo, &res->value);
        if (s & KMV_ST_BUSY) {
            st = KS_TIMEOUT;
            detail = KS_AWAIT_MOVER << 8;
            break;
        }
        if (!mode)
            continue;
        if (mode & ((1u << KM_MODE_FILL) | (1u << KM_MODE_GENERATE))) {
            /* Reported hazard: busy may fall before the last write has left, and that write
             * uses IMM/SEED as they are then and loses its error. Nothing further is written,
             * and the fault is read, only after the margin. */
            uint32_t t1 = (uint32_t)hal_cycles();
            _Static_assert(KMV_FILL_MARGIN_CYCLES == 64, "the margin loop tests bit 6 up");
            while ((((uint32_t)hal_cycles() - t1) >> 6) == 0)
                ;
            s = kmv_port_status(&res->value);
        }
        if ((detail = (uint32_t)KH_FIELD_GET(KMV_ST_FAULT, s)) != 0) {
            st = KS_MOVER_FAULT;
            break;
        }
        /* The occupant's fault is sticky across moves: only an XFORM move reads it. */
        if ((mode & (1u << KM_MODE_XFORM)) &&
            (detail = (uint32_t)KH_FIELD_GET(KMV_ST_OCC_FAULT, s)) != 0) {
            st = KS_XFORM_FAULT;
            break;
        }
        res->moves++;
    } while (next != end);
    if (st == KS_OK)
        p = end;
    /* The CPU must read what the mover wrote, not lines cached before the move. Nothing the
     * CPU wrote since the flush sits in the cache (replay writes only the scratchpad). */
    hal_dcache_inval();
out:
    res->status = st;
    res->detail = detail;
    res->index = (uint32_t)(p - w);
    return st;
}

unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res)
{
    return replay(w, n, timeout_cycles, res, 0);
}

unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res)
{
    return replay(w, n, timeout_cycles, res, 1);
}
