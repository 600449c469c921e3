/* rv32-misaligned.S — a misaligned load halts with cause 3, word = pc = 0x100 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, SPAD + 2
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    lw   a1, 0(t0)
1:  j    1b
