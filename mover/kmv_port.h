/* kmv_port.h — what each variant's mover port (mover/rv32/port.c: the descriptor form and
 * MVGO, docs/hardware.md §4; mover/rv64/port.c: the control-region window and MVSTAT, §5) gives the
 * common replay loop in mover/replay.c. Internal to mover/. */
#ifndef KOHAKU_KMV_PORT_H
#define KOHAKU_KMV_PORT_H

#include <stdint.h>
#include "kmv.h"

/* The mover's status in one layout for both variants (RV32 MVGO's own): [0] busy, [7:4] the
 * mover fault code (holds until the next GO), [11:8] the transform occupant fault (RV32 only;
 * 0 on RV64). */
#define KMV_ST_BUSY       0x1u
#define KMV_ST_FAULT      0xF0u
#define KMV_ST_OCC_FAULT  0xF00u

/* Polls the mover's status until busy is clear and `hold` is 0, or until more than `timeout`
 * processor cycles have passed since the call; returns the status read last, in the layout
 * above, with the word as read in *raw. Each turn reads the clock before the status, so the
 * status returned on a timeout was read after the timeout was seen (a move that ends at the
 * last moment counts as done), and with hold = 1 the call waits more than `timeout` cycles
 * and then reads the status: replay's FILL/GENERATE margin. Elapsed time is a 32-bit
 * difference of the cycle counter: exact, since the loop reads it far more often than every
 * 2^32 cycles. */
uint32_t kmv_port_wait(uint32_t timeout, uint64_t *raw, uint32_t hold);

/* Whether one read of the mover's status shows it idle: replay then skips the bounded wait it
 * starts a list with (the mover is idle there almost always: every replay ends by waiting for
 * its last move), about 25 cycles a list (bench record_run_overhead_insns: a RUN's every
 * REPLAY step). Where the board asks for it (BOARD_MOVER_FAST: RV64, one load inline);
 * elsewhere 0, and replay always waits (RV32: no window bytes for it). A busy mover is waited
 * for as before. */
#if BOARD_MOVER_FAST
#include "hal/hal.h"
static inline int kmv_port_idle(void)
{
    return !KBF_FIELD_GET(RV64_MVSTAT_BUSY, hal_mvstat());
}
#else
static inline int kmv_port_idle(void)
{
    return 0;
}
#endif

/* The writes in a staged chunk of b bytes (12 a write, fewer than 128 writes): b x 43 >> 9,
 * exact there (43/512 = 1/12 + 1/1536), as shifts and adds that the empty asm keeps GCC from
 * folding back into a multiply: RV32I has none, and __mulsi3 would be a call and a libgcc
 * routine in the window (scripts/check-libcalls.sh checks the image for one).
 * tests/host/mover checks every chunk size. */
static inline uint32_t kmv_writes_of(uint32_t b)
{
    uint32_t b3 = b + (b << 1);
    __asm__("" : "+r"(b3));     /* GCC forgets b3's value: no instruction */
    return (b3 + (b << 3) + (b << 5)) >> 9;
}

/* A chunk is the writes from a given one up to and including the next GO — or fewer, when the
 * port's buffer is smaller than the move: then no GO, and only the move's last chunk starts
 * the mover. The list ends with a GO, so a chunk never runs past it.
 * kmv_port_stage prepares the chunk at p without touching the mover (RV32: copies it into a
 * scratchpad buffer, while the previous chunk may still run). kmv_port_start sends the staged
 * chunk (the mover must be idle) and returns the write after it. From then until the next
 * kmv_port_stage, kmv_port_mode_bit holds 1 << the chunk's GO mode, or 0 when the chunk has
 * no GO (a mask, so replay tests modes without constants; a variable, not a second return
 * value: on RV32 GCC gives a two-word struct return a stack frame on both sides, and the
 * RV32 port's staging can set it directly). */
extern uint32_t kmv_port_mode_bit;
/* 1 when the port reads the transform occupant's fault (RV32 MVGO [11:8]), 0 when the
 * processor cannot see it (RV64, docs/hardware.md §3.1): replay then ends a list with XFORM moves
 * KS_XFORM_UNCHECKED instead of KS_OK. A constant each port defines (RV32's LTO folds it). */
extern const uint8_t kmv_port_occ_seen;
void kmv_port_stage(const struct kd_write *p);
const struct kd_write *kmv_port_start(void);

#endif
