/* test_bad_branch_f3_2.c — the interpreter stops the core naming the word (bad_word.h):
 * a branch with funct3 2, reserved (an empty slot of the branch group). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0xb52063 pc=@kvo_slot_insn
#define KVO_WORD 0x00B52063u
#include "bad_word.h"
