/* test_rv32_ebreak.c — RV32 halt semantics (docs/hardware.md §4): EBREAK halts the core with
 * cause 2, halt word = a0, pc = the EBREAK's address. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=halted cause=2 word=0xeb7eaa01 pc=@kt_ebreak_insn
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        "li a0, 0xeb7eaa01\n"
        ".globl kt_ebreak_insn\n"
        "kt_ebreak_insn: ebreak\n" ::: "a0", "memory");
    EXPECT_TRUE(!"EBREAK did not halt");
    kt_finish();
}
