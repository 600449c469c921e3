/* test_bad_min.c — the interpreter stops the core naming the word (bad_word.h):
 * MIN a0, a0, a1 (Zbb, funct7 0x05: the OP funct7 check). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0xab54533 pc=@kvo_slot_insn
#define KVO_WORD 0x0AB54533u
#include "bad_word.h"
