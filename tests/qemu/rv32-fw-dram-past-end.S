/* rv32-fw-dram-past-end.S — a firmware-DRAM segment one word longer than the range (0x10004
 * bytes from 0x8040_0000, ending past 0x8041_0000): the loader refuses it and QEMU does not
 * start. The code never runs. */
#include "smoke.h"
    .section .text.start
    .globl _start
_start:
    EXIT_WITH 0

    .section .kvm_cold, "a"
    .space 0x10004
