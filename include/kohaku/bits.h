/* bits.h — field helpers shared by firmware, model and host tools.
 * Every field is a MASK; GET/PREP derive the shift from that same mask, so a field can
 * never be read with its neighbour's shift (docs/design.md §6, "Registers"). */
#ifndef KOHAKU_BITS_H
#define KOHAKU_BITS_H

#include <stdint.h>

#define KBF_BIT(n)          (UINT64_C(1) << (n))
/* Bits h..l inclusive, h >= l, h <= 63. */
#define KBF_GENMASK(h, l)   ((~UINT64_C(0) >> (63 - (h))) & (~UINT64_C(0) << (l)))
#define KBF_FIELD_SHIFT(m)  ((unsigned)__builtin_ctzll(m))
#define KBF_FIELD_GET(m, v) (((uint64_t)(v) & (m)) >> KBF_FIELD_SHIFT(m))
#define KBF_FIELD_PREP(m, v) (((uint64_t)(v) << KBF_FIELD_SHIFT(m)) & (m))
/* Does v fit the field m without truncation? One compare against the field's largest value:
 * GCC 12.2 at -O1 and above miscompiled the earlier two-clause form (shift round trip and
 * PREP round trip) in a caller that also tested other fields, passing 1 << 40 as fitting the
 * 40-bit HDR base (docs/mover.md §8). */
#define KBF_FIELD_FITS(m, v) ((uint64_t)(v) <= ((uint64_t)(m) >> KBF_FIELD_SHIFT(m)))

#endif
