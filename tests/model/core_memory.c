/* core_memory.c — native tests of memory.c: the unit-global decode and its outcomes
 * (docs/hardware.md §0, §7, §8), sparse DRAM, staging, and the memory agent's flit service
 * (docs/hardware.md §2.1–§2.4). Flits are built and checked with the seed's literal bit
 * positions, not with the shared header's helpers. */
#include <stdlib.h>

#include "kmtest.h"
#include "km_internal.h"

static struct kt_plat P;

/* Header [31:0] per docs/hardware.md §2: [31:28] dst_x, [27:24] dst_y, [23:20] src_x, [19:16] src_y,
 * [15:12] type, [11:4] txn, [3] last, [2:0] rsvd. */
static uint64_t hdr(unsigned dx, unsigned dy, unsigned sx, unsigned sy, unsigned type, unsigned txn, unsigned last)
{
    return (uint64_t)dx << 28 | (uint64_t)dy << 24 | (uint64_t)sx << 20 | (uint64_t)sy << 16 |
           (uint64_t)type << 12 | (uint64_t)txn << 4 | (uint64_t)last << 3;
}
#define H_DX(h)   (((h) >> 28) & 0xF)
#define H_DY(h)   (((h) >> 24) & 0xF)
#define H_SX(h)   (((h) >> 20) & 0xF)
#define H_SY(h)   (((h) >> 16) & 0xF)
#define H_TYPE(h) (((h) >> 12) & 0xF)
#define H_TXN(h)  (((h) >> 4) & 0xFF)
#define H_LAST(h) (((h) >> 3) & 1)
#define H_RSVD(h) ((h) & 7)

/* MEM_RD_REQ / MEM_WR_REQ descriptor (docs/hardware.md §2.4.1): addr [255:216] = word 3 [63:24],
 * len [215:208] = w3 [23:16], flags [207:200] = w3 [15:8], count [199:192] = w3 [7:0],
 * peer [191:168] = w2 [63:40], n_peer [167:166] = w2 [39:38], entry_words [165:158] = w2 [37:30]. */
static struct kf_flit mem_req(unsigned type, unsigned sx, unsigned sy, unsigned txn, uint64_t addr,
                              unsigned len, unsigned flags, unsigned count, uint32_t peer,
                              unsigned npeer, unsigned ew)
{
    struct kf_flit f = { { 0 } };
    f.w[3] = addr << 24 | (uint64_t)len << 16 | (uint64_t)flags << 8 | count;
    f.w[2] = (uint64_t)peer << 40 | (uint64_t)npeer << 38 | (uint64_t)ew << 30;
    f.w[4] = hdr(1, 1, sx, sy, type, txn, type == 1 ? 0 : 1);   /* dst: the agent */
    return f;
}

static struct kf_flit wr_data(unsigned sx, unsigned sy, uint8_t fill, unsigned last)
{
    struct kf_flit f = { { 0 } };
    for (unsigned w = 0; w < 4; w++)
        for (unsigned i = 0; i < 8; i++)
            f.w[w] |= (uint64_t)(uint8_t)(fill + 8 * w + i) << (8 * i);
    f.w[4] = hdr(1, 1, sx, sy, 4, 0, last);
    return f;
}

struct tap {
    unsigned n;
    struct kf_flit f[64];
    uint64_t t[64];
    struct km_model *m;
};
static struct tap T;

static void tap_fn(void *ctx, const struct kf_flit *f)
{
    struct tap *t = ctx;
    if (t->n < 64) {
        t->f[t->n] = *f;
        t->t[t->n] = km_now(t->m);
    }
    t->n++;
}

static struct km_model *model_with_tap(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    memset(&T, 0, sizeof(T));
    T.m = m;
    km_memory_set_tap(m->mem, tap_fn, &T);
    return m;
}

static uint64_t rd64(struct km_model *m, uint64_t ug)
{
    uint8_t b[8];
    km_mem_read(m, ug, b, 8);
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void put_pattern(struct km_model *m, uint64_t ug, size_t n)
{
    uint8_t *b = malloc(n);
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)i;
    km_mem_write(m, ug, b, n);
    free(b);
}

/* payload word w of a 32-byte beat that starts at pattern byte `first` */
static uint64_t pattern_word(unsigned first, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)(uint8_t)(first + 8 * w + i) << (8 * i);
    return v;
}

/* ---- decode ---- */

