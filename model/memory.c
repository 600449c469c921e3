/* memory.c — node memory and the memory agent (docs/hardware.md §10.1 item 4; §8;
 * docs/hardware.md §2.4.1–§2.4.2): sparse DRAM, the 2 MB staging aperture, the absolute
 * 40-bit unit-global decode, and the MEM_RD_REQ / MEM_WR_REQ / MEM_WR_DATA service. */
#include <stdlib.h>
#include <string.h>

#include "km_internal.h"

#define KM_PAGE_SHIFT      16u                          /* 64 KiB DRAM pages */
#define KM_PAGE_BYTES      (UINT64_C(1) << KM_PAGE_SHIFT)
#define KM_DIR_SHIFT       10u                          /* 1024 pages (64 MiB) per directory */
#define KM_DIR_PAGES       (1u << KM_DIR_SHIFT)
#define KM_DRAM_SPAN       (UINT64_C(1) << 36)          /* the local offset field [35:0] */
#define KM_APERTURE_SPAN   (UINT64_C(1) << 32)          /* offsets [31:0] inside an aperture */
#define KM_BEAT_BYTES      32u                          /* one flit payload, one AXI beat */
#define KM_OWN_MESH        0u                           /* a single-mesh node: mesh id 0 */
#define KM_MAX_ENTRY_WORDS 4u
/* A write descriptor's len is captured in clog2(WBURST)+1 = 4 bits, as the RTL does
 * (memory protocol §4.2: len above 7 is undefined on silicon). */
#define KM_WR_LEN_BITS     0xFu

enum region { R_DRAM, R_STAGE, R_NOTHING, R_DROP };

struct km_wr_open {
    struct km_wr_open *next;
    unsigned sx, sy;          /* the writer: data binds to the descriptor by source alone */
    unsigned txn;
    uint64_t addr;
    unsigned beats, got;
    bool drop;                /* unserved aperture: data is swallowed, the ack still goes */
};

/* One queued response stream (read responses or a write ack), sent one flit per cycle. */
struct km_resp {
    struct km_resp *next, *prev;   /* every stream in flight, so reset can free them */
    size_t n, sent;
    struct kf_flit flits[];
};

struct km_memory {
    struct km_model *m;
    uint64_t dram_bytes;
    /* Two levels, both allocated on first write: dir[i] covers KM_DIR_SPAN bytes of DRAM. */
    uint8_t ***dir;
    size_t ndir;
    uint8_t *staging[KM_STAGING_BYTES >> KM_PAGE_SHIFT];
    struct km_wr_open *open;       /* oldest first */
    struct km_resp *resp;
    void (*tap)(void *ctx, const struct kf_flit *f);
    void *tap_ctx;
};

void km_memory_set_tap(struct km_memory *mem, void (*tap)(void *ctx, const struct kf_flit *f), void *ctx)
{
    mem->tap = tap;
    mem->tap_ctx = ctx;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        abort();
    return p;
}

struct km_memory *km_memory_new(struct km_model *m, uint64_t dram_bytes)
{
    struct km_memory *mem = xcalloc(1, sizeof(*mem));
    mem->m = m;
    mem->dram_bytes = dram_bytes;
    size_t npages = (size_t)((dram_bytes + KM_PAGE_BYTES - 1) >> KM_PAGE_SHIFT);
    mem->ndir = (npages + KM_DIR_PAGES - 1) >> KM_DIR_SHIFT;
    mem->dir = xcalloc(mem->ndir ? mem->ndir : 1, sizeof(*mem->dir));
    return mem;
}

void km_memory_reset(struct km_memory *mem)
{
    while (mem->open) {
        struct km_wr_open *w = mem->open;
        mem->open = w->next;
        free(w);
    }
    while (mem->resp) {
        struct km_resp *r = mem->resp;
        mem->resp = r->next;
        free(r);
    }
}

void km_memory_free(struct km_memory *mem)
{
    if (!mem)
        return;
    km_memory_reset(mem);
    for (size_t i = 0; i < mem->ndir; i++) {
        for (size_t j = 0; mem->dir[i] && j < KM_DIR_PAGES; j++)
            free(mem->dir[i][j]);
        free(mem->dir[i]);
    }
    free(mem->dir);
    for (size_t i = 0; i < sizeof(mem->staging) / sizeof(mem->staging[0]); i++)
        free(mem->staging[i]);
    free(mem);
}

/* ---- decode (docs/hardware.md §0 and §8) ---- */

