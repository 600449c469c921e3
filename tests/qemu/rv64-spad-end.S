/* rv64-spad-end.S — the scratchpad ends at 32 KB: a load at 0x1_8000 is unassigned: cause 5, word = 0x18000, pc = 0x100. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, SPAD + 0x8000
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ld   a1, 0(t0)
1:  j    1b
