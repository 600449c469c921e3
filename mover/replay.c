/* replay.c — descriptor list replay on both variants (docs/design.md §2.2): checks
 * the list before any write, then runs it chunk by chunk through the variant's port
 * (kmv_port.h), waiting for every move with a bounded timeout and decoding its fault.
 * docs/hardware.md §3.1 last row: a FILL/GENERATE move gets KMV_FILL_MARGIN_CYCLES after busy falls. */
#include "hal/hal.h"
#include "kmv.h"
#include "kmv_port.h"
#include "kohaku/bootblock.h"  /* KX_BOOT_WAIT_MAX: the longest wait a 32-bit count bounds */

/* kmv_replay (validate first) and kmv_replay_validated in one body, so the RV32 image holds
 * one copy of the loop. Where the board has the bytes (BOARD_MOVER_FAST: RV64) the body is
 * inlined into both instead, each copy without the other's branches (validate a constant) and
 * with the registers its own loop needs: about 5 cycles a list (bench
 * record_run_overhead_insns: a recorded RUN's every REPLAY step). RV32 leaves it to GCC (-Os):
 * an image calling both keeps one body, one calling only kmv_replay_validated (the product
 * image) has the body as that function, not behind a jump to it (noinline cost 4 bytes). */
#if BOARD_MOVER_FAST
#define KMV_REPLAY_BODY inline __attribute__((always_inline))
#else
#define KMV_REPLAY_BODY
#endif
static KMV_REPLAY_BODY unsigned replay(const struct kd_write *w, uint32_t n,
                                                 uint64_t timeout_cycles,
                                                 struct kmv_result *res, int validate)
{
    const struct kd_write *end = w + n, *next = w;
    /* Timeouts count in 32 bits and must be passed before the elapsed count wraps: a longer
     * one waits KX_BOOT_WAIT_MAX cycles (2^31 - 1, 2.1 s at 1 GHz). */
    uint32_t tmo = timeout_cycles > KX_BOOT_WAIT_MAX ? KX_BOOT_WAIT_MAX : (uint32_t)timeout_cycles;
    uint32_t st, s, mode = 0;           /* mode: 1 << the running chunk's GO mode, 0 for none */
    uint32_t xf = 0;                    /* XFORM moves done (RV64 cannot check their occupant) */

    res->value = 0;
    if (validate && kmv_validate(w, n, kmv_caps_use, res) != KS_OK)
        return res->status;
    /* Every exit below sets detail (and index, when it is not n) where it decides. */
    res->moves = 0;
    res->index = n;
    res->detail = n;
    /* O(1): the loops stop at the first GO, so a GO last keeps them inside the list. */
    if (n - 1u >= KD_MAX_WRITES || !kd_is_go(end - 1)) {
        st = n > KD_MAX_WRITES ? KS_LIST_TOO_LONG : KS_NO_GO;
        goto out;
    }

    /* The mover reads memory behind the data cache: what the CPU wrote must be there. */
    hal_dcache_flush();
    /* One wait a turn: first for the mover to be idle (a move that timed out earlier may
     * still run, and a GO now would be refused, §4: a second MVGO while busy is an error),
     * then for each chunk sent; next == w until the first is sent. */
    res->detail = KS_AWAIT_MOVER_IDLE << 8;
    /* Idle at one look (kmv_port_idle): straight to the first chunk, as the wait's "not busy,
     * no chunk sent yet" turn would go (mode 0, next == w, which is not end: n >= 1). */
    uint32_t await = KS_AWAIT_MOVER << 8;      /* what a timeout of a chunk says */
    uint64_t *raw = &res->value;                /* where each wait leaves the status word */
    if (BOARD_MOVER_FAST) {
        /* tmo, raw and that constant made before the jump, in registers, as the loop without
         * it has them: GCC otherwise makes them in the loop (1 to 7 instructions a move more) */
        __asm__("" : "+r"(tmo), "+r"(await), "+r"(raw));
        if (kmv_port_idle())
            goto first;
    }
    for (;;) {
        s = kmv_port_wait(tmo, raw, 0);
        st = KS_TIMEOUT;
        if (s & KMV_ST_BUSY)
            break;
        if (mode) {
            /* Reported hazard: busy may fall before the last write has left, and that write
             * uses IMM/SEED as they are then and loses its error. Nothing further is written,
             * and the fault is read, only after the margin (the wait holds, then reads). */
            if (mode & ((1u << KMV_MODE_FILL) | (1u << KMV_MODE_GENERATE)))
                s = kmv_port_wait(KMV_FILL_MARGIN_CYCLES, raw, 1);
            st = KS_MOVER_FAULT;
            if ((res->detail = (uint32_t)KBF_FIELD_GET(KMV_ST_FAULT, s)) != 0)
                break;
            /* The occupant's fault is sticky across moves: only an XFORM move reads it. */
            st = KS_XFORM_FAULT;
            if ((mode & (1u << KMV_MODE_XFORM)) &&
                (res->detail = (uint32_t)KBF_FIELD_GET(KMV_ST_OCC_FAULT, s)) != 0)
                break;
            xf += (mode >> KMV_MODE_XFORM) & 1u;
            res->moves++;
        }
        if (next == end) {
            /* The last chunk holds the list's last GO: detail is 0 here, index n. Where the
             * occupant's fault is invisible (RV64), a list that ran XFORM moves is never a
             * plain OK (docs/hardware.md §3.1). */
            st = KS_OK;
            if (!kmv_port_occ_seen && xf) {
                st = KS_XFORM_UNCHECKED;
                res->detail = xf;
            }
            goto done;
        }
first:
        if (next == w)
            kmv_port_stage(w);
        next = kmv_port_start();
        mode = kmv_port_mode_bit;
        res->detail = await;                    /* what a timeout of this chunk says */
        /* Stage the next chunk while this one runs (RV32 copies into the other buffer). */
        if (next != end)
            kmv_port_stage(next);
    }
    /* A refusal names the chunk's last write; the idle wait names write 0, nothing sent
     * (validate.c: failure only, cold code on RV32). */
    res->index = HAL_COLD(kmv_fail_index, w, next);
done:
    /* The CPU must read what the mover wrote, not lines cached before the move. Nothing the
     * CPU wrote since the flush sits in the cache (replay writes only the scratchpad). */
    hal_dcache_inval();
out:
    res->status = st;
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
