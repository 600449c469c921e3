/* test_rv32_unmapped_store.c — an access to an unmapped address faults (docs/hardware.md §4; nothing
 * is mapped between the local control block and DRAM): cause 3, word = pc = the store. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=halted cause=3 word=@kt_fault_insn pc=@kt_fault_insn
#include "harness.h"

int main(void)
{
    __asm__ volatile(
        "li t0, 0x30000000\n"
        ".globl kt_fault_insn\n"
        "kt_fault_insn: sw zero, 0(t0)\n" ::: "t0", "memory");
    EXPECT_TRUE(!"store to an unmapped address did not fault");
    kt_finish();
}
