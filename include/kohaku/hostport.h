/* hostport.h — the host port: the wire protocol between a host (kactl, tests) and the
 * kohaku-sysnode machine, standing in for the PCIe/JTAG window of docs/hardware.md §6. Ours;
 * docs/model.md §6 describes it. Little-endian throughout. Version 1. */
#ifndef KOHAKU_HOSTPORT_H
#define KOHAKU_HOSTPORT_H

#include <stddef.h>
#include <stdint.h>
#include "bits.h"

#define KHP_VERSION          1u
#define KHP_MAGIC            0x4B485031u     /* "KHP1", returned by HELLO */
#define KHP_MAX_DATA         (1u << 20)       /* bytes in one READ or WRITE */

/* Every request is a 16-byte header, followed by len data bytes for WRITE. */
struct khp_req {
    uint8_t  op;            /* enum khp_op */
    uint8_t  width;         /* 0: bytes (memory, load paths); 4 or 8: one register access */
    uint16_t tag;           /* echoed */
    uint32_t len;           /* data bytes (READ: wanted; WRITE: following) */
    uint64_t addr;          /* outside address, below */
};
/* Every reply is a 16-byte header, followed by len data bytes for a successful READ. */
struct khp_rep {
    uint8_t  op;            /* the request's op */
    uint8_t  status;        /* enum khp_status */
    uint16_t tag;
    uint32_t len;
    uint64_t value;         /* HELLO: KHP_MAGIC | version << 32; register READ: the value */
};
_Static_assert(sizeof(struct khp_req) == 16 && offsetof(struct khp_req, addr) == 8, "khp_req");
_Static_assert(sizeof(struct khp_rep) == 16 && offsetof(struct khp_rep, value) == 8, "khp_rep");

enum khp_op {
    KHP_OP_HELLO = 1,
    KHP_OP_READ = 2,
    KHP_OP_WRITE = 3,
};

enum khp_status {
    KHP_OK = 0,
    KHP_E_OP = 1,           /* unknown op */
    KHP_E_ADDR = 2,         /* nothing at that outside address */
    KHP_E_LEN = 3,          /* zero, too long, or runs past the region */
    KHP_E_ALIGN = 4,        /* misaligned for its region or width */
    KHP_E_WIDTH = 5,        /* width not allowed for the region */
    KHP_E_RUNNING = 6,      /* load path written while the core is not held */
};

/* Outside address map (docs/hardware.md §6; "ours" where marked). */
#define KHP_AGENT_BASE       UINT64_C(0x00000000)   /* agent registers, §1 offsets, width 8 */
#define KHP_AGENT_END        UINT64_C(0x00010000)
#define KHP_CPU_BASE         UINT64_C(0x00010000)   /* ours: processor host registers, width 8 */
#define KHP_CPU_END          UINT64_C(0x00010100)
#define KHP_IMEM_BASE        UINT64_C(0x00100000)   /* ours: instruction-window load path */
#define KHP_SPAD_BASE        UINT64_C(0x00200000)   /* ours: scratchpad load path (and read) */
#define KHP_MODEL_BASE       UINT64_C(0x00300000)   /* ours: referee counters, fault injection */
#define KHP_MODEL_END        UINT64_C(0x00301000)
#define KHP_MEM(mesh, ug)    ((((uint64_t)(mesh) + 1u) << 40) | ((uint64_t)(ug) & KF_UG_MASK_HP))
#define KF_UG_MASK_HP        KBF_GENMASK(39, 0)

/* Processor host registers at KHP_CPU_BASE + offset. */
#define KHP_CPU_CTRL         0x00u    /* W: [0] hold (1 holds the core in reset; 0 releases it from PC 0) */
#define KHP_CPU_STATE        0x08u    /* R: [1:0] enum khp_cpu_state, [15:8] halt cause */
#define KHP_CPU_EXIT_WORD    0x10u    /* R: the exit or halt word */
#define KHP_CPU_HALT_PC      0x18u    /* R: PC of the halting instruction */
#define KHP_CPU_CYCLES       0x20u    /* R: processor cycles since release */
#define KHP_CPU_INSTRET      0x28u    /* R: instructions retired since release */
#define KHP_CPU_VARIANT      0x30u    /* R: 32 or 64 */
#define KHP_CPU_NOW_NS       0x38u    /* R: the model's virtual time in ns */
#define KHP_CPU_CTRL_HOLD    KBF_BIT(0)
#define KHP_CPU_STATE_STATE  KBF_GENMASK(1, 0)
#define KHP_CPU_STATE_CAUSE  KBF_GENMASK(15, 8)

/* Model registers at KHP_MODEL_BASE + offset (ours; docs/model.md "Host port", "Fault
 * injection"), width 8. 0x00-0x38: the referee counters, read-only, in km_referee order
 * (credit_violations, bad_reg_writes, busy_go, cpu_aux_cfg_writes, stage_oob_writes,
 * kick_while_running, stage_overrun, rx_dropped). 0x40-0x60: fault injection, written by the
 * host: set UNIT, N and ARG, then write the kind to ARM; CLEAR disarms every item. */
#define KHP_MODEL_REFEREE    0x00u    /* R: 8 counters, 8 bytes apart */
#define KHP_MODEL_INJ_UNIT   0x40u    /* RW: [7:0] x, [15:8] y of the unit an item arms */
#define KHP_MODEL_INJ_N      0x48u    /* RW: [31:0] n: the n-th event from arming (0: every one) */
#define KHP_MODEL_INJ_ARG    0x50u    /* RW: [31:0] fault code (FAULT), factor (SLOW), cycles (CTRL_LATE) */
#define KHP_MODEL_INJ_ARM    0x58u    /* W: [7:0] enum khp_inj_kind: arms it (KHP_E_ADDR: no unit, bad kind);
                                       * R: the number of items armed through the host port */
#define KHP_MODEL_INJ_CLEAR  0x60u    /* W: any value disarms every item (unit and mover) */
#define KHP_INJ_UNIT_X       KBF_GENMASK(7, 0)
#define KHP_INJ_UNIT_Y       KBF_GENMASK(15, 8)

enum khp_inj_kind {
    KHP_INJ_FAULT = 1,       /* the unit's n-th instruction retires as FAULT with ARG */
    KHP_INJ_HANG = 2,        /* the unit's n-th instruction never retires */
    KHP_INJ_DROP = 3,        /* the unit's n-th completion signal is never sent */
    KHP_INJ_SLOW = 4,        /* every unit cycle lasts ARG cycles (N ignored) */
    KHP_INJ_CTRL_LATE = 5,   /* every CU_CTRL reply leaves ARG unit cycles late (N ignored) */
    KHP_INJ_CTRL_MUTE = 6,   /* the unit's n-th CU_CTRL request is never answered */
    KHP_INJ_AXI = 7,         /* the mover's n-th memory access returns an AXI error (UNIT ignored) */
};

enum khp_cpu_state {
    KHP_CPU_HELD = 0,
    KHP_CPU_RUNNING = 1,
    KHP_CPU_HALTED = 2,      /* RV32 halt (ECALL, EBREAK, fault), or RV64 trap with mtvec unset */
    KHP_CPU_EXITED = 3,      /* the EXIT register was written */
};

#endif
