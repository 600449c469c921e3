/* sum4.h — the one word-sum loop of the firmware's integrity checks: a record's digest
 * (service/kq.h kq_rec_digest: RECORD keeps it; the by-handle check runs it through hal_sum4)
 * and RV32's cold-segment check (hal/rv32/kvm.c hal_cold_bad). Here, not in hal/ or service/,
 * so that the host test of the digest (host-service/digest) runs the same C as the firmware:
 * hal_sum4 is this function (RV64: inline; RV32: one out-of-line copy its two callers share).
 *
 * s plus the native words p .. end - 1 (end - p a nonzero multiple of 4), modulo 2^bits, each
 * read once as it is in memory (volatile: a check must see what a host or a unit wrote). */
#ifndef KOHAKU_SUM4_H
#define KOHAKU_SUM4_H

#include <stdint.h>

static inline uintptr_t kx_sum4(uintptr_t s, const volatile uintptr_t *p, const volatile uintptr_t *end)
{
    do {
        s += p[0] + p[1] + p[2] + p[3];
        p += 4;
    } while (p != end);
    return s;
}

#endif
