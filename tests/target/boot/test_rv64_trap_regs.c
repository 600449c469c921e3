/* test_rv64_trap_regs.c — the RV64 fatal report dumps the registers as the trap found them and
 * names the cause (docs/firmware.md "Fatal"): with a3..a6 and t4..t6 set to known values, an
 * EBREAK (mcause 3, breakpoint, in the privileged spec's table) prints the dump lines holding
 * them, then "fatal trap (breakpoint) cause=0x3", and stops with KX_EXIT_TRAP(3). */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0x5452415000000003
// kohaku-test: expect-console=kohaku-fw: a3=0x3 a4=0x1111222233334444 a5=0x5555666677778888 a6=0x0
// kohaku-test: expect-console=kohaku-fw: t4=0xa t5=0xb t6=0xc0ffee
// kohaku-test: expect-console=kohaku-fw: fatal trap (breakpoint) cause=0x3 pc=@kt_fault_insn addr=
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        "li a3, 3\n"
        "li a4, 0x1111222233334444\n"
        "li a5, 0x5555666677778888\n"
        "li a6, 0\n"
        "li t4, 0xa\n"
        "li t5, 0xb\n"
        "li t6, 0xc0ffee\n"
        ".globl kt_fault_insn\n"
        "kt_fault_insn: ebreak\n" ::: "a3", "a4", "a5", "a6", "t4", "t5", "t6", "memory");
    EXPECT_TRUE(!"ebreak did not trap");
    kt_finish();
}
