/* fake_env.c — the test-only mover environment (fake_env.h): region memory, manual time,
 * AXI error injection. */
#include "fake_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t fake_pattern(uint64_t addr)
{
    /* Different in every byte of a word and from word to word, so a wrong address shows. */
    uint64_t x = addr * 0x9E3779B97F4A7C15ull;
    return (uint8_t)((x >> 56) ^ (addr & 0xFF));
}

static struct fake_region *find(struct fake *f, uint64_t addr, size_t len)
{
    for (unsigned i = 0; i < f->nreg; i++) {
        struct fake_region *r = &f->reg[i];
        if (addr >= r->base && addr - r->base <= r->size && len <= r->size - (addr - r->base))
            return r;
    }
    return NULL;
}

static int f_read(void *ctx, uint64_t ug, void *buf, size_t len)
{
    struct fake *f = ctx;
    f->reads++;
    f->last_read_addr = ug;
    if (f->fail_read_at && f->reads == f->fail_read_at)
        return -1;
    struct fake_region *r = find(f, ug, len);
    if (!r)
        return -1;
    memcpy(buf, r->mem + (ug - r->base), len);
    return 0;
}

static int f_write(void *ctx, uint64_t ug, const void *buf, size_t len)
{
    struct fake *f = ctx;
    f->writes++;
    if (f->fail_write_at && f->writes == f->fail_write_at)
        return -1;
    struct fake_region *r = find(f, ug, len);
    if (!r)
        return -1;
    memcpy(r->mem + (ug - r->base), buf, len);
    return 0;
}

static uint64_t f_now(void *ctx)
{
    return ((struct fake *)ctx)->now;
}

static void f_at(void *ctx, uint64_t t, void (*fn)(void *arg), void *arg)
{
    struct fake *f = ctx;
    if (f->nev == FAKE_EVENTS) {
        fprintf(stderr, "fake_env: event queue full\n");
        abort();
    }
    f->ev[f->nev++] = (struct fake_event){ t, fn, arg };
}

static void f_busy_go(void *ctx)
{
    ((struct fake *)ctx)->busy_go++;
}

void fake_init(struct fake *f, uint64_t ns_per_cycle, uint64_t latency_ns)
{
    memset(f, 0, sizeof(*f));
    f->env = (struct km_mover_env){
        .ctx = f, .mem_read = f_read, .mem_write = f_write, .now = f_now, .at = f_at,
        .busy_go = f_busy_go, .spad = f->spad, .spad_bytes = FAKE_SPAD,
        .ns_per_cycle = ns_per_cycle, .latency_ns = latency_ns,
    };
}

void fake_free(struct fake *f)
{
    for (unsigned i = 0; i < f->nreg; i++)
        free(f->reg[i].mem);
    f->nreg = 0;
}

uint8_t *fake_region(struct fake *f, uint64_t base, size_t size)
{
    if (f->nreg == FAKE_REGIONS)
        abort();
    struct fake_region *r = &f->reg[f->nreg++];
    r->base = base;
    r->size = size;
    r->mem = malloc(size);
    if (!r->mem)
        abort();
    for (size_t i = 0; i < size; i++)
        r->mem[i] = fake_pattern(base + i);
    return r->mem;
}

uint8_t *fake_ptr(struct fake *f, uint64_t addr, size_t len)
{
    struct fake_region *r = find(f, addr, len);
    if (!r) {
        fprintf(stderr, "fake_env: test touches unmapped 0x%llx\n", (unsigned long long)addr);
        abort();
    }
    return r->mem + (addr - r->base);
}

void fake_advance(struct fake *f, uint64_t t)
{
    for (;;) {
        unsigned best = f->nev;
        for (unsigned i = 0; i < f->nev; i++)
            if (f->ev[i].t <= t && (best == f->nev || f->ev[i].t < f->ev[best].t))
                best = i;
        if (best == f->nev)
            break;
        struct fake_event e = f->ev[best];
        memmove(&f->ev[best], &f->ev[best + 1], (f->nev - best - 1) * sizeof(e));
        f->nev--;
        if (e.t > f->now)
            f->now = e.t;
        e.fn(e.arg);
    }
    if (t > f->now)
        f->now = t;
}

void fake_drain(struct fake *f)
{
    uint64_t last = f->now;
    for (unsigned i = 0; i < f->nev; i++)
        if (f->ev[i].t > last)
            last = f->ev[i].t;
    fake_advance(f, last);
}
