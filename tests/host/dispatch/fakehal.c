/* fakehal.c — the hal stand-in for native dispatch tests (fakehal/hal/hal.h): one device model
 * instance (default unit map unless fh_start is given one) reached through km_cpu_read /
 * km_cpu_write at the RV64 agent window (docs/hardware.md §5), time advanced 1 ns per access. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fakehal.h"
#include "hal/hal.h"
#include "kohaku/agent_regs.h"
#include "kohaku/cpu_map.h"

struct km_model *fh_model;
static uint64_t fh_now;
static uint8_t fh_shadow[KA_WINDOW_BYTES];

static uint64_t fh_instret(void *o) { (void)o; return fh_now; }
static void fh_hold(void *o, bool h) { (void)o; (void)h; }
static void fh_console(void *o, uint8_t b) { (void)o; (void)b; }
static void fh_stopped(void *o, unsigned s, unsigned c, uint64_t w, uint64_t pc)
{
    (void)o; (void)s; (void)c; (void)w; (void)pc;
}

void fh_start(const char *units)
{
    static const struct km_platform plat = {
        .instret = fh_instret, .hart_hold = fh_hold, .console = fh_console, .stopped = fh_stopped,
    };
    struct km_config cfg = { .variant = KM_VARIANT_RV64, .units = units };
    char err[200];
    if (fh_model)
        km_free(fh_model);
    fh_now = 0;
    memset(fh_shadow, 0, sizeof fh_shadow);
    fh_model = km_new(&cfg, &plat, err, sizeof err);
    if (!fh_model) {
        fprintf(stderr, "km_new: %s\n", err);
        exit(2);
    }
}

static void fh_tick(void)
{
    fh_now++;
    km_advance(fh_model, fh_now);
}

void fh_advance(uint64_t ns)
{
    fh_now += ns;
    km_advance(fh_model, fh_now);
}

uint64_t hal_agent_rd(uint32_t off)
{
    uint64_t v = 0;
    fh_tick();
    if (km_cpu_read(fh_model, RV64_AGENT_BASE + off, 8, &v) != 0) {
        fprintf(stderr, "fakehal: read fault at 0x%x\n", off);
        abort();
    }
    return v;
}

uint32_t hal_agent_rd32(uint32_t off) { return (uint32_t)hal_agent_rd(off); }

uint32_t hal_agent_addr(uint32_t off)
{
    return (uint32_t)(RV64_AGENT_BASE + off);
}

/* An address outside the window is a firmware bug the model refuses (abort), as any read. */
uint64_t hal_agent_rd_at(uint32_t addr)
{
    if (addr < RV64_AGENT_BASE) {
        fprintf(stderr, "fakehal: hal_agent_rd_at(0x%x): an offset, not an address\n", addr);
        abort();
    }
    return hal_agent_rd(addr - (uint32_t)RV64_AGENT_BASE);
}

void hal_agent_wr(uint32_t off, uint64_t v)
{
    fh_tick();
    if (km_cpu_write(fh_model, RV64_AGENT_BASE + off, 8, v) != 0) {
        fprintf(stderr, "fakehal: write fault at 0x%x\n", off);
        abort();
    }
}

void hal_agent_wr32(uint32_t off, uint32_t v) { hal_agent_wr(off, v); }

volatile void *hal_agent_ptr(uint32_t off) { return fh_shadow + off; }

/* The shadow's byte-enabled regions go to the model before the store the fence orders. */
void hal_fence(void)
{
    for (uint32_t off = KA_TX_FLIT(0); off < KA_TX_FLIT(5); off += 8) {
        uint64_t v;
        memcpy(&v, fh_shadow + off, 8);
        km_cpu_write(fh_model, RV64_AGENT_BASE + off, 8, v);
    }
    for (uint32_t off = KA_STAGE_BASE; off < KA_STAGE_SLOT(KA_STAGE_FLITS_DEFAULT); off += 8) {
        uint64_t v;
        memcpy(&v, fh_shadow + off, 8);
        km_cpu_write(fh_model, RV64_AGENT_BASE + off, 8, v);
    }
}

uint64_t hal_cycles(void)
{
    fh_tick();
    return fh_now;
}

uint32_t hal_cycles32(void)
{
    return (uint32_t)hal_cycles();
}

/* The waypoint's words, which the firmware's linker scripts place at scratchpad 0x200
 * (boot/boot.h kx_wait_mark). */
volatile uint32_t kx_wait_what, kx_wait_since, kx_wait_mover_since;
