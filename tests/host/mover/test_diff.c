/* test_diff.c — the validator (mover/validate.c) against its frozen predecessor
 * (fuzz/mover/ref/ref_validate.c, as of commit d81d2a4) on generated descriptor lists, both
 * reaches: the same status, detail, index and move count on every list, so the size rework
 * keeps every refusal (docs/mover.md "Size and cost"). Lists are built from moves whose
 * registers take values at and around every limit docs/hardware.md §3/§3.1 and the validator name
 * (alignment, 40-bit base, int32 offsets, 2^48 elements, 2048 indices, dimension 5/6, modes
 * and widths, the XFORM cases), so most of them reach the GO checks; a fixed seed keeps runs
 * reproducible. */
#include <string.h>

#include "ht.h"
#include "kmv.h"

unsigned ref_kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                          struct kmv_result *res);

#define LISTS     300000u
#define MAX_N     48u

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint32_t pick(uint32_t n) { return (uint32_t)(rnd() % n); }

/* A value of a field `bits` wide: limits, neighbours of limits, small and random values. */
static uint64_t field(unsigned bits)
{
    uint64_t max = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    switch (pick(8)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return max;
    case 3: return max - 1;
    case 4: return max >> 1;
    case 5: return (max >> 1) + 1;
    case 6: return pick(8);
    default: return rnd() & max;
    }
}

/* A byte quantity: mostly multiples of 32, sometimes not. */
static uint64_t aligned(unsigned bits)
{
    uint64_t v = field(bits);
    return pick(6) ? v & ~UINT64_C(31) : v;
}

static int64_t stride(void)
{
    static const int64_t s[] = { 0, 32, -32, 64, 1024, -4096, 0x10000, -0x10000, 0x7FFFFFE0,
                                 -0x80000000LL, 0x40000000, 48, 16 };
    return pick(3) ? s[pick(sizeof(s) / sizeof(s[0]))] : (int64_t)(int32_t)(uint32_t)rnd();
}

static uint32_t count(void)
{
    static const uint32_t c[] = { 0, 1, 2, 3, 4, 8, 16, 255, 256, 4096, 32767, 32768, 65535 };
    return c[pick(sizeof(c) / sizeof(c[0]))];
}

static uint64_t base40(void)
{
    static const uint64_t b[] = { 0, 0x1000, 0x20000000, UINT64_C(1) << 31, (UINT64_C(1) << 40) - 32,
                                  (UINT64_C(1) << 40) - 0x10000, (UINT64_C(1) << 39), 0x80000000 - 32 };
    uint64_t v = pick(2) ? b[pick(sizeof(b) / sizeof(b[0]))] : aligned(40);
    return pick(10) ? v : v | (pick(2) ? 16 : 8);
}

static struct kd_write L[MAX_N + 64];
static uint32_t n;

static void put(uint32_t off, uint64_t v)
{
    if (n < MAX_N + 64)
        L[n++] = kd_make(off, v);
}

static void walker(unsigned w, int full)
{
    unsigned nd = pick(10) ? pick(7) : 7;
    uint64_t hdr = w | (base40() << 4) | ((uint64_t)nd << 44);
    if (!w ? pick(3) == 0 : pick(20) == 0)
        hdr |= (field(4) << 47) | (field(4) << 55);
    put(0x10, hdr);
    for (unsigned d = 0; d < (nd > 6 ? 6 : nd); d++) {
        if (!full && pick(8) == 0)
            continue;
        unsigned dd = pick(30) ? d : pick(8);
        put(0x18, w | (dd << 1) | ((uint64_t)count() << 4) | ((uint64_t)(uint32_t)stride() << 20));
        if (pick(30))
            put(0x20, field(18));
    }
    for (unsigned b = 0; b < 2; b++)
        if (full || pick(6))
            put(0x28, w | (b << 1) | (field(16) << 2) | ((pick(5) ? 0 : field(16)) << 18));
}

