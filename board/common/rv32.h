/* rv32.h — what every board with the RV32 control processor shares: the processor's maps
 * (docs/hardware.md §4 via cpu_map.h), stack, agent coordinate, firmware DRAM range and default
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
 * (tables go to .noinit), but cold code (docs/kvm.md) nests: each entry into the interpreter
 * is a 672-byte kvm_call frame (register file 128, interpreted stack KVM_STACK_BYTES 464,
 * saves and arguments), and native code a cold function calls may enter it again. The deepest
 * chain is computed from the linked fw.elf at every build (scripts/stack-check.py, report in
 * fw.stack; the build fails when it does not fit): a DISPATCH's cold glue calling dispatch,
 * whose cold recovery waits natively and records a failure in cold code, three kvm_call frames
 * deep, then the fatal path (native: no fourth frame) — 2,512 bytes when it was
 * written. 3 KB holds it; e2e-coldguard-qemu-rv32/stack_high_water measures the real use after
 * a workload (1,792). */
#define BOARD_STACK_BYTES     0xC00u

/* The firmware's own DRAM (cold code, docs/host-interface.md §2.1): DRAM local offsets the
 * command queue refuses as data (service/kq_check.c kq_range: KS_BAD_ADDR). */
#define BOARD_FW_DRAM_OFFSET  KX_FW_DRAM_OFFSET
#define BOARD_FW_DRAM_BYTES   KX_FW_DRAM_BYTES

#define BOARD_AGENT_BASE      RV32_AGENT_BASE
/* Console and exit: on QEMU our machine serves them; on the node its debug block does (same
 * registers). */
#define BOARD_CONSOLE_ADDR    (RV32_LCTL_BASE + RV32_LCTL_CONSOLE)
#define BOARD_EXIT_ADDR       (RV32_LCTL_BASE + RV32_LCTL_EXIT)

/* The control agent's own mesh coordinate {y,x}: the src of every CU_CTRL request (docs/hardware.md
 * §1.1). The agent has no register that reports it; 0x10 is x 0, y 1 of the default map
 * (docs/model-mesh.md). */
#define BOARD_AGENT_YX        0x10u

/* Dispatch of one program to one target (dispatch/dispatch.c, docs/dispatch.md "One target"):
 * 0 = through the several-target loop in "stream" mode (one engine: the 8 KB window has no
 * room for a second loop); 1 = its own loop, kdp_stream (PROG_DST written once, fewer
 * instructions a flit). The same kicks either way (kdp_plan_kick's stream). */
#define BOARD_DISPATCH_STREAM_LOOP 0

/* Straight paths for what the queue runs most (service/): the common submissions (NOP,
 * UNITS, STOP, DISPATCH to one target, REPLAY and RUN by handle) checked before the rule
 * rows (kq_check.c kq_sub_fast), a record's steps read in place (queue.c kq_run): 1 = yes
 * (RV32: no window bytes for them); 0 = the rows alone, every step copied. */
#define BOARD_QUEUE_FAST 0

/* Straight paths in the mover's replay (mover/replay.c): it starts with one read of the
 * mover's status and waits for the mover to be idle only when it is busy (kmv_port.h
 * kmv_port_idle), and its body is inlined into each entry: 1 = yes; 0 = it always starts
 * with the bounded wait, one body for both entries (RV32: no window bytes for either). */
#define BOARD_MOVER_FAST 0

/* Records of descriptor lists (service/record.c, docs/service.md "Records"): 1 = kept as sealed
 * moves, each checked as the processor writes it into the mover (RV64); 0 = kept as the list,
 * its whole record summed before the command runs it (RV32: the mover reads the scratchpad
 * copy, and the window has no bytes for a second replay loop; docs/rv32-size.md). */
#define BOARD_REC_SEALED 0

/* Default per-wait timeout in processor cycles when the boot block gives none; the boot
 * block's wait_cycles (non-zero, checked) overrides it. */
#define BOARD_DEFAULT_WAIT_CYCLES 1000000u

#endif
