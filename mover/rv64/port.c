/* port.c — the RV64 mover port: register writes through the control-region window
 * (0x2_0080 + offset, offsets 0x00-0x3F only) and MVSTAT (docs/hardware.md §5). The writes go
 * straight to the mover, so a chunk is a whole move and staging only notes where it starts. */
#include "hal/hal.h"
#include "kmv.h"
#include "kmv_port.h"

/* A record's value as one 64-bit load where it is 8-byte aligned (little-endian: lo, hi). */
typedef uint64_t kmv_u64a __attribute__((may_alias, aligned(8)));

static const struct kd_write *kmv_staged;
uint32_t kmv_port_mode_bit;
uint32_t kmv_wait_cycles;           /* kmv.h: here, with the wait that counts it */
const uint8_t kmv_port_occ_seen = 0;

const struct kmv_caps *kmv_caps_use = &kmv_caps_rv64;

const struct kmv_caps *kmv_caps_self(void)
{
    return &kmv_caps_rv64;
}

/* MVSTAT [32] busy, [31:28] fault, into the common layout (kmv_port.h). */
uint32_t kmv_port_wait(uint32_t timeout, uint64_t *raw, uint32_t hold)
{
    uint32_t t0 = hal_cycles32(), el, st;
    uint64_t v;
    kx_wait_mark_mover(t0);         /* the host's "waiting for the mover since <t0>" */

    do {
        el = hal_cycles32() - t0;
        v = hal_mvstat();
        st = (uint32_t)(KBF_FIELD_GET(RV64_MVSTAT_BUSY, v) |
                        KBF_FIELD_PREP(KMV_ST_FAULT, KBF_FIELD_GET(RV64_MVSTAT_FAULT, v)));
    } while (((st & KMV_ST_BUSY) | hold) && el <= timeout);
    kmv_wait_cycles += el;              /* the completion's mover_cycles */
    *raw = v;
    return st;
}

void kmv_port_stage(const struct kd_write *p)
{
    kmv_staged = p;
}

/* One write through the window. Validation has kept every offset in 0x00-0x38; the mask
 * (one instruction) keeps a list that changed after it was validated
 * (kmv_replay_validated) inside the window all the same, where hal_mover_wr would stop the
 * core on its assertion. */
#define WIN_MASK  ((uintptr_t)(KMV_RV64_REACH_END - 8u))     /* 0x38 */
static inline void win_wr(uintptr_t win, uintptr_t off, uint64_t v)
{
    *(volatile uint64_t *)(win + off) = v;
}

static inline int is_go(uintptr_t off, uint64_t v)
{
    return off == KMV_REG_CTRL && (v & KMV_CTRL_GO);
}

/* The hot loop, two records a turn: records are 12 bytes, so every other one has its value
 * 8-byte aligned and is read with one ld; the other takes two loads and a merge. That keeps
 * the average at 7.5 instructions a write (bench: at most 8 on RV64). The list ends with a
 * GO (validated, or checked by kmv_replay_validated), so the loop needs no end test. */
const struct kd_write *kmv_port_start(void)
{
    const struct kd_write *p = kmv_staged;
    uintptr_t win = (uintptr_t)hal_mover_ptr();
    uint64_t v;
    uintptr_t off;

    /* Hide the base's value: knowing it fits 32 bits, GCC adds in 32 bits and zero-extends,
     * two more instructions a write. */
    __asm__("" : "+r"(win));

    if ((uintptr_t)&p->lo & 7u) {
        off = p->off & WIN_MASK;
        v = ((uint64_t)p->hi << 32) | p->lo;
        p++;
        win_wr(win, off, v);
        if (is_go(off, v))
            goto done;
    }
    for (;;) {
        off = p[0].off & WIN_MASK;
        v = *(const kmv_u64a *)&p[0].lo;
        win_wr(win, off, v);
        if (is_go(off, v)) {
            p += 1;
            break;
        }
        off = p[1].off & WIN_MASK;
        v = ((uint64_t)p[1].hi << 32) | p[1].lo;
        p += 2;
        win_wr(win, off, v);
        if (is_go(off, v))
            break;
    }
done:
    /* The status loads that follow must not pass the GO store (RVWMO lets a load overtake
     * an earlier store to another address). */
    hal_fence();
    kmv_port_mode_bit = 1u << KBF_FIELD_GET(KMV_CTRL_MODE, v);
    return p;
}
