/* bootblock.h — the boot block the host writes at the start of the scratchpad after the
 * image and before it releases the core (docs/design.md §4). Ours; docs/host-interface.md
 * describes it. Little-endian, fixed layout pinned by _Static_asserts. */
#ifndef KOHAKU_BOOTBLOCK_H
#define KOHAKU_BOOTBLOCK_H

#include <stddef.h>
#include <stdint.h>

#define KX_BOOT_MAGIC        0x4B424F54u      /* "KBOT" read as a big-endian word */
#define KX_BOOT_VERSION      1u
#define KX_BOOT_MAX_UNITS    32u
#define KX_BOOT_RESERVED     0x200u           /* scratchpad bytes kept for the boot block */

#define KX_BOOT_F_UNITS      0x1u             /* the unit table below replaces enumeration */
#define KX_BOOT_F_ALL        KX_BOOT_F_UNITS

struct kx_unit_entry {
    uint8_t  yx;            /* {y[3:0], x[3:0]} */
    uint8_t  version;       /* CU_CAPS[47:40] */
    uint8_t  buffers;       /* CU_CAPS[39:36] */
    uint8_t  rsvd;
    uint16_t type;          /* CU_CAPS[63:48] */
    uint16_t inst_depth;    /* CU_CAPS[35:20] */
};

struct kx_bootblock {
    uint32_t magic;         /* KX_BOOT_MAGIC */
    uint16_t version;       /* KX_BOOT_VERSION */
    uint16_t size;          /* bytes, header plus unit_count entries */
    uint32_t flags;         /* KX_BOOT_F_* ; unknown bits refuse the block */
    uint32_t wait_cycles;   /* per-wait timeout in processor cycles, 1..KX_BOOT_WAIT_MAX; 0 or
                             * more refuses the block (KX_BOOT_BAD_TIMEOUT, KX_BOOT_BAD_WAIT) */
    uint64_t queue_addr;    /* unit-global address of the command queue header */
    uint16_t unit_count;    /* entries in units[] when KX_BOOT_F_UNITS */
    /* Records (docs/host-interface.md "Records"). Reserved and 0 before they existed, so 0
     * means the default: an older host's block still boots, and older firmware ignores them. */
    uint16_t rec_handles;   /* records at most: 0 = KQ_REC_DEF_HANDLES (8); 1..KQ_REC_MAX_HANDLES (8) */
    uint32_t rec_bytes;     /* record area bytes: 0 = KQ_REC_DEF_BYTES; a multiple of 32, at most
                             * KQ_REC_MAX_BYTES (larger is refused: KX_BOOT_BAD_RECORDS) */
    struct kx_unit_entry units[KX_BOOT_MAX_UNITS];
};

_Static_assert(sizeof(struct kx_unit_entry) == 8, "unit entry layout");
_Static_assert(offsetof(struct kx_bootblock, magic) == 0, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, version) == 4, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, size) == 6, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, flags) == 8, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, wait_cycles) == 12, "bootblock layout");
/* The longest wait_cycles accepted: 2^31 - 1 (2.1 s at 1 GHz). Waits compare a 32-bit elapsed
 * count with it, and a count that polls more often than every 2^31 cycles passes such a limit
 * before it can wrap; 0xFFFFFFFF could never be passed. */
#define KX_BOOT_WAIT_MAX    0x7FFFFFFFu
_Static_assert(offsetof(struct kx_bootblock, queue_addr) == 16, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, unit_count) == 24, "bootblock layout");
_Static_assert(offsetof(struct kx_bootblock, units) == 32, "bootblock layout");
_Static_assert(sizeof(struct kx_bootblock) <= KX_BOOT_RESERVED, "bootblock fits its reservation");

#define KX_BOOT_HDR_BYTES    32u

/* The waypoint (docs/host-interface.md §2.2): 16 bytes right after the boot block's
 * reservation, written by the firmware, read by the host (kactl status) to say what a node that
 * seems stuck was waiting for. Written where each central bounded wait begins, never cleared
 * when one ends (a store per wait end is window bytes): a wait is over once its bound has
 * passed since it began. Cycles are the processor's cycle counter, low 32 bits (RV32: the count
 * since release, as the host port's; RV64: mcycle, which also counts the time held). */
#define KX_WAYPOINT_OFFSET   KX_BOOT_RESERVED  /* from the scratchpad base */
struct kx_waypoint {
    uint32_t what;          /* the last dispatcher register wait: a timeout's detail, await code
                             * << 8 | unit {y,x} (dispatch/kdp_flit.h KDP_AWAIT_*); 0 none yet */
    uint32_t since;         /* the cycle it began */
    uint32_t mover_since;   /* the cycle the last mover wait began (status.h KS_AWAIT_MOVER: a
                             * move, or the mover idle before a list); 0 none yet */
    uint32_t rsvd;          /* 0 */
};
_Static_assert(sizeof(struct kx_waypoint) == 16 && offsetof(struct kx_waypoint, since) == 4 &&
               offsetof(struct kx_waypoint, mover_since) == 8, "waypoint layout");

#endif
