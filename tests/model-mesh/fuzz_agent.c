/* fuzz_agent.c — libFuzzer target for the host-supplied inputs of the mesh side of the model
 * (docs/design.md §7 layer 4): the unit map string and any sequence of control-agent register accesses,
 * byte-enabled stores and time steps, run over the test-only fakes. Checks the invariants
 * docs/hardware.md §1 states for every register state, and ASan/UBSan/LSan check the rest.
 * Input: a unit map up to the first NUL (empty = the default map), then 12-byte operations. */
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "kohaku/agent_regs.h"

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void check(bool ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size < 200 ? size : 200);
    if (!nul)
        return 0;
    char map[201];
    size_t ml = (size_t)(nul - data);
    memcpy(map, data, ml);
    map[ml] = 0;
    char err[128];
    struct km_model *m = fake_model(ml ? map : NULL, 0, err, sizeof err);
    if (!m)
        return 0;
    const uint8_t *p = nul + 1, *end = data + size;
    uint64_t budget = 200000;   /* ns of virtual time per input */
    for (; end - p >= 12; p += 12) {
        unsigned op = p[0] & 7u;
        uint32_t off = (uint32_t)le(p + 1, 2) & ~7u;
        uint64_t val = le(p + 3, 8);
        unsigned extra = p[11];
        switch (op) {
        case 0: case 1:
            km_agent_write(m, off, val, op ? KM_FROM_CPU : KM_FROM_HOST);
            break;
        case 2:
            km_agent_write_bytes(m, off, extra & 7u, 1u + ((extra >> 3) & 7u), val);
            break;
        case 3: case 4:
            (void)km_agent_read(m, off, op == 3 ? KM_FROM_HOST : KM_FROM_CPU);
            break;
        default: {
            uint64_t dt = val % 5000u;
            if (dt > budget)
                dt = budget;
            budget -= dt;
            fake_run_for(m, dt);
            break;
        }
        }
        uint64_t st = km_agent_read(m, KA_STATUS, KM_FROM_HOST);
        uint64_t ps = km_agent_read(m, KA_PROG_STAT, KM_FROM_HOST);
        uint64_t rs = km_agent_read(m, KA_RX_STATUS, KM_FROM_HOST);
        check((st & ~(KA_STATUS_BUSY)) == KA_STATUS_MESH_READY);
        check((ps & ~(KA_PROG_STAT_RUN | KA_PROG_STAT_LEFT | KA_PROG_STAT_CRED)) == 0);
        check(!(ps & KA_PROG_STAT_RUN) || (st & KA_STATUS_BUSY));
        check((ps & KA_PROG_STAT_CRED) >> 17 == km_agent_read(m, KA_PROG_CRED, KM_FROM_HOST));
        check((rs & ~(KA_RX_STATUS_EMPTY | KA_RX_STATUS_OVERFLOW)) == 0);
        check((km_agent_read(m, KA_CAPS, KM_FROM_HOST) & 0xFFFFFFu) == 0x040120u);
    }
    fake_run_for(m, budget < 10000 ? budget : 10000);
    fake_free(m);
    return 0;
}
