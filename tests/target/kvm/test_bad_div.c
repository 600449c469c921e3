/* test_bad_div.c — the interpreter refuses DIV a0, a0, a1 (OP, funct7 1, funct3 4) by its own
 * site: the RV32 core is RV32I only (docs/hardware.md §4), so every M encoding stops the core with
 * KX_SITE_KVM_MEXT (exit word 0xDEAD0006), naming the word (bad_word.h). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0006
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x2b54533 pc=@kvo_slot_insn
#define KVO_WORD 0x02B54533u
#include "bad_word.h"
