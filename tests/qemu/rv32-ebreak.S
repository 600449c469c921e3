/* rv32-ebreak.S — EBREAK halts with cause 2 and word = a0 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a0, 0x0BADF00D
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ebreak
1:  j    1b
