/* agent_regs.h — the control agent ("orchestrator") register map, docs/hardware.md §1.
 * Offsets are the host's; the processor reaches the same offsets through its agent window
 * (docs/hardware.md §4: RV32 at 0x7000_0000, 32-bit halves; §5: RV64 at 0x0100_0000, 64-bit). */
#ifndef KOHAKU_AGENT_REGS_H
#define KOHAKU_AGENT_REGS_H

#include "bits.h"

#define KA_CTRL             0x0000u
#define KA_STATUS           0x0008u
#define KA_CAPS             0x0010u
#define KA_IRQ_STAT         0x0018u
#define KA_IRQ_EN           0x0020u
#define KA_PROG_DST         0x0040u
#define KA_PROG_LEN         0x0048u
#define KA_PROG_KICK        0x0050u
#define KA_PROG_STAT        0x0058u
#define KA_PROG_CRED        0x0060u
#define KA_PROG_BASE        0x0068u
#define KA_SIG_DONE         0x0070u
#define KA_AUX_STAT         0x0078u
#define KA_AUX_STATW(i)     (0x0080u + 8u * (i))          /* i = 0..15 */
#define KA_TX_FLIT(i)       (0x0100u + 8u * (i))          /* i = 0..4 */
#define KA_TX_KICK          0x0140u
#define KA_TX_STATUS        0x0148u
#define KA_RX_FLIT(i)       (0x0180u + 8u * (i))          /* i = 0..4 */
#define KA_RX_POP           0x01C0u
#define KA_RX_STATUS        0x01C8u
#define KA_AUX_CFG(moff)    (0x0800u + (moff))            /* host only; mover offset 0x00..0x7F */
#define KA_AUX_CFG_BASE     0x0800u
#define KA_AUX_CFG_END      0x0900u
#define KA_NODE_STATUS(yx)  (0x1000u + 8u * (yx))         /* yx = {y[3:0], x[3:0]} */
#define KA_NODE_STATUS_BASE 0x1000u
#define KA_STAGE_BASE       0x2000u
#define KA_STAGE_SLOT(s)    (KA_STAGE_BASE + 40u * (s))   /* one five-word flit per slot */
#define KA_STAGE_FLITS_DEFAULT 128u
#define KA_WINDOW_BYTES     0x4000u                       /* the processor's agent window */
#define KA_DECODE_MASK      0xFFFFu                       /* only [15:0] decode */

#define KA_STATUS_BUSY      KBF_BIT(0)
#define KA_STATUS_ERROR     KBF_BIT(1)
#define KA_STATUS_MESH_READY KBF_BIT(2)

#define KA_CAPS_FLIT_WIDTH  KBF_GENMASK(15, 0)
#define KA_CAPS_POS_WIDTH   KBF_GENMASK(23, 16)
#define KA_CAPS_GRID_LO     KBF_GENMASK(31, 24)
#define KA_CAPS_GRID_HI     KBF_GENMASK(39, 32)

#define KA_PROG_DST_X       KBF_GENMASK(3, 0)
#define KA_PROG_DST_Y       KBF_GENMASK(7, 4)
#define KA_PROG_LEN_N       KBF_GENMASK(15, 0)
#define KA_PROG_STAT_RUN    KBF_BIT(0)
#define KA_PROG_STAT_LEFT   KBF_GENMASK(16, 1)
#define KA_PROG_STAT_CRED   KBF_GENMASK(32, 17)
#define KA_PROG_CRED_N      KBF_GENMASK(15, 0)
#define KA_PROG_BASE_SLOT   KBF_GENMASK(15, 0)

#define KA_AUX_STAT_MOVES   KBF_GENMASK(63, 40)
#define KA_AUX_STAT_READS   KBF_GENMASK(39, 24)
#define KA_AUX_STAT_WRITES  KBF_GENMASK(23, 8)
#define KA_AUX_STAT_FAULT   KBF_GENMASK(7, 4)
#define KA_AUX_STAT_BUSY    KBF_BIT(0)

#define KA_TX_STATUS_FULL   KBF_BIT(16)
#define KA_RX_STATUS_EMPTY  KBF_BIT(16)
#define KA_RX_STATUS_OVERFLOW KBF_BIT(17)

#define KA_NS_CODE          KBF_GENMASK(63, 56)
#define KA_NS_ARG           KBF_GENMASK(55, 24)
#define KA_NS_COUNT         KBF_GENMASK(23, 8)
#define KA_NS_VALID         KBF_BIT(0)

#define KA_FIFO_DEPTH       16u      /* TX and RX FIFOs (docs/hardware.md §7) */
#define KA_TX_CAPACITY      17u      /* 16 in the FIFO plus the output stage (docs/hardware.md §1.1) */

#endif
