/* test_bad_andn.c — the interpreter stops the core naming the word (bad_word.h):
 * ANDN a0, a0, a1 (Zbb, funct7 0x20 funct3 7: an empty ALU slot). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x40b57533 pc=@kvo_slot_insn
#define KVO_WORD 0x40B57533u
#include "bad_word.h"