static void dram_is_sparse_and_reads_zero(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    uint8_t b[16] = { 1 };
    KT_EXPECT_EQ(km_mem_read(m, 0x1234, b, 16), KM_MEM_OK);
    KT_EXPECT_EQ(b[0], 0);
    KT_EXPECT_EQ(km_mem_write(m, 0xC0000005ull, "\x11\x22\x33", 3), KM_MEM_OK);   /* 3 GiB */
    KT_EXPECT_EQ(rd64(m, 0xC0000000ull), 0x3322110000000000ull);
    /* a write across a 64 KiB page boundary */
    KT_EXPECT_EQ(km_mem_write(m, 0xFFFE, "\xAA\xBB\xCC\xDD", 4), KM_MEM_OK);
    KT_EXPECT_EQ(rd64(m, 0xFFF8), 0xBBAA000000000000ull);
    KT_EXPECT_EQ(rd64(m, 0x10000), 0xDDCC);
    km_free(m);
}

static void dram_between_4_and_64_gb_hits_nothing(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    uint8_t b[4] = { 9, 9, 9, 9 };
    KT_EXPECT_EQ(km_mem_write(m, 0x100000000ull, "\1\2\3\4", 4), KM_MEM_NOTHING);
    KT_EXPECT_EQ(km_mem_read(m, 0x100000000ull, b, 4), KM_MEM_NOTHING);
    KT_EXPECT_EQ(b[0] | b[1] | b[2] | b[3], 0);
    KT_EXPECT_EQ(km_mem_read(m, 0xFFFFFFFE0ull, b, 4), KM_MEM_NOTHING);
    /* a range straddling the 4 GiB end: served part lands, the rest vanishes */
    KT_EXPECT_EQ(km_mem_write(m, 0xFFFFFFFEull, "\x5A\x5B\x5C\x5D", 4), KM_MEM_NOTHING);
    KT_EXPECT_EQ(rd64(m, 0xFFFFFFF8ull), 0x5B5A000000000000ull);
    km_free(m);
}

static void dram_of_another_mesh_aliases_local(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    /* mesh field [37:36] = 2 */
    KT_EXPECT_EQ(km_mem_write(m, (2ull << 36) | 0x500, "\x77", 1), KM_MEM_OK);
    KT_EXPECT_EQ(rd64(m, 0x500), 0x77);
    KT_EXPECT_EQ(rd64(m, (3ull << 36) | 0x500), 0x77);
    km_free(m);
}

static void staging_aperture_decode(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    uint8_t b[2] = { 0 };
    KT_EXPECT_EQ(km_mem_write(m, 0x8000000010ull, "\xC3", 1), KM_MEM_OK);
    KT_EXPECT_EQ(rd64(m, 0x8000000010ull), 0xC3);
    KT_EXPECT_EQ(rd64(m, 0x10), 0);                                      /* not DRAM */
    KT_EXPECT_EQ(km_mem_write(m, 0x80001FFFFFull, "\xE1", 1), KM_MEM_OK); /* last byte of 2 MB */
    KT_EXPECT_EQ(km_mem_read(m, 0x80001FFFFFull, b, 1), KM_MEM_OK);
    KT_EXPECT_EQ(b[0], 0xE1);
    KT_EXPECT_EQ(km_mem_read(m, 0x8000200000ull, b, 1), KM_MEM_NOTHING); /* past 2 MB */
    /* another mesh's staging ([37:36] = 1) and aperture index 1: dropped, nothing touched */
    KT_EXPECT_EQ(km_mem_write(m, 0x9000000010ull, "\x01", 1), KM_MEM_DROPPED);
    KT_EXPECT_EQ(km_mem_read(m, 0x9000000010ull, b, 1), KM_MEM_DROPPED);
    KT_EXPECT_EQ(km_mem_write(m, 0x8100000010ull, "\x01", 1), KM_MEM_DROPPED);
    KT_EXPECT_EQ(rd64(m, 0x8000000010ull), 0xC3);
    /* a range running from DRAM into nothing is fine; one touching a dropped aperture is not */
    KT_EXPECT_EQ(km_mem_write(m, 0x80FFFFFFFFull, "\x01\x02", 2), KM_MEM_DROPPED);
    km_free(m);
}

static void dram_size_is_a_property(void)
{
    struct km_platform plat = { 0 };
    struct km_config cfg = { .variant = KM_VARIANT_RV64, .dram_bytes = 1u << 20 };
    char err[128];
    struct km_model *m = km_new(&cfg, &plat, err, sizeof(err));
    KT_EXPECT(m != NULL);
    if (!m)
        return;
    KT_EXPECT_EQ(km_mem_write(m, 0xFFFFF, "\1", 1), KM_MEM_OK);
    KT_EXPECT_EQ(km_mem_write(m, 0x100000, "\1", 1), KM_MEM_NOTHING);
    km_free(m);
}

