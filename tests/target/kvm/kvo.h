/* kvo.h — the cold-code interpreter's on-target tests (docs/kvm.md "Tests"): kvo_cold.c is
 * linked twice into each kvm_* image, once as cold code (scripts/kvm-cold.sh, entries called
 * through hal/rv32/kvm_stub.c) and once natively with every name prefixed kvo_native_, so a
 * test compares the interpreter with the core on the same C. tests/target/kvm/kvm.mk. */
#ifndef KOHAKU_KVO_H
#define KOHAKU_KVO_H

#include <stdint.h>

#define KVO_OUT_WORDS 48u

/* Every instruction class kvm.c implements (kvm.mk checks the cold object holds each
 * mnemonic): writes KVO_OUT_WORDS results to out, returns a 64-bit digest in a0:a1. */
uint64_t kvo_ops(uint32_t a, uint32_t b, int32_t c, uint32_t sel, uint32_t *out);
uint64_t kvo_native_ops(uint32_t a, uint32_t b, int32_t c, uint32_t sel, uint32_t *out);

/* Executes EBREAK (an encoding kvm.c does not implement) as cold code. */
uint64_t kvo_bad_insn(void);
/* Jumps to `target` (a scratchpad address outside the cold code) as cold code. */
uint64_t kvo_bad_fetch(uint32_t target);
/* Runs the cold-code word kvo_slot_insn (a NOP until a test stores another encoding there). */
uint64_t kvo_slot(void);
extern uint32_t kvo_slot_insn[];
/* A frame of KVO_DEEP_WORDS words, more than the interpreted stack (hal/rv32/kvm.h
 * KVM_STACK_BYTES): its first instruction, the sp adjustment, must stop the core with
 * KX_SITE_KVM_STACK before a store lands below the stack (test_bad_stack.c). */
#define KVO_DEEP_WORDS 160u
uint32_t kvo_deep(uint32_t a);

/* Native, called by the cold code with eight argument words (a0..a7); returns 64 bits. */
uint64_t kvo_native_call(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
                         uint32_t a5, uint32_t a6, uint32_t a7);

#endif
