/* core_hostport.c — native tests of the host port (hostport.c; include/kohaku/hostport.h;
 * docs/hardware.md §6): framing, every region, every error status, and a stream of random bytes that
 * must never crash the model. Wire bytes are built by hand, little-endian, per the header's
 * documented layout (16-byte request and reply headers). */
#include <stdlib.h>

#include "kmtest.h"
#include "km_internal.h"
#include "kohaku/hostport.h"

static struct kt_plat P;
static uint8_t out[16 + (1u << 20)];

static struct kt_rep reg_rd(struct km_model *m, uint64_t addr)
{
    return kt_hp(m, 2, 8, 0x77, 0, addr, NULL, 0);
}

static struct kt_rep reg_wr(struct km_model *m, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    kt_le(b, 8, v);
    return kt_hp(m, 3, 8, 0x78, 8, addr, b, 8);
}

static void parse_needs_a_whole_request(void)
{
    uint8_t in[24] = { 3, 0, 0x34, 0x12, 8, 0, 0, 0 };   /* WRITE, tag 0x1234, len 8 */
    struct khp_req req;
    const uint8_t *d = NULL;
    KT_EXPECT_EQ(km_hp_parse(in, 15, &req, &d), 0);
    KT_EXPECT_EQ(km_hp_parse(in, 23, &req, &d), 0);
    KT_EXPECT_EQ(km_hp_parse(in, 24, &req, &d), 24);
    KT_EXPECT_EQ(req.op, 3);
    KT_EXPECT_EQ(req.tag, 0x1234);
    KT_EXPECT_EQ(req.len, 8);
    KT_EXPECT(d == in + 16);
    in[0] = 2;                                            /* a READ carries no data */
    KT_EXPECT_EQ(km_hp_parse(in, 16, &req, &d), 16);
}

static void hello_answers_magic_and_version(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    struct kt_rep r = kt_hp(m, 1, 0, 0xBEEF, 0, 0, NULL, 0);
    KT_EXPECT_EQ(r.op, 1);
    KT_EXPECT_EQ(r.status, 0);
    KT_EXPECT_EQ(r.tag, 0xBEEF);
    KT_EXPECT_EQ(r.len, 0);
    KT_EXPECT_EQ(r.value, 0x000000014B485031ull);        /* "KHP1" | version 1 << 32 */
    KT_EXPECT_EQ(r.total, 16);
    r = kt_hp(m, 9, 0, 1, 0, 0, NULL, 0);
    KT_EXPECT_EQ(r.status, 1);                            /* KHP_E_OP */
    KT_EXPECT_EQ(r.op, 9);
    km_free(m);
}

static void memory_is_reached_behind_the_caches(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    const uint64_t mesh0 = 1ull << 40;
    KT_EXPECT_EQ(kt_rd(m, 0x80000400, 4), 0);            /* the core caches the line */
    struct kt_rep r = kt_hp(m, 3, 0, 1, 4, mesh0 | 0x400, "\x11\x22\x33\x44", 4);
    KT_EXPECT_EQ(r.status, 0);
    KT_EXPECT_EQ(r.len, 0);
    r = kt_hp(m, 2, 0, 2, 4, mesh0 | 0x400, NULL, 0);
    KT_EXPECT_EQ(r.status, 0);
    KT_EXPECT_EQ(r.len, 4);
    KT_EXPECT_EQ(r.total, 20);
    KT_EXPECT_EQ(kt_gle(r.data, 4), 0x44332211);
    KT_EXPECT_EQ(kt_rd(m, 0x80000400, 4), 0);            /* stale until INVAL */
    km_cpu_write(m, 0x20000008, 4, 1);
    KT_EXPECT_EQ(kt_rd(m, 0x80000400, 4), 0x44332211);
    /* a dirty line is invisible to the host until FLUSH */
    km_cpu_write(m, 0x80000400, 4, 0x55);
    r = kt_hp(m, 2, 0, 3, 4, mesh0 | 0x400, NULL, 0);
    KT_EXPECT_EQ(kt_gle(r.data, 4), 0x44332211);
    km_cpu_write(m, 0x20000004, 4, 1);
    r = kt_hp(m, 2, 0, 3, 4, mesh0 | 0x400, NULL, 0);
    KT_EXPECT_EQ(kt_gle(r.data, 4), 0x55);
    /* staging through the host port */
    r = kt_hp(m, 3, 0, 4, 2, mesh0 | 0x8000000020ull, "\xAB\xCD", 2);
    KT_EXPECT_EQ(r.status, 0);
    r = kt_hp(m, 2, 0, 4, 2, mesh0 | 0x8000000020ull, NULL, 0);
    KT_EXPECT_EQ(kt_gle(r.data, 2), 0xCDAB);
    km_free(m);
}