static void bad_configs_are_refused(void)
{
    struct km_platform plat = { 0 };
    char err[128];
    struct km_config c1 = { .variant = KM_VARIANT_RV32, .dram_bytes = 1000 };
    KT_EXPECT(km_new(&c1, &plat, err, sizeof(err)) == NULL);
    KT_EXPECT(strstr(err, "dram") != NULL);
    struct km_config c2 = { .variant = KM_VARIANT_RV32, .faults = "axi:3" };
    KT_EXPECT(km_new(&c2, &plat, err, sizeof(err)) == NULL);
    KT_EXPECT(strstr(err, "unknown item 'axi:3'") != NULL);
    struct km_config c3 = { .variant = (enum km_variant)16 };
    KT_EXPECT(km_new(&c3, &plat, err, sizeof(err)) == NULL);
    struct km_config c4 = { .variant = KM_VARIANT_RV32, .stage_flits = 205 };
    KT_EXPECT(km_new(&c4, &plat, err, sizeof(err)) == NULL);
    struct km_config c5 = { .variant = KM_VARIANT_RV32, .stage_flits = 204, .faults = "" };
    struct km_model *m = km_new(&c5, &plat, err, sizeof(err));
    KT_EXPECT(m != NULL);
    km_free(m);
}

/* ---- the memory agent ---- */

static void plain_read_is_one_burst(void)
{
    struct km_model *m = model_with_tap();
    unsigned ax, ay;
    km_mesh_agent_xy(m->mesh, &ax, &ay);
    put_pattern(m, 0x1000, 64);
    km_advance(m, 100);
    struct kf_flit rq = mem_req(0, 3, 2, 0x21, 0x1000, 1, 0, 9, 0xABCDEF, 3, 1);  /* count/peers unread */
    km_memory_receive(m, &rq);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 2);
    for (unsigned i = 0; i < 2 && i < T.n; i++) {
        uint64_t h = T.f[i].w[4];
        KT_EXPECT_EQ(H_DX(h), 3);
        KT_EXPECT_EQ(H_DY(h), 2);
        KT_EXPECT_EQ(H_SX(h), ax);
        KT_EXPECT_EQ(H_SY(h), ay);
        KT_EXPECT_EQ(H_TYPE(h), 2);             /* MEM_RD_RESP */
        KT_EXPECT_EQ(H_TXN(h), 0x21);           /* echoed unchanged */
        KT_EXPECT_EQ(H_LAST(h), i == 1);
        KT_EXPECT_EQ(H_RSVD(h), 0);
        KT_EXPECT_EQ(h >> 32, 0);
        for (unsigned w = 0; w < 4; w++)
            KT_EXPECT_EQ(T.f[i].w[w], pattern_word(32 * i, w));
        KT_EXPECT_EQ(T.t[i], 100 + 40 + i);     /* 40 ns latency, then one flit per ns */
    }
    km_free(m);
}

static void memory_latency_is_a_property(void)
{
    struct km_platform plat = { 0 };
    struct km_config cfg = { .variant = KM_VARIANT_RV32, .mem_ns = 100 };
    struct km_model *m = km_new(&cfg, &plat, NULL, 0);
    KT_EXPECT(m != NULL);
    if (!m)
        return;
    memset(&T, 0, sizeof(T));
    T.m = m;
    km_memory_set_tap(m->mem, tap_fn, &T);
    struct kf_flit rq = mem_req(0, 3, 2, 1, 0x0, 0, 0, 0, 0, 0, 0);
    km_memory_receive(m, &rq);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 1);
    KT_EXPECT_EQ(T.t[0], 100);
    km_free(m);
    struct km_config bad = { .variant = KM_VARIANT_RV32, .mem_ns = 1000001 };
    KT_EXPECT(km_new(&bad, &plat, NULL, 0) == NULL);
}

