/* rv64-unassigned.S — an unassigned address (0x300_0000) faults; mtvec unset halts: cause 5, word = 0x3000000, pc = 0x100. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, UNASSIGNED
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ld   a1, 0(t0)
1:  j    1b
