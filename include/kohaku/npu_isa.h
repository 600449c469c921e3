/* npu_isa.h — encoders for the NPU (NP) instruction set of docs/hardware.md §9
 * (docs/hardware.md §9) and the conventions the model chose where the seed is silent (docs/npu.md).
 * Pure static inline functions, freestanding: usable by firmware, host tools, model and tests.
 *
 * An NP instruction is 64 bits: opcode [63:60], body [59:0]. In a CU_INST flit it is payload
 * [255:192] = payload word 3 (docs/hardware.md §2), so body bit b is word-3 bit b; payload words 0..2
 * are not read by the NPU and are sent as zero. */
#ifndef KOHAKU_NPU_ISA_H
#define KOHAKU_NPU_ISA_H

#include <stdint.h>
#include "bits.h"

/* Opcodes (seed §1–§4). 0x5–0xF are reserved and retire as NP_FAULT_OPCODE. */
#define NP_OP_GEMV              0x0u
#define NP_OP_GEMM              0x1u
#define NP_OP_MEMCPY            0x2u
#define NP_OP_MEMSET            0x3u
#define NP_OP_CVO               0x4u

#define NP_W_OPCODE             KBF_GENMASK(63, 60)

/* GEMV / GEMM (seed §1). */
#define NP_GEMX_DEST            KBF_GENMASK(59, 43)   /* L2 line address of the result */
#define NP_GEMX_SRC             KBF_GENMASK(42, 26)   /* L2 line address of the activation */
#define NP_GEMX_FLAGS           KBF_GENMASK(25, 20)
#define NP_GEMX_SIZE_PTR        KBF_GENMASK(19, 14)   /* weight_shape entry: weights */
#define NP_GEMX_SHAPE_PTR       KBF_GENMASK(13, 8)    /* fmap_shape entry: (M, N, K) */
#define NP_GEMX_LANES           KBF_GENMASK(7, 3)     /* 0 = all 32 lanes */
#define NP_GEMX_RSVD            KBF_GENMASK(2, 0)
#define NP_GF_FINDEMAX          0x20u                /* flags [5] */
#define NP_GF_ACCM              0x10u                /* flags [4] */
#define NP_GF_W_SCALE           0x08u                /* flags [3] */
#define NP_GF_RSVD              0x07u                /* flags [2:0] */

/* MEMCPY (seed §2). from/to: 0 = NPU L2, 1 = host (node DRAM). */
#define NP_MC_FROM_HOST         KBF_BIT(59)
#define NP_MC_TO_HOST           KBF_BIT(58)
#define NP_MC_DEST              KBF_GENMASK(57, 41)
#define NP_MC_SRC               KBF_GENMASK(40, 24)
#define NP_MC_AUX               KBF_GENMASK(23, 7)    /* host offset in 32-byte lines */
#define NP_MC_SHAPE_PTR         KBF_GENMASK(6, 1)     /* fmap_shape entry: (rows, elems, stride) */
#define NP_MC_ASYNC             KBF_BIT(0)

/* MEMSET (seed §3). */
#define NP_MS_CACHE             KBF_GENMASK(59, 58)
#define NP_MS_INDEX             KBF_GENMASK(57, 52)
#define NP_MS_A                 KBF_GENMASK(51, 36)
#define NP_MS_B                 KBF_GENMASK(35, 20)
#define NP_MS_C                 KBF_GENMASK(19, 4)
#define NP_MS_RSVD              KBF_GENMASK(3, 0)
#define NP_CACHE_FMAP           0u   /* fmap_shape: GEMx (M, N, K); MEMCPY (rows, elems, stride) */
#define NP_CACHE_WEIGHT         1u   /* weight_shape: (weight L2 addr / 2, scale FP16, stride) */
#define NP_CACHE_SCALAR         2u   /* ours: the scalar registers below; 3 is reserved */
#define NP_SCALAR_HOST_BASE     0u   /* {a, b, c} = 48-bit; [39:0] unit-global, 32-byte aligned */
#define NP_SCALAR_S             1u   /* a = FP16 scalar used by CVO SCALE */
#define NP_SCALAR_EMAX          2u   /* a = FP16 e_max */

