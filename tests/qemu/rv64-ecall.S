/* rv64-ecall.S — ECALL with mtvec unset halts: cause 11, word = mtval = 0, pc = 0x100 (docs/hardware.md §5). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a0, 0x77
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ecall
1:  j    1b
