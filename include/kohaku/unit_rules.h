/* unit_rules.h — the rules a unit table keeps, one function for boot/ (kx_bootblock_check, the
 * host's table in the boot block) and dispatch/ (kdp_units_check, an enumerated or
 * kdp_units_set table). Pure logic, static inline so that each keeps its own code path and
 * cost (boot: bench boot_insns). */
#ifndef KOHAKU_UNIT_RULES_H
#define KOHAKU_UNIT_RULES_H

#include <stdint.h>
#include "kohaku/bootblock.h"

/* 0 when units[0..n) keeps the rules, else `bad` (the caller's status: returned from inside
 * the loop, so boot's check is one return path as before, bench boot_insns). Each entry: inst_depth at least 1 (credit would be 0, and a
 * kick at credit 0 hangs, docs/hardware.md §1.1), not at (0,0) (a corner that holds nothing,
 * docs/hardware.md §2.4.5) nor at the agent's own coordinate (not a unit), and no coordinate
 * twice (two entries for one unit). n <= KX_BOOT_MAX_UNITS is the caller's check. Each entry
 * against those before it, back to the first, the test at the bottom: at most 32 x 31 / 2
 * compares of four instructions each, and no bitmap to clear. */
static inline __attribute__((always_inline)) unsigned
kx_units_check(const struct kx_unit_entry *units, uint32_t n, uint32_t agent_yx, unsigned bad)
{
    for (const struct kx_unit_entry *u = units, *end = u + n; u != end; u++) {
        uint32_t yx = u->yx;
        if (u->inst_depth == 0 || yx == 0 || yx == agent_yx)
            return bad;
        for (const struct kx_unit_entry *e = u; e != units;)
            if ((--e)->yx == yx)
                return bad;
    }
    return 0;
}

#endif
