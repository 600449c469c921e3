/* rv32-exit-word.S — a non-zero EXIT word is reported verbatim with pc = 0x100 (the store) and QEMU exits 1. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t6, EXIT
    li   t5, 0xC0FFEE01
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:  STX  t5, 0(t6)
1:  j    1b
