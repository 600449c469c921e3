/* flit.h — the 288-bit flit as five 64-bit words (docs/hardware.md §2) and the header, type, signal
 * and payload fields of docs/hardware.md §2.1–§2.5 at the reference build (FLIT_WIDTH 288,
 * POS_WIDTH 4). Shared by firmware, model and host tools; tests/host pins every field with
 * literal bit positions from the seed. */
#ifndef KOHAKU_FLIT_H
#define KOHAKU_FLIT_H

#include "bits.h"

/* Five-word form: words 0..3 hold payload [255:0] (word 0 = [63:0]); word 4 [31:0] the header. */
#define KF_WORDS            5u
#define KF_BYTES            40u
#define KF_HDR_WORD         4u

/* Header [31:0] = flit bits [287:256]. */
#define KF_HDR_DST_X        KBF_GENMASK(31, 28)
#define KF_HDR_DST_Y        KBF_GENMASK(27, 24)
#define KF_HDR_SRC_X        KBF_GENMASK(23, 20)
#define KF_HDR_SRC_Y        KBF_GENMASK(19, 16)
#define KF_HDR_TYPE         KBF_GENMASK(15, 12)
#define KF_HDR_TXN          KBF_GENMASK(11, 4)
#define KF_HDR_LAST         KBF_BIT(3)
#define KF_HDR_RSVD         KBF_GENMASK(2, 0)

/* Message types (docs/hardware.md §2.3). */
#define KF_T_MEM_RD_REQ     0x0u
#define KF_T_MEM_WR_REQ     0x1u
#define KF_T_MEM_RD_RESP    0x2u
#define KF_T_MEM_WR_ACK     0x3u
#define KF_T_MEM_WR_DATA    0x4u
#define KF_T_CU_INST        0x5u
#define KF_T_CU_SIGNAL      0x6u
#define KF_T_CU_CTRL        0x7u
#define KF_T_CU_DATA        0x8u
#define KF_T_ERROR          0xFu
#define KF_T_IS_MEM(t)      ((t) <= 0x4u)

/* CU_SIGNAL codes (docs/hardware.md §2.5). */
#define KF_SIG_INST_COMPLETE   0x00u
#define KF_SIG_BATCH_COMPLETE  0x01u
#define KF_SIG_BARRIER_REACHED 0x02u
#define KF_SIG_DATA_RECEIVED   0x03u
#define KF_SIG_FAULT           0x04u
#define KF_SIG_UNIT_FIRST      0x40u

/* Payload fields, as masks within payload word 3 (= payload [255:192]) unless named otherwise.
 * CU_SIGNAL (§4.6): code [255:248], arg [247:216]. */
#define KF_W3_SIG_CODE      KBF_GENMASK(63, 56)
#define KF_W3_SIG_ARG       KBF_GENMASK(55, 24)
/* CU_CTRL (§4.8): op [255:248], index [247:240], value [239:176] straddles words 3 and 2:
 * value[63:48] = word 3 [47:32]... see kf_ctrl_value_get/prep below. */
#define KF_W3_CTRL_OP       KBF_GENMASK(63, 56)
#define KF_W3_CTRL_INDEX    KBF_GENMASK(55, 48)
#define KF_W3_CTRL_VALUE_HI KBF_GENMASK(47, 0)   /* value [63:16] */
#define KF_W2_CTRL_VALUE_LO KBF_GENMASK(63, 48)  /* value [15:0]  */
#define KF_CTRL_OP_READ     0x00u
#define KF_CTRL_OP_WRITE    0x01u
#define KF_CTRL_OP_REPLY    0x02u
/* CU_CTRL indices and CU_CAPS / CU_STATUS / CU_COUNTERS fields (docs/hardware.md §1). */
#define KF_CTRL_CU_CAPS     0u
#define KF_CTRL_CU_STATUS   1u
#define KF_CTRL_CU_COUNTERS 2u
#define KF_CTRL_CU_DBG      3u
#define KF_CAPS_TYPE        KBF_GENMASK(63, 48)
#define KF_CAPS_VERSION     KBF_GENMASK(47, 40)
#define KF_CAPS_BUFFERS     KBF_GENMASK(39, 36)
#define KF_CAPS_INST_DEPTH  KBF_GENMASK(35, 20)
#define KF_STATUS_BUSY      KBF_BIT(63)
#define KF_STATUS_FREE      KBF_GENMASK(47, 32)
#define KF_COUNTERS_RETIRED KBF_GENMASK(63, 32)
#define KF_COUNTERS_BUSY    KBF_GENMASK(31, 0)

