/* test_bad_insn.c — an encoding the cold-code interpreter does not implement (EBREAK, which
 * the core has) stops the core through kx_fatal with assertion site KX_SITE_KVM_INSN (exit word
 * 0xDEAD0000 | 0x04, boot.h), reporting the instruction word (EBREAK = 0x00100073) and its
 * cold-code address. It never runs natively: the core would halt with cause 2 instead. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0004
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x100073 pc=@kvo_ebreak_insn
#include "harness.h"
#include "kvo.h"


int main(void)
{
    (void)kvo_bad_insn();
    EXPECT_TRUE(!"kvm_call returned from EBREAK");
    kt_finish();
}
