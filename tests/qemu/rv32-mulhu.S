/* rv32-mulhu.S — the core is RV32I only (docs/hardware.md §4): MULHU, the high half of a multiply, is
 * illegal too and halts with cause 3, word = pc = 0x100. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a1, 7
    li   a2, 3
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    .insn r 0x33, 3, 1, a0, a1, a2   /* mulhu a0, a1, a2 */
1:  j    1b
