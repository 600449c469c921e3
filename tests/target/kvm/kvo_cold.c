/* kvo_cold.c — C whose RV32 code holds every instruction class the interpreter implements
 * (kvo.h). Built as cold code and natively (KVO_NATIVE: names prefixed kvo_native_); the
 * inputs come through volatile so nothing folds at compile time. Test code, not firmware. */
#include <stdint.h>
#include "kvo.h"

#ifdef KVO_NATIVE
#define KVO(f) kvo_native_##f

/* The native callee of the cold code (kvo.h), defined once here: every kvm test image links
 * this native build (tests/target/kvm/kvm.mk). Weak: test_ops.c defines one that records its
 * arguments. */
__attribute__((weak)) uint64_t kvo_native_call(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
                         uint32_t a5, uint32_t a6, uint32_t a7)
{
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
#else
#define KVO(f) kvo_##f
#endif

/* Corner values for the multiplies and compares. */
static const uint32_t kvo_corner[8] = {
    0u, 1u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u, 0x0000FFFFu, 0x12345678u,
};

/* Cold-to-cold call (JAL once linked); ends in a tail call of native code (JALR x0): the
 * interpreter must come back to this function's caller. */
static __attribute__((noinline)) uint64_t KVO(leaf)(uint32_t a, uint32_t b)
{
    return kvo_native_call(a, b, a ^ b, a + 1, b + 2, 6, 7, 8);
}

uint64_t KVO(ops)(uint32_t a, uint32_t b, int32_t c, uint32_t sel, uint32_t *out)
{
    volatile uint32_t va = a, vb = b;
    volatile int32_t vc = c;
    unsigned k = 0;

    /* M: every pair of corner values. */
    uint32_t lo = 0, h = 0, hsu = 0, hu = 0;
    for (unsigned i = 0; i < 8; i++) {
        for (unsigned j = 0; j < 8; j++) {
            uint32_t x = kvo_corner[i], y = kvo_corner[j];
            lo = lo * 31u + x * y;
            h = h * 31u + (uint32_t)((int64_t)(int32_t)x * (int32_t)y >> 32);
            hsu = hsu * 31u + (uint32_t)((int64_t)(int32_t)x * (int64_t)(uint64_t)y >> 32);
            hu = hu * 31u + (uint32_t)((uint64_t)x * y >> 32);
        }
    }
    out[k++] = lo, out[k++] = h, out[k++] = hsu, out[k++] = hu;
    /* Single corners with values worked by hand (kvm_ops checks these literally). */
    out[k++] = (uint32_t)((int64_t)(int32_t)va * (int32_t)vb >> 32);            /* MULH */
    out[k++] = (uint32_t)((int64_t)(int32_t)va * (int64_t)(uint64_t)vb >> 32);  /* MULHSU */
    out[k++] = (uint32_t)((uint64_t)va * vb >> 32);                            /* MULHU */

    /* OP and OP-IMM. */
    uint32_t x = va, y = vb, s = vb & 31;
    out[k++] = x + y;
    out[k++] = x - y;
    out[k++] = x << s;
    out[k++] = x >> s;
    out[k++] = (uint32_t)((int32_t)x >> s);
    out[k++] = (int32_t)x < (int32_t)y;
    out[k++] = x < y;
    out[k++] = x ^ y;
    out[k++] = x | y;
    out[k++] = x & y;
    out[k++] = x + 0x7FF;
    out[k++] = x - 2048;
    out[k++] = x << 7;
    out[k++] = x >> 9;
    out[k++] = (uint32_t)((int32_t)x >> 13);
    out[k++] = (int32_t)x < -5;
    out[k++] = x < 0x123u;
    out[k++] = x ^ 0x5A5u;
    out[k++] = x | 0x30Fu;
    out[k++] = x & 0x7F0u;
    out[k++] = 0x12345000u + (uint32_t)vc;              /* LUI */

    /* Loads: sign- and zero-extending, every width; stores: byte, half, word. */
    volatile uint32_t word[2] = { 0x80FF7F01u, 0x00008001u };
    volatile uint8_t *pb = (volatile uint8_t *)word;
    volatile uint16_t *ph = (volatile uint16_t *)word;
    /* Plain (not volatile) signed loads through an opaque pointer: GCC emits LB/LH for those
     * (for volatile ones it loads unsigned and shifts). */
    const int8_t *sb = (const int8_t *)(const void *)word;
    __asm__("" : "+r"(sb) : : "memory");
    out[k++] = (uint32_t)(int32_t)sb[3];                            /* LB 0x80 */
    out[k++] = (uint32_t)(int32_t)sb[0];                            /* LB 0x01 */
    out[k++] = (uint32_t)(int32_t)((const int16_t *)(const void *)sb)[1];   /* LH 0x80FF */
    out[k++] = (uint32_t)(int32_t)((const int16_t *)(const void *)sb)[2];   /* LH 0x8001 */
    out[k++] = pb[3];                                               /* LBU */
    out[k++] = ph[1];                                               /* LHU */
    pb[1] = (uint8_t)(x >> 3);                                      /* SB */
    ph[3] = (uint16_t)(y * 3u);                                     /* SH */
    word[0] += 1;                                                   /* LW SW */
    out[k++] = word[0];
    out[k++] = word[1];

    /* Branches, each taken and not taken over the corners against c. The empty asm in each
     * arm keeps it a branch (no set-less-than in its place); __builtin_expect puts the arm in
     * line (the branch tests the inverse) or out of line (it tests the condition), and each
     * test has its own operand so none merge: GCC emits all six (BNE BEQ BGE BLT BGEU BLTU). */
#define KVO_IF(e, cond, n) \
    do { if (__builtin_expect((cond), (e))) { __asm__ volatile("" ::: "memory"); br = br * 3u + (n); } } while (0)
    uint32_t br = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint32_t v = kvo_corner[i], w = (uint32_t)vc;
        KVO_IF(1, v == w, 1u);
        KVO_IF(0, v == w + 1, 2u);
        KVO_IF(1, (int32_t)v < (int32_t)(w + 2), 1u);
        KVO_IF(0, (int32_t)v < (int32_t)(w + 3), 2u);
        KVO_IF(1, v < w + 4, 1u);
        KVO_IF(0, v < w + 5, 2u);
        br += i;
    }
    /* Bottom-tested loops branch back on the condition itself: BLT, BLTU, BEQ taken while
     * they loop, not taken at the end. */
    int32_t sv = (int32_t)vc;
    do {
        __asm__ volatile("" ::: "memory");
        sv += 0x20000000;
        br++;
    } while (sv < (int32_t)0x40000000);
    uint32_t uv = (uint32_t)vc;
    do {
        __asm__ volatile("" ::: "memory");
        uv += 0x30000000u;
        br += 3;
    } while (uv < 0xA0000000u);
    static const uint32_t kvo_run[5] = { 4u, 4u, 4u, 9u, 9u };
    uint32_t eq = sel & 1;
    do {
        __asm__ volatile("" ::: "memory");
        eq++;
        br += 5;
    } while (kvo_run[eq] == kvo_run[eq - 1]);
    out[k++] = br;

    /* FENCE; a native call through a pointer (JALR with rd = ra: a call the linker cannot
     * relax); then the cold-to-cold call ending in a tail call of native code. */
    __asm__ volatile("fence rw, rw" ::: "memory");
    uint64_t (*volatile fp)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                            uint32_t, uint32_t) = kvo_native_call;
    uint64_t m = fp(x, y, 3, 4, 5, 6, 7, 8) + 1;
    uint64_t n = KVO(leaf)(x + sel, y);
    out[k++] = (uint32_t)n;
    out[k++] = (uint32_t)(n >> 32);
    out[k++] = (uint32_t)m ^ (uint32_t)(m >> 32);
    /* AUIPC: the linked calls of nearby native code relax to JAL/JALR, so one explicit pair;
     * their difference is the same wherever the code runs: 0x12345000 + 4. */
    uint32_t p0, p1;
    __asm__ volatile("auipc %0, 0\n\tauipc %1, 0x12345" : "=&r"(p0), "=r"(p1));
    out[k++] = p1 - p0;
    for (; k < KVO_OUT_WORDS; k++)
        out[k] = 0xC01D0000u + k;
    /* 64-bit result in a0:a1. */
    return ((uint64_t)(lo ^ h ^ br) << 32) | (hsu + hu + k);
}

#ifndef KVO_NATIVE
uint64_t kvo_bad_insn(void)
{
    /* The core has EBREAK; the interpreter does not. The label names it for the test. */
    __asm__ volatile(".globl kvo_ebreak_insn\nkvo_ebreak_insn: ebreak");
    return 1;
}

uint64_t kvo_bad_fetch(uint32_t target)
{
    return ((uint64_t (*)(void))(uintptr_t)target)() + 1;
}

uint32_t kvo_deep(uint32_t a)
{
    volatile uint32_t big[KVO_DEEP_WORDS];
    big[0] = a;
    big[KVO_DEEP_WORDS - 1] = a + 1;
    return big[0] + big[KVO_DEEP_WORDS - 1];
}

uint64_t kvo_slot(void)
{
    /* A NOP that a test_bad_<encoding>.c test overwrites (the scratchpad is writable) with
     * the word under test before it calls this. The label names it for the test. */
    __asm__ volatile(".globl kvo_slot_insn\nkvo_slot_insn: nop");
    return 1;
}
#endif
