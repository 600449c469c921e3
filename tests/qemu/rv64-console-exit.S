/* rv64-console-exit.S — CONSOLE (control region 0x08) bytes reach stdout; EXIT (0x00) with 0
 * stops with state=exited word=0x0 and QEMU exits 0 (docs/hardware.md §5, the run contract). */
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
