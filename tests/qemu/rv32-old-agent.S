/* rv32-old-agent.S — the agent window is at 0x7000_0000 (docs/hardware.md §4): a store to its CTRL
 * register there reads back, and a store to the old window 0xF100_0000 (node range: on silicon
 * it would start the mover, its address bits [15:0] being zero) is not the agent: our machine
 * faults it, cause 3, word = pc = 0x100 (docs/model.md "RV32 node range"). A CTRL value that
 * does not read back halts with EBREAK (cause 2) before 0x100. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, AGENT
    li   t1, OLD_AGENT
    li   a1, 0x5A5A1234
    sw   a1, 0(t0)                   /* CTRL, low half: stores [31:0] */
    lw   a2, 0(t0)
    beq  a1, a2, 9f
    ebreak
    .org 0x100
9:
    sw   a1, 0(t1)
1:  j    1b
