/* np.h — the NPU unit model's timing parameters and CU_CAPS identity (docs/npu.md §5, §7).
 * The unit itself is km_unit_np (unit.h); everything else in np.c is private. */
#ifndef KM_NP_H
#define KM_NP_H

/* CU_CAPS of an NP unit: type "NP" in ASCII, version 1, no CU_DATA buffers, 16 instructions. */
#define NP_CAPS_TYPE            0x4E50u
#define NP_CAPS_VERSION         1u
#define NP_CAPS_BUFFERS         0u
#define NP_CAPS_INST_DEPTH      16u

/* Timing, in unit cycles (km_cu_cycle_ns each). */
#define NP_T_MEMSET             4u      /* a constant-cache write */
#define NP_T_FAULT              1u      /* a rejected instruction retires after decode */
#define NP_T_ISSUE              2u      /* an async instruction retires after its issue */
#define NP_T_GEMX_FIXED         32u     /* pipeline fill and drain of the MAC array */
#define NP_MACS_PER_LANE        16u     /* per lane per cycle */
#define NP_L2_BYTES_PER_CYCLE   64u     /* operand and result traffic between L2 and the array */
#define NP_T_CVO_FIXED          16u
#define NP_T_MEMCPY_FIXED       16u     /* descriptor set-up; a local copy moves 1 line/cycle */
#define NP_DMA_WINDOW           16u     /* memory descriptors in flight */
#define NP_DMA_BEATS            4u      /* lines per MEM_RD_REQ / MEM_WR_REQ */
#define NP_DMA_TIMEOUT          100000u /* cycles without a memory response: MEM_TIMEOUT */

#endif
