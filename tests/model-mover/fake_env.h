/* fake_env.h — a test-only km_mover_env for the mover model tests: a few memory regions (an
 * access outside them is an AXI error), manual virtual time, fault injection on the n-th
 * access, a scratchpad and a busy-GO counter. Nothing here calls into mover.c internals. */
#ifndef TEST_FAKE_ENV_H
#define TEST_FAKE_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mover.h"

#define FAKE_REGIONS 8
#define FAKE_EVENTS  64
#define FAKE_SPAD    8192u

struct fake_region {
    uint64_t base;
    size_t size;
    uint8_t *mem;
};

struct fake_event {
    uint64_t t;
    void (*fn)(void *arg);
    void *arg;
};

struct fake {
    struct fake_region reg[FAKE_REGIONS];
    unsigned nreg;
    uint64_t now;
    struct fake_event ev[FAKE_EVENTS];
    unsigned nev;
    unsigned busy_go;
    unsigned reads, writes;          /* accesses seen, failed ones included */
    unsigned fail_read_at;           /* 1-based: that read returns -1; 0 = never */
    unsigned fail_write_at;
    uint64_t last_read_addr;
    uint8_t spad[FAKE_SPAD];
    struct km_mover_env env;
};

void fake_init(struct fake *f, uint64_t ns_per_cycle, uint64_t latency_ns);
void fake_free(struct fake *f);
/* Adds a region filled with a pattern that depends on the address. */
uint8_t *fake_region(struct fake *f, uint64_t base, size_t size);
/* Direct access for checks (aborts the test program on a miss: a test bug). */
uint8_t *fake_ptr(struct fake *f, uint64_t addr, size_t len);
/* The pattern byte initially at addr. */
uint8_t fake_pattern(uint64_t addr);
/* Run every event due at or before t, advancing the clock to t. */
void fake_advance(struct fake *f, uint64_t t);
/* Run every pending event. */
void fake_drain(struct fake *f);

#endif
