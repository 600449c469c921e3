/* test_bad_mul_f7_21.c — the interpreter stops the core naming the word (bad_word.h):
 * OP funct7 0x21 funct3 0, reserved (an empty ALU slot: not MUL, not SUB). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x42b50533 pc=@kvo_slot_insn
#define KVO_WORD 0x42B50533u
#include "bad_word.h"
