/* bootblock.c — boot-block validation (SYSTEM.md §4, include/kohaku/bootblock.h). Pure logic:
 * no hal, so host unit tests and fuzzers compile it natively. */
#include "boot.h"

unsigned kx_bootblock_check(const struct kx_bootblock *bb)
{
    if (bb->magic != KX_BOOT_MAGIC)
        return KX_BOOT_BAD_MAGIC;
    if (bb->version != KX_BOOT_VERSION)
        return KX_BOOT_BAD_VERSION;
    /* size is checked before the table is looked at, so nothing past the declared size is
     * ever read; a count above the maximum cannot make a size that matches. */
    if (bb->unit_count > KX_BOOT_MAX_UNITS ||
        bb->size != KX_BOOT_HDR_BYTES + (uint32_t)bb->unit_count * sizeof(struct kx_unit_entry))
        return KX_BOOT_BAD_SIZE;
    if (bb->flags & ~KX_BOOT_F_ALL)
        return KX_BOOT_BAD_FLAGS;
    if (bb->wait_cycles == 0)
        return KX_BOOT_BAD_TIMEOUT;
    if (!(bb->flags & KX_BOOT_F_UNITS)) {
        /* A table without the flag is a host mistake, not something to ignore silently. */
        return bb->unit_count ? KX_BOOT_BAD_UNITS : 0;
    }
    if (bb->unit_count == 0)
        return KX_BOOT_BAD_UNITS;
    /* inst_depth 0 could never be dispatched to (credit would be 0, BOARD.md §1.1: a kick at
     * credit 0 hangs); a repeated coordinate would make two entries for one unit. */
    uint32_t seen[256 / 32];
    for (unsigned i = 0; i < 256 / 32; i++) {
        seen[i] = 0;
        /* keeps GCC from turning the loop into a memset call: libc's memset is 220 bytes of
         * the RV32 instruction window (docs/firmware.md) */
        __asm__("" : : "r"(seen) : "memory");
    }
    for (unsigned i = 0; i < bb->unit_count; i++) {
        const struct kx_unit_entry *u = &bb->units[i];
        if (u->inst_depth == 0)
            return KX_BOOT_BAD_UNITS;
        uint32_t bit = UINT32_C(1) << (u->yx & 31u);
        if (seen[u->yx >> 5] & bit)
            return KX_BOOT_BAD_UNITS;
        seen[u->yx >> 5] |= bit;
    }
    return 0;
}
