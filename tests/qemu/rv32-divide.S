/* rv32-divide.S — the core is RV32I only: a divide is illegal and halts with cause 3, word = pc
 * = 0x100 (docs/hardware.md §4). As .insn: the RV32I assembler refuses the mnemonic. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a1, 7
    li   a2, 3
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    .insn r 0x33, 4, 1, a0, a1, a2   /* div a0, a1, a2 */
1:  j    1b
