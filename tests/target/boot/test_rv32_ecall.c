/* test_rv32_ecall.c — RV32 halt semantics (docs/hardware.md §4): ECALL halts the core with cause 1,
 * halt word = a0, pc = the ECALL's address (from the label). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=halted cause=1 word=0x5eca11ed pc=@kt_ecall_insn
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        "li a0, 0x5eca11ed\n"
        ".globl kt_ecall_insn\n"
        "kt_ecall_insn: ecall\n" ::: "a0", "memory");
    EXPECT_TRUE(!"ECALL did not halt");
    kt_finish();
}
