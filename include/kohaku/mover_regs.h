/* mover_regs.h — the memory mover's register map and fault codes, docs/hardware.md §3
 * (docs/hardware.md §3). Offsets are the mover's own: the host adds
 * KA_AUX_CFG_BASE, the RV32 descriptor form names them in [7:0], RV64 adds its window base. */
#ifndef KOHAKU_MOVER_REGS_H
#define KOHAKU_MOVER_REGS_H

#include "bits.h"

#define KM_REG_CTRL         0x00u
#define KM_REG_HDR          0x10u
#define KM_REG_DIM          0x18u
#define KM_REG_AXIS         0x20u
#define KM_REG_BOUND        0x28u
#define KM_REG_INDEX        0x30u
#define KM_REG_SEED         0x38u
#define KM_REG_IMM          0x40u
#define KM_REG_GATHER       0x50u
#define KM_REG_SPAN         0x80u      /* offsets 0x00..0x7F */
#define KM_RV64_REACH_END   0x40u      /* RV64 reaches offsets 0x00..0x3F only */

#define KM_CTRL_MODE        KH_GENMASK(2, 0)
#define KM_CTRL_WIDTH       KH_GENMASK(4, 3)
#define KM_CTRL_FLAGS       KH_GENMASK(15, 8)
#define KM_CTRL_FLAG_COALESCE KH_BIT(11)
#define KM_CTRL_GO          KH_BIT(16)

#define KM_HDR_WALKER       KH_BIT(0)
#define KM_HDR_BASE         KH_GENMASK(43, 4)
#define KM_HDR_NDIM         KH_GENMASK(46, 44)
#define KM_HDR_XFORM_ID     KH_GENMASK(50, 47)
#define KM_HDR_XFORM_MODE   KH_GENMASK(58, 55)

#define KM_DIM_WALKER       KH_BIT(0)
#define KM_DIM_INDEX        KH_GENMASK(3, 1)
#define KM_DIM_COUNT        KH_GENMASK(19, 4)
#define KM_DIM_STRIDE       KH_GENMASK(51, 20)   /* signed, bytes */

#define KM_AXIS_AXIS        KH_GENMASK(1, 0)
#define KM_AXIS_STEP        KH_GENMASK(17, 2)    /* signed */

#define KM_BOUND_WALKER     KH_BIT(0)
#define KM_BOUND_WHICH      KH_BIT(1)
#define KM_BOUND_BASE       KH_GENMASK(17, 2)    /* signed */
#define KM_BOUND_EXTENT     KH_GENMASK(33, 18)   /* 0 disables */

#define KM_INDEX_BASE       KH_GENMASK(39, 0)
#define KM_INDEX_COUNT      KH_GENMASK(55, 40)
#define KM_IMM_VALUE        KH_GENMASK(31, 0)
#define KM_GATHER_PITCH     KH_GENMASK(31, 0)
#define KM_GATHER_WORDS     KH_GENMASK(47, 32)

#define KM_WALK_SRC         0u
#define KM_WALK_DST         1u
#define KM_MAX_DIMS         6u
#define KM_WORD_BYTES       32u
#define KM_MAX_INDICES      2048u

enum km_mode {
    KM_MODE_COPY = 0, KM_MODE_TRANSPOSE = 1, KM_MODE_GATHER = 2,
    KM_MODE_GENERATE = 3, KM_MODE_FILL = 4, KM_MODE_XFORM = 5,
};

enum km_width { KM_WIDTH_8 = 0, KM_WIDTH_16 = 1, KM_WIDTH_32 = 2, KM_WIDTH_BAD = 3 };

enum km_fault {
    KM_FAULT_NONE = 0, KM_FAULT_INDEX_LEN = 1, KM_FAULT_RANGE = 2, KM_FAULT_AXI = 3,
    KM_FAULT_MODE = 4, KM_FAULT_WIDTH = 5, KM_FAULT_ALIGN = 6, KM_FAULT_XFORM_BOUND = 7,
};

#endif
