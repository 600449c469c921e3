/* test_bad_compressed.c — the interpreter stops the core naming the word (bad_word.h):
 * C.NOP, a 16-bit encoding (bits 1:0 = 01): the core has no C extension. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x1 pc=@kvo_slot_insn
#define KVO_WORD 0x00000001u
#include "bad_word.h"
