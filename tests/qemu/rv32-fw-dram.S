/* rv32-fw-dram.S — an RV32 image may carry a segment in the firmware-owned DRAM range (local
 * offset 0x40_0000, 64 KB; the core sees it cached at 0x8040_0000, docs/hardware.md §4): the loader
 * writes it to DRAM before the core runs, and the image reads its first and last words through
 * the cached window and prints them. The whole 64 KB is one segment (the range's full size). */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    li   s0, 0x80400000               /* DRAM local offset 0x40_0000, cached window */
    lw   s1, 0(s0)
    PUTHEX s1
    li   s0, 0x8040FFFC               /* the range's last word */
    lw   s1, 0(s0)
    PUTHEX s1
    EXIT_WITH 0

    .section .kvm_cold, "a"
    .word 0xC01DC0DE
    .space 0x10000 - 8
    .word 0x5EC0DE64
