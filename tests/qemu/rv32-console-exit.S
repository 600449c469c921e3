/* rv32-console-exit.S — CONSOLE bytes reach stdout; EXIT 0 stops with state=exited word=0x0 and
 * QEMU exits 0 (docs/hardware.md §4 CONSOLE/EXIT, the run contract's stop line). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    PUTC 'k'
    PUTC 'o'
    PUTC 'h'
    PUTC 'a'
    PUTC 'k'
    PUTC 'u'
    PUTC '\n'
    EXIT_WITH 0
