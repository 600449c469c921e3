/* rv64-exit-word.S — the EXIT word is 64 bits wide (docs/hardware.md §5): reported verbatim with pc = 0x100 (the store), QEMU exits 1. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   t6, EXIT
    li   t5, 0x1122334455667788
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:  STX  t5, 0(t6)
1:  j    1b
