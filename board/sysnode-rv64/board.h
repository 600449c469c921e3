/* board.h — sysnode-rv64: the RV64 control processor of the real system node.
 * Every board difference lives here (docs/design.md §3); what both RV64 boards share is in
 * board/common/rv64.h. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "../common/rv64.h"

#define BOARD_NAME            "sysnode-rv64"
#define BOARD_IS_QEMU         0

#endif
