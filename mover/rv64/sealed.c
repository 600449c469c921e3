/* sealed.c — the RV64 form of a recorded descriptor list ("sealed moves", docs/mover.md
 * "Sealed moves") and the loop that replays it.
 *
 * A record lives in DRAM, which the host (through its port) and every unit (through its
 * program) can write while the firmware runs. Checking the whole record before a replay and
 * then reading it again to replay it costs two passes and leaves a window between them.
 * Sealed, every move carries its own check: the loop sums a move's words as it loads them into
 * the mover's registers and stores the GO only when the sum is 0, so what the mover runs is
 * exactly what was recorded, read once. A move whose words changed never starts: the replay
 * ends KS_REC_CHANGED with the moves before it done (they were as recorded).
 *
 * The layout is kmv.h's ("Sealed moves"). Offsets and values in separate words (not one
 * 16-byte pair a write): a write is one load, one add, its lane's shift and mask, an add and
 * one store, the lanes unrolled (bench record_replay_insns_per_write: at most 10 a write, moves
 * and command included). What is stored before the sum has checked the move cannot start the
 * mover: each group's offsets word is checked against its check word before the group's first
 * store, and no kept write but the GO is aimed at CTRL (kmv.h), so a changed value lands in a
 * register and waits there for a GO that the sum then withholds.
 * Position independent: a record copied into another record (a RUN's REPLAY_H step) is still
 * sealed. Sealing (at RECORD) and the check without the mover are mover/seal.c's. */
#include "hal/hal.h"
#include "hal/shared.h"      /* hal_ug_ptr's uncached DRAM: fences, not cache operations */
#include "kmv.h"
#include "kmv_port.h"
#include "kohaku/bootblock.h"  /* KX_BOOT_WAIT_MAX */

#define LANES       KMV_SEAL_LANES
_Static_assert(KMV_SEAL_SPECIAL == UINT64_C(1) << 56, "the loop tests [56] as the sign of h << 7");
/* One write of a group: lane L's offset (its nibble times 8), masked into the window
 * (0x00-0x38) before the store (the check word makes it the one sealed; the mask keeps even a
 * corrupted pair inside the mover's registers); its value at q[L + 2] (q: the offsets word less
 * the lanes left empty; the check word after it). */
#define LANE(L)                                                                         \
    do {                                                                                \
        v = q[(L) + 2];                                                                 \
        s += v;                                                                         \
        *(volatile uint64_t *)(win + (((L) ? offs >> (4u * (L) - 3u) : offs << 3) & 0x38u)) = v; \
    } while (0)

unsigned kmv_replay_sealed(const volatile uint64_t *img, uint32_t moves, uint64_t timeout_cycles,
                           struct kmv_result *res)
{
    const volatile uint64_t *p = img, *q, *end;
    uintptr_t win = (uintptr_t)hal_mover_ptr();
    uint32_t tmo = timeout_cycles > KX_BOOT_WAIT_MAX ? KX_BOOT_WAIT_MAX : (uint32_t)timeout_cycles;
    uint32_t done = 0, xf = 0, waited = 0, st, t0, el;
    uint64_t ones = ~UINT64_C(0);           /* an offsets word xor its check word */
    int last = 1;
    uint64_t *raw = &res->value;
    /* MVSTAT, its busy bit and the host's breadcrumb, in registers for the whole list (GCC
     * otherwise makes each again every move: 5 instructions) */
    const volatile uint64_t *mvstat = &HAL_CTL(RV64_CTL_MVSTAT);
    uint64_t busy = RV64_MVSTAT_BUSY;
    volatile uint32_t *mark = &kx_wait_mover_since;
    /* Where a group's first write enters the unrolled lanes: a table of labels (GNU C),
     * not a switch, which GCC gave a range check and a relative table (3 instructions more a
     * move) */
    static const void *const lane[LANES] = { &&l0, &&l1, &&l2, &&l3, &&l4, &&l5, &&l6, &&l7,
                                             &&l8, &&l9, &&l10, &&l11, &&l12, &&l13, &&l14, &&l15 };
    const void *const *lanes = lane;
    /* Hide the base's value (it fits 32 bits; GCC would add in 32 bits and zero-extend). */
    __asm__("" : "+r"(win), "+r"(mvstat), "+r"(busy), "+r"(mark), "+r"(lanes), "+r"(ones));

