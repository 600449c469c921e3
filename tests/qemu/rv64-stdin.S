/* rv64-stdin.S — STDIN (control region 0x30, docs/hardware.md §5): {valid[8], byte}; a store pops.
 * Echoes every byte to CONSOLE until a newline, then exits 0. The runner feeds "ping\n" through
 * the stdin= machine property. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   s0, CTL + 0x30
    li   s1, CONSOLE
1:  ld   t0, 0(s0)
    andi t1, t0, 0x100                /* valid */
    beqz t1, 1b
    sd   zero, 0(s0)                  /* pop */
    andi t0, t0, 0xFF
    sw   t0, 0(s1)
    li   t1, '\n'
    bne  t0, t1, 1b
    EXIT_WITH 0
