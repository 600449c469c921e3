/* rv32-fetch-spad.S — the core fetches only from its instruction window: jumping to the scratchpad halts with cause 3, word = pc = 0x1000_0000 (the faulting fetch). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, SPAD
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    jr   t0
1:  j    1b
