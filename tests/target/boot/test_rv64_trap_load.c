/* test_rv64_trap_load.c — RV64 fatal trap path (docs/hardware.md §5): a load from the fetch-only
 * instruction window traps (mcause 5, load access fault); the handler prints cause, PC (the
 * load, from its label) and the faulting address (mtval), calls the fatal hook, and exits
 * with KX_EXIT_TRAP(5) = 0x54524150_00000005. */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0x5452415000000005
// kohaku-test: expect-console=kohaku-fw: fatal trap (load access fault) cause=0x5 pc=@kt_fault_insn addr=@kt_fault_target
// kohaku-test: expect-console=kt-hook: word=0x5452415000000005
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"

void kx_fatal_hook(uintptr_t word)
{
    kx_puts("kt-hook: word=");
    kx_put_hex(word);
    kx_puts("\n");
}

int main(void)
{
    __asm__ volatile(
        "la t0, kt_fault_target\n"
        ".globl kt_fault_insn\n"
        "kt_fault_insn: lw t1, 0(t0)\n"
        "j 1f\n"
        ".balign 4\n"              /* aligned for lw: the fault must be the access, not alignment
                                    * (8 would align main to 8 and the link would pad before
                                    * it with zeros, an encoding check-image refuses) */
        ".globl kt_fault_target\n"
        "kt_fault_target: nop\n"
        "1:\n" ::: "t0", "t1", "memory");
    EXPECT_TRUE(!"load from the instruction window did not trap");
    kt_finish();
}