/* What ug addresses, its offset in that region and how many bytes from ug stay in it. */
static enum region decode(const struct km_memory *mem, uint64_t ug, uint64_t *off, uint64_t *span)
{
    ug &= KF_UG_MASK;
    if (!(ug & KF_UG_APERTURE)) {
        /* DRAM: a foreign mesh field aliases to local memory at the same offset; bit 38 is
         * not part of the offset. */
        uint64_t local = KBF_FIELD_GET(KF_UG_LOCAL, ug);
        *off = local;
        if (local < mem->dram_bytes) {
            *span = mem->dram_bytes - local;
            return R_DRAM;
        }
        *span = KM_DRAM_SPAN - local;      /* 4-64 GB: decodes, hits nothing */
        return R_NOTHING;
    }
    if ((ug & KF_UG_RESERVED) || KBF_FIELD_GET(KF_UG_MESH, ug) != KM_OWN_MESH ||
        KBF_FIELD_GET(KF_UG_APERTURE_IDX, ug) != 0) {
        /* Another mesh's staging or an aperture nobody serves: dropped, never aliased. */
        *off = 0;
        *span = UINT64_MAX;
        return R_DROP;
    }
    uint64_t local = ug & (KM_APERTURE_SPAN - 1);
    *off = local;
    if (local < KM_STAGING_BYTES) {
        *span = KM_STAGING_BYTES - local;
        return R_STAGE;
    }
    /* Past the 2 MB staging store inside aperture 0: docs/hardware.md §8 is silent; the model treats
     * it like DRAM past its size (reads 0, writes vanish), docs/model.md. */
    *span = KM_APERTURE_SPAN - local;
    return R_NOTHING;
}

static enum km_mem_outcome classify(const struct km_memory *mem, uint64_t ug, size_t len)
{
    enum km_mem_outcome worst = KM_MEM_OK;
    while (len) {
        uint64_t off, span;
        enum region r = decode(mem, ug, &off, &span);
        if (r == R_DROP)
            return KM_MEM_DROPPED;
        if (r == R_NOTHING)
            worst = KM_MEM_NOTHING;
        uint64_t n = span < len ? span : len;
        ug += n;
        len -= (size_t)n;
    }
    return worst;
}

/* The page holding byte off of a region, or NULL when untouched (and !create). */
static uint8_t *dram_page(struct km_memory *mem, uint64_t off, bool create)
{
    size_t page = (size_t)(off >> KM_PAGE_SHIFT);
    size_t d = page >> KM_DIR_SHIFT, i = page & (KM_DIR_PAGES - 1);
    if (!mem->dir[d]) {
        if (!create)
            return NULL;
        mem->dir[d] = xcalloc(KM_DIR_PAGES, sizeof(**mem->dir));
    }
    if (!mem->dir[d][i] && create)
        mem->dir[d][i] = xcalloc(1, KM_PAGE_BYTES);
    return mem->dir[d][i];
}

static uint8_t *staging_page(struct km_memory *mem, uint64_t off, bool create)
{
    uint8_t **p = &mem->staging[off >> KM_PAGE_SHIFT];
    if (!*p && create)
        *p = xcalloc(1, KM_PAGE_BYTES);
    return *p;
}

/* Copy within one region (DRAM or staging), page by page; pages appear on first write and
 * untouched memory reads 0. */
static void region_copy(struct km_memory *mem, bool staging, uint64_t off, void *buf, size_t len, bool write)
{
    uint8_t *b = buf;
    while (len) {
        size_t in = (size_t)(off & (KM_PAGE_BYTES - 1));
        size_t n = (size_t)KM_PAGE_BYTES - in;
        if (n > len)
            n = len;
        uint8_t *page = staging ? staging_page(mem, off, write) : dram_page(mem, off, write);
        if (write)
            memcpy(page + in, b, n);
        else if (page)
            memcpy(b, page + in, n);
        else
            memset(b, 0, n);
        off += n;
        b += n;
        len -= n;
    }
}

/* Checks the whole range first so an access that would be dropped touches nothing. */
static enum km_mem_outcome mem_access(struct km_memory *mem, uint64_t ug, void *buf, size_t len, bool write)
{
    enum km_mem_outcome o = classify(mem, ug, len);
    if (o == KM_MEM_DROPPED)
        return o;
    uint8_t *b = buf;
    while (len) {
        uint64_t off, span;
        enum region r = decode(mem, ug, &off, &span);
        size_t n = span < len ? (size_t)span : len;
        if (r == R_DRAM || r == R_STAGE)
            region_copy(mem, r == R_STAGE, off, b, n, write);
        else if (!write)
            memset(b, 0, n);
        ug += n;
        b += n;
        len -= n;
    }
    return o;
}

