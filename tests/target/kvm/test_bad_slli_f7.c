/* test_bad_slli_f7.c — the interpreter stops the core naming the word (bad_word.h):
 * SLLI with funct7 0x20, reserved (the shift funct7 check). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x40151513 pc=@kvo_slot_insn
#define KVO_WORD 0x40151513u
#include "bad_word.h"
