/* test_bad_srai_shamt5.c — the interpreter stops the core naming the word (bad_word.h):
 * SRAI a0, a0, 33: shamt bit 5 (funct7 0x21), RV64 only (the shift check). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x42155513 pc=@kvo_slot_insn
#define KVO_WORD 0x42155513u
#include "bad_word.h"