static void memory_errors(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    const uint64_t mesh0 = 1ull << 40;
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 4, 2ull << 40, NULL, 0).status, 2);          /* mesh 1: E_ADDR */
    KT_EXPECT_EQ(kt_hp(m, 2, 8, 1, 8, mesh0, NULL, 0).status, 5);               /* width: E_WIDTH */
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 0, mesh0, NULL, 0).status, 3);               /* len 0: E_LEN */
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, (1u << 20) + 1, mesh0, NULL, 0).status, 3);  /* too long */
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 16, mesh0 | 0xFFFFFFFFF8ull, NULL, 0).status, 3); /* past 40 bits */
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 4, mesh0 | 0x8100000000ull, NULL, 0).status, 2);  /* aperture 1 */
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 1, mesh0 | 0x9000000000ull, "\1", 1).status, 2);  /* mesh 1 staging */
    /* a WRITE longer than the maximum is framed as its header and refused */
    uint8_t hdr[16] = { 3, 0, 1, 0 };
    kt_le(hdr + 4, 4, (1u << 20) + 1);
    kt_le(hdr + 8, 8, mesh0);
    struct khp_req req;
    const uint8_t *d;
    KT_EXPECT_EQ(km_hp_parse(hdr, 16, &req, &d), 16);
    KT_EXPECT_EQ(km_hp_execute(m, &req, d, out, sizeof(out)), 16);
    KT_EXPECT_EQ(out[1], 3);
    /* a reply buffer too small for the data */
    req = (struct khp_req){ .op = 2, .width = 0, .len = 64, .addr = mesh0 };
    KT_EXPECT_EQ(km_hp_execute(m, &req, NULL, out, 32), 16);
    KT_EXPECT_EQ(out[1], 3);
    KT_EXPECT_EQ(km_hp_execute(m, &req, NULL, out, 8), 0);
    /* nothing at these outside addresses */
    KT_EXPECT_EQ(reg_rd(m, 0x00010100).status, 2);
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 4, 0x00400000, NULL, 0).status, 2);
    KT_EXPECT_EQ(kt_hp(m, 2, 0, 1, 4, 0x00100000 + 8192, NULL, 0).status, 2);
    km_free(m);
}

static void load_paths_only_while_held(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);   /* running */
    size_t ib, sb;
    uint8_t *imem = km_imem(m, &ib);
    uint8_t *spad = km_spad(m, &sb);
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 4, 0x00100000, "\x13\0\0\0", 4).status, 6);   /* E_RUNNING */
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 1, 0x00200000, "\x01", 1).status, 6);
    KT_EXPECT_EQ(reg_wr(m, 0x00010000, 1).status, 0);                          /* hold */
    KT_EXPECT_EQ(P.holds, 1);
    KT_EXPECT_EQ(reg_rd(m, 0x00010008).value & 3, 0);                          /* HELD */
    KT_EXPECT_EQ(reg_rd(m, 0x00010000).value, 1);
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 8, 0x00100000, "\x13\0\0\0\x6f\0\0\0", 8).status, 0);
    KT_EXPECT_EQ(imem[0], 0x13);
    KT_EXPECT_EQ(imem[4], 0x6F);
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 4, 0x00100002, "abcd", 4).status, 4);         /* E_ALIGN */
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 6, 0x00100000, "abcdef", 6).status, 4);
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 8, 0x00100000 + 8188, "abcdefgh", 8).status, 3); /* past 8 KB */
    KT_EXPECT_EQ(kt_hp(m, 3, 0, 1, 3, 0x00200000 + 8189, "xyz", 3).status, 0);   /* spad: bytes */
    KT_EXPECT_EQ(spad[8191], 'z');
    KT_EXPECT_EQ(kt_hp(m, 3, 4, 1, 4, 0x00200000, "abcd", 4).status, 5);         /* E_WIDTH */
    KT_EXPECT_EQ(reg_wr(m, 0x00010000, 0).status, 0);                          /* release */
    KT_EXPECT_EQ(P.releases, 1);
    KT_EXPECT_EQ(reg_rd(m, 0x00010008).value & 3, 1);                          /* RUNNING */
    struct kt_rep r = kt_hp(m, 2, 0, 1, 8, 0x00100000, NULL, 0);                    /* reads any time */
    KT_EXPECT_EQ(r.status, 0);
    KT_EXPECT_EQ(kt_gle(r.data, 8), 0x0000006F00000013ull);
    km_free(m);
}