/* MEM_RD_REQ / MEM_WR_REQ descriptor (§4.1), within payload word 3 and word 2. */
#define KF_W3_MEM_ADDR      KBF_GENMASK(63, 24)  /* [255:216] */
#define KF_W3_MEM_LEN       KBF_GENMASK(23, 16)  /* [215:208] */
#define KF_W3_MEM_FLAGS     KBF_GENMASK(15, 8)   /* [207:200] */
#define KF_W3_MEM_COUNT     KBF_GENMASK(7, 0)    /* [199:192] */
#define KF_W2_MEM_PEER      KBF_GENMASK(63, 40)  /* [191:168] */
#define KF_W2_MEM_NPEER     KBF_GENMASK(39, 38)  /* [167:166] */
#define KF_W2_MEM_ENTRY_WORDS KBF_GENMASK(37, 30) /* [165:158] */
#define KF_MEM_FLAG_STREAM  KBF_BIT(6)

/* CU_DATA descriptor (§4.7), payload word 3. */
#define KF_W3_DATA_BUF_ID   KBF_GENMASK(63, 56)
#define KF_W3_DATA_OFFSET   KBF_GENMASK(55, 40)
#define KF_W3_DATA_LEN      KBF_GENMASK(39, 32)
#define KF_W3_DATA_FLAGS    KBF_GENMASK(31, 24)
#define KF_W3_DATA_ACK_Y    KBF_GENMASK(23, 20)
#define KF_W3_DATA_ACK_X    KBF_GENMASK(19, 16)

/* A unit's opcode by convention: payload [255:252] = word 3 [63:60]. */
#define KF_W3_OPCODE        KBF_GENMASK(63, 60)

/* Unit-global 40-bit address (docs/hardware.md §0). */
#define KF_UG_APERTURE      KBF_BIT(39)
#define KF_UG_RESERVED      KBF_BIT(38)
#define KF_UG_MESH          KBF_GENMASK(37, 36)
#define KF_UG_APERTURE_IDX  KBF_GENMASK(35, 32)
#define KF_UG_LOCAL         KBF_GENMASK(35, 0)
#define KF_UG_MASK          KBF_GENMASK(39, 0)

struct kf_flit {
    uint64_t w[KF_WORDS];     /* w[0..3] payload, w[4] header in [31:0] */
};

static inline uint32_t kf_hdr(unsigned dst_x, unsigned dst_y, unsigned src_x, unsigned src_y,
                              unsigned type, unsigned txn, unsigned last)
{
    return (uint32_t)(KBF_FIELD_PREP(KF_HDR_DST_X, dst_x) | KBF_FIELD_PREP(KF_HDR_DST_Y, dst_y) |
                      KBF_FIELD_PREP(KF_HDR_SRC_X, src_x) | KBF_FIELD_PREP(KF_HDR_SRC_Y, src_y) |
                      KBF_FIELD_PREP(KF_HDR_TYPE, type) | KBF_FIELD_PREP(KF_HDR_TXN, txn) |
                      KBF_FIELD_PREP(KF_HDR_LAST, last ? 1u : 0u));
}

static inline uint64_t kf_ctrl_value_get(const struct kf_flit *f)
{
    return (KBF_FIELD_GET(KF_W3_CTRL_VALUE_HI, f->w[3]) << 16) | KBF_FIELD_GET(KF_W2_CTRL_VALUE_LO, f->w[2]);
}

static inline void kf_ctrl_value_put(struct kf_flit *f, uint64_t v)
{
    f->w[3] = (f->w[3] & ~KF_W3_CTRL_VALUE_HI) | KBF_FIELD_PREP(KF_W3_CTRL_VALUE_HI, v >> 16);
    f->w[2] = (f->w[2] & ~KF_W2_CTRL_VALUE_LO) | KBF_FIELD_PREP(KF_W2_CTRL_VALUE_LO, v & 0xFFFFu);
}

#endif