static void stream_read_with_peers(void)
{
    struct km_model *m = model_with_tap();
    put_pattern(m, 0x2000, 3 * 2 * 32);
    /* STREAM (flags bit 6), count 3, entry_words 2, peers {y=5,x=4} then {y=6,x=1} */
    struct kf_flit rq = mem_req(0, 2, 3, 0x10, 0x2000, 0, 0x40, 3, 0x0061 << 8 | 0x54, 2, 2);
    km_memory_receive(m, &rq);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 18);
    static const unsigned dx[3] = { 2, 4, 1 }, dy[3] = { 3, 5, 6 };
    unsigned k = 0;
    for (unsigned e = 0; e < 3; e++)
        for (unsigned d = 0; d < 3; d++)
            for (unsigned w = 0; w < 2; w++, k++) {
                if (k >= T.n)
                    continue;
                uint64_t h = T.f[k].w[4];
                KT_EXPECT_EQ(H_DX(h), dx[d]);
                KT_EXPECT_EQ(H_DY(h), dy[d]);
                KT_EXPECT_EQ(H_TXN(h), 0x10 + e);    /* tag plus entry index */
                KT_EXPECT_EQ(H_RSVD(h), w);          /* word index within the entry */
                KT_EXPECT_EQ(H_LAST(h), w == 1);     /* last on each entry's final word */
                KT_EXPECT_EQ(T.f[k].w[0], pattern_word((e * 2 + w) * 32, 0));
                KT_EXPECT_EQ(T.f[k].w[3], pattern_word((e * 2 + w) * 32, 3));
            }
    km_free(m);
}

static void stream_defaults_and_txn_wrap(void)
{
    struct km_model *m = model_with_tap();
    /* count 0 means 1; entry_words 0 means 4 */
    struct kf_flit a = mem_req(0, 2, 2, 0xFF, 0x0, 0, 0x40, 0, 0, 0, 0);
    km_memory_receive(m, &a);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 4);
    for (unsigned w = 0; w < 4 && w < T.n; w++) {
        KT_EXPECT_EQ(H_RSVD(T.f[w].w[4]), w);
        KT_EXPECT_EQ(H_LAST(T.f[w].w[4]), w == 3);
    }
    /* entry_words above 4 means 4; txn + entry index is an 8-bit sum */
    T.n = 0;
    struct kf_flit b = mem_req(0, 2, 2, 0xFF, 0x0, 0, 0x40, 2, 0, 0, 7);
    km_memory_receive(m, &b);
    km_advance(m, 2000);
    KT_EXPECT_EQ(T.n, 8);
    if (T.n == 8) {
        KT_EXPECT_EQ(H_TXN(T.f[0].w[4]), 0xFF);
        KT_EXPECT_EQ(H_TXN(T.f[4].w[4]), 0x00);
    }
    km_free(m);
}

static void unserved_aperture_read_gets_no_response(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit a = mem_req(0, 2, 2, 1, 0x8100000000ull, 0, 0, 0, 0, 0, 0);   /* aperture 1 */
    struct kf_flit b = mem_req(0, 2, 2, 1, 0x9000000000ull, 0, 0x40, 1, 0, 0, 1); /* mesh 1 staging */
    km_memory_receive(m, &a);
    km_memory_receive(m, &b);
    km_advance(m, 10000);
    KT_EXPECT_EQ(T.n, 0);
    KT_EXPECT_EQ(km_next_deadline(m), UINT64_MAX);
    km_free(m);
}

static void writes_bind_data_by_source(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit d1 = mem_req(1, 2, 3, 0x33, 0x3000, 1, 0, 0, 0, 0, 0);
    struct kf_flit d2 = mem_req(1, 4, 4, 0x44, 0x4000, 0, 0, 0, 0, 0, 0);
    struct kf_flit b = wr_data(4, 4, 0x80, 1), a0 = wr_data(2, 3, 0x00, 0), a1 = wr_data(2, 3, 0x20, 1);
    km_memory_receive(m, &d1);
    km_memory_receive(m, &d2);
    km_memory_receive(m, &b);       /* interleaved: another source's data */
    km_memory_receive(m, &a0);
    km_advance(m, 5);
    km_memory_receive(m, &a1);
    km_advance(m, 1000);
    KT_EXPECT_EQ(rd64(m, 0x3000), pattern_word(0x00, 0));
    KT_EXPECT_EQ(rd64(m, 0x3020), pattern_word(0x20, 0));
    KT_EXPECT_EQ(rd64(m, 0x3038), pattern_word(0x20, 3));
    KT_EXPECT_EQ(rd64(m, 0x4000), pattern_word(0x80, 0));
    KT_EXPECT_EQ(T.n, 2);
    if (T.n == 2) {
        uint64_t h0 = T.f[0].w[4], h1 = T.f[1].w[4];
        KT_EXPECT_EQ(H_TYPE(h0), 3);            /* MEM_WR_ACK */
        KT_EXPECT_EQ(H_DX(h0), 4);
        KT_EXPECT_EQ(H_DY(h0), 4);
        KT_EXPECT_EQ(H_TXN(h0), 0x44);
        KT_EXPECT_EQ(H_LAST(h0), 1);
        KT_EXPECT_EQ(T.t[0], 40);
        KT_EXPECT_EQ(H_DX(h1), 2);
        KT_EXPECT_EQ(H_DY(h1), 3);
        KT_EXPECT_EQ(H_TXN(h1), 0x33);
        KT_EXPECT_EQ(T.t[1], 45);               /* 40 ns after its last beat */
        for (unsigned w = 0; w < 4; w++)
            KT_EXPECT_EQ(T.f[1].w[w], 0);       /* no status in the payload */
    }
    km_free(m);
}