static void processor_host_registers(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, true);
    KT_EXPECT_EQ(reg_rd(m, 0x00010030).value, 64);                 /* VARIANT */
    KT_EXPECT_EQ(reg_rd(m, 0x00010008).value, 0);                  /* HELD */
    km_advance(m, 1000);
    KT_EXPECT_EQ(reg_rd(m, 0x00010038).value, 1000);               /* NOW_NS */
    KT_EXPECT_EQ(reg_rd(m, 0x00010020).value, 0);                  /* no cycles while held */
    reg_wr(m, 0x00010000, 0);
    km_advance(m, 1500);
    P.instret = 480;
    KT_EXPECT_EQ(reg_rd(m, 0x00010020).value, 500);                /* CYCLES since release */
    KT_EXPECT_EQ(reg_rd(m, 0x00010028).value, 480);                /* INSTRET */
    km_cpu_trap(m, 2, 0x1230, 0xBAD0, 0);
    km_advance(m, 1700);
    struct kt_rep r = reg_rd(m, 0x00010008);
    KT_EXPECT_EQ(r.value, 2 | 2 << 8);                             /* HALTED, cause 2 */
    KT_EXPECT_EQ(reg_rd(m, 0x00010010).value, 0xBAD0);             /* EXIT_WORD = mtval */
    KT_EXPECT_EQ(reg_rd(m, 0x00010018).value, 0x1230);             /* HALT_PC */
    KT_EXPECT_EQ(reg_rd(m, 0x00010020).value, 500);                /* frozen at the stop */
    KT_EXPECT_EQ(reg_wr(m, 0x00010008, 1).status, 2);              /* read-only: E_ADDR */
    KT_EXPECT_EQ(kt_hp(m, 2, 4, 1, 0, 0x00010008, NULL, 0).status, 5);/* width 4: E_WIDTH */
    KT_EXPECT_EQ(reg_rd(m, 0x00010004).status, 4);                 /* E_ALIGN */
    KT_EXPECT_EQ(reg_rd(m, 0x00010040).status, 2);                 /* no register there */
    KT_EXPECT_EQ(kt_hp(m, 3, 8, 1, 4, 0x00010000, "\0\0\0\0", 4).status, 3);  /* value is 8 bytes */
    /* hold then release restarts the stopped core */
    reg_wr(m, 0x00010000, 1);
    reg_wr(m, 0x00010000, 0);
    KT_EXPECT_EQ(reg_rd(m, 0x00010008).value, 1);
    KT_EXPECT_EQ(reg_rd(m, 0x00010010).value, 0);
    km_free(m);
}

static void model_registers_are_the_referee(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    km_cpu_write(m, 0x20000010, 4, 1);                    /* COREID is read-only */
    km_cpu_write(m, 0x20000014, 4, 1);                    /* ARG is read-only */
    KT_EXPECT_EQ(reg_rd(m, 0x00300000).value, 0);         /* credit_violations */
    KT_EXPECT_EQ(reg_rd(m, 0x00300008).value, 2);         /* bad_reg_writes */
    KT_EXPECT_EQ(reg_rd(m, 0x00300038).status, 0);        /* rx_dropped, the eighth */
    KT_EXPECT_EQ(reg_rd(m, 0x00300068).status, 2);        /* past the fault-injection registers */
    KT_EXPECT_EQ(reg_wr(m, 0x00300008, 0).status, 2);     /* read-only */
    KT_EXPECT_EQ(reg_rd(m, 0x00300008).value, 2);
    km_free(m);
}

