/* exitword.h — the words the firmware stops with (EXIT register, RV32 halt word), so a
 * runner, kactl and a person reading a log can tell why a core stopped. Ours. */
#ifndef KOHAKU_EXITWORD_H
#define KOHAKU_EXITWORD_H

#include "bits.h"

#define KX_EXIT_OK             0x00000000u   /* clean stop (STOP command, test pass) */

/* Boot-block refusals: 0xB007_00rr, rr = enum kx_boot_reason. */
#define KX_EXIT_BOOT_BASE      0xB0070000u
#define KX_EXIT_BOOT(r)        (KX_EXIT_BOOT_BASE | ((r) & 0xFFu))
#define KX_EXIT_IS_BOOT(w)     (((w) & 0xFFFFFF00u) == KX_EXIT_BOOT_BASE)

/* Fatal firmware assertion: 0xDEAD_00nn (nn = a site id). */
#define KX_EXIT_ASSERT_BASE    0xDEAD0000u

/* On-target test images: 0x7E57_0000 | failures (0x7E57_0000 itself = all passed). */
#define KX_EXIT_TEST_BASE      0x7E570000u

/* RV64 trap: "TRAP" in [63:32], mcause in [31:0] (interrupt bit folded to bit 31). */
#define KX_EXIT_TRAP_TAG       UINT64_C(0x54524150)
#define KX_EXIT_TRAP(cause)    ((KX_EXIT_TRAP_TAG << 32) | ((uint64_t)(cause) & 0xFFFFFFFFu))
#define KX_EXIT_IS_TRAP(w)     (((uint64_t)(w) >> 32) == KX_EXIT_TRAP_TAG)

enum kx_boot_reason {
    KX_BOOT_BAD_MAGIC = 1,
    KX_BOOT_BAD_VERSION = 2,
    KX_BOOT_BAD_SIZE = 3,
    KX_BOOT_BAD_FLAGS = 4,
    KX_BOOT_BAD_QUEUE = 5,
    KX_BOOT_BAD_TIMEOUT = 6,
    KX_BOOT_BAD_UNITS = 7,
    /* wait_cycles above KX_BOOT_WAIT_MAX (bootblock.h): a 32-bit elapsed count could pass
     * such a limit without ever exceeding it, and a wait would never end. */
    KX_BOOT_BAD_WAIT = 8,
    /* RV32: the cold segment in the firmware's DRAM range is absent or is not the one this
     * image was linked with (its magic, length or checksum; docs/kvm.md "Guards"). */
    KX_BOOT_BAD_COLD = 9,
    KX_BOOT_BAD_RECORDS = 10,   /* rec_handles or rec_bytes out of range (boot/bootblock.c) */
};

#endif
