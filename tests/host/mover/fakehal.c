/* fakehal.c — the hal stand-in for the native replay tests (fakehal/hal/hal.h): the model's
 * mover (model/mover.c, docs/hardware.md §3, §4 descriptor form) over a 1 MB memory image, a clock
 * advanced 1 ns per hal call, and a log of the calls replay made. */
#include <stdlib.h>
#include <string.h>

#include "fakehal.h"
#include "hal/hal.h"
#include "mover.h"

uint8_t fh_mem[FH_MEM_BYTES];
struct fh_log fh_log;

static struct km_mover *mv;
static uint64_t now;
static uint8_t spad[RV32_SPAD_BYTES];
static const volatile void *spad_src[2];     /* the host buffers behind word indices 0 and 512 */

struct ev { uint64_t t; void (*fn)(void *); void *arg; };
static struct ev evs[64];
static unsigned nev;

static int mem_rw(uint64_t ug, void *buf, size_t len, int wr)
{
    if ((ug >> 39) & 1u || ug + len > FH_MEM_BYTES)
        return -1;
    if (wr)
        memcpy(fh_mem + ug, buf, len);
    else
        memcpy(buf, fh_mem + ug, len);
    return 0;
}
static int mem_read(void *c, uint64_t ug, void *buf, size_t len) { (void)c; return mem_rw(ug, buf, len, 0); }
static int mem_write(void *c, uint64_t ug, const void *buf, size_t len)
{
    (void)c;
    return mem_rw(ug, (void *)buf, len, 1);
}
static uint64_t env_now(void *c) { (void)c; return now; }
static void env_at(void *c, uint64_t t, void (*fn)(void *), void *arg)
{
    (void)c;
    if (nev == sizeof(evs) / sizeof(evs[0]))
        abort();
    evs[nev++] = (struct ev){ t, fn, arg };
}
static void env_busy_go(void *c) { (void)c; fh_log.busy_go++; }

static void tick(void)
{
    now++;
    for (unsigned i = 0; i < nev;) {
        if (evs[i].t <= now) {
            struct ev e = evs[i];
            evs[i] = evs[--nev];
            e.fn(e.arg);
        } else {
            i++;
        }
    }
}

void fh_reset(void)
{
    static const struct km_mover_env env0 = {
        .mem_read = mem_read, .mem_write = mem_write, .now = env_now, .at = env_at,
        .busy_go = env_busy_go, .spad = spad, .spad_bytes = sizeof(spad),
        .ns_per_cycle = 1, .latency_ns = 40,
    };
    if (mv)
        km_mover_free(mv);
    nev = 0;
    now = 0;
    memset(fh_mem, 0, sizeof(fh_mem));
    memset(&fh_log, 0, sizeof(fh_log));
    mv = km_mover_new(&env0);
    if (!mv)
        abort();
}

uint64_t fh_now(void) { return now; }

uint64_t hal_cycles(void)
{
    tick();
    return now;
}

uint32_t hal_cycles32(void)
{
    tick();
    return (uint32_t)now;
}

void hal_fence(void) { tick(); }

void hal_dcache_flush(void)
{
    tick();
    if (fh_log.flush++ == 0)
        fh_log.first_flush_t = now;
}

void hal_dcache_inval(void)
{
    tick();
    fh_log.inval++;
    fh_log.last_inval_t = now;
}

/* The port has two buffers; they get word indices 0 and 512 of the fake scratchpad. */
uint32_t hal_spad_word_index(const volatile void *p)
{
    for (unsigned i = 0; i < 2; i++) {
        if (spad_src[i] == p || spad_src[i] == NULL) {
            spad_src[i] = p;
            return i * 512u;
        }
    }
    abort();
}

void hal_mvgo(uint32_t idx)
{
    const volatile uint32_t *src = spad_src[idx / 512u];
    uint32_t n = src[0];

    tick();
    /* What the hardware would fetch: the count and n records, copied as they are now. */
    for (uint32_t i = 0; i < 1u + 3u * n; i++) {
        uint32_t w = src[i];
        memcpy(spad + 4u * (idx + i), &w, 4);
    }
    if (fh_log.ngaps < sizeof(fh_log.gap_after_idle) / sizeof(fh_log.gap_after_idle[0]))
        fh_log.gap_after_idle[fh_log.ngaps++] = now - fh_log.idle_seen_t;
    fh_log.mvgo++;
    fh_log.last_mvgo_t = now;
    km_mover_mvgo(mv, idx);
}

uint32_t hal_mvgo_status(void)
{
    static int was_busy;
    uint32_t s;

    tick();
    s = km_mover_mvgo_status(mv);
    if (was_busy && !(s & RV32_MVGO_BUSY))
        fh_log.idle_seen_t = now;
    was_busy = (s & RV32_MVGO_BUSY) != 0;
    return s;
}
