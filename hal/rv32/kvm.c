/* kvm.c — the RV32 cold-code interpreter (docs/kvm.md): runs code linked as data in the
 * scratchpad (.kvm_cold), because the instruction window is fetch-only and full. It implements
 * exactly the RV32IM subset GCC emits for the cold objects (without -msave-restore) and stops
 * the core on anything else: an interpreter that guesses would run a validator wrongly. */
#include <stdbool.h>
#include "board.h"
#include "boot.h"
#include "kvm.h"

_Static_assert(BOARD_IMEM_BASE == 0, "a native call is a jump below the end of the native code");
/* The end of the native code in the window (linker/rv32.ld.S): the link says where it ends, so
 * the same object serves any window size (the development-only wide board copies it). */
extern const char __kx_text_end[];

typedef uint64_t kvm_native_fn(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                               uint32_t, uint32_t);

/* Per major opcode (bits 6:2), the funct3 values that exist in what it implements: bit f3
 * set. 0 = an opcode it does not implement. One lookup replaces a check in every case. */
static const uint8_t kvm_f3_ok[32] = {
    [0x00] = 0x37,      /* LB LH LW LBU LHU */
    [0x03] = 0x01,      /* FENCE */
    [0x04] = 0xFF,      /* OP-IMM (shift funct7 checked below) */
    [0x05] = 0xFF,      /* AUIPC */
    [0x08] = 0x07,      /* SB SH SW */
    [0x0C] = 0xFF,      /* OP (funct7 checked below) */
    [0x0D] = 0xFF,      /* LUI */
    [0x18] = 0xF3,      /* BEQ BNE BLT BGE BLTU BGEU */
    [0x19] = 0x01,      /* JALR */
    [0x1B] = 0xFF,      /* JAL */
};

/* Out of line: kx_fatal's 64-bit arguments would otherwise take kvm_call's frame bottom and
 * make every x[] access an offset add. */
static __attribute__((noinline, noreturn)) void kvm_bad(uint32_t site, uint32_t in, uint32_t pc)
{
    kx_fatal(KX_EXIT_ASSERT_BASE | site, "kvm", in, pc, 0);
}

