/* bad_word.h — the body of the test_bad_<encoding>.c tests (docs/kvm.md "Tests"): each
 * stores one encoding the interpreter must refuse, KVO_WORD, into the cold-code word
 * kvo_slot_insn and runs it. The interpreter must stop the core through kx_fatal with site
 * KX_SITE_KVM_INSN (exit word 0xDEAD0004), or KX_SITE_KVM_MEXT (0xDEAD0006) for an M-extension
 * encoding, naming the word and its cold address; the test file states that in its directives.
 * One image per encoding: the stop ends the image. The encodings cover every way
 * hal/rv32/kvm.c refuses: a non-32-bit encoding, an empty funct3 slot of a group, the JALR and
 * FENCE funct3 checks, the shift and OP funct7 checks, empty ALU slots (funct7 0x20/0x21
 * combinations RV32I lacks) and each of the eight M encodings by name (test_bad_mul.c ...
 * test_bad_remu.c: the core is RV32I only, docs/hardware.md §4). */
#ifndef KOHAKU_KVM_BAD_WORD_H
#define KOHAKU_KVM_BAD_WORD_H

#include "harness.h"
#include "kvo.h"


/* The cold segment's checksum (hal/rv32/kvm.h): the patch below is deliberate, so the image
 * updates the sum the guards compare with; else the interpreter's refusal would be reported
 * as damaged cold code (KX_SITE_KVM_COLD), which it also is. */
extern uint32_t __kx_cold_sum[];

int main(void)
{
    volatile uint32_t *slot = (volatile uint32_t *)kvo_slot_insn;
    __kx_cold_sum[0] += KVO_WORD - *slot;
    *slot = KVO_WORD;
    (void)kvo_slot();
    EXPECT_TRUE(!"kvm_call ran an encoding it must refuse");
    kt_finish();
}

#endif
