/* rv64-spad.S — the scratchpad at 0x1_0000 is 32 KB of read/write RAM (docs/hardware.md §5): doublewords
 * and bytes at its first and last doubleword read back. EXIT 0, or 0xE000000n for check n. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   s0, SPAD
    li   s1, SPAD + 0x7FF8            /* last doubleword of 32 KB */
    li   t0, 0x0123456789ABCDEF
    sd   t0, 0(s0)
    sd   t0, 0(s1)
    ld   t1, 0(s0)
    li   a0, 0xE0000001
    bne  t0, t1, fail
    ld   t1, 0(s1)
    li   a0, 0xE0000002
    bne  t0, t1, fail
    li   t0, 0x5A
    sb   t0, 7(s1)
    ld   t1, 0(s1)
    li   t2, 0x5A23456789ABCDEF
    li   a0, 0xE0000003
    bne  t1, t2, fail
    EXIT_WITH 0
fail:
    li   t6, EXIT
    sd   a0, 0(t6)
1:  j    1b
