/* rv32-bootblock.S — the bootblock=FILE property puts the file at the start of the scratchpad
 * before the hart starts: exit with the first scratchpad word. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, SPAD
    lw   a0, 0(t0)
    li   t6, EXIT
    sw   a0, 0(t6)
1:  j    1b
