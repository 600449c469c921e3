/* rv64.h — what every board with the RV64 control processor shares: the processor's maps
 * (docs/hardware.md §5 via cpu_map.h), stack, agent coordinate, memory sizes and default
 * wait. Included by board/qemu-rv64/board.h and board/sysnode-rv64/board.h, which add only what
 * differs between QEMU and the real node. */
#ifndef KOHAKU_BOARD_COMMON_RV64_H
#define KOHAKU_BOARD_COMMON_RV64_H

#include "kohaku/cpu_map.h"

#define BOARD_VARIANT_RV64    1

#define BOARD_IMEM_BASE       RV64_IMEM_BASE
#define BOARD_IMEM_BYTES      RV64_IMEM_BYTES
#define BOARD_SPAD_BASE       RV64_SPAD_BASE
#define BOARD_SPAD_BYTES      RV64_SPAD_BYTES
/* Stack at the top of the scratchpad. 4 KB: the trap handler runs on it too (every trap
 * is fatal, so it never nests more than once). */
#define BOARD_STACK_BYTES     0x1000u

#define BOARD_AGENT_BASE      RV64_AGENT_BASE
#define BOARD_CTL_BASE        RV64_CTL_BASE
/* Console and exit: on QEMU our machine serves them; on the node its debug block does (same
 * registers). */
#define BOARD_CONSOLE_ADDR    (RV64_CTL_BASE + RV64_CTL_CONSOLE)
#define BOARD_EXIT_ADDR       (RV64_CTL_BASE + RV64_CTL_EXIT)

/* Memory of this mesh the processor reaches (docs/hardware.md §7 defaults): DRAM 4 GB (addresses 4-64 GB
 * decode but hit nothing), staging 2 MB. The command queue refuses data outside them. */
#define BOARD_DRAM_BYTES      0x100000000ull
#define BOARD_STAGING_BYTES   0x200000u
/* RV64 images never keep code in DRAM (docs/host-interface.md §2.1): nothing reserved. */
#define BOARD_FW_DRAM_OFFSET  0u
#define BOARD_FW_DRAM_BYTES   0u

/* The control agent's own mesh coordinate {y,x}: the src of every CU_CTRL request (docs/hardware.md
 * §1.1). The agent has no register that reports it; 0x10 is x 0, y 1 of the default map
 * (docs/model-mesh.md). */
#define BOARD_AGENT_YX        0x10u

/* Dispatch of one program to one target (dispatch/dispatch.c, docs/dispatch.md "One target"):
 * 1 = its own loop, kdp_stream (PROG_DST written once: the bench's <= 12 instructions a flit;
 * no byte pressure in RV64's 24 KB); 0 = through the several-target loop in "stream" mode. */
#define BOARD_DISPATCH_STREAM_LOOP 1

/* Straight paths for what the queue runs most (service/): the common submissions (NOP,
 * UNITS, STOP, DISPATCH to one target, REPLAY and RUN by handle) checked before the rule
 * rows (kq_check.c kq_sub_fast), a record's steps read in place (queue.c kq_run): 1 = yes
 * (RV64: it has the bytes, 24 KB); 0 = the rows alone, every step copied. */
#define BOARD_QUEUE_FAST 1

/* Straight paths in the mover's replay (mover/replay.c): it starts with one read of the
 * mover's status and waits for the mover to be idle only when it is busy (kmv_port.h
 * kmv_port_idle), and its body is inlined into each entry: 1 = yes (RV64: an inline load,
 * and bytes for a second copy of the loop); 0 = it always starts with the bounded wait, one
 * body for both entries. */
#define BOARD_MOVER_FAST 1

/* Records of descriptor lists (service/record.c, docs/service.md "Records"): 1 = kept as sealed
 * moves, each checked as the processor writes it into the mover, nothing read twice (RV64:
 * mover/rv64/sealed.c); 0 = kept as the list, its whole record summed before the command runs it. */
#define BOARD_REC_SEALED 1

/* Default per-wait timeout in processor cycles when the boot block gives none; the boot
 * block's wait_cycles (non-zero, checked) overrides it. */
#define BOARD_DEFAULT_WAIT_CYCLES 1000000u

#endif
