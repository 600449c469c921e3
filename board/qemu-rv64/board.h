/* board.h — qemu-rv64: the RV64 control processor under our QEMU machine kohaku-sysnode.
 * Every board difference lives here (docs/design.md §3); what both RV64 boards share is in
 * board/common/rv64.h. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "../common/rv64.h"

#define BOARD_NAME            "qemu-rv64"
#define BOARD_IS_QEMU         1

#endif
