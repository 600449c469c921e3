/* rv32-spad.S — the scratchpad at 0x1000_0000 is 8 KB of read/write RAM (docs/hardware.md §4): words,
 * halves and bytes at its first and last word read back what was written. EXIT 0 on success,
 * EXIT 0xE000000n naming the first check that failed. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   s0, SPAD
    li   s1, SPAD + 0x1FFC            /* last word of 8 KB */
    li   t0, 0xA5C3E10F
    sw   t0, 0(s0)
    sw   t0, 0(s1)
    lw   t1, 0(s0)
    li   a0, 0xE0000001
    bne  t0, t1, fail
    lw   t1, 0(s1)
    li   a0, 0xE0000002
    bne  t0, t1, fail
    li   t0, 0x5A
    sb   t0, 1(s0)                    /* bytes 0x0F 0x5A 0xC3 0xA5 */
    lw   t1, 0(s0)
    li   t2, 0xA5C35A0F
    li   a0, 0xE0000003
    bne  t1, t2, fail
    li   t0, 0x1234
    sh   t0, 2(s1)
    lhu  t1, 2(s1)
    li   a0, 0xE0000004
    bne  t0, t1, fail
    lbu  t1, 3(s1)
    li   t2, 0x12
    li   a0, 0xE0000005
    bne  t1, t2, fail
    EXIT_WITH 0
fail:
    li   t6, EXIT
    sw   a0, 0(t6)
1:  j    1b
