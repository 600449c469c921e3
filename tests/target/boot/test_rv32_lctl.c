/* test_rv32_lctl.c — RV32 local control and mover doorbell through the hal (docs/hardware.md §4):
 * FLUSH/INVAL stores complete (STATUS [0] flush busy reads 0 after), MVGO reads idle with no
 * fault, scratchpad word indices map to 0x1000_0000 + 4 * index. */
// kohaku-test: boards=qemu-rv32
#include "harness.h"
#include "hal/hal.h"

int main(void)
{
    hal_dcache_flush();
    EXPECT_EQ(*(volatile uint32_t *)0x20000000u & 0x1u, 0);    /* LCTL STATUS flush busy */
    hal_dcache_inval();
    EXPECT_EQ(*(volatile uint32_t *)0x20000000u & 0x1u, 0);

    uint32_t st = hal_mvgo_status();
    EXPECT_EQ(st & 0x1u, 0);                                     /* [0] busy */
    EXPECT_EQ(st & 0xF0u, 0);                                    /* [7:4] mover fault */

    EXPECT_EQ((uintptr_t)hal_spad_word(0), 0x10000000u);
    EXPECT_EQ((uintptr_t)hal_spad_word(5), 0x10000014u);
    EXPECT_EQ(hal_spad_word_index((const volatile void *)0x10000200u), 0x80u);
    kt_finish();
}
