/* kvm.h — the RV32 cold-code interpreter (docs/kvm.md). The RV32 instruction window is
 * fetch-only and 8 KB; code that has no speed budget (mover-list validation, enumeration) is
 * linked as data in section .kvm_cold in the firmware's DRAM range (linker/rv32.ld.S; its data
 * stays in the scratchpad) and run by kvm_call, one instruction at a time, from a native stub of the same name (hal/rv32/kvm_stub.c). RV32 boards only. */
#ifndef KOHAKU_KVM_H
#define KOHAKU_KVM_H

#include <stdint.h>

/* The interpreted stack, a local array of kvm_call's frame (so native code the cold code calls
 * runs below it, on the native stack). It must hold the deepest chain of cold frames from a
 * cold entry; scripts/stack-check.py computes that chain from the linked fw.elf and fails the
 * build when it does not fit (its report: fw.stack; docs/kvm.md "Stack"). Measured: a REPLAY
 * step's list check, kq_check_cold 80 + kmv_validate 272 + check_move 112 = 464 (check_move
 * grew from 64 when RV32I turned its multiplies into calls); kvm_call stops the core
 * (KX_SITE_KVM_STACK) if sp ever leaves it. */
#define KVM_STACK_BYTES 576u

/* Runs the cold function at `entry` with a0..a5 = the arguments, gp = the native gp, ra = 0
 * (the "return to native" mark), sp = the top of the interpreted stack; returns a0 | a1 << 32.
 * Entry last: a stub F(a0..a5) then loads one register and jumps (no argument shuffle).
 * Stops the core through kx_fatal on an encoding it does not implement (KX_SITE_KVM_INSN), an
 * M-extension encoding (KX_SITE_KVM_MEXT: the core is RV32I), a fetch outside .kvm_cold and the
 * window (KX_SITE_KVM_FETCH), an sp outside the interpreted stack (KX_SITE_KVM_STACK), and, in
 * place of the first three, KX_SITE_KVM_COLD when the cold segment no longer matches its sum. */
uint64_t kvm_call(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
                  uint32_t entry);

/* The cold segment (linker/rv32.ld.S): a 16-byte header (KVM_COLD_MAGIC, the segment's length
 * in bytes, the build id, a zero word), the cold code, padding to 16 bytes. The build id is the
 * 32-bit sum of the segment's other words. __kx_cold_sum, two words of the scratchpad's
 * .rodata, holds the sum of all the segment's words (the id's too), and __kx_cold_chk the sum
 * of the header's four words, both written after the link by scripts/cold-sum.sh: an absent segment (DRAM zero) or one from
 * another build fails the header check at boot, a damaged one the sum before its first
 * instruction runs (docs/kvm.md "Guards"). */
#define KVM_COLD_MAGIC  0x434D564Bu     /* "KVMC"; linker/rv32.ld.S writes the same literal */
extern const uint32_t __kx_cold_start[], __kx_cold_end[];
/* The link's table for the checks (linker/rv32.ld.S): the header's end and the sum of its four
 * words; the segment's end and the sum of all its words (__kx_cold_sum, [3] here); the
 * segment's start. The sums are written by scripts/cold-sum.sh. */
extern const uint32_t __kx_cold_chk[5], __kx_cold_sum[];

#endif
