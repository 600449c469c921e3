/* check.c — the host's checks before it touches the node: where a
 * unit-global range lands (docs/hardware.md §0, §7, §8), every move of a descriptor list against
 * that, the text files' bytes, and kactl boot's queue placement. Pure: no I/O, nothing sent.
 * The device model keeps decoding as the hardware does (aliasing a foreign mesh, dropping an
 * unserved aperture, hitting nothing past 4 GB); these checks only stop the tools from hiding
 * it. docs/host-interface.md §11.6 lists the rules and messages. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kohaku/bits.h"
#include "kohaku/cpu_map.h"
#include "kohaku/desc_list.h"
#include "kohaku/flit.h"
#include "kohaku/mover_regs.h"
#include "libkohaku.h"

#define UG_SPAN (KF_UG_MASK + 1)

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return KH_E_INPUT;
}

/* The memory region holding byte ug, as [*rs, *re); 0 when ug reaches no memory. */
static int region(uint64_t ug, uint64_t *rs, uint64_t *re)
{
    if (ug < KH_DRAM_BYTES) {
        *rs = 0;
        *re = KH_DRAM_BYTES;
        return 1;
    }
    if (ug >= KH_STAGING_UG && ug < KH_STAGING_UG + KH_STAGING_BYTES) {
        *rs = KH_STAGING_UG;
        *re = KH_STAGING_UG + KH_STAGING_BYTES;
        return 2;
    }
    return 0;
}

void kh_ug_describe(uint64_t ug, char *buf, size_t len)
{
    unsigned mesh = (unsigned)KBF_FIELD_GET(KF_UG_MESH, ug);
    if (ug > KF_UG_MASK) {
        snprintf(buf, len, "0x%llx is wider than the 40-bit unit-global space (bits above 39 set)",
                 (unsigned long long)ug);
    } else if (!(ug & KF_UG_APERTURE)) {
        uint64_t local = KBF_FIELD_GET(KF_UG_LOCAL, ug);
        if (ug & KF_UG_RESERVED)
            snprintf(buf, len, "0x%llx has reserved bit 38 set: the memory agent ignores it and serves "
                     "this node's DRAM offset 0x%llx (an alias, not a second memory)",
                     (unsigned long long)ug, (unsigned long long)local);
        else if (mesh)
            snprintf(buf, len, "0x%llx names mesh %u (bits 37:36): this node is mesh 0, and the memory "
                     "agent serves another mesh's DRAM address from local DRAM offset 0x%llx (aliased)",
                     (unsigned long long)ug, mesh, (unsigned long long)local);
        else if (local >= KH_DRAM_BYTES)
            snprintf(buf, len, "0x%llx is DRAM offset 0x%llx, past the 4 GB of DRAM: it decodes and hits "
                     "nothing (writes vanish, reads return 0)", (unsigned long long)ug,
                     (unsigned long long)local);
        else
            snprintf(buf, len, "0x%llx is DRAM offset 0x%llx", (unsigned long long)ug,
                     (unsigned long long)local);
    } else {
        unsigned ap = (unsigned)KBF_FIELD_GET(KF_UG_APERTURE_IDX, ug);
        uint64_t off = ug & 0xFFFFFFFFu;
        if (ug & KF_UG_RESERVED)
            snprintf(buf, len, "0x%llx is an aperture address with reserved bit 38 set: the memory agent "
                     "drops it (writes vanish, reads never answer)", (unsigned long long)ug);
        else if (mesh)
            snprintf(buf, len, "0x%llx names mesh %u's staging (bits 37:36): the memory agent drops it "
                     "(writes vanish, reads never answer)", (unsigned long long)ug, mesh);
        else if (ap)
            snprintf(buf, len, "0x%llx is aperture %u (bits 35:32): only aperture 0, the staging store, is "
                     "served; the memory agent drops the request", (unsigned long long)ug, ap);
        else if (off >= KH_STAGING_BYTES)
            snprintf(buf, len, "0x%llx is staging offset 0x%llx, past the 2 MB staging store: it hits "
                     "nothing", (unsigned long long)ug, (unsigned long long)off);
        else
            snprintf(buf, len, "0x%llx is staging offset 0x%llx", (unsigned long long)ug,
                     (unsigned long long)off);
    }
}

