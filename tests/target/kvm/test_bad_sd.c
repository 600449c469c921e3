/* test_bad_sd.c — the interpreter stops the core naming the word (bad_word.h):
 * SD a0, 0(a0): store funct3 3, RV64 only (an empty slot of the store group). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0xa53023 pc=@kvo_slot_insn
#define KVO_WORD 0x00A53023u
#include "bad_word.h"
