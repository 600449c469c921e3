/* kvm.c — the RV32 cold-code interpreter (docs/kvm.md): runs code linked as data in the
 * firmware's DRAM range (.kvm_cold), because the instruction window is fetch-only and full. It
 * implements exactly the RV32I subset GCC emits for the cold objects (without -msave-restore),
 * the core's own ISA (docs/hardware.md §4: no M extension), and stops the core on anything else: an
 * interpreter that guesses would run a validator wrongly. */
#include "kohaku/sum4.h"
#include <stdbool.h>
#include "board.h"
#include "boot.h"
#include "kvm.h"
#include "hal/hal.h"

_Static_assert(BOARD_IMEM_BASE == 0, "a native call is a jump below the end of the native code");
/* The end of the native code in the window (linker/rv32.ld.S): the link says where it ends, so
 * the object does not depend on how much of the window each image's native code fills. */
extern const char __kx_text_end[];

/* Set once the whole cold segment matched its sum since this boot (.sbss: the boot clears
 * it); kvm_call sums the segment before the first cold instruction of each boot runs, and
 * hal_cold_verify clears it to have it summed again (hal_variant.h). */
uint8_t kvm_cold_ok;

typedef uint64_t kvm_native_fn(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                               uint32_t, uint32_t);

/* Decoding is two table lookups and a computed goto, not compare chains: the tables are
 * .rodata in the scratchpad, where a byte costs less than in the full window (docs/kvm.md
 * "Size"). kvm_op, per major opcode (bits 6:2), gives a slot of kvm_call's handler table:
 * (e & 63) + (funct3 & (e >> 7)), e signed. A group whose funct3 selects the instruction
 * (branches, loads, stores, OP-IMM) has eight slots and e = first | KVM_F3 (negative: funct3
 * added); the others have one slot of their own, after the groups (not a free slot of a group:
 * that group's reserved funct3 would reach it). An empty slot, like KVM_NONE for an opcode it
 * does not implement or a group's reserved funct3, runs the halt. */
#define KVM_F3      (-0x80)         /* e >> 7 = -1: add funct3 */
#define KVM_BR      0               /* BEQ BNE - - BLT BGE BLTU BGEU */
#define KVM_LD      8               /* LB LH LW - LBU LHU - - */
#define KVM_ST      16              /* SB SH SW - - - - - */
#define KVM_IMM     24              /* OP-IMM */
#define KVM_NONE    3               /* empty: a branch's reserved funct3 3 */
#define KVM_UPPER   32              /* LUI AUIPC */
#define KVM_JAL     33
#define KVM_JALR    34
#define KVM_FENCE   35
#define KVM_OP      36              /* OP: funct7 picks the operation, in the ALU slots */
#define KVM_ALU     37              /* 16 slots: funct3 | funct7 bit 5 << 3 */
#define KVM_SLOTS   (KVM_ALU + 16)
#define N KVM_NONE
static const int8_t kvm_op[32] = {
    KVM_LD | KVM_F3, N, N, KVM_FENCE, KVM_IMM | KVM_F3, KVM_UPPER, N, N,        /* 0x00 */
    KVM_ST | KVM_F3, N, N, N, KVM_OP, KVM_UPPER, N, N,                          /* 0x08 */
    N, N, N, N, N, N, N, N,                                                     /* 0x10 */
    KVM_BR | KVM_F3, KVM_JALR, N, KVM_JAL, N, N, N, N,                          /* 0x18 */
};
#undef N

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
    /* The link's addresses as data: loading them is 4 bytes each, building them 8. */
    static const volatile uintptr_t link[4] = {
        (uintptr_t)__kx_cold_start, (uintptr_t)__kx_cold_end, (uintptr_t)__kx_text_end,
        (uintptr_t)&&bad,
    };
    const uint32_t cold = link[0], cold_len = link[1] - cold, text_end = link[2];
    const uint32_t stack_lo = (uint32_t)(uintptr_t)f.stack;
    char *const base = (char *)link[3];    /* the handler offsets' origin */

    register uint32_t gp __asm__("gp");

    __asm__("" : "+r"(x));      /* an opaque base: x[r] is one add, not a frame-offset sum */
    /* Only zero (x0) and ra (0: "return to native") need a value besides the arguments, sp
     * and gp: compiled code writes every other register before it reads it, or saves and
     * restores it (the callee-saved ones), exactly as a native call leaves them as they were. */
    x[0] = 0, x[1] = 0;
    x[2] = (uint32_t)(uintptr_t)(f.stack + KVM_STACK_BYTES / 4);
    x[3] = gp;                  /* globals are gp-relative in cold code too */
    x[10] = a0, x[11] = a1, x[12] = a2, x[13] = a3, x[14] = a4, x[15] = a5;
    /* The boot checked only the segment's header (its id); the whole segment is summed once
     * per boot, here, before its first instruction runs: damaged in place, it never runs
     * (KX_SITE_KVM_COLD). */
    if (!kvm_cold_ok) {
        uint32_t one = 1;
        __asm__("" : "+r"(one));    /* one register for the flag and the argument */
        kvm_cold_ok = (uint8_t)one; /* a bad segment stops the core: no second try */
        if (hal_cold_bad(one))
            goto bad;           /* which checks again and names it: KX_SITE_KVM_COLD, cause 0 */
    }

    /* Handler offsets from `bad` (GNU labels as values, two bytes a slot); 0 is the halt. */
