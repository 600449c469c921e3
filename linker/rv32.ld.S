/* rv32.ld.S — RV32 image layout (docs/hardware.md §4), preprocessed with the board header so the
 * regions come from the board. The instruction window is fetch-only: everything the code
 * reads as data (.rodata too) is linked at its scratchpad address and loaded there. */
#include "layout.h"   /* generated from board.h by linker/layout.c */

OUTPUT_ARCH(riscv)
ENTRY(_start)

MEMORY
{
    IMEM (x)  : ORIGIN = LD_IMEM_BASE, LENGTH = LD_IMEM_BYTES
    /* The first LD_BOOT_RESERVED bytes belong to the boot block the host writes. */
    SPAD (rw) : ORIGIN = LD_SPAD_BASE + LD_BOOT_RESERVED,
                LENGTH = LD_SPAD_BYTES - LD_BOOT_RESERVED
    /* The firmware-owned DRAM range (docs/host-interface.md §2.1): cold code, read as data
     * through the cached DRAM window by the interpreter (docs/kvm.md); its own PT_LOAD segment,
     * which the QEMU loader and the host's flasher write into DRAM before the core runs. */
    FW_DRAM (r) : ORIGIN = LD_FW_DRAM_BASE, LENGTH = LD_FW_DRAM_BYTES
}

__kx_imem_base   = LD_IMEM_BASE;
__kx_imem_end    = LD_IMEM_BASE + LD_IMEM_BYTES;
__kx_spad_base   = LD_SPAD_BASE;
__kx_spad_end    = LD_SPAD_BASE + LD_SPAD_BYTES;
__kx_bootblock   = LD_SPAD_BASE;
__kx_stack_bytes = LD_STACK_BYTES;

SECTIONS
{
    .text : ALIGN(4) {
        KEEP(*(.text.start))            /* reset entry at the reset PC (0) */
        *(.text .text.*)
        __kx_text_end = .;
    } > IMEM

    /* Cold code (docs/kvm.md): instructions of the cold objects as read-only data in the
     * firmware's DRAM range, run by hal/rv32/kvm.c. Their data (.rodata, .data, .bss) stays in
     * the scratchpad with everyone else's, gp-relative as natively. */
    .kvm_cold : ALIGN(16) {
        __kx_cold_start = .;
        /* The header the boot checks (hal/rv32/kvm.h; docs/kvm.md "Guards"): magic
         * (KVM_COLD_MAGIC, "KVMC"), the segment's length in bytes, the build id (0 here,
         * written by scripts/cold-sum.sh after the link), and `ret` (jalr x0, 0(ra)): the
         * cold function hal_cold_verify runs to have kvm_call check the segment. */
        LONG(0x434D564B)
        LONG(__kx_cold_end - __kx_cold_start)
        LONG(0)
        __kx_cold_ret = .;
        LONG(0x00008067)
        *(.kvm_cold .kvm_cold.*)
        __kx_cold_code_end = .; /* check-image.sh scans the code up to here, not the padding */
        . = ALIGN(16);          /* the check sums four words a turn */
        __kx_cold_end = .;
    } > FW_DRAM
    /* The top of the range is the service's copy buffer (cpu_map.h KX_FW_COPY_*). */
    ASSERT(__kx_cold_end <= LD_FW_COLD_END || LD_FW_DRAM_BYTES == 0,
           "RV32 cold code runs into the firmware's copy buffer (cpu_map.h KX_FW_COPY_OFFSET)")

    .rodata : ALIGN(8) {
        __kx_rodata_start = .;
        /* First: the waypoint the host reads at KX_WAYPOINT_OFFSET (kohaku/bootblock.h). */
        KEEP(*(.kx_waypoint))
        /* Its fields as symbols, one store each (boot/boot.h kx_wait_mark). */
        kx_wait_what = kx_waypoint;
        kx_wait_since = kx_waypoint + 4;
        kx_wait_mover_since = kx_waypoint + 8;
        *(.srodata .srodata.*)
        *(.rodata .rodata.*)
        /* The cold segment's checks (hal/rv32/kvm.h __kx_cold_chk): its header's end and the
         * header's sum; its end and the sum of all its words (__kx_cold_sum); its start.
         * The sums are 0 here, written by scripts/cold-sum.sh after the link. */
        . = ALIGN(4);
        __kx_cold_chk = .;
        LONG(__kx_cold_start + 16)
        LONG(0)
        LONG(__kx_cold_end)
        __kx_cold_sum = .;
        LONG(0)
        LONG(__kx_cold_start)
        __kx_rodata_end = .;
    } > SPAD

    .data : ALIGN(8) {
        __kx_data_start = .;
        *(.sdata .sdata.*)
        *(.data .data.*)
        __kx_data_end = .;
    } > SPAD

    /* gp-relative addressing reaches +-2 KB around __global_pointer$; crt0 sets gp. 0x7E0,
     * not 0x800: the linker relaxes an access below gp only within 2 KB less the largest
     * section alignment (32), and the waypoint at .rodata's start must be one store a word
     * (boot/boot.h kx_wait_mark; measured 0x800: +12 window bytes). */
    __global_pointer$ = MIN(__kx_rodata_start + 0x7E0, __kx_spad_end);

    .bss (NOLOAD) : ALIGN(8) {
        __kx_bss_start = .;
        *(.sbss .sbss.*)
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(8);
        /* Never empty: crt0.S zeroes it with the test at the bottom. */
        . = . == __kx_bss_start ? . + 8 : .;
        __kx_bss_end = .;
    } > SPAD

    /* Never zeroed: large tables their owner initialises before use. The service's state and
     * the mover's staging buffers first, so they stay within gp's reach (+-2 KB of
     * __global_pointer$); the records' table (.noinit.kqrec, one lookup a command) after. */
    .noinit (NOLOAD) : ALIGN(8) {
        __kx_noinit_start = .;
        *(.noinit.kq)
        *(.noinit.kmv)
        *(.noinit .noinit.*)
        . = ALIGN(8);
        __kx_noinit_end = .;
    } > SPAD

    /* The stack takes the top LD_STACK_BYTES of the scratchpad; this section only
     * reserves the space so an overflow of the data above is a link error. */
    .stack (NOLOAD) : ALIGN(16) {
        __kx_stack_bottom = .;
        . = . + LD_STACK_BYTES;
    } > SPAD
    __kx_stack_top = __kx_spad_end;

    /DISCARD/ : { *(.comment) *(.note .note.*) *(.eh_frame .eh_frame_hdr) *(.riscv.attributes.discard) }
}

ASSERT(__kx_stack_bottom + LD_STACK_BYTES <= __kx_spad_end, "scratchpad overflow: data + stack exceed the window")
ASSERT(__kx_text_end <= __kx_imem_end, "instruction window overflow")
ASSERT(kx_waypoint == LD_SPAD_BASE + LD_BOOT_RESERVED, "the waypoint is not where the host reads it")
ASSERT((__kx_stack_top & 0xFFF) == 0, "crt0.S sets sp with one lui: the stack top must be 4 KB-aligned")
