/* fuzz_cpu.c — libFuzzer target for the processor side (model/cpu.c and everything it
 * reaches: agent window, mover via MVGO and the RV64 window, caches, memory): a buggy
 * firmware may store anything anywhere, and the model must answer 0 or -1, never crash.
 * Each input is a list of 16-byte accesses {addr u64 (steered into the mapped regions),
 * value u32, size, flags}; run by `make fuzz`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"

static void nop_hold(void *o, bool h) { (void)o; (void)h; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct km_model *models[2];
    static const uint64_t rv32_bases[] = { 0x10000000, 0x20000000, 0x80000000, 0xEFFFF000,
                                           0xF0000000, 0xF0010000, 0x70000000, 0xF1000000 };
    static const uint64_t rv64_bases[] = { 0x10000, 0x20000, 0x1000000, 0x1002000, 0x10000000,
                                           0x4010000000ull, 0x8000000000ull, 0x9000000000ull };
    unsigned v = size && (data[0] & 1);
    if (!models[v]) {
        static const struct km_platform plat = { .hart_hold = nop_hold };
        struct km_config cfg = { .variant = v ? KM_VARIANT_RV64 : KM_VARIANT_RV32,
                                 .dram_bytes = 16u << 20 };
        models[v] = km_new(&cfg, &plat, NULL, 0);
        if (!models[v])
            abort();
    }
    struct km_model *m = models[v];
    km_reset(m);
    for (size_t off = 1; off + 16 <= size; off += 16) {
        const uint8_t *r = data + off;
        unsigned sel = r[14];
        uint64_t a = get(r, 8);
        if (sel & 0x80)     /* steer: a region base plus a small offset */
            a = (v ? rv64_bases[sel & 7] : rv32_bases[sel & 7]) + (a & 0x3FFF);
        unsigned size_sel = (unsigned)(r[15] & 3);
        unsigned sz = 1u << size_sel;
        a &= ~(uint64_t)(sz - 1);
        uint64_t val = get(r + 8, 4) | (uint64_t)get(r + 10, 4) << 32;
        uint64_t got;
        if (r[15] & 4)
            km_cpu_write(m, a, sz, val);
        else
            km_cpu_read(m, a, sz, &got);
        if (r[15] & 8)
            km_advance(m, km_now(m) + (r[13] << 4));
    }
    km_advance(m, km_now(m) + 100000);
    return 0;
}