/* CVO (seed §4). */
#define NP_CVO_FUNC             KBF_GENMASK(59, 56)
#define NP_CVO_SRC              KBF_GENMASK(55, 39)
#define NP_CVO_DST              KBF_GENMASK(38, 22)
#define NP_CVO_LEN              KBF_GENMASK(21, 6)
#define NP_CVO_FLAGS            KBF_GENMASK(5, 1)
#define NP_CVO_ASYNC            KBF_BIT(0)
#define NP_CVO_EXP              0x0u
#define NP_CVO_SQRT             0x1u
#define NP_CVO_GELU             0x2u
#define NP_CVO_SIN              0x3u
#define NP_CVO_COS              0x4u
#define NP_CVO_REDUCE_SUM       0x5u
#define NP_CVO_SCALE            0x6u
#define NP_CVO_RECIP            0x7u
#define NP_CF_SUB_EMAX          0x10u                /* flags [4] */
#define NP_CF_RECIP_SCALE       0x08u                /* flags [3] */
#define NP_CF_ACCM              0x04u                /* flags [2] */
#define NP_CF_RSVD              0x03u                /* flags [1:0] */

/* Geometry (docs/npu.md §2): L2 is 2^17 lines of 32 bytes = 16 FP16 elements. */
#define NP_L2_LINES             (1u << 17)
#define NP_LINE_BYTES           32u
#define NP_LINE_ELEMS           16u
#define NP_LANES                32u

/* FP16 bit patterns firmware needs for MEMSET. */
#define NP_FP16_ZERO            0x0000u
#define NP_FP16_ONE             0x3C00u
#define NP_FP16_NEG_INF         0xFC00u

/* exec_result of a FAULT (docs/npu.md §6): [31:16] 'N''P', [15:8] opcode, [7:0] code.
 * Code bit 7 set: the fault belongs to an earlier asynchronous instruction and is reported by
 * the next instruction to retire. */
#define NP_FAULT_TAG            0x4E50u
#define NP_FAULT_R_TAG          KBF_GENMASK(31, 16)
#define NP_FAULT_R_OPCODE       KBF_GENMASK(15, 8)
#define NP_FAULT_R_CODE         KBF_GENMASK(7, 0)
#define NP_FAULT_OPCODE         0x01u   /* reserved opcode 0x5-0xF */
#define NP_FAULT_FUNC           0x02u   /* reserved CVO function 0x8-0xF */
#define NP_FAULT_RSVD           0x03u   /* a reserved field or flag bit is not zero */
#define NP_FAULT_SHAPE          0x04u   /* a zero dimension or a stride below the row size */
#define NP_FAULT_L2_RANGE       0x05u   /* an operand runs past the end of L2 */
#define NP_FAULT_CACHE          0x06u   /* MEMSET bank 3, scalar index > 2, bad host base */
#define NP_FAULT_DIRECTION      0x07u   /* MEMCPY host to host */
#define NP_FAULT_HOST_RANGE     0x08u   /* host address carries out of its mesh / 40 bits */
#define NP_FAULT_MEM_TIMEOUT    0x09u   /* no memory response for the watchdog period */
#define NP_FAULT_ASYNC          0x80u

static inline uint32_t np_fault_result(unsigned opcode, unsigned code)
{
    return (uint32_t)(KBF_FIELD_PREP(NP_FAULT_R_TAG, NP_FAULT_TAG) |
                      KBF_FIELD_PREP(NP_FAULT_R_OPCODE, opcode) | KBF_FIELD_PREP(NP_FAULT_R_CODE, code));
}

/* ---- Encoders. Each returns the 64-bit instruction (payload word 3); arguments are
 * truncated to their field width, so callers keep them in range (np_fits_l2 helps). ---- */

static inline uint64_t np_gemx(unsigned opcode, uint32_t dest, uint32_t src, unsigned flags,
                               unsigned size_ptr, unsigned shape_ptr, unsigned lanes)
{
    return KBF_FIELD_PREP(NP_W_OPCODE, opcode) | KBF_FIELD_PREP(NP_GEMX_DEST, dest) |
           KBF_FIELD_PREP(NP_GEMX_SRC, src) | KBF_FIELD_PREP(NP_GEMX_FLAGS, flags) |
           KBF_FIELD_PREP(NP_GEMX_SIZE_PTR, size_ptr) | KBF_FIELD_PREP(NP_GEMX_SHAPE_PTR, shape_ptr) |
           KBF_FIELD_PREP(NP_GEMX_LANES, lanes);
}

static inline uint64_t np_gemv(uint32_t dest, uint32_t src, unsigned flags, unsigned size_ptr,
                               unsigned shape_ptr, unsigned lanes)
{
    return np_gemx(NP_OP_GEMV, dest, src, flags, size_ptr, shape_ptr, lanes);
}

static inline uint64_t np_gemm(uint32_t dest, uint32_t src, unsigned flags, unsigned size_ptr,
                               unsigned shape_ptr, unsigned lanes)
{
    return np_gemx(NP_OP_GEMM, dest, src, flags, size_ptr, shape_ptr, lanes);
}

