/* test_boot_ok.c — boot reaches main with a good boot block (docs/design.md §2.1): the block the
 * runner wrote is the one boot accepted, .data/.rodata were loaded at their scratchpad
 * addresses (docs/hardware.md §4/§5: the instruction window is not readable as data), console works.
 * Values below are the literals of the bootblock directive, not read from the code. */
// kohaku-test: bootblock=--wait 123456 --units 3 --depth 12
// kohaku-test: expect-console=kt-boot: hello from main
#include "harness.h"
#include "boot.h"
#include "hal/hal.h"

static volatile uint32_t kt_data_word = 0x600DDA7Au;          /* .data */
static const uint32_t kt_rodata_table[4] = { 0x11, 0x22, 0x33, 0x44 };  /* .rodata */

extern char __kx_spad_base[], __kx_spad_end[];

int main(void)
{
    kx_puts("kt-boot: hello from main\n");

    const struct kx_bootblock *bb = kx_bootblock();
    EXPECT_EQ((uintptr_t)bb, BOARD_SPAD_BASE);
    EXPECT_EQ(bb->magic, 0x4B424F54u);
    EXPECT_EQ(bb->version, 1);
    EXPECT_EQ(bb->wait_cycles, 123456u);
    EXPECT_EQ(bb->unit_count, 3);
    EXPECT_EQ(bb->size, 32 + 3 * 8);
    EXPECT_EQ(bb->flags, 1);
    EXPECT_EQ(bb->units[2].yx, 0x22);
    EXPECT_EQ(bb->units[2].inst_depth, 12);

    EXPECT_EQ(kt_data_word, 0x600DDA7Au);
    volatile const uint32_t *t = kt_rodata_table;
    EXPECT_EQ(t[0] + t[1] + t[2] + t[3], 0xAAu);
    /* Read-only data lives in the scratchpad, past the boot block's reservation. */
    EXPECT_TRUE((uintptr_t)kt_rodata_table >= BOARD_SPAD_BASE + KX_BOOT_RESERVED);
    EXPECT_TRUE((uintptr_t)kt_rodata_table < BOARD_SPAD_BASE + BOARD_SPAD_BYTES);
    EXPECT_EQ((uintptr_t)__kx_spad_base, BOARD_SPAD_BASE);
    EXPECT_EQ((uintptr_t)__kx_spad_end - (uintptr_t)__kx_spad_base, BOARD_SPAD_BYTES);
    kt_finish();
}
