/* test_bad_fence_i.c — the interpreter stops the core naming the word (bad_word.h):
 * FENCE.I: FENCE's opcode with funct3 1 (the FENCE funct3 check). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x100f pc=@kvo_slot_insn
#define KVO_WORD 0x0000100Fu
#include "bad_word.h"
