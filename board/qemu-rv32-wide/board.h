/* board.h — qemu-rv32-wide: DEVELOPMENT ONLY, not a product board (not in BOARDS; `make` and
 * `make test` never build it). The qemu-rv32 image as it will be once the command queue fits
 * (BOARD_SERVICE_QUEUE 1), linked into a 16 KB instruction window that our QEMU provides with
 * -M kohaku-sysnode,imem=16K (docs/qemu.md "Wide RV32 window"). It lets the RV32 end-to-end
 * suites run against a serving RV32 image today: `make test-rv32-wide` (docs/firmware.md).
 * Everything else is qemu-rv32's, BOARD_NAME included, so the image behaves as the product
 * image will; BOARD.md §4's 8 KB stays the default everywhere else. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "../common/rv32.h"

/* 16 KB: the smallest power of two (one NAPOT PMP region in the QEMU glue) above the 11,460
 * bytes of `make size-rv32-queue`. */
#undef  BOARD_IMEM_BYTES
#define BOARD_IMEM_BYTES      0x4000u
#undef  BOARD_SERVICE_QUEUE
#define BOARD_SERVICE_QUEUE   1

#define BOARD_NAME            "qemu-rv32"
#define BOARD_IS_QEMU         1

#endif
