/* rv32-divide.S — the core has only the multiply half of M: a divide is illegal and halts with cause 3, word = pc = 0x100 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a1, 7
    li   a2, 3
    mul  a3, a1, a2                  /* multiply is implemented */
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    div  a0, a1, a2
1:  j    1b