uint64_t kvm_call(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
                  uint32_t entry)
{
    /* The interpreted stack is an array of this frame, not the stack below it: native code the
     * cold code calls runs below this frame and would overwrite cold frames there (moving sp
     * under them takes a variable-length array, which costs -msave-restore here: +128 bytes
     * measured). x first: the register file at the frame bottom. */
    struct {
        uint32_t x[32];
        uint32_t stack[KVM_STACK_BYTES / 4];
    } f __attribute__((aligned(16)));
    uint32_t *x = f.x, pc = entry, in = 0, site = KX_SITE_KVM_INSN;
    const uint32_t cold = (uint32_t)(uintptr_t)__kx_cold_start;
    const uint32_t cold_len = (uint32_t)((uintptr_t)__kx_cold_end - (uintptr_t)__kx_cold_start);

    __asm__("" : "+r"(x));      /* an opaque base: x[r] is one add, not a frame-offset sum */
#pragma GCC unroll 1
    for (unsigned i = 0; i < 32; i++)
        x[i] = 0;
    x[2] = (uint32_t)(uintptr_t)(f.stack + KVM_STACK_BYTES / 4);
    __asm__("mv %0, gp" : "=r"(x[3]));          /* globals are gp-relative in cold code too */
    x[10] = a0, x[11] = a1, x[12] = a2, x[13] = a3, x[14] = a4, x[15] = a5;

    for (;;) {
        if (pc & 3)
            goto bad_fetch;
        if (pc - cold >= cold_len) {
            /* ra = 0 was the mark: the entry function returned. */
            if (pc == 0)
                return ((uint64_t)x[11] << 32) | x[10];
            if (pc >= (uint32_t)(uintptr_t)__kx_text_end)
                goto bad_fetch;
            /* A jump into the window is a call of native code (also a tail call: rd = x0 left
             * ra as the caller's): a0..a7 in, a0:a1 out, then on at ra. */
            uint64_t r = ((kvm_native_fn *)(uintptr_t)pc)(x[10], x[11], x[12], x[13], x[14],
                                                          x[15], x[16], x[17]);
            x[10] = (uint32_t)r;
            x[11] = (uint32_t)(r >> 32);
            pc = x[1];
            continue;
        }
        in = *(const uint32_t *)(uintptr_t)pc;
        /* Fields and the I-immediate once; the other immediates only where used. */
        uint32_t rd = (in >> 7) & 31, f3 = (in >> 12) & 7, f7 = in >> 25;
        uint32_t a = x[(in >> 15) & 31], b = x[(in >> 20) & 31];
        uint32_t imm = (uint32_t)((int32_t)in >> 20);
        uint32_t v, next = pc + 4;

        if ((in & 3) != 3 || !((kvm_f3_ok[(in >> 2) & 31] >> f3) & 1))
            goto bad;
        switch ((in >> 2) & 31) {
        case 0x0D:                                      /* LUI */
        case 0x05:                                      /* AUIPC */
            v = (in & 0xFFFFF000u) + (in & 0x20u ? 0 : pc);
            break;
        case 0x1B:                                      /* JAL */
            v = next;
            next = pc + ((imm & 0xFFF00000u) | (in & 0x000FF000u) | ((in >> 9) & 0x800u) |
                         ((in >> 20) & 0x7FEu));
            break;
        case 0x19:                                      /* JALR */
            v = next;
            next = (a + imm) & ~1u;
            break;
        case 0x18: {                                    /* BEQ BNE - - BLT BGE BLTU BGEU */
            bool t;
            if (f3 < 2)
                t = a == b;
            else if (f3 < 6)
                t = (int32_t)a < (int32_t)b;
            else
                t = a < b;
            if (t ^ (f3 & 1))
                next = pc + ((imm & 0xFFFFF000u) | ((in << 4) & 0x800u) | (imm & 0x7E0u) |
                             ((in >> 7) & 0x1Eu));
            pc = next;
            continue;
        }
        case 0x00: {                                    /* loads, at their width (MMIO) */
            uintptr_t ad = a + imm;
            uint32_t sh = f3 < 2 ? 24 - 8 * f3 : 0;      /* LB 24, LH 16 */
            if ((f3 & 3) == 0)
                v = *(volatile uint8_t *)ad;
            else if ((f3 & 3) == 1)
                v = *(volatile uint16_t *)ad;
            else
                v = *(volatile uint32_t *)ad;
            v = (uint32_t)((int32_t)(v << sh) >> sh);   /* LB, LH sign-extend */
            break;
        }
        case 0x08: {                                    /* stores, at their width */
            uintptr_t ad = a + ((imm & ~31u) | rd);
            if (f3 == 0)
                *(volatile uint8_t *)ad = (uint8_t)b;
            else if (f3 == 1)
                *(volatile uint16_t *)ad = (uint16_t)b;
            else
                *(volatile uint32_t *)ad = b;
            pc = next;
            continue;
        }
        case 0x03:                                      /* FENCE (not FENCE.I) */
            __asm__ volatile("fence iorw, iorw" ::: "memory");
            pc = next;
            continue;
        case 0x04:                                      /* OP-IMM */
        case 0x0C:                                      /* OP */
            if (!(in & 0x20u)) {
                b = imm;
                if (f3 != 1 && f3 != 5)
                    f7 = 0;                             /* not a funct7: immediate bits */
                else if (f7 & ~0x20u)
                    goto bad;                           /* SLLI SRLI SRAI only */
            }
            if (f7 & ~0x21u)
                goto bad;
            /* One switch: funct3, +8 for M (funct7 1), +16 for SUB/SRA/SRAI (funct7 0x20). */
            switch (f3 | (f7 & 1) << 3 | (f7 & 0x20) >> 1) {
            case 0: v = a + b; break;
            case 1: v = a << (b & 31); break;
            case 2: v = (int32_t)a < (int32_t)b; break;
            case 3: v = a < b; break;
            case 4: v = a ^ b; break;
            case 5: v = a >> (b & 31); break;
            case 6: v = a | b; break;
            case 7: v = a & b; break;
            case 8: v = a * b; break;
            case 9: v = (uint32_t)((int64_t)(int32_t)a * (int32_t)b >> 32); break;
            case 10: v = (uint32_t)((int64_t)(int32_t)a * (int64_t)b >> 32); break;
            case 11: v = (uint32_t)((uint64_t)a * b >> 32); break;
            case 16: v = a - b; break;
            case 21: v = (uint32_t)((int32_t)a >> (b & 31)); break;
            default: goto bad;                          /* DIV DIVU REM REMU, other funct7 */
            }
            break;
        default:
            __builtin_unreachable();    /* kvm_f3_ok is 0 for every other opcode */
        }
        x[rd] = v;
        x[0] = 0;
        pc = next;
    }
bad_fetch:
    site = KX_SITE_KVM_FETCH;   /* in: the jump that led there */
bad:
    kvm_bad(site, in, pc);
}