static void agent_registers_through_the_host(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    struct kt_rep r = reg_rd(m, 0x10);                        /* CAPS */
    KT_EXPECT_EQ(r.status, 0);
    KT_EXPECT_EQ(r.value & 0xFFFF, 288);                   /* FLIT_WIDTH */
    KT_EXPECT_EQ((r.value >> 16) & 0xFF, 4);               /* POS_WIDTH */
    KT_EXPECT_EQ(reg_wr(m, 0x0, 0x1122334455667788ull).status, 0);   /* CTRL: stored */
    KT_EXPECT_EQ(reg_rd(m, 0x0).value, 0x1122334455667788ull);
    KT_EXPECT_EQ(kt_hp(m, 2, 8, 1, 0, 0x4, NULL, 0).status, 4);
    km_free(m);
}

static void rv32_agent_window_half_rules(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    /* CTRL (offset 0) stores its value: low store clears [63:32], high store keeps [31:0] */
    reg_wr(m, 0x0, 0xFFFFFFFFFFFFFFFFull);
    km_cpu_write(m, 0xF1000000, 4, 0x11223344);
    KT_EXPECT_EQ(reg_rd(m, 0x0).value, 0x11223344ull);
    km_cpu_write(m, 0xF1000004, 4, 0xAABBCCDD);
    KT_EXPECT_EQ(reg_rd(m, 0x0).value, 0xAABBCCDD11223344ull);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000000, 4), 0x11223344);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000004, 4), 0xAABBCCDD);
    KT_EXPECT_EQ(km_cpu_write(m, 0xF1000000, 2, 1), -1);  /* registers take 32-bit stores */
    /* the processor's AUX_CFG write is dropped and counted */
    km_cpu_write(m, 0xF1000800, 4, 1);
    struct km_referee ref;
    km_referee_get(m, &ref);
    KT_EXPECT_EQ(ref.cpu_aux_cfg_writes, 1);
    km_free(m);
}

static void random_bytes_never_crash(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, true);
    static uint8_t in[4096];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    unsigned replies = 0;
    for (unsigned iter = 0; iter < 20000; iter++) {
        for (unsigned i = 0; i < 64; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            in[i] = (uint8_t)s;
        }
        /* steer some requests at real regions with plausible ops and small lengths */
        in[0] = (uint8_t)(in[0] % 5);
        if (in[1] & 1)
            in[1] &= 8;
        in[5] = in[6] = in[7] = 0;
        in[4] = (uint8_t)(in[4] % 49);
        static const uint64_t bases[] = { 0x0, 0x10000, 0x100000, 0x200000, 0x300000,
                                          1ull << 40, (1ull << 40) | 0x8000000000ull, 2ull << 40 };
        if (in[15] & 1) {
            uint64_t a = bases[in[14] % 8] + (kt_gle(in + 8, 2) & 0x3FF8u);
            kt_le(in + 8, 8, a);
        }
        struct khp_req req;
        const uint8_t *d;
        size_t used = km_hp_parse(in, 64, &req, &d);
        if (used) {
            size_t n = km_hp_execute(m, &req, d, out, sizeof(out));
            if (n >= 16)
                replies++;
        }
    }
    KT_EXPECT_EQ(replies, 20000);
    km_free(m);
}

int main(void)
{
    KT_RUN(parse_needs_a_whole_request);
    KT_RUN(hello_answers_magic_and_version);
    KT_RUN(memory_is_reached_behind_the_caches);
    KT_RUN(memory_errors);
    KT_RUN(load_paths_only_while_held);
    KT_RUN(processor_host_registers);
    KT_RUN(model_registers_are_the_referee);
    KT_RUN(agent_registers_through_the_host);
    KT_RUN(rv32_agent_window_half_rules);
    KT_RUN(random_bytes_never_crash);
    return 0;
}
