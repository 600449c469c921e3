/* rv32-instret.S — INSTRET (local control 0x1C) counts retired instructions: between two reads
 * around a 1000-iteration two-instruction loop it advances by exactly 1 + 2000 + 1 = 2002
 * (the li, the loop, the second load). Prints both reads and CYCLE in hex; the runner checks the
 * difference and that two -icount runs print the same text. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   s2, LCTL
    lw   s0, 0x1C(s2)
    li   t1, 1000
1:  addi t1, t1, -1
    bnez t1, 1b
    lw   s1, 0x1C(s2)
    lw   s3, 0x18(s2)
    PUTHEX s0
    PUTHEX s1
    PUTHEX s3
    EXIT_WITH 0
