/* fuzz_validate.c — libFuzzer target for what parses host-supplied descriptor lists
 * (docs/design.md §7 layer 4): the validator (mover/validate.c) on raw records for both
 * variants' reach, the text form (mover/desc_text.c), and the builder against the validator.
 * Input byte 0 picks the path; the rest is the payload. Properties checked, beyond
 * "no crash, no sanitizer report":
 *   - a list the full validator accepts passes the structural check with the same move count,
 *     ends with a GO, and writes only offsets the caps reach;
 *   - a list accepted for RV64 is accepted for RV32 (RV64 reaches a subset);
 *   - every refusal is a status of the malformed-input range;
 *   - text formatted from a parsed record parses back to the same record;
 *   - a FILL the builder accepts is accepted by the validator unless its walk wraps;
 *   - the validator agrees with its frozen predecessor (fuzz/mover/ref/ref_validate.c) on
 *     status, detail, index and move count, for both reaches. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmv.h"

static struct kd_write recs[KD_MAX_WRITES + 1];

unsigned ref_kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                          struct kmv_result *res);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* Any index word: the first 32 bytes of the records, so inputs steer the gather rows. */
static const void *fuzz_map(uint64_t ug)
{
    (void)ug;
    return recs;
}

static void fuzz_records(const uint8_t *p, size_t len)
{
    uint32_t n = (uint32_t)(len / sizeof(struct kd_write));
    struct kmv_result r32, r64, rf;

    if (n > KD_MAX_WRITES + 1)
        n = KD_MAX_WRITES + 1;
    memcpy(recs, p, (size_t)n * sizeof(struct kd_write));
    /* Bias offsets towards real registers, or almost every input dies at write 0. */
    if (len % 2)
        for (uint32_t i = 0; i < n; i++)
            recs[i].off &= 0x78u;

    unsigned s32 = kmv_validate(recs, n, &kmv_caps_rv32, &r32);
    unsigned s64 = kmv_validate(recs, n, &kmv_caps_rv64, &r64);
    check(s32 == r32.status && s64 == r64.status);
    for (unsigned k = 0; k < 2; k++) {
        const struct kmv_result *r = k ? &r64 : &r32;
        struct kmv_result ref;
        unsigned sr = ref_kmv_validate(recs, n, k ? &kmv_caps_rv64 : &kmv_caps_rv32, &ref);
        /* The rules added since the predecessor run at a GO after every older check of that
         * move: the predecessor accepted the list or refused it at a later write. */
        if (r->status == KS_MV_ADDR || r->status == KS_MV_OWNED || r->status == KS_MV_GATHER_ROWS ||
            (r->status == KS_MV_XFORM && r->detail == 5) ||
            (r->status == KS_MV_WRAP && r->detail >= KMV_WHAT_INDEX))
            check(sr == KS_OK || ref.index > r->index);
        else
            check(sr == r->status && ref.detail == r->detail && ref.index == r->index &&
                  ref.moves == r->moves);
    }
    /* Owned ranges and the gather rows (indices read from the input itself) only add
     * refusals, at a GO: a list accepted with them is accepted without, and a refusal without
     * them is the same refusal with them. */
    {
        static const struct kmv_span own[3] = { { 0x400000, 0x410000 }, { 0x800000, 0x800200 },
                                                { 0x1000, 0x2000 } };
        struct kmv_caps c = kmv_caps_rv32;
        struct kmv_result ro;
        c.owned = own;
        c.n_owned = 3;
        c.map = fuzz_map;
        c.map_end = UINT64_C(1) << 32;
        unsigned so = kmv_validate(recs, n, &c, &ro);
        if (so == KS_OK)
            check(s32 == KS_OK && ro.moves == r32.moves);
        /* new here: owned ranges, and the rows (their addresses, or an unreadable index word) */
        if (so == KS_MV_OWNED ||
            (so == KS_MV_ADDR && ((ro.detail >> 8) == KMV_ADDR_UNREAD || (ro.detail & 0xFFu) == KMV_WHAT_ROWS)) ||
            (so == KS_MV_WRAP && (ro.detail & 0xFFu) == KMV_WHAT_ROWS))
            check(s32 == KS_OK || r32.index >= ro.index);
        else
            check(so == s32 && ro.detail == r32.detail && ro.index == r32.index);
        if (so == KS_MV_OWNED)
            check((ro.detail >> 8) < 3 && (ro.detail & 0xFFu) <= KMV_WHAT_ROWS);
    }
    check(s32 == KS_OK || KS_IS_INPUT(s32));
    check(s64 == KS_OK || KS_IS_INPUT(s64));
    if (s64 == KS_OK)
        check(s32 == KS_OK && r32.moves == r64.moves);
    if (s32 == KS_OK) {
        uint32_t gos = 0;
        check(kmv_validate_frame(recs, n, &kmv_caps_rv32, &rf) == KS_OK && rf.moves == r32.moves);
        check(n > 0 && kd_is_go(&recs[n - 1]));
        for (uint32_t i = 0; i < n; i++) {
            check(recs[i].off < KMV_REG_SPAN && (recs[i].off & 7u) == 0);
            gos += (uint32_t)kd_is_go(&recs[i]);
        }
        check(gos == r32.moves);
    } else {
        check(r32.index <= n);
    }
}

static void fuzz_text(const uint8_t *p, size_t len)
{
    static struct kd_write out[64];
    struct kd_text_err e;
    uint32_t n = 0;
    unsigned st = kd_text_parse((const char *)p, len, out, 64, &n, &e);

    check(st == KS_OK || st == KS_TEXT_SYNTAX || st == KS_LIST_TOO_LONG);
    check(n <= 64);
    if (st != KS_OK)
        check(e.line >= 1 && e.why != NULL);
    for (uint32_t i = 0; i < n; i++) {
        char buf[KD_TEXT_LINE_MAX];
        struct kd_write back;
        uint32_t m;
        size_t l = kd_text_format(&out[i], buf);

        check(l < KD_TEXT_LINE_MAX);
        check(kd_text_parse(buf, l, &back, 1, &m, &e) == KS_OK && m == 1);
        check(memcmp(&back, &out[i], sizeof(back)) == 0);
    }
    struct kmv_result r;
    (void)kmv_validate(out, n, &kmv_caps_rv64, &r);
}

static void fuzz_builder(const uint8_t *p, size_t len)
{
    struct kmv_walk d;
    struct kmv_builder b;
    struct kmv_result r;
    uint8_t raw[sizeof(d)];

    memset(raw, 0, sizeof(raw));
    memcpy(raw, p, len < sizeof(raw) ? len : sizeof(raw));
    memcpy(&d, raw, sizeof(d));
    d.ndim %= 8;
    /* Keep some inputs aligned so the builder gets past its first checks. */
    if (raw[0] & 1) {
        d.base &= ~(uint64_t)31 & ((UINT64_C(1) << 40) - 1);
        for (unsigned i = 0; i < KMV_MAX_DIMS; i++)
            d.stride[i] &= ~31;
    }
    kmv_build_init(&b, recs, 64);
    if (kmv_build_fill(&b, &d, KMV_WIDTH_32, 0x5A, 0) == KS_OK) {
        unsigned st = kmv_validate(recs, b.n, &kmv_caps_rv32, &r);
        check(st == KS_OK || st == KS_MV_WRAP || st == KS_MV_ADDR);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0: fuzz_records(data + 1, size - 1); break;
    case 1: fuzz_text(data + 1, size - 1); break;
    default: fuzz_builder(data + 1, size - 1); break;
    }
    return 0;
}
