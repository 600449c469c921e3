/* npu_num.c — the NPU's numeric primitives (docs/npu.md §3): FP16 <-> FP32 and the SFU
 * functions of docs/hardware.md §9, evaluated in FP32 with libm. */
#include <math.h>
#include <string.h>
#include "npu_num.h"
#include "kohaku/npu_isa.h"

float np_h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, bits;
    float f;

    if (e == 0) {
        /* Zero or subnormal: m * 2^-24 is exact in FP32. */
        f = ldexpf((float)m, -24);
        return sign ? -f : f;
    }
    if (e == 31)
        bits = sign | 0x7F800000u | (m << 13);
    else
        bits = sign | ((e + 112u) << 23) | (m << 13);
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Shift mant right by shift (1..24) rounding to nearest, ties to even. */
static uint32_t rne_shift(uint32_t mant, unsigned shift)
{
    uint32_t res = mant >> shift, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1u);

    if (rem > half || (rem == half && (res & 1u)))
        res++;
    return res;
}

uint16_t np_f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t e = (x >> 23) & 0xFFu, m = x & 0x7FFFFFu;
    int32_t he = (int32_t)e - 127 + 15;

    if (e == 0xFF)
        return m ? (uint16_t)NP_FP16_QNAN : (uint16_t)(sign | 0x7C00u);
    if (he >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (he <= 0) {
        /* FP16 subnormal: value = (1.m) * 2^(e-150) = q * 2^-24 with q = mant >> (14 - he).
         * Below 2^-25 (he < -10) everything rounds to zero. A carry into 0x400 is the
         * smallest normal, which is the right encoding. */
        if (he < -10 || e == 0)
            return sign;
        return (uint16_t)(sign | rne_shift(m | 0x800000u, (unsigned)(14 - he)));
    }
    /* Normal: a rounding carry out of the mantissa bumps the exponent, up to infinity. */
    return (uint16_t)(sign | rne_shift(((uint32_t)he << 23) | m, 13));
}

float np_sfu(unsigned func, float x)
{
    switch (func) {
    case NP_CVO_EXP:
        return expf(x);
    case NP_CVO_SQRT:
        return sqrtf(x);
    case NP_CVO_GELU:
        /* The exact (erf) form, not the tanh approximation. */
        return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case NP_CVO_SIN:
        return sinf(x);
    case NP_CVO_COS:
        return cosf(x);
    case NP_CVO_RECIP:
        return 1.0f / x;
    default:
        return x;
    }
}
