/* rv64-fetch-spad.S — the core fetches only from its instruction window: jumping to the scratchpad is an instruction access fault; mtvec unset halts: cause 1, word = pc = 0x10000. */
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
