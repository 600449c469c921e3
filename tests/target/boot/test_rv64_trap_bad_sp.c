/* test_rv64_trap_bad_sp.c — the fatal path runs on its own stack (docs/design.md §6 "Errors": "on a
 * known-good stack"): with sp pointing at an unmapped address, a store through it traps
 * (mcause 7, store access fault, mtval = the address) and the handler still reports and
 * exits with KX_EXIT_TRAP(7) = 0x54524150_00000007. */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0x5452415000000007
// kohaku-test: expect-console=kohaku-fw: fatal trap cause=0x7 pc=@kt_fault_insn addr=0x800000
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        /* Between the control region and the agent window: unmapped (docs/hardware.md §5). */
        "li sp, 0x00800000\n"
        ".globl kt_fault_insn\n"
        "kt_fault_insn: sd zero, 0(sp)\n" ::: "memory");
    EXPECT_TRUE(!"store through a bad sp did not trap");
    kt_finish();
}
