/* rv32-forge.S — the machine's private trap register cannot be used to forge a halt: a store to it without a trap faults like an unassigned address (cause 3, word = pc = 0x100). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, 0x0FFFF020
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    sw   zero, 0(t0)
1:  j    1b
