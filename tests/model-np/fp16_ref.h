/* fp16_ref.h — the NPU tests' independent FP16 reference (docs/npu.md §3): conversions through
 * the compiler's _Float16 (one round to nearest even), never through model/npu_num.c. */
#ifndef NP_FP16_REF_H
#define NP_FP16_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint16_t h_of(double v)
{
    _Float16 h = (_Float16)v;        /* one rounding, nearest-even */
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

static inline double d_of(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return (double)h;
}

/* Distance in FP16 units in the last place (ordered bit patterns). */
static inline long ulps16(uint16_t a, uint16_t b)
{
    long ia = (a & 0x8000u) ? -(long)(a & 0x7FFFu) : (long)a;
    long ib = (b & 0x8000u) ? -(long)(b & 0x7FFFu) : (long)b;
    return labs(ia - ib);
}

#endif
