/* board.h — sysnode-rv32: the RV32 control processor of the real system node.
 * Every board difference lives here (SYSTEM.md §3); maps from BOARD.md §4 via cpu_map.h. */
#ifndef KOHAKU_BOARD_H
#define KOHAKU_BOARD_H

#include "kohaku/cpu_map.h"

#define BOARD_NAME            "sysnode-rv32"
#define BOARD_VARIANT_RV32    1
#define BOARD_IS_QEMU         0

#define BOARD_IMEM_BASE       RV32_IMEM_BASE
#define BOARD_IMEM_BYTES      RV32_IMEM_BYTES
#define BOARD_SPAD_BASE       RV32_SPAD_BASE
#define BOARD_SPAD_BYTES      RV32_SPAD_BYTES
/* Stack at the top of the scratchpad. 1 KB: the firmware has no recursion and no large
 * locals (tables go to .noinit); the size report shows what is left. */
#define BOARD_STACK_BYTES     0x400u

#define BOARD_AGENT_BASE      RV32_AGENT_BASE
/* Hardware console/exit: the same local-control registers (BOARD.md §4, "ours"),
 * served on the node by its debug block. */
#define BOARD_CONSOLE_ADDR    (RV32_LCTL_BASE + RV32_LCTL_CONSOLE)
#define BOARD_EXIT_ADDR       (RV32_LCTL_BASE + RV32_LCTL_EXIT)

/* Default per-wait timeout in processor cycles when the boot block gives none; the boot
 * block's wait_cycles (non-zero, checked) overrides it. */
/* The control agent's own mesh coordinate {y,x}: the src of every CU_CTRL request (BOARD.md
 * §1.1). The agent has no register that reports it; 0x10 is x 0, y 1 of the default map
 * (docs/model-mesh.md). */
#define BOARD_AGENT_YX        0x10u

/* The command queue (service/queue.c) does not fit the 8 KB instruction window yet (with
 * dispatch/ and mover/ the image links to 11,568 bytes, `make size-rv32-queue`; issue 8
 * budget 7,168): this board's image reports ready and stops. docs/host-interface.md
 * "Status", docs/service.md "Size". */
#define BOARD_SERVICE_QUEUE   0

#define BOARD_DEFAULT_WAIT_CYCLES 1000000u

#endif
