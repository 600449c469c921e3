/* rv32-ecall.S — ECALL halts with cause 1 and word = a0 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a0, 0x1234ABCD
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ecall
1:  j    1b
