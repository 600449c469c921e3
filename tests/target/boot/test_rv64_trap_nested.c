/* test_rv64_trap_nested.c — a trap while the fatal path reports a trap (here the fatal hook
 * faults) stops the core with the FIRST trap's word, KX_EXIT_TRAP(2) = 0x54524150_00000002,
 * after the first report: the root cause wins and the handler never loops (docs/design.md §6 "Errors"). */
// kohaku-test: boards=qemu-rv64
// kohaku-test: expect-stop=exited cause=0 word=0x5452415000000002
// kohaku-test: expect-console=kohaku-fw: fatal trap (illegal instruction) cause=0x2 pc=@kt_fault_insn
// kohaku-test: expect-console=kt-hook: faulting now
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"

void kx_fatal_hook(uintptr_t word)
{
    (void)word;
    kx_puts("kt-hook: faulting now\n");
    __asm__ volatile(
        "la t0, main\n"
        "lw t1, 0(t0)\n" ::: "t0", "t1", "memory");   /* load from the fetch-only window */
    kx_puts("kt-hook: the nested fault did not trap\n");
}

int main(void)
{
    __asm__ volatile(
        ".globl kt_fault_insn\n"
        "kt_fault_insn: csrw mhartid, zero\n" ::: "memory");
    EXPECT_TRUE(!"illegal instruction did not trap");
    kt_finish();
}
