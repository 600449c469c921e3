/* rv32-mul.S — the core is RV32I only (docs/hardware.md §4): a multiply is illegal and halts with
 * cause 3, word = pc = 0x100, exactly as the divide does, whatever -cpu says (the machine forces
 * M and Zmmul off). As .insn: the RV32I assembler refuses the mnemonic. Before it, the same
 * registers through ADD, so the halt is the multiply's and not an earlier one's. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   a1, 7
    li   a2, 3
    add  a3, a1, a2
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    .insn r 0x33, 0, 1, a0, a1, a2   /* mul a0, a1, a2 */
1:  j    1b
