/* kh_util.h — libkohaku's private helpers, shared by its own files and not part of
 * libkohaku.h: little-endian fields (the host port's wire format, hostport.h; ELF headers) and
 * the monotonic millisecond clock every bounded wait measures itself by. */
#ifndef KH_UTIL_H
#define KH_UTIL_H

#include <stdint.h>

static inline void kh_le_put(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t kh_le_get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* CLOCK_MONOTONIC in milliseconds (queue.c). */
uint64_t kh_ms_now(void);

#endif
