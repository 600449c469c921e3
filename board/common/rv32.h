/* rv32.h — what every board with the RV32 control processor shares: the processor's maps
 * (BOARD.md §4 via cpu_map.h), stack, agent coordinate, queue service switch and default
 * wait. Included by board/qemu-rv32/board.h and board/sysnode-rv32/board.h, which add only what
 * differs between QEMU and the real node. */
#ifndef KOHAKU_BOARD_COMMON_RV32_H
#define KOHAKU_BOARD_COMMON_RV32_H

#include "kohaku/cpu_map.h"

#define BOARD_VARIANT_RV32    1

#define BOARD_IMEM_BASE       RV32_IMEM_BASE
#define BOARD_IMEM_BYTES      RV32_IMEM_BYTES
#define BOARD_SPAD_BASE       RV32_SPAD_BASE
#define BOARD_SPAD_BYTES      RV32_SPAD_BYTES
/* Stack at the top of the scratchpad. The firmware has no recursion and no large locals
 * (tables go to .noinit). 1,280: the deepest chain (-fstack-usage, -fcallgraph-info, docs/kvm.md
 * "Stack") is main 16 + kq_serve 224 + kq_steps_check 160 + kq_rules 112 + kmv_validate's
 * stub 0 + kvm_call 640 (register file 128, interpreted stack KVM_STACK_BYTES 448, saves 48,
 * kx_fatal's stack argument 16), and on a bad cold encoding kx_fatal 80 + the queue's fatal
 * hook 32 = 1,264.
 * Natively (before cold code) the same chain was 848 of 1,024. The size report shows what is
 * left. */
#define BOARD_STACK_BYTES     0x500u

/* The firmware's own DRAM (cold code, docs/host-interface.md §2.1): DRAM local offsets the
 * command queue refuses as data (service/kq_check.c kq_range: KS_BAD_ADDR). */
#define BOARD_FW_DRAM_OFFSET  KX_FW_DRAM_OFFSET
#define BOARD_FW_DRAM_BYTES   KX_FW_DRAM_BYTES

#define BOARD_AGENT_BASE      RV32_AGENT_BASE
/* Console and exit: on QEMU our machine serves them; on the node its debug block does (same
 * registers). */
#define BOARD_CONSOLE_ADDR    (RV32_LCTL_BASE + RV32_LCTL_CONSOLE)
#define BOARD_EXIT_ADDR       (RV32_LCTL_BASE + RV32_LCTL_EXIT)

/* Default per-wait timeout in processor cycles when the boot block gives none; the boot
 * block's wait_cycles (non-zero, checked) overrides it. */
/* The control agent's own mesh coordinate {y,x}: the src of every CU_CTRL request (BOARD.md
 * §1.1). The agent has no register that reports it; 0x10 is x 0, y 1 of the default map
 * (docs/model-mesh.md). */
#define BOARD_AGENT_YX        0x10u

/* The command queue (service/queue.c) does not fit the 8 KB instruction window yet (with
 * dispatch/ and mover/ the image links to 10,224 bytes with validation and enumeration as
 * cold code, `make size-rv32-queue`; issue 8 budget 7,168): this board's image reports ready and stops. docs/host-interface.md
 * "Status", docs/service.md "Size". */
#define BOARD_SERVICE_QUEUE   0

#define BOARD_DEFAULT_WAIT_CYCLES 1000000u

#endif
