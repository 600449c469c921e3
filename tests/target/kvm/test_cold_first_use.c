/* test_cold_first_use.c — a cold segment damaged in place never runs (docs/kvm.md "Guards"):
 * the boot checked only its header, so the image starts; kvm_call sums the whole segment
 * before the first cold instruction of the boot and stops the core with KX_SITE_KVM_COLD
 * (exit word 0xDEAD0007), cause 0 (no instruction fetched), pc = the entry it was asked to
 * run. The damage is in that entry itself (an EBREAK in place of kvo_slot's NOP, the sum not
 * updated): had it run, the console would name that word and its address instead. */
// kohaku-test: boards=qemu-rv32
// kohaku-test: expect-stop=exited cause=0 word=0xdead0007
// kohaku-test: expect-console=kohaku-fw: fatal kvm cause=0x0 pc=@kvm_cold_kvo_slot addr=0x0
#include "harness.h"
#include "hal/hal.h"
#include "kvo.h"

int main(void)
{
    EXPECT_EQ(hal_cold_bad(0), 0);      /* the boot's check still passes: header untouched */
    *(volatile uint32_t *)kvo_slot_insn = 0x00100073u;      /* EBREAK */
    (void)kvo_slot();
    EXPECT_TRUE(!"kvm_call ran a damaged segment");
    kt_finish();
}
