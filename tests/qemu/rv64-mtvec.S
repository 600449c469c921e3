/* rv64-mtvec.S — once the firmware installs mtvec, traps go to it and do not halt the core: the
 * handler checks mcause = 11 (ECALL from M-mode) and mepc = 0x100, then exits 0 (else 0xE000000n). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    la   t0, handler
    csrw mtvec, t0
    j    9f                          /* over the fill up to 0x100 */
    .org 0x100
9:
    ecall
    EXIT_WITH 0xE0000009              /* not reached: ECALL does not return here */
    .balign 4
handler:
    csrr t0, mcause
    li   t1, 11
    li   a0, 0xE0000001
    bne  t0, t1, fail
    csrr t0, mepc
    li   t1, 0x100
    li   a0, 0xE0000002
    bne  t0, t1, fail
    EXIT_WITH 0
fail:
    li   t6, EXIT
    sd   a0, 0(t6)
1:  j    1b
