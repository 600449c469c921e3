/* test_bad_jalr_f3.c — the interpreter stops the core naming the word (bad_word.h):
 * JALR with funct3 1, reserved (the JALR funct3 check). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x51067 pc=@kvo_slot_insn
#define KVO_WORD 0x00051067u
#include "bad_word.h"