static void stray_write_data_is_dropped(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit a = wr_data(5, 5, 0x10, 1);
    km_memory_receive(m, &a);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 0);
    KT_EXPECT_EQ(rd64(m, 0), 0);
    km_free(m);
}

static void dropped_write_still_acked(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit d = mem_req(1, 2, 2, 0x5, 0x9000000000ull, 0, 0, 0, 0, 0, 0);   /* mesh 1 staging */
    struct kf_flit a = wr_data(2, 2, 0x10, 1);
    km_memory_receive(m, &d);
    km_memory_receive(m, &a);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 1);
    KT_EXPECT_EQ(H_TYPE(T.f[0].w[4]), 3);
    KT_EXPECT_EQ(H_TXN(T.f[0].w[4]), 5);
    KT_EXPECT_EQ(rd64(m, 0x8000000000ull), 0);     /* our own staging untouched */
    km_free(m);
}

static void read_data_is_taken_at_arrival(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit rq = mem_req(0, 2, 2, 1, 0x6000, 0, 0, 0, 0, 0, 0);
    struct kf_flit d = mem_req(1, 3, 3, 2, 0x6000, 0, 0, 0, 0, 0, 0);
    struct kf_flit a = wr_data(3, 3, 0x40, 1);
    km_memory_receive(m, &rq);
    km_memory_receive(m, &d);
    km_memory_receive(m, &a);
    km_advance(m, 1000);
    KT_EXPECT_EQ(T.n, 2);
    KT_EXPECT_EQ(H_TYPE(T.f[0].w[4]), 2);
    KT_EXPECT_EQ(T.f[0].w[0], 0);                  /* the old bytes */
    KT_EXPECT_EQ(rd64(m, 0x6000), pattern_word(0x40, 0));
    km_free(m);
}

static void reset_forgets_requests_in_flight(void)
{
    struct km_model *m = model_with_tap();
    struct kf_flit rq = mem_req(0, 2, 2, 1, 0x0, 0, 0x40, 8, 0, 0, 4);
    struct kf_flit d = mem_req(1, 3, 3, 2, 0x7000, 1, 0, 0, 0, 0, 0);
    struct kf_flit a = wr_data(3, 3, 0x40, 0);
    km_memory_receive(m, &rq);
    km_memory_receive(m, &d);
    km_memory_receive(m, &a);
    km_advance(m, 45);                             /* a few responses out */
    unsigned before = T.n;
    KT_EXPECT(before > 0 && before < 32);
    km_reset(m);
    km_advance(m, 10000);
    KT_EXPECT_EQ(T.n, before);
    struct kf_flit a1 = wr_data(3, 3, 0x60, 1);    /* the open write is gone too */
    km_memory_receive(m, &a1);
    km_advance(m, 20000);
    KT_EXPECT_EQ(T.n, before);
    KT_EXPECT_EQ(rd64(m, 0x7000), pattern_word(0x40, 0));   /* memory is kept */
    KT_EXPECT_EQ(rd64(m, 0x7020), 0);
    km_free(m);
}

int main(void)
{
    KT_RUN(dram_is_sparse_and_reads_zero);
    KT_RUN(dram_between_4_and_64_gb_hits_nothing);
    KT_RUN(dram_of_another_mesh_aliases_local);
    KT_RUN(staging_aperture_decode);
    KT_RUN(dram_size_is_a_property);
    KT_RUN(bad_configs_are_refused);
    KT_RUN(plain_read_is_one_burst);
    KT_RUN(memory_latency_is_a_property);
    KT_RUN(stream_read_with_peers);
    KT_RUN(stream_defaults_and_txn_wrap);
    KT_RUN(unserved_aperture_read_gets_no_response);
    KT_RUN(writes_bind_data_by_source);
    KT_RUN(stray_write_data_is_dropped);
    KT_RUN(dropped_write_still_acked);
    KT_RUN(read_data_is_taken_at_arrival);
    KT_RUN(reset_forgets_requests_in_flight);
    return 0;
}
