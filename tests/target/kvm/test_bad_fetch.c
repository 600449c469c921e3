/* test_bad_fetch.c — cold code that jumps to the scratchpad outside the cold code (here to a
 * word holding a valid RET) stops the core through kx_fatal with assertion site
 * KX_SITE_KVM_FETCH (exit word 0xDEAD0000 | 0x05, boot.h), reporting the bad PC: the
 * interpreter runs only the linked cold code and native code of the window. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0005
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=
// kohaku-test: expect-console= pc=@kt_not_code addr=0x0
#include "harness.h"
#include "kvo.h"

/* JALR x0, 0(ra): would return at once if it were run. */
const uint32_t kt_not_code[1] = { 0x00008067u };


int main(void)
{
    (void)kvo_bad_fetch((uint32_t)(uintptr_t)kt_not_code);
    EXPECT_TRUE(!"kvm_call ran data outside the cold code");
    kt_finish();
}
