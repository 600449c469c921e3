/* board.h — qemu-rv32: the RV32 control processor under our QEMU machine kohaku-sysnode.
 * Every board difference lives here (docs/design.md §3); what both RV32 boards share is in
 * board/common/rv32.h. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "../common/rv32.h"

#define BOARD_NAME            "qemu-rv32"
#define BOARD_IS_QEMU         1

#endif
