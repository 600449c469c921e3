/* test_rv64_trap_illegal.c — RV64 fatal trap path (docs/hardware.md §5): writing the read-only
 * mhartid CSR is an illegal instruction (mcause 2); the handler reports its PC (from the
 * label) and exits with KX_EXIT_TRAP(2) = 0x54524150_00000002. */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0x5452415000000002
// kohaku-test: expect-console=kohaku-fw: fatal trap cause=0x2 pc=@kt_fault_insn
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        ".globl kt_fault_insn\n"
        "kt_fault_insn: csrw mhartid, zero\n" ::: "memory");
    EXPECT_TRUE(!"illegal instruction did not trap");
    kt_finish();
}
