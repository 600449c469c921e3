/* rv32-imem-load.S — the instruction window is fetch only: a load from it halts with cause 3, word = pc = 0x100 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, IMEM + 0x40
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    lw   a1, 0(t0)
1:  j    1b