#define H(l) [KVM_##l] = &&l - &&bad
#define HS(l, i) [i] = &&l - &&bad
    static const int16_t slot[KVM_SLOTS] = {
        HS(beq, KVM_BR + 0), HS(beq, KVM_BR + 1), H(OP),
        HS(blt, KVM_BR + 4), HS(blt, KVM_BR + 5), HS(bltu, KVM_BR + 6), HS(bltu, KVM_BR + 7),
        HS(lb, KVM_LD + 0), HS(lh, KVM_LD + 1), HS(lw, KVM_LD + 2), HS(lbu, KVM_LD + 4),
        HS(lhu, KVM_LD + 5),
        HS(sb, KVM_ST + 0), HS(sh, KVM_ST + 1), HS(sw, KVM_ST + 2),
        H(UPPER), H(JAL), H(JALR), H(FENCE),
        /* OP-IMM: b is already the immediate; the shifts check their funct7 first. */
        HS(add, KVM_IMM + 0), HS(SHIFT, KVM_IMM + 1), HS(slt, KVM_IMM + 2),
        HS(sltu, KVM_IMM + 3), HS(xor, KVM_IMM + 4), HS(SHIFT, KVM_IMM + 5),
        HS(or, KVM_IMM + 6), HS(and, KVM_IMM + 7),
        /* OP, funct7 0 and 0x20 (SUB, SRA); the rest of 0x20 halts. */
        HS(add, KVM_ALU + 0), HS(sll, KVM_ALU + 1), HS(slt, KVM_ALU + 2),
        HS(sltu, KVM_ALU + 3), HS(xor, KVM_ALU + 4), HS(srl, KVM_ALU + 5),
        HS(or, KVM_ALU + 6), HS(and, KVM_ALU + 7),
        HS(sub, KVM_ALU + 8), HS(sra, KVM_ALU + 13),
    };
