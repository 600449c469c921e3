/* test_rv32_misaligned_load.c — a misaligned access faults (docs/hardware.md §4: "illegal or
 * misaligned or unmapped" halt with cause 3): word = pc = the load (from its label). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=halted cause=3 word=@kt_fault_insn pc=@kt_fault_insn
#include "harness.h"

static volatile uint32_t kt_words[2];

int main(void)
{
    __asm__ volatile(
        "addi t0, %0, 2\n"               /* a scratchpad address, 2 bytes off a word */
        ".globl kt_fault_insn\n"
        "kt_fault_insn: lw t1, 0(t0)\n" : : "r"(kt_words) : "t0", "t1", "memory");
    EXPECT_TRUE(!"misaligned load did not fault");
    kt_finish();
}
