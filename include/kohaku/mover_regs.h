/* mover_regs.h — the memory mover's register map and fault codes, docs/hardware.md §3
 * (docs/hardware.md §3). Offsets are the mover's own: the host adds
 * KA_AUX_CFG_BASE, the RV32 descriptor form names them in [7:0], RV64 adds its window base. */
#ifndef KOHAKU_MOVER_REGS_H
#define KOHAKU_MOVER_REGS_H

#include "bits.h"

#define KMV_REG_CTRL         0x00u
#define KMV_REG_HDR          0x10u
#define KMV_REG_DIM          0x18u
#define KMV_REG_AXIS         0x20u
#define KMV_REG_BOUND        0x28u
#define KMV_REG_INDEX        0x30u
#define KMV_REG_SEED         0x38u
#define KMV_REG_IMM          0x40u
#define KMV_REG_GATHER       0x50u
#define KMV_REG_SPAN         0x80u      /* offsets 0x00..0x7F */
#define KMV_RV64_REACH_END   0x40u      /* RV64 reaches offsets 0x00..0x3F only */

#define KMV_CTRL_MODE        KBF_GENMASK(2, 0)
#define KMV_CTRL_WIDTH       KBF_GENMASK(4, 3)
#define KMV_CTRL_FLAGS       KBF_GENMASK(15, 8)
#define KMV_CTRL_FLAG_COALESCE KBF_BIT(11)
#define KMV_CTRL_GO          KBF_BIT(16)

#define KMV_HDR_WALKER       KBF_BIT(0)
#define KMV_HDR_BASE         KBF_GENMASK(43, 4)
#define KMV_HDR_NDIM         KBF_GENMASK(46, 44)
#define KMV_HDR_XFORM_ID     KBF_GENMASK(50, 47)
#define KMV_HDR_XFORM_MODE   KBF_GENMASK(58, 55)

#define KMV_DIM_WALKER       KBF_BIT(0)
#define KMV_DIM_INDEX        KBF_GENMASK(3, 1)
#define KMV_DIM_COUNT        KBF_GENMASK(19, 4)
#define KMV_DIM_STRIDE       KBF_GENMASK(51, 20)   /* signed, bytes */

#define KMV_AXIS_AXIS        KBF_GENMASK(1, 0)
#define KMV_AXIS_STEP        KBF_GENMASK(17, 2)    /* signed */

#define KMV_BOUND_WALKER     KBF_BIT(0)
#define KMV_BOUND_WHICH      KBF_BIT(1)
#define KMV_BOUND_BASE       KBF_GENMASK(17, 2)    /* signed */
#define KMV_BOUND_EXTENT     KBF_GENMASK(33, 18)   /* 0 disables */

#define KMV_INDEX_BASE       KBF_GENMASK(39, 0)
#define KMV_INDEX_COUNT      KBF_GENMASK(55, 40)
#define KMV_IMM_VALUE        KBF_GENMASK(31, 0)
#define KMV_GATHER_PITCH     KBF_GENMASK(31, 0)
#define KMV_GATHER_WORDS     KBF_GENMASK(47, 32)

#define KMV_WALK_SRC         0u
#define KMV_WALK_DST         1u
#define KMV_MAX_DIMS         6u
#define KMV_WORD_BYTES       32u
#define KMV_MAX_INDICES      2048u

enum kmv_mode {
    KMV_MODE_COPY = 0, KMV_MODE_TRANSPOSE = 1, KMV_MODE_GATHER = 2,
    KMV_MODE_GENERATE = 3, KMV_MODE_FILL = 4, KMV_MODE_XFORM = 5,
};

enum kmv_width { KMV_WIDTH_8 = 0, KMV_WIDTH_16 = 1, KMV_WIDTH_32 = 2, KMV_WIDTH_BAD = 3 };

enum kmv_fault {
    KMV_FAULT_NONE = 0, KMV_FAULT_INDEX_LEN = 1, KMV_FAULT_RANGE = 2, KMV_FAULT_AXI = 3,
    KMV_FAULT_MODE = 4, KMV_FAULT_WIDTH = 5, KMV_FAULT_ALIGN = 6, KMV_FAULT_XFORM_BOUND = 7,
};

#endif
