/* rv32-illegal.S — an illegal instruction (the all-zero word) halts with cause 3, word = pc = 0x100 (docs/hardware.md §4). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    nop
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    .word 0x00000000
1:  j    1b
