/* test_bad_divu.c — the interpreter refuses DIVU a0, a0, a1 (OP, funct7 1, funct3 5) by its own
 * site: the RV32 core is RV32I only (docs/hardware.md §4), so every M encoding stops the core with
 * KX_SITE_KVM_MEXT (exit word 0xDEAD0006), naming the word (bad_word.h). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0006
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x2b55533 pc=@kvo_slot_insn
#define KVO_WORD 0x02B55533u
#include "bad_word.h"
