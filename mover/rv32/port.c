/* port.c — the RV32 mover port: the descriptor form in the scratchpad and MVGO (docs/hardware.md §4).
 * Two scratchpad buffers of KMV_SPAD_WRITES writes: the next chunk is copied into one while
 * the mover fetches and runs the other. A move longer than a buffer is split; only its last
 * chunk carries the GO, the earlier ones just load registers (busy covers their fetch). */
#include "hal/hal.h"
#include "kmv.h"
#include "kmv_port.h"

/* 2 x (4 + 32 x 12) = 776 bytes of the 8 KB scratchpad. A builder move of two 6-dimensional
 * walkers is 2 + 24 + 4 + 2 writes; most moves fit one buffer. */
#define KMV_SPAD_WRITES  32u

/* In the scratchpad (linker/rv32.ld.S): MVGO reads it by word index. .noinit: every chunk is
 * written before MVGO reads it, so the boot need not zero it (776 instructions of boot_insns). */
static uint32_t kmv_spad[2][1u + KD_RECORD_WORDS * KMV_SPAD_WRITES]
    __attribute__((section(".noinit.kmv_spad")));

/* The staged chunk: its buffer and the write after it. Its GO's mode goes straight to
 * kmv_port_mode_bit (kmv_port.h): replay reads it after kmv_port_start, before staging the
 * chunk after. */
static struct {
    uint32_t *buf;
    const struct kd_write *next;
} kmv_staged = { kmv_spad[1], 0 };

uint32_t kmv_port_mode_bit;
uint32_t kmv_wait_cycles;           /* kmv.h: here, with the wait that counts it */
const uint8_t kmv_port_occ_seen = 1;

const struct kmv_caps *kmv_caps_use = &kmv_caps_rv32;

const struct kmv_caps *kmv_caps_self(void)
{
    return &kmv_caps_rv32;
}

/* MVGO's status word is the common layout itself (kmv_port.h). */
_Static_assert(RV32_MVGO_BUSY == KMV_ST_BUSY && RV32_MVGO_FAULT == KMV_ST_FAULT &&
               RV32_MVGO_OCC_FAULT == KMV_ST_OCC_FAULT, "MVGO status layout");
uint32_t kmv_port_wait(uint32_t timeout, uint64_t *raw, uint32_t hold)
{
    uint32_t t0 = hal_cycles32(), el, st;
    kx_wait_mark_mover(t0);         /* the host's "waiting for the mover since <t0>" */

    do {
        el = hal_cycles32() - t0;
        st = hal_mvgo_status();
    } while (((st & KMV_ST_BUSY) | hold) && el <= timeout);
    kmv_wait_cycles += el;              /* the completion's mover_cycles */
    *raw = st;
    return st;
}

/* The hot loop, two records a turn: three loads and three stores a write, one pointer bump
 * each a turn (8.5 instructions a write; the bench: at most 12 on RV32). The list is validated,
 * so it ends with a GO and the loop needs no end-of-list test; the buffer holds an even
 * number of writes, so the buffer-full test is needed every other write only. Stages into
 * the buffer the mover is not running. */
_Static_assert(KMV_SPAD_WRITES % 2 == 0, "the copy loop fills the buffer two writes a turn");
void kmv_port_stage(const struct kd_write *p)
{
    const struct kd_write *p0 = p;
    /* The other buffer: the one the mover is not running. */
    uint32_t *buf = kmv_staged.buf = kmv_staged.buf == kmv_spad[0] ? kmv_spad[1] : kmv_spad[0];
    uint32_t *d = buf + 1, *dend = buf + 1 + KD_RECORD_WORDS * KMV_SPAD_WRITES;
    uint32_t off, lo;

    kmv_port_mode_bit = 0;
    for (;;) {
        off = p[0].off;
        lo = p[0].lo;
        d[0] = off;
        d[1] = lo;
        d[2] = p[0].hi;
        if (off == KMV_REG_CTRL && (lo & (uint32_t)KMV_CTRL_GO)) {
            p += 1;
            goto go;
        }
        off = p[1].off;
        lo = p[1].lo;
        d[3] = off;
        d[4] = lo;
        d[5] = p[1].hi;
        p += 2;
        d += 2 * KD_RECORD_WORDS;
        if (off == KMV_REG_CTRL && (lo & (uint32_t)KMV_CTRL_GO))
            goto go;
        if (d == dend)
            goto out;
    }
go:
    kmv_port_mode_bit = 1u << KBF_FIELD_GET(KMV_CTRL_MODE, lo);
out:
    /* The count of writes, without a multiply (kmv_port.h). */
    _Static_assert(sizeof(struct kd_write) == 12 && KMV_SPAD_WRITES < 128, "count by 43 >> 9");
    buf[0] = kmv_writes_of((uint32_t)((uintptr_t)p - (uintptr_t)p0));
    kmv_staged.next = p;
}

const struct kd_write *kmv_port_start(void)
{
    /* hal_mvgo fences the buffer's stores before the MVGO store. */
    hal_mvgo(hal_spad_word_index(kmv_staged.buf));
    return kmv_staged.next;
}