int kh_ug_check(uint64_t ug, uint64_t len, char *err, size_t errlen)
{
    char d[256];
    if (ug > KF_UG_MASK && (ug >> 40) >= 1 && (ug >> 40) <= 4)
        /* The host port's own form (docs/hardware.md §6): (mesh + 1) << 40 | unit-global. */
        return fail(err, errlen, "address 0x%llx is an outside address (the host port's (mesh + 1) << 40 | "
                    "unit-global form) for mesh %u's unit-global 0x%llx: give the unit-global address; it "
                    "leaves the 40-bit unit-global space", (unsigned long long)ug, (unsigned)(ug >> 40) - 1u,
                    (unsigned long long)(ug & KF_UG_MASK));
    if (ug > KF_UG_MASK || len > UG_SPAN - ug)
        return fail(err, errlen, "address 0x%llx + %llu bytes leaves the 40-bit unit-global space",
                    (unsigned long long)ug, (unsigned long long)len);
    if (len == 0)
        return KH_OK;
    uint64_t rs, re;
    if (!region(ug, &rs, &re)) {
        kh_ug_describe(ug, d, sizeof d);
        return fail(err, errlen, "address %s", d);
    }
    if (len > re - ug) {
        kh_ug_describe(re, d, sizeof d);
        return fail(err, errlen, "address 0x%llx + %llu bytes runs past the end of %s at 0x%llx: its last "
                    "%llu bytes would not reach it (%s)", (unsigned long long)ug, (unsigned long long)len,
                    rs ? "the 2 MB staging store" : "the 4 GB of DRAM", (unsigned long long)re,
                    (unsigned long long)(len - (re - ug)), d);
    }
    return KH_OK;
}

int kh_fw_own_check(uint64_t ug, uint64_t len, char *err, size_t errlen)
{
    /* mesh 0's DRAM, the range kh_ug_check accepts below 4 GB */
    if (len && ug < KH_FW_OWN_HI && ug + len > KH_FW_OWN_LO)
        return fail(err, errlen,
                    "0x%llx + %llu bytes touches the firmware's own DRAM at 0x%x-0x%x (its cold code, "
                    "the copy buffer it checks lists in, the record area): the firmware would run what "
                    "it did not check (kactl write --raw writes there anyway, for tests and repairs)",
                    (unsigned long long)ug, (unsigned long long)len, KH_FW_OWN_LO, KH_FW_OWN_HI - 1u);
    return KH_OK;
}

/* ---- Descriptor lists: every move's walks ---- */

struct walker {
    uint64_t base;
    unsigned ndim;
    uint32_t count[8];
    int32_t stride[8];
};

struct shadow {
    struct walker wk[2];
    unsigned sel;              /* the walker select shared by HDR, DIM and BOUND (docs/hardware.md §3.1) */
    uint64_t staged;           /* the last DIM write, committed by AXIS */
    uint64_t idx_base;
    uint32_t idx_count;
};

/* [lo, hi) of a walk's words: base + Σ (count-1) × stride, one 32-byte word per element. The
 * hardware sums offsets in 32 signed bits (docs/hardware.md §3.1), so a walk whose offsets leave that
 * range wraps: refused as such. Bounds are not applied (a conservative extent). */
static int walk_extent(const struct walker *w, int64_t *lo, int64_t *hi)
{
    int64_t neg = 0, pos = 0;
    unsigned nd = w->ndim > KMV_MAX_DIMS ? KMV_MAX_DIMS : w->ndim;
    for (unsigned i = 0; i < nd; i++) {
        int64_t c = w->count[i] ? w->count[i] : 1;
        int64_t span = (c - 1) * (int64_t)w->stride[i];
        if (span < 0)
            neg += span;
        else
            pos += span;
    }
    if (neg < INT32_MIN || pos > INT32_MAX)
        return -1;
    *lo = (int64_t)w->base + neg;
    *hi = (int64_t)w->base + pos + KMV_WORD_BYTES;
    return 0;
}

static const char *const mode_names[8] = { "COPY", "TRANSPOSE", "GATHER", "GENERATE", "FILL", "XFORM",
                                           "mode 6", "mode 7" };

static int range_of(const char *what, unsigned move, uint32_t at, unsigned mode, int64_t lo, int64_t hi,
                    char *err, size_t errlen)
{
    char m[384];
    if (lo < 0)
        return fail(err, errlen, "move %u (%s, GO at write %u): the %s starts %lld bytes below address 0",
                    move, mode_names[mode], at, what, (long long)-lo);
    if (kh_ug_check((uint64_t)lo, (uint64_t)(hi - lo), m, sizeof m))
        return fail(err, errlen, "move %u (%s, GO at write %u): the %s (0x%llx + %llu bytes): %s", move,
                    mode_names[mode], at, what, (unsigned long long)lo, (unsigned long long)(hi - lo), m);
    return KH_OK;
}

