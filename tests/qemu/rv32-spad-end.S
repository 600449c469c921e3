/* rv32-spad-end.S — the scratchpad ends at 8 KB: a load at 0x1000_2000 is unassigned and halts with cause 3, word = pc = 0x100 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, SPAD + 0x2000
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    lw   a1, 0(t0)
1:  j    1b