static void move(void)
{
    unsigned mode = pick(12) ? pick(6) : pick(8);
    unsigned width = pick(12) ? pick(3) : 3;
    int full = pick(4) != 0;

    if (mode == KMV_MODE_XFORM && pick(2)) {
        /* A near-valid XFORM: source entries of 8 words, destination one step per entry. */
        uint32_t e = 1 + pick(4);
        put(0x10, (UINT64_C(0x100000) << 4) | (UINT64_C(1) << 44) | ((uint64_t)(pick(4) ? 1 : pick(3)) << 47));
        put(0x18, ((uint64_t)(8 * e + (pick(6) ? 0 : pick(8))) << 4) | ((uint64_t)32 << 20));
        put(0x20, 0);
        put(0x28, 0);
        put(0x28, pick(6) ? 2 : 2 | (UINT64_C(4) << 18));
        put(0x10, 1 | (UINT64_C(0x200000) << 4) | (UINT64_C(1) << 44));
        put(0x18, 1 | ((uint64_t)(e - (pick(6) ? 0 : 1)) << 4) | ((uint64_t)128 << 20));
        put(0x20, 0);
        put(0x28, 1);
        put(0x28, 3);
    } else {
        if (mode != KMV_MODE_FILL && mode != KMV_MODE_GENERATE)
            walker(KMV_WALK_SRC, full);
        walker(KMV_WALK_DST, full);
    }
    if (mode == KMV_MODE_GATHER || pick(10) == 0) {
        if (pick(8))
            put(0x30, aligned(40) | ((uint64_t)(pick(2) ? pick(2100) : field(16)) << 40));
        if (pick(8))
            put(0x50, aligned(32) | (field(16) << 32));
    }
    if (pick(4) == 0)
        put(0x40, pick(10) ? field(32) : field(64));
    if (pick(4) == 0)
        put(0x38, rnd());
    if (pick(40) == 0)
        put(pick(2) ? (uint32_t)(pick(16) << 3) : (uint32_t)rnd(), rnd());
    if (pick(30) == 0)
        put(pick(11) << 3, rnd() & (pick(2) ? UINT64_C(0xFFFF) : ~UINT64_C(0)));
    put(0x00, mode | (width << 3) | ((uint64_t)(pick(8) ? 0 : field(8)) << 8) |
              (pick(20) ? KMV_CTRL_GO : 0) | (pick(40) ? 0 : UINT64_C(0x20)));
}

static unsigned mismatches, new_rule;

static void compare(const struct kmv_caps *caps, const char *which)
{
    struct kmv_result a, b;
    unsigned sa = kmv_validate(L, n, caps, &a), sb = ref_kmv_validate(L, n, caps, &b);

    /* The rules added since the predecessor (the
     * address map, owned memory, the gather erratum, XFORM bursts across 4 KB) run at a GO
     * after every older check of that move passed: the predecessor then accepted the list or
     * refused it at a later write. */
    if (sa == KS_MV_ADDR || sa == KS_MV_OWNED || sa == KS_MV_GATHER_ROWS ||
        (sa == KS_MV_XFORM && a.detail == 5) || (sa == KS_MV_WRAP && a.detail >= KMV_WHAT_INDEX)) {
        new_rule++;
        if (sb == KS_OK || b.index > a.index)
            return;
    }
    if (sa != sb || a.status != b.status || a.detail != b.detail || a.index != b.index ||
        a.moves != b.moves) {
        if (mismatches++ < 5) {
            fprintf(stderr, "# %s mismatch: new %#x/%#x@%u moves %u, ref %#x/%#x@%u moves %u; list:\n",
                   which, a.status, a.detail, a.index, a.moves, b.status, b.detail, b.index, b.moves);
            for (uint32_t i = 0; i < n; i++)
                fprintf(stderr, "#   0x%02x 0x%016llx\n", L[i].off, (unsigned long long)kd_value(&L[i]));
        }
    }
}

static void diff_generated(void)
{
    unsigned ok32 = 0, go_checks = 0;

    for (uint32_t k = 0; k < LISTS; k++) {
        n = 0;
        for (unsigned m = 1 + pick(3); m-- > 0;)
            move();
        compare(&kmv_caps_rv32, "rv32");
        compare(&kmv_caps_rv64, "rv64");
        struct kmv_result r;
        if (kmv_validate(L, n, &kmv_caps_rv32, &r) == KS_OK)
            ok32++;
        else if (r.status >= KS_MV_MODE && r.status <= KS_MV_XFORM && r.status != KS_MV_DIM)
            go_checks++;
    }
    CHECK_EQ(mismatches, 0);
    /* The generator reaches both outcomes often: the comparison means something. */
    CHECK(ok32 > LISTS / 50);
    CHECK(go_checks > LISTS / 5);
    fprintf(stderr, "# %u lists: %u accepted on RV32, %u refused at a GO check, %u by a new rule\n",
            LISTS, ok32, go_checks, new_rule);
}

/* Random records, offsets biased to registers, as the fuzzer sends them. */
static void diff_random(void)
{
    mismatches = 0;
    for (uint32_t k = 0; k < LISTS / 2; k++) {
        n = 1 + pick(24);
        for (uint32_t i = 0; i < n; i++) {
            L[i].off = pick(4) ? (uint32_t)(pick(16) << 3) : (uint32_t)rnd();
            L[i].lo = (uint32_t)rnd();
            L[i].hi = pick(2) ? 0 : (uint32_t)rnd();
            if (pick(3) == 0)
                L[i] = kd_make(0, KMV_CTRL_GO | pick(64));
        }
        compare(&kmv_caps_rv32, "rv32");
        compare(&kmv_caps_rv64, "rv64");
    }
    CHECK_EQ(mismatches, 0);
}

int main(void)
{
    RUN(diff_generated);
    RUN(diff_random);
    return ht_failures ? 1 : 0;
}