static int walk_range(const struct walker *w, const char *what, unsigned move, uint32_t at, unsigned mode,
                      int64_t extra, char *err, size_t errlen)
{
    int64_t lo, hi;
    if (walk_extent(w, &lo, &hi))
        return fail(err, errlen, "move %u (%s, GO at write %u): the %s's offsets leave the mover's 32-bit "
                    "signed range and wrap (docs/hardware.md §3.1)", move, mode_names[mode], at, what);
    return range_of(what, move, at, mode, lo, hi + extra, err, errlen);
}

int kh_list_check(const struct kd_write *w, uint32_t n, uint32_t *bad, char *err, size_t errlen)
{
    struct shadow s;
    memset(&s, 0, sizeof s);
    /* Reset values (docs/hardware.md §3.1): one dimension, count 0 (= 1), stride 0. */
    s.wk[0].ndim = s.wk[1].ndim = 1;
    unsigned move = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = kd_value(&w[i]);
        switch (w[i].off) {
        case KMV_REG_HDR:
            s.sel = (unsigned)(v & 1u);
            s.wk[s.sel].base = KBF_FIELD_GET(KMV_HDR_BASE, v);
            s.wk[s.sel].ndim = (unsigned)KBF_FIELD_GET(KMV_HDR_NDIM, v);
            break;
        case KMV_REG_DIM:
            s.sel = (unsigned)(v & 1u);
            s.staged = v;
            break;
        case KMV_REG_AXIS: {
            unsigned d = (unsigned)KBF_FIELD_GET(KMV_DIM_INDEX, s.staged);
            s.wk[s.sel].count[d] = (uint32_t)KBF_FIELD_GET(KMV_DIM_COUNT, s.staged);
            s.wk[s.sel].stride[d] = (int32_t)(uint32_t)KBF_FIELD_GET(KMV_DIM_STRIDE, s.staged);
            break;
        }
        case KMV_REG_BOUND:
            s.sel = (unsigned)(v & 1u);
            break;
        case KMV_REG_INDEX:
            s.idx_base = KBF_FIELD_GET(KMV_INDEX_BASE, v);
            s.idx_count = (uint32_t)KBF_FIELD_GET(KMV_INDEX_COUNT, v);
            break;
        default:
            break;
        }
        if (!kd_is_go(&w[i]))
            continue;
        unsigned mode = (unsigned)KBF_FIELD_GET(KMV_CTRL_MODE, v);
        const struct walker *dst = &s.wk[KMV_WALK_DST], *src = &s.wk[KMV_WALK_SRC];
        int rc = KH_OK;
        *bad = i;
        switch (mode) {
        case KMV_MODE_TRANSPOSE:
            break;             /* faults at GO: nothing is read or written */
        case KMV_MODE_GATHER: {
            /* Indices, eight to a word, at least one word read; the rows themselves depend on the
             * index values in node memory, which the host does not know. */
            uint64_t words = s.idx_count ? (s.idx_count + 7u) / 8u : 1u;
            if (!(rc = walk_range(dst, "destination walk", move, i, mode, 0, err, errlen)))
                rc = range_of("index buffer", move, i, mode, (int64_t)s.idx_base,
                              (int64_t)(s.idx_base + words * KMV_WORD_BYTES), err, errlen);
            break;
        }
        case KMV_MODE_GENERATE:
        case KMV_MODE_FILL:
            rc = walk_range(dst, "destination walk", move, i, mode, 0, err, errlen);
            break;
        case KMV_MODE_XFORM:
            /* Each entry is one burst of OUT_WORDS (4 in the reference geometry) words at the
             * destination element's address. */
            if (!(rc = walk_range(src, "source walk", move, i, mode, 0, err, errlen)))
                rc = walk_range(dst, "destination walk", move, i, mode, 3 * KMV_WORD_BYTES, err, errlen);
            break;
        default:               /* COPY; modes 6 and 7 run as COPY */
            if (!(rc = walk_range(dst, "destination walk", move, i, mode, 0, err, errlen)))
                rc = walk_range(src, "source walk", move, i, mode, 0, err, errlen);
            break;
        }
        if (rc)
            return rc;
        move++;
    }
    return KH_OK;
}

/* ---- Text files ---- */

