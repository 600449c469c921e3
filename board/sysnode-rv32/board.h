/* board.h — sysnode-rv32: the RV32 control processor of the real system node.
 * Every board difference lives here (docs/design.md §3); what both RV32 boards share is in
 * board/common/rv32.h. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "../common/rv32.h"

#define BOARD_NAME            "sysnode-rv32"
#define BOARD_IS_QEMU         0

#endif