#undef H
#undef HS

    for (;;) {
        if (pc & 3)
            goto bad_fetch;
        if (pc - cold >= cold_len) {
            /* ra = 0 was the mark: the entry function returned. */
            if (pc == 0)
                return ((uint64_t)x[11] << 32) | x[10];
            if (pc >= text_end)
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
        /* Fields, operands and offsets once, so each handler is a line. Opcodes with bit 5 set
         * (OP, stores, branches) take rs2 as b and the S-immediate as off; the others (OP-IMM,
         * loads) the I-immediate as both: one operand path for both ALU forms, one address
         * a + off for loads and stores. */
        uint32_t rd = (in >> 7) & 31, f3 = (in >> 12) & 7, f7 = in >> 25;
        uint32_t imm = (uint32_t)((int32_t)in >> 20), off = imm, b = imm;
        uint32_t a = x[(in >> 15) & 31], v, next = pc + 4;
        int32_t e = kvm_op[(in >> 2) & 31];
        bool t;

        if (in & 0x20u) {
            b = x[(in >> 20) & 31];
            off = (imm & ~31u) | rd;
        }
        uintptr_t ad = a + off;
        if ((in & 3) != 3)
            goto bad;
        goto *(base + slot[(e & 63) + (f3 & (uint32_t)(e >> 7))]);

    UPPER:                                              /* LUI (bit 5 set), AUIPC */
        v = (in & 0xFFFFF000u) + (pc & -(uint32_t)!(in & 0x20u));
        goto wb;
    JAL:
        /* The J-immediate is the I-immediate with bits 19:12 from the instruction and bit 0
         * (instruction bit 20) moved to bit 11: the B-immediate's move, shared below. */
        off = imm ^ ((imm ^ in) & 0x000FF000u);
        goto jump;
    JALR:
        if (f3)
            goto bad;
        v = next;
        next = (a + imm) & ~1u;
        goto wb;
    beq:                                                /* BEQ BNE: funct3 bit 0 negates */
        t = a == b;
        goto branch;
    blt:
        t = (int32_t)a < (int32_t)b;
        goto branch;
    bltu:
        t = a < b;
    branch:
        if (!(t ^ (f3 & 1)))
            goto nx;
        rd = 0;                                         /* a branch writes no register */
    jump:
        v = next;
        /* The B-immediate is the S-immediate with bit 0 (instruction bit 7) moved to bit 11. */
        next = pc + ((off & ~0x801u) | off << 31 >> 20);
        goto wb;
    /* Loads and stores at their width (MMIO: the agent window, LCTL). The narrow loads are
     * one instruction each in asm: GCC 12 extends a volatile narrow load again after LBU or
     * LHU (2 instructions for LB and LH, 1 for LBU, 2 for LHU: 28 bytes). A volatile atomic
     * store is one access at its width too, without the extension of b that GCC adds to a
     * plain volatile store. */
#define KVM_LOAD(op) __asm__ volatile(op " %0, 0(%1)" : "=r"(v) : "r"(ad) : "memory")
    lb: KVM_LOAD("lb"); goto wb;
    lh: KVM_LOAD("lh"); goto wb;
    lbu: KVM_LOAD("lbu"); goto wb;
    lhu: KVM_LOAD("lhu"); goto wb;
#undef KVM_LOAD
    lw: v = *(volatile uint32_t *)ad; goto wb;
    sb: __atomic_store_n((volatile uint8_t *)ad, (uint8_t)b, __ATOMIC_RELAXED); goto nx;
    sh: __atomic_store_n((volatile uint16_t *)ad, (uint16_t)b, __ATOMIC_RELAXED); goto nx;
    sw: *(volatile uint32_t *)ad = b; goto nx;
    FENCE:                                              /* not FENCE.I (funct3 1) */
        if (f3)
            goto bad;
        __asm__ volatile("fence iorw, iorw" ::: "memory");
        goto nx;
    OP:
        /* The core is RV32I only (docs/hardware.md §4): funct7 1, the M extension (MUL MULH MULHSU
         * MULHU DIV DIVU REM REMU), halts here with its own site, as on silicon; cold code
         * never holds one (scripts/check-image.sh), so this names a build that slipped. */
        if (f7 == 1) {
            site = KX_SITE_KVM_MEXT;
            goto bad;
        }
    SHIFT:                          /* OP and SLLI SRLI SRAI: funct7 0 or 0x20 only */
        if (f7 & ~0x20u)
            goto bad;
        /* f7 is 0 or 0x20 here: f7 >> 2 is its bit 5 << 3 */
        goto *(base + (slot + KVM_ALU)[f3 | f7 >> 2]);
    add: v = a + b; goto wb;
    sub: v = a - b; goto wb;
    sll: v = a << (b & 31); goto wb;
    slt: v = (int32_t)a < (int32_t)b; goto wb;
    sltu: v = a < b; goto wb;
    xor: v = a ^ b; goto wb;
    srl: v = a >> (b & 31); goto wb;
    sra: v = (uint32_t)((int32_t)a >> (b & 31)); goto wb;
    or: v = a | b; goto wb;
    and: v = a & b; goto wb;
    wb:
        /* sp stays in the interpreted stack: below it lies x[], above it
         * the caller's frame; a cold chain deeper than KVM_STACK_BYTES stops here by name
         * (KX_SITE_KVM_STACK) before its first store could land in either. */
        if (rd == 2 && v - stack_lo > KVM_STACK_BYTES) {
            site = KX_SITE_KVM_STACK;
            goto bad;
        }
        x[rd] = v;
        x[0] = 0;
    nx:
        pc = next;
    }
bad_fetch:
    site = KX_SITE_KVM_FETCH;   /* in: the jump that led there */
bad:                            /* offset 0 of the handler table: an empty slot halts */
    /* An encoding or a fetch the compiler never made is most likely damaged cold code: when
     * the segment is no longer the one linked, that is the report. */
    if (hal_cold_bad(1))
        site = KX_SITE_KVM_COLD;
    /* Here, not in a helper as before: kx_fatal's stack argument costs this frame 16 bytes
     * (672 in all, docs/kvm.md "Stack"), the helper cost the window 52 bytes and 32 of stack. */
    kx_fatal(KX_EXIT_ASSERT_BASE | site, "kvm", in, pc, 0);
}

/* ---- Guards (docs/kvm.md "Guards"): native, so they work when the cold
 * segment does not. ---- */

uint32_t hal_cold_bad(unsigned full)
{
    /* DRAM as it is now, not lines cached before a host or mover write changed it. */
    hal_dcache_flush();
    hal_dcache_inval();
    /* The boot's check: the header's four words (magic, length, build id, `ret`), which
     * identify the segment, against their sum; an absent segment (zeros) or another build's
     * header gives another sum. The full check: every word, the header's too, against the
     * sum of all: a word changed in place since the link. One loop for both, four words a
     * turn (the segment is padded to 16 bytes), its ends and sum from one table of the
     * link (linker/rv32.ld.S __kx_cold_chk; the sums written by scripts/cold-sum.sh):
     * window bytes. */
    const uint32_t *c = __kx_cold_chk + 2 * full;
    /* 0 when the words sum to c[1] */
    return hal_sum4(-c[1], (const volatile uintptr_t *)__kx_cold_chk[4], (const volatile uintptr_t *)c[0]);
}

/* noinline: inlined (LTO) into both callers, the loop's two copies cost the window 20 bytes.
 * s first: the sum is built in a0, the return register (8 bytes of moves otherwise). */
__attribute__((noinline)) uintptr_t hal_sum4(uintptr_t s, const volatile uintptr_t *p, const volatile uintptr_t *end)
{
    return kx_sum4(s, p, end);      /* include/kohaku/sum4.h: the loop the host test runs */
}