int kh_text_check(const char *text, size_t len, struct kh_text_err *e)
{
    const unsigned char *p = (const unsigned char *)text;
    unsigned line = 1;
    size_t ls = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = p[i];
        if (c == '\n') {
            line++;
            ls = i + 1;
            continue;
        }
        if ((c >= 0x20 && c < 0x7F) || c == '\t' || c == '\r' || c == '\v' || c == '\f')
            continue;
        if (c >= 0xC2 && c <= 0xF4) {
            /* UTF-8 (a name in a comment): the lead byte's continuation bytes, each 10xxxxxx,
             * no overlong or surrogate forms beyond what the lead byte range excludes. */
            unsigned k = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1, j;
            for (j = 1; j <= k && i + j < len && (p[i + j] & 0xC0) == 0x80; j++)
                ;
            if (j > k) {
                i += k;
                continue;
            }
        }
        e->line = line;
        e->col = (unsigned)(i - ls) + 1;
        if (c == 0)
            snprintf(e->why, sizeof e->why, "a NUL byte (0x00): the file must be plain text (is it binary?)");
        else if (c < 0x20 || c == 0x7F)
            snprintf(e->why, sizeof e->why, "control byte 0x%02x: the file must be plain text", c);
        else
            snprintf(e->why, sizeof e->why, "byte 0x%02x is not text (not UTF-8)", c);
        return KH_E_INPUT;
    }
    return KH_OK;
}

/* ---- kactl boot's queue ---- */

int kh_queue_place_check(unsigned variant, uint64_t hdr, uint32_t entries, char *err, size_t errlen)
{
    if (!kh_pow2(entries) || entries > KQ_MAX_ENTRIES)
        return fail(err, errlen, "--entries %u is not a power of two in 1..%u (KQ_MAX_ENTRIES)", entries,
                    KQ_MAX_ENTRIES);
    if (hdr % KQ_LINE)
        return fail(err, errlen, "--queue 0x%llx is not 32-byte aligned (the header is 32-byte lines)",
                    (unsigned long long)hdr);
    /* The span kh_queue_create lays out: header, then each ring 4 KB aligned. */
    uint64_t sq = (hdr + sizeof(struct kq_header) + 0xFFF) & ~UINT64_C(0xFFF);
    uint64_t cq = (sq + (uint64_t)entries * KQ_SUB_BYTES + 0xFFF) & ~UINT64_C(0xFFF);
    uint64_t end = cq + (uint64_t)entries * KQ_CPL_BYTES;
    char m[320];
    if (kh_ug_check(hdr, end - hdr, m, sizeof m))
        return fail(err, errlen, "--queue 0x%llx: the queue (header and rings, 0x%llx bytes): %s",
                    (unsigned long long)hdr, (unsigned long long)(end - hdr), m);
    /* The processor's reach (docs/host-interface.md §3.1): RV32 DRAM below 0x7000_0000 only. */
    if (variant == 32 && end > (uint64_t)(RV32_DRAM_LIMIT - RV32_DRAM_BASE))
        return fail(err, errlen, "--queue 0x%llx: the queue ends at 0x%llx, past the DRAM the RV32 core "
                    "reaches (below 0x%llx)", (unsigned long long)hdr, (unsigned long long)end,
                    (unsigned long long)(RV32_DRAM_LIMIT - RV32_DRAM_BASE));
    /* The firmware owns this range on both variants (RV32 cold code, the copy buffer) and refuses
     * a queue there itself (setup rule 1): refused here first, with nothing sent. */
    if (hdr < KX_FW_DRAM_OFFSET + KX_FW_DRAM_BYTES && end > KX_FW_DRAM_OFFSET)
        return fail(err, errlen, "--queue 0x%llx: the queue [0x%llx, 0x%llx) overlaps the firmware's "
                    "own DRAM [0x%x, 0x%x)", (unsigned long long)hdr, (unsigned long long)hdr,
                    (unsigned long long)end, KX_FW_DRAM_OFFSET, KX_FW_DRAM_OFFSET + KX_FW_DRAM_BYTES);
    if (hdr < KH_DEF_DATA_UG + KH_DEF_DATA_BYTES && end > KH_DEF_DATA_UG)
        return fail(err, errlen, "--queue 0x%llx: the queue [0x%llx, 0x%llx) overlaps kactl's command data "
                    "area [0x%llx, 0x%llx)", (unsigned long long)hdr, (unsigned long long)hdr,
                    (unsigned long long)end, (unsigned long long)KH_DEF_DATA_UG,
                    (unsigned long long)(KH_DEF_DATA_UG + KH_DEF_DATA_BYTES));
    return KH_OK;
}
