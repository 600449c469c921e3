/* rv64-imem-load.S — the instruction window is fetch only; with mtvec unset the load's access fault halts: cause 5, word = mtval = 0x40, pc = 0x100 (docs/hardware.md §5). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t0, IMEM + 0x40
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ld   a1, 0(t0)
1:  j    1b
