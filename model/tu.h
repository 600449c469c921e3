/* tu.h — the instruction encoding of the model's test unit TU (docs/model-mesh.md §5;
 * ours: docs/hardware.md §10.1 item 3 leaves the encoding to the model). Fields are masks within payload
 * word 3 (= payload [255:192]); the opcode is [255:252] like every unit of
 * docs/hardware.md §2.4.3. Word 2 carries WRITE's 64-bit pattern seed. */
#ifndef KM_TU_H
#define KM_TU_H

#include "kohaku/bits.h"

#define TU_CAPS_TYPE        0x5455u   /* "TU" in CU_CAPS[63:48] */
#define TU_CAPS_VERSION     1u
#define TU_INST_DEPTH       16u       /* docs/hardware.md §7: inst_depth typically 16 */

#define TU_OP_NOP           0x0u      /* retire after 1 cycle, exec_result = IMM */
#define TU_OP_DELAY         0x1u      /* retire after IMM cycles, exec_result = IMM */
#define TU_OP_WRITE         0x2u      /* MEM_WR_REQ + LEN+1 MEM_WR_DATA at ADDR; waits for ack */
#define TU_OP_READ          0x3u      /* MEM_RD_REQ of LEN+1 beats at ADDR; result = checksum */
#define TU_OP_FAULT         0x4u      /* retire after 1 cycle as a FAULT, exec_result = IMM */
#define TU_OP_HANG          0x5u      /* never retires */
/* 0x6..0xF: unknown, retire after 1 cycle as a FAULT with TU_FAULT_OPCODE | opcode. */

#define TU_W3_IMM           KBF_GENMASK(31, 0)    /* NOP, DELAY, FAULT */
#define TU_W3_ADDR          KBF_GENMASK(39, 0)    /* WRITE, READ: 40-bit unit-global address */
#define TU_W3_LEN           KBF_GENMASK(47, 40)   /* WRITE, READ: beats minus one */
#define TU_WRITE_MAX_LEN    7u                   /* docs/hardware.md §2.4.1 */

#define TU_FAULT_OPCODE     0xBAD00000u          /* | opcode */
#define TU_FAULT_WRITE_LEN  0xBAD10000u          /* | len, a WRITE longer than 8 beats */

/* CU_DBG (CU_CTRL index 3): the last opcode started and the last exec_result. */
#define TU_DBG_OP           KBF_GENMASK(63, 60)
#define TU_DBG_RESULT       KBF_GENMASK(31, 0)

#endif
