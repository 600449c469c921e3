/* bootblock.c — boot-block validation (docs/design.md §4, include/kohaku/bootblock.h). Pure logic:
 * no hal, so host unit tests and fuzzers compile it natively. */
#include "boot.h"
#include "board.h"     /* BOARD_AGENT_YX: no unit sits at the agent's own coordinate */
#include "kohaku/unit_rules.h"
#include "kohaku/queue.h"   /* the records' limits, KQ_REC_MAX_* */

unsigned kx_bootblock_check(const struct kx_bootblock *bb)
{
    uint32_t n = bb->unit_count;

    if (bb->magic != KX_BOOT_MAGIC)
        return KX_BOOT_BAD_MAGIC;
    if (bb->version != KX_BOOT_VERSION)
        return KX_BOOT_BAD_VERSION;
    /* size is checked before the table is looked at, so nothing past the declared size is
     * ever read; a count above the maximum cannot make a size that matches. */
    if (n > KX_BOOT_MAX_UNITS || bb->size != KX_BOOT_HDR_BYTES + n * sizeof(struct kx_unit_entry))
        return KX_BOOT_BAD_SIZE;
    if (bb->flags & ~KX_BOOT_F_ALL)
        return KX_BOOT_BAD_FLAGS;
    if (bb->wait_cycles == 0)
        return KX_BOOT_BAD_TIMEOUT;
    /* Every wait compares a 32-bit elapsed count, now - start, with the limit; it polls at
     * least every few thousand cycles, so a limit of at most 2^31 - 1 is exceeded before the
     * count can wrap. 0xFFFFFFFF could never be exceeded. */
    if (bb->wait_cycles > KX_BOOT_WAIT_MAX)
        return KX_BOOT_BAD_WAIT;
    /* The records' limits (0: the firmware's defaults): at most KQ_REC_MAX_HANDLES records and
     * a KQ_REC_MAX_BYTES area of 32-byte units. Here, with the other rules, so the service's
     * boot (service/kq_cold.c cold_boot) only sets the table up: one refusal path. */
    if (bb->rec_handles > KQ_REC_MAX_HANDLES || bb->rec_bytes > KQ_REC_MAX_BYTES || (bb->rec_bytes & 31u))
        return KX_BOOT_BAD_RECORDS;
    /* A table without the flag is a host mistake, not something to ignore silently; the flag
     * without a table too. flags holds no other bit by now, so it must equal "has a table". */
    _Static_assert(KX_BOOT_F_ALL == KX_BOOT_F_UNITS && KX_BOOT_F_UNITS == 1u,
                   "flags is 0 or KX_BOOT_F_UNITS here");
    if (bb->flags != (n != 0))
        return KX_BOOT_BAD_UNITS;
    /* The table's rules, the same function as dispatch/'s kdp_units_check, so the service
     * loads this table without checking it again. */
    return kx_units_check(bb->units, n, BOARD_AGENT_YX, KX_BOOT_BAD_UNITS);
}
