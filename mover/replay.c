/* replay.c — descriptor list replay on both variants (SYSTEM.md §2.2, issue 4 item 3): checks
 * the list before any write, then runs it chunk by chunk through the variant's port
 * (kmv_port.h), waiting for every move with a bounded timeout and decoding its fault.
 * BOARD.md §3.1 last row: a FILL/GENERATE move gets KMV_FILL_MARGIN_CYCLES after busy falls. */
#include "hal/hal.h"
#include "kmv.h"
#include "kmv_port.h"

static unsigned done(struct kmv_result *res, unsigned st, uint32_t detail, uint32_t index,
                     uint64_t value)
{
    res->status = st;
    res->detail = detail;
    res->index = index;
    res->value = value;
    return st;
}

/* Waits for busy to fall, at most `timeout` cycles. Returns 0 when idle. The clock is read
 * only once the first look finds the mover busy: a descriptor fetch or a short move is often
 * over by then, and the count starts a few instructions late at most. */
static int wait_idle(struct kmv_stat *s, uint64_t timeout)
{
    uint64_t t0;

    kmv_port_status(s);
    if (!s->busy)
        return 0;
    t0 = hal_cycles();
    for (;;) {
        kmv_port_status(s);
        if (!s->busy)
            return 0;
        if (hal_cycles() - t0 > timeout) {
            kmv_port_status(s);     /* one last look: it may have finished meanwhile */
            return s->busy;
        }
    }
}

static unsigned replay(const struct kd_write *w, uint32_t n, uint64_t timeout,
                       struct kmv_result *res)
{
    const struct kd_write *end = w + n;
    /* Two chunks, used alternately (no struct copies: they would pull memcpy into the
     * 8 KB RV32 image). */
    struct kmv_chunk ch[2];
    unsigned k = 0;
    struct kmv_stat s;
    unsigned st = KS_OK;

    res->moves = 0;
    /* A move that timed out earlier may still run: a GO now would be refused (§4: a second
     * MVGO while busy is an error), so wait for it, within the same bound. */
    if (wait_idle(&s, timeout))
        return done(res, KS_TIMEOUT, KS_AWAIT_MOVER_IDLE << 8, 0, s.raw);

    /* The mover reads memory behind the data cache: what the CPU wrote must be there. */
    hal_dcache_flush();
    hal_fence();
    ch[0].p = w;
    ch[0].buf = 0;
    ch[1].buf = 1;
    kmv_port_stage(&ch[0]);
    for (;;) {
        struct kmv_chunk *cur = &ch[k];

        kmv_port_start(cur);
        /* Stage the next chunk while this one runs (RV32 copies into the other buffer). */
        if (cur->next != end) {
            ch[k ^ 1u].p = cur->next;
            kmv_port_stage(&ch[k ^ 1u]);
        }
        if (wait_idle(&s, timeout)) {
            st = done(res, KS_TIMEOUT, KS_AWAIT_MOVER << 8, (uint32_t)(cur->next - w) - 1u, s.raw);
            break;
        }
        if (cur->go) {
            uint32_t go_index = (uint32_t)(cur->next - w) - 1u;

            if (cur->mode == KM_MODE_FILL || cur->mode == KM_MODE_GENERATE) {
                /* Reported hazard: busy may fall before the last write has left, and that
                 * write uses IMM/SEED as they are then and loses its error. Nothing further
                 * is written, and the fault is read, only after the margin. */
                uint64_t t1 = hal_cycles();
                while (hal_cycles() - t1 < KMV_FILL_MARGIN_CYCLES)
                    ;
                kmv_port_status(&s);
            }
            if (s.fault != KM_FAULT_NONE) {
                st = done(res, KS_MOVER_FAULT, s.fault, go_index, s.raw);
                break;
            }
            /* The occupant's fault is sticky across moves: only an XFORM move reads it. */
            if (cur->mode == KM_MODE_XFORM && s.occ_fault != 0) {
                st = done(res, KS_XFORM_FAULT, s.occ_fault, go_index, s.raw);
                break;
            }
            res->moves++;
        }
        if (cur->next == end) {
            st = done(res, KS_OK, 0, n, s.raw);
            break;
        }
        k ^= 1u;
    }
    /* The CPU must read what the mover wrote, not lines cached before the move. Nothing the
     * CPU wrote since the flush sits in the cache (replay writes only the scratchpad). */
    hal_dcache_inval();
    return st;
}

unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res)
{
    res->value = 0;
    if (kmv_validate(w, n, kmv_caps_self(), res) != KS_OK)
        return res->status;
    return replay(w, n, timeout_cycles, res);
}

unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res)
{
    res->value = 0;
    res->moves = 0;
    /* O(1): the loops stop at the first GO, so a GO last keeps them inside the list. */
    if (n == 0 || n > KD_MAX_WRITES || !kd_is_go(&w[n - 1])) {
        res->status = n > KD_MAX_WRITES ? KS_LIST_TOO_LONG : KS_NO_GO;
        res->detail = n;
        res->index = n;
        return res->status;
    }
    return replay(w, n, timeout_cycles, res);
}
