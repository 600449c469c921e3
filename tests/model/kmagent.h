/* kmagent.h — the model tests' host-side access to the control agent's registers (docs/hardware.md §1)
 * on a whole model (km_new): reads and writes as the host port makes them, time advanced on the
 * real event queue, and a dispatch kick. M is the model under test, set by the including test. */
#ifndef KMAGENT_H
#define KMAGENT_H

#include <stdint.h>

#include "km_internal.h"

static struct km_model *M;

static inline uint64_t rd(uint32_t off) { return km_agent_read(M, off, KM_FROM_HOST); }
static inline void wr(uint32_t off, uint64_t v) { km_agent_write(M, off, v, KM_FROM_HOST); }
static inline void run(uint64_t ns) { km_advance(M, km_now(M) + ns); }

/* A dispatch: PROG_BASE 0x68, PROG_LEN 0x48, PROG_DST 0x40, PROG_CRED 0x60, then PROG_KICK
 * 0x50 (docs/hardware.md §1). */
static inline void kick(unsigned base, unsigned len, unsigned dst, unsigned cred)
{
    wr(0x0068, base);
    wr(0x0048, len);
    wr(0x0040, dst);
    wr(0x0060, cred);
    wr(0x0050, 1);
}

#endif
