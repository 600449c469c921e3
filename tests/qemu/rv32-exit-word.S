/* rv32-exit-word.S — a non-zero EXIT word is reported verbatim and QEMU exits 1. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    EXIT_WITH 0xC0FFEE01
