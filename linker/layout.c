/* layout.c — turns the board header's memory map into plain numbers the linker scripts can
 * use (the C headers carry u-suffixed literals and typedefs a linker script cannot read).
 * Compiled with -S; lines "->NAME value" become linker/layout.h (mk/firmware.mk). */
#include "board.h"
#include "kohaku/bootblock.h"

#define KX_LAYOUT(name, val) \
    __asm__ volatile("\n->" #name " %0" : : "i"((unsigned long)(val)))

void kx_layout(void);
void kx_layout(void)
{
    KX_LAYOUT(LD_IMEM_BASE, BOARD_IMEM_BASE);
    KX_LAYOUT(LD_IMEM_BYTES, BOARD_IMEM_BYTES);
    KX_LAYOUT(LD_SPAD_BASE, BOARD_SPAD_BASE);
    KX_LAYOUT(LD_SPAD_BYTES, BOARD_SPAD_BYTES);
    KX_LAYOUT(LD_STACK_BYTES, BOARD_STACK_BYTES);
    KX_LAYOUT(LD_BOOT_RESERVED, KX_BOOT_RESERVED);
    /* The firmware-owned DRAM range (RV32 cold code, docs/host-interface.md §2.1) at its CPU
     * address in the cached DRAM window; 0 bytes on boards without one. */
    KX_LAYOUT(LD_FW_DRAM_BASE, BOARD_FW_DRAM_BYTES ? RV32_DRAM_BASE + BOARD_FW_DRAM_OFFSET : 0);
    KX_LAYOUT(LD_FW_DRAM_BYTES, BOARD_FW_DRAM_BYTES);
    /* Where cold code must end: the service's copy buffer (cpu_map.h KX_FW_COPY_*) above it. */
    KX_LAYOUT(LD_FW_COLD_END, BOARD_FW_DRAM_BYTES ? RV32_DRAM_BASE + KX_FW_COPY_OFFSET : 0);
}
