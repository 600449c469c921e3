/* test_rv32_imem_load.c — the instruction window is fetch-only (docs/hardware.md §4): a load from it
 * halts the core with cause 3, halt word = pc = the load's address (from the label). */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=halted cause=3 word=@kt_fault_insn pc=@kt_fault_insn
#include "harness.h"
#include "hal/hal.h"

int main(void)
{
    kx_puts("kt-imem: loading from the instruction window\n");
    __asm__ volatile(
        "la t0, main\n"                 /* an instruction-window address */
        ".globl kt_fault_insn\n"
        "kt_fault_insn: lw t1, 0(t0)\n" ::: "t0", "t1", "memory");
    EXPECT_TRUE(!"load from the instruction window did not fault");
    kt_finish();
}