enum km_mem_outcome km_mem_read(struct km_model *m, uint64_t ug, void *buf, size_t len)
{
    return mem_access(m->mem, ug, buf, len, false);
}

enum km_mem_outcome km_mem_write(struct km_model *m, uint64_t ug, const void *buf, size_t len)
{
    return mem_access(m->mem, ug, (void *)buf, len, true);
}

/* ---- the memory agent ---- */

/* Payload [255:0] is one beat; byte 0 of the beat (lowest address) is payload [7:0]. */
static void beat_to_flit(struct kf_flit *f, const uint8_t *bytes)
{
    for (unsigned w = 0; w < 4; w++)
        f->w[w] = km_le_get(bytes + 8 * w, 8);
}

static void flit_to_beat(const struct kf_flit *f, uint8_t *bytes)
{
    for (unsigned w = 0; w < 4; w++)
        km_le_put(bytes + 8 * w, 8, f->w[w]);
}

static struct km_resp *resp_new(struct km_memory *mem, size_t n)
{
    struct km_resp *r = xcalloc(1, sizeof(*r) + n * sizeof(struct kf_flit));
    r->n = n;
    r->next = mem->resp;
    if (mem->resp)
        mem->resp->prev = r;
    mem->resp = r;
    return r;
}

static void resp_free(struct km_memory *mem, struct km_resp *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        mem->resp = r->next;
    if (r->next)
        r->next->prev = r->prev;
    free(r);
}

/* Sends one flit per agent cycle from the memory agent's coordinate. */
static void resp_step(struct km_model *m, void *ctx, uint64_t arg)
{
    struct km_resp *r = ctx;
    unsigned ax, ay;
    (void)arg;
    const struct kf_flit *f = &r->flits[r->sent++];
    if (m->mem->tap) {
        m->mem->tap(m->mem->tap_ctx, f);
    } else {
        km_mesh_agent_xy(m->mesh, &ax, &ay);
        km_mesh_send(m, ax, ay, f);
    }
    if (r->sent == r->n)
        resp_free(m->mem, r);
    else
        km_at(m, m->now + KM_DEFAULT_CYCLE_NS, resp_step, r, 0);
}

static void resp_start(struct km_model *m, struct km_resp *r)
{
    km_at(m, m->now + m->cfg.mem_ns, resp_step, r, 0);
}

static uint32_t hdr_of(const struct kf_flit *f)
{
    return (uint32_t)f->w[KF_HDR_WORD];
}

static void mem_read_req(struct km_model *m, const struct kf_flit *f)
{
    struct km_memory *mem = m->mem;
    uint32_t h = hdr_of(f);
    uint64_t addr = KBF_FIELD_GET(KF_W3_MEM_ADDR, f->w[3]);
    unsigned len = (unsigned)KBF_FIELD_GET(KF_W3_MEM_LEN, f->w[3]);
    unsigned flags = (unsigned)KBF_FIELD_GET(KF_W3_MEM_FLAGS, f->w[3]);
    unsigned txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, h);
    unsigned ax, ay;
    km_mesh_agent_xy(m->mesh, &ax, &ay);

    unsigned dst[4] = { (unsigned)KBF_FIELD_GET(KF_HDR_SRC_Y, h) << 4 | (unsigned)KBF_FIELD_GET(KF_HDR_SRC_X, h) };
    unsigned ndst = 1, entries, words;
    bool stream = (flags & KF_MEM_FLAG_STREAM) != 0;
    if (stream) {
        /* Entry read engine (memory protocol §3.2): count entries of entry_words words. */
        entries = (unsigned)KBF_FIELD_GET(KF_W3_MEM_COUNT, f->w[3]);
        if (!entries)
            entries = 1;
        words = (unsigned)KBF_FIELD_GET(KF_W2_MEM_ENTRY_WORDS, f->w[2]);
        if (!words || words > KM_MAX_ENTRY_WORDS)
            words = KM_MAX_ENTRY_WORDS;
        /* Extra destinations, {y,x} per byte, lowest byte first (§3.2.2). */
        unsigned npeer = (unsigned)KBF_FIELD_GET(KF_W2_MEM_NPEER, f->w[2]);
        uint64_t peer = KBF_FIELD_GET(KF_W2_MEM_PEER, f->w[2]);
        for (unsigned i = 0; i < npeer; i++)
            dst[ndst++] = (unsigned)(peer >> (8 * i)) & 0xFFu;
    } else {
        /* Plain read (§3.1): one burst of len + 1 beats, txn unchanged, rsvd 0. */
        entries = 1;
        words = len + 1;
    }

    size_t bytes = (size_t)entries * words * KM_BEAT_BYTES;
    if (classify(mem, addr, bytes) == KM_MEM_DROPPED)
        return;     /* docs/hardware.md §8: no response at all; the requester must time out */

    /* The data is taken when the request arrives, so a later write cannot overtake it. */
    uint8_t *data = xcalloc(1, bytes);
    mem_access(mem, addr, data, bytes, false);
    struct km_resp *r = resp_new(mem, (size_t)entries * ndst * words);
    size_t k = 0;
    for (unsigned e = 0; e < entries; e++) {
        for (unsigned d = 0; d < ndst; d++) {
            for (unsigned w = 0; w < words; w++) {
                struct kf_flit *o = &r->flits[k++];
                bool last = w == words - 1;
                unsigned etxn = stream ? (txn + e) & 0xFFu : txn;
                o->w[KF_HDR_WORD] = kf_hdr(dst[d] & 0xFu, dst[d] >> 4, ax, ay, KF_T_MEM_RD_RESP, etxn, last) |
                                    (stream ? KBF_FIELD_PREP(KF_HDR_RSVD, w & 3u) : 0);
                beat_to_flit(o, data + ((size_t)e * words + w) * KM_BEAT_BYTES);
            }
        }
    }
    free(data);
    resp_start(m, r);
}