    /* res: every exit below sets what its status means (value and detail only on a failure
     * that names them, as kq_rec_result reads them) */
    /* The mover reads memory behind the data cache; RV64's firmware reaches DRAM only through
     * its uncached alias (hal_ug_ptr, hal/rv64/hal_shared.h), so no line holds what it wrote
     * and ordering is all there is to do: a fence (hal_dcache_flush: a call, a fence, a store,
     * a bounded poll and a fence again, about 20 cycles, twice a list). */
    hal_shared_release();
    /* Idle before the first write: a move that timed out earlier may still run. */
    if (!kmv_port_idle() && (kmv_port_wait(tmo, raw, 0) & KMV_ST_BUSY)) {
        st = KS_TIMEOUT;
        res->detail = KS_AWAIT_MOVER_IDLE << 8;
        last = 0;
        goto fail;
    }
    /* a record holds at least one move (a list ends with a GO): the test at the bottom */
    if (moves) do {
        uint64_t h = p[0], s = h, offs, v, go, sv;
        /* Each field bounded by its width, and the groups run while p is below end (not until
         * it equals it: fields that disagree would never meet it): a changed header reads at
         * most 64 KB and a group on, then the move's sum finds it. */
        end = (const volatile uint64_t *)((uintptr_t)(p + 1) + (uintptr_t)((h << 16) >> 48));
        p++;
        /* a group: its offsets word checked against its check word before its first store,
         * then its lanes from the first it uses (the first group's: header [63:60]; later
         * ones: 0) */
        if (p < end) {
          uintptr_t skip = h >> 57;                 /* [63:57]: 8 x the lanes left empty */
          do {
            offs = p[0];
            if ((offs ^ p[1]) != ones)
                goto changed;
            s += ones;                              /* the pair's sum, as compared */
            q = (const volatile uint64_t *)((uintptr_t)p - skip);
            goto **(const void *const *)((uintptr_t)lanes + skip);
l0:         LANE(0);
l1:         LANE(1);
l2:         LANE(2);
l3:         LANE(3);
l4:         LANE(4);
l5:         LANE(5);
l6:         LANE(6);
l7:         LANE(7);
l8:         LANE(8);
l9:         LANE(9);
l10:        LANE(10);
l11:        LANE(11);
l12:        LANE(12);
l13:        LANE(13);
l14:        LANE(14);
l15:        LANE(15);
            p = q + 2 + LANES;
            skip = 0;
          } while (p < end);
        }
        go = p[0];
        s += go + p[1];
        p += 2;
        if (s) {
changed:
            /* changed since it was sealed: no GO; the registers written above are loaded,
             * nothing runs with them */
            st = KS_REC_CHANGED;
            res->detail = 0;
            last = 0;
            goto fail;
        }
        *(volatile uint64_t *)win = go;             /* CTRL, offset 0: the GO */
        /* the status loads below must not pass the GO store (RVWMO) */
        hal_fence();
        /* The wait, inline (kmv_port_wait's, less its call): the processor waits for the
         * mover from the GO on, bounded by tmo; the cycles count as the completion's
         * mover_cycles, as every wait for the mover does. */
        t0 = hal_cycles32();
        *mark = t0;                                 /* kx_wait_mark_mover */
        do {
            el = hal_cycles32() - t0;
            sv = *mvstat;
        } while ((sv & busy) && el <= tmo);
        waited += el;
        if (sv & busy) {
            *raw = sv;
            st = KS_TIMEOUT;
            res->detail = KS_AWAIT_MOVER << 8;
            goto fail;
        }
        /* FILL, GENERATE (docs/hardware.md §3.1 last row: the margin after busy falls, then
         * the fault read again) and XFORM (the occupant cannot be checked on RV64): the
         * header says which, checked by now */
        if ((int64_t)(h << 7) < 0) {              /* [56]: KMV_SEAL_SPECIAL */
            if (KBF_FIELD_GET(KMV_CTRL_MODE, go) == KMV_MODE_XFORM) {
                xf++;
            } else {
                kmv_port_wait(KMV_FILL_MARGIN_CYCLES, raw, 1);
                sv = *raw;
            }
        }
        if (KBF_FIELD_GET(RV64_MVSTAT_FAULT, sv)) {
            *raw = sv;
            res->detail = (uint32_t)KBF_FIELD_GET(RV64_MVSTAT_FAULT, sv);
            st = KS_MOVER_FAULT;
            goto fail;
        }
    } while (++done < moves);
    res->moves = done;
    /* The occupant's fault is invisible on RV64 (docs/hardware.md §3.1): never a plain OK. */
    st = KS_OK;
    if (xf) {
        st = KS_XFORM_UNCHECKED;
        res->detail = xf;
    }
    goto out;
fail:
    res->moves = done;
    /* the failed move's GO (last), or the first write of the move that did not start, from
     * the moves before it, which ran and so were as sealed (kmv_sealed_check walks them) */
    (void)kmv_sealed_check(img, done + (uint32_t)last, UINT32_MAX, &res->index);
    res->index -= (uint32_t)last;
out:
    kmv_wait_cycles += waited;
    /* The CPU reads what the mover wrote: uncached, after a fence (no line to drop, above). */
    hal_shared_acquire();
    res->status = st;
    return st;
}