static inline uint64_t np_memcpy(unsigned from_host, unsigned to_host, uint32_t dest, uint32_t src,
                                 uint32_t aux, unsigned shape_ptr, unsigned async)
{
    return KBF_FIELD_PREP(NP_W_OPCODE, NP_OP_MEMCPY) | KBF_FIELD_PREP(NP_MC_FROM_HOST, from_host ? 1u : 0u) |
           KBF_FIELD_PREP(NP_MC_TO_HOST, to_host ? 1u : 0u) | KBF_FIELD_PREP(NP_MC_DEST, dest) |
           KBF_FIELD_PREP(NP_MC_SRC, src) | KBF_FIELD_PREP(NP_MC_AUX, aux) |
           KBF_FIELD_PREP(NP_MC_SHAPE_PTR, shape_ptr) | KBF_FIELD_PREP(NP_MC_ASYNC, async ? 1u : 0u);
}

/* Host (node DRAM) -> L2 line dest; the host side is host_base + aux * 32. */
static inline uint64_t np_memcpy_in(uint32_t l2_dest, uint32_t aux, unsigned shape_ptr, unsigned async)
{
    return np_memcpy(1, 0, l2_dest, 0, aux, shape_ptr, async);
}

/* L2 line src -> host (node DRAM) at host_base + aux * 32. */
static inline uint64_t np_memcpy_out(uint32_t aux, uint32_t l2_src, unsigned shape_ptr, unsigned async)
{
    return np_memcpy(0, 1, 0, l2_src, aux, shape_ptr, async);
}

static inline uint64_t np_memset(unsigned cache, unsigned index, uint16_t a, uint16_t b, uint16_t c)
{
    return KBF_FIELD_PREP(NP_W_OPCODE, NP_OP_MEMSET) | KBF_FIELD_PREP(NP_MS_CACHE, cache) |
           KBF_FIELD_PREP(NP_MS_INDEX, index) | KBF_FIELD_PREP(NP_MS_A, a) |
           KBF_FIELD_PREP(NP_MS_B, b) | KBF_FIELD_PREP(NP_MS_C, c);
}

/* fmap_shape entry for GEMV/GEMM: (M, N, K). GEMV ignores M. */
static inline uint64_t np_memset_shape(unsigned index, uint16_t m, uint16_t n, uint16_t k)
{
    return np_memset(NP_CACHE_FMAP, index, m, n, k);
}

/* fmap_shape entry for MEMCPY: rows of elems FP16 elements; stride in lines on the strided
 * side (0 = packed). */
static inline uint64_t np_memset_xfer(unsigned index, uint16_t rows, uint16_t elems, uint16_t stride)
{
    return np_memset(NP_CACHE_FMAP, index, rows, elems, stride);
}

/* weight_shape entry: weights at an EVEN L2 line w_line (stored halved), FP16 scale used by
 * w_scale, row stride in lines (0 = packed, ceil(N / 16)). */
static inline uint64_t np_memset_weight(unsigned index, uint32_t w_line, uint16_t scale_fp16,
                                        uint16_t stride)
{
    return np_memset(NP_CACHE_WEIGHT, index, (uint16_t)(w_line >> 1), scale_fp16, stride);
}

/* Host base register: unit-global byte address, 32-byte aligned. */
static inline uint64_t np_memset_host_base(uint64_t ug)
{
    return np_memset(NP_CACHE_SCALAR, NP_SCALAR_HOST_BASE, (uint16_t)(ug >> 32),
                     (uint16_t)(ug >> 16), (uint16_t)ug);
}

static inline uint64_t np_cvo(unsigned func, uint32_t src, uint32_t dst, uint16_t len,
                              unsigned flags, unsigned async)
{
    return KBF_FIELD_PREP(NP_W_OPCODE, NP_OP_CVO) | KBF_FIELD_PREP(NP_CVO_FUNC, func) |
           KBF_FIELD_PREP(NP_CVO_SRC, src) | KBF_FIELD_PREP(NP_CVO_DST, dst) |
           KBF_FIELD_PREP(NP_CVO_LEN, len) | KBF_FIELD_PREP(NP_CVO_FLAGS, flags) |
           KBF_FIELD_PREP(NP_CVO_ASYNC, async ? 1u : 0u);
}

/* Lines a row of n FP16 elements occupies in L2 (every row starts on a line). */
static inline uint32_t np_row_lines(uint32_t n)
{
    return (n + NP_LINE_ELEMS - 1u) / NP_LINE_ELEMS;
}

/* Place an instruction into a 256-bit CU_INST payload (words 0..3, word 3 = [255:192]). */
static inline void np_payload(uint64_t payload[4], uint64_t insn)
{
    payload[0] = 0;
    payload[1] = 0;
    payload[2] = 0;
    payload[3] = insn;
}

#endif
