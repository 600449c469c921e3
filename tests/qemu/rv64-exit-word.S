/* rv64-exit-word.S — the EXIT word is 64 bits wide (BOARD.md §5): reported verbatim, QEMU exits 1. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    EXIT_WITH 0x1122334455667788