static void mem_write_req(struct km_model *m, const struct kf_flit *f)
{
    struct km_memory *mem = m->mem;
    uint32_t h = hdr_of(f);
    struct km_wr_open *w = xcalloc(1, sizeof(*w));
    w->sx = (unsigned)KBF_FIELD_GET(KF_HDR_SRC_X, h);
    w->sy = (unsigned)KBF_FIELD_GET(KF_HDR_SRC_Y, h);
    w->txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, h);
    w->addr = KBF_FIELD_GET(KF_W3_MEM_ADDR, f->w[3]);
    w->beats = ((unsigned)KBF_FIELD_GET(KF_W3_MEM_LEN, f->w[3]) & KM_WR_LEN_BITS) + 1;
    w->drop = classify(mem, w->addr, (size_t)w->beats * KM_BEAT_BYTES) == KM_MEM_DROPPED;
    struct km_wr_open **p = &mem->open;
    while (*p)
        p = &(*p)->next;
    *p = w;
}

static void mem_write_data(struct km_model *m, const struct kf_flit *f)
{
    struct km_memory *mem = m->mem;
    uint32_t h = hdr_of(f);
    unsigned sx = (unsigned)KBF_FIELD_GET(KF_HDR_SRC_X, h), sy = (unsigned)KBF_FIELD_GET(KF_HDR_SRC_Y, h);
    struct km_wr_open **p = &mem->open;
    while (*p && ((*p)->sx != sx || (*p)->sy != sy))
        p = &(*p)->next;
    struct km_wr_open *w = *p;
    if (!w)
        return;     /* data with no open write from that source is dropped (§8) */
    if (!w->drop) {
        uint8_t beat[KM_BEAT_BYTES];
        flit_to_beat(f, beat);
        mem_access(mem, w->addr + (uint64_t)w->got * KM_BEAT_BYTES, beat, sizeof(beat), true);
    }
    /* The burst ends on the beat counter, not on the flit's last bit (§4.1). */
    if (++w->got < w->beats)
        return;
    *p = w->next;
    unsigned ax, ay;
    km_mesh_agent_xy(m->mesh, &ax, &ay);
    struct km_resp *r = resp_new(mem, 1);
    /* MEM_WR_ACK: txn echoed, last set, payload all zero — no status (docs/hardware.md §2.4.2). */
    r->flits[0].w[KF_HDR_WORD] = kf_hdr(w->sx, w->sy, ax, ay, KF_T_MEM_WR_ACK, w->txn, 1);
    free(w);
    resp_start(m, r);
}

void km_memory_receive(struct km_model *m, const struct kf_flit *f)
{
    switch ((unsigned)KBF_FIELD_GET(KF_HDR_TYPE, hdr_of(f))) {
    case KF_T_MEM_RD_REQ:
        mem_read_req(m, f);
        break;
    case KF_T_MEM_WR_REQ:
        mem_write_req(m, f);
        break;
    case KF_T_MEM_WR_DATA:
        mem_write_data(m, f);
        break;
    default:
        break;      /* responses and acks are the agent's to send, not to receive */
    }
}
