/* test_bad_ld.c — the interpreter stops the core naming the word (bad_word.h):
 * LD a0, 0(a0): load funct3 3, RV64 only (an empty slot of the load group). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x53503 pc=@kvo_slot_insn
#define KVO_WORD 0x00053503u
#include "bad_word.h"
