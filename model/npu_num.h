/* npu_num.h — the NPU's numeric primitives (docs/npu.md §3): FP16 storage <-> FP32 compute
 * conversion with IEEE 754 round-to-nearest-even, and the SFU's per-element functions. */
#ifndef KM_NPU_NUM_H
#define KM_NPU_NUM_H

#include <stdint.h>

#define NP_FP16_QNAN 0x7E00u   /* the canonical NaN every NaN result is stored as */

/* Exact widening of an FP16 bit pattern. */
float np_h2f(uint16_t h);
/* FP32 to FP16, round to nearest even; overflow gives infinity, NaN gives NP_FP16_QNAN. */
uint16_t np_f2h(float f);
/* One SFU function (NP_CVO_EXP..NP_CVO_RECIP except REDUCE_SUM and SCALE) of x, in FP32. */
float np_sfu(unsigned func, float x);

#endif
