/* rv64-imem-store.S — a store to the instruction window takes a store access fault; mtvec unset halts: cause 7, word = 0x48, pc = 0x100. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, IMEM + 0x48
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    sd   t0, 0(t0)
1:  j    1b
