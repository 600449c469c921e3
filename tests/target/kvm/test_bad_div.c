/* test_bad_div.c — the interpreter stops the core naming the word (bad_word.h):
 * DIV a0, a0, a1 (funct7 1, funct3 4: an empty ALU slot; the core lacks it). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x2b54533 pc=@kvo_slot_insn
#define KVO_WORD 0x02B54533u
#include "bad_word.h"
