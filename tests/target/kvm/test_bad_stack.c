/* test_bad_stack.c — the interpreted stack pointer is bounds-checked: a cold
 * function whose frame is larger than the interpreted stack (kvo_deep, KVO_DEEP_WORDS words
 * against KVM_STACK_BYTES) stops the core at its sp adjustment, the function's first
 * instruction, with KX_SITE_KVM_STACK (exit word 0xDEAD0008), naming that instruction's
 * address; before the check its stores overwrote the interpreter's register file. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0008
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=
// kohaku-test: expect-console= pc=@kvm_cold_kvo_deep addr=0x0
#include "harness.h"
#include "kvo.h"

int main(void)
{
    (void)kvo_deep(7);
    EXPECT_TRUE(!"kvm_call ran a frame larger than its stack");
    kt_finish();
}
