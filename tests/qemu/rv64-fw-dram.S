/* rv64-fw-dram.S — RV64 images never have a firmware-DRAM segment: one at 0x8040_0000 (the RV32
 * range's CPU address) is refused and QEMU does not start. The code never runs. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    EXIT_WITH 0

    .section .kvm_cold, "a"
    .word 0xC01DC0DE
