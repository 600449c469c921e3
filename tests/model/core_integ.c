/* core_integ.c — the processor side inside the whole model: a program staged and kicked by
 * the processor itself through its agent window (docs/hardware.md §4 32-bit half rules on RV32, §5
 * 64-bit on RV64) into the default map's TU at (1,2), which writes DRAM through real memory
 * flits; the processor then sees the data only after an invalidate (RV32 L1) or at once
 * through the uncached alias (RV64). The TU encoding is docs/model-mesh.md §5's (WRITE: opcode
 * 0x2 at word 3 [63:60], len [47:40], addr [39:0]; word 2 the seed; 64-bit lane j of beat b =
 * seed + 4b + j), NODE_STATUS per docs/hardware.md §1. */
#include "kmtest.h"
#include "km_internal.h"

static struct kt_plat P;

/* One 64-bit agent register through RV32's window: low half first, then the high half. */
static void rv32_put64(struct km_model *m, uint32_t off, uint64_t v)
{
    km_cpu_write(m, 0xF1000000u + off, 4, (uint32_t)v);
    km_cpu_write(m, 0xF1000000u + off + 4, 4, (uint32_t)(v >> 32));
}

static uint64_t rv32_get64(struct km_model *m, uint32_t off)
{
    return kt_rd(m, 0xF1000000u + off, 4) | kt_rd(m, 0xF1000000u + off + 4, 4) << 32;
}

/* CU_INST header: type 5 at [15:12], txn [11:4], last [3]; dst/src are rewritten. */
static uint64_t inst_hdr(unsigned txn, unsigned last)
{
    return (0x5u << 12) | (txn << 4) | (last << 3);
}

static void rv32_program_through_the_window(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    /* Cache the destination line first, so the result must be invalidated to be seen. */
    KT_EXPECT_EQ(kt_rd(m, 0x80004000, 4), 0);
    /* slot 0: TU WRITE 4 beats at DRAM 0x4000, seed 0x100; slot 1: NOP, last */
    rv32_put64(m, 0x2000 + 0x10, 0x100);
    rv32_put64(m, 0x2000 + 0x18, (0x2ull << 60) | (3ull << 40) | 0x4000u);
    rv32_put64(m, 0x2000 + 0x20, inst_hdr(0x61, 0));
    rv32_put64(m, 0x2028 + 0x18, 0);
    rv32_put64(m, 0x2028 + 0x20, inst_hdr(0x61, 1));
    km_cpu_write(m, 0xF1000068, 4, 0);        /* PROG_BASE */
    km_cpu_write(m, 0xF1000048, 4, 2);        /* PROG_LEN */
    km_cpu_write(m, 0xF1000040, 4, 0x21);     /* PROG_DST {y 2, x 1} */
    km_cpu_write(m, 0xF1000060, 4, 2);        /* PROG_CRED */
    km_cpu_write(m, 0xF1000054, 4, 1);        /* high half of PROG_KICK: no kick */
    km_advance(m, 2000);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000070, 4), 0); /* SIG_DONE: nothing ran */
    km_cpu_write(m, 0xF1000050, 4, 1);        /* PROG_KICK fires on the low half */
    km_advance(m, 10000);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000070, 4), 2);
    /* NODE_STATUS[0x21]: code 0x01 BATCH_COMPLETE [63:56], arg {24'd0, 0x61} [55:24],
     * count 2 [23:8], valid [0] */
    KT_EXPECT_EQ(rv32_get64(m, 0x1000 + 0x21 * 8), 0x0100000061000201ull);
    KT_EXPECT_EQ(kt_rd(m, 0x80004000, 4), 0); /* stale line */
    km_cpu_write(m, 0x20000008, 4, 1);        /* INVAL */
    /* the TU's pattern: 64-bit words seed + i */
    KT_EXPECT_EQ(kt_rd(m, 0x80004000, 4), 0x100);
    KT_EXPECT_EQ(kt_rd(m, 0x80004078, 4), 0x10F);
    KT_EXPECT_EQ(kt_rd(m, 0x8000407C, 4), 0);
    /* SIG_DONE: a high-half store does nothing, a low-half store clears */
    km_cpu_write(m, 0xF1000074, 4, 1);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000070, 4), 2);
    km_cpu_write(m, 0xF1000070, 4, 0);
    KT_EXPECT_EQ(kt_rd(m, 0xF1000070, 4), 0);
    struct km_referee r;
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.credit_violations + r.bad_reg_writes + r.kick_while_running + r.rx_dropped, 0);
    km_free(m);
}

static void rv32_stage_is_byte_enabled(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    /* STAGE reads 0 (docs/hardware.md §1), so byte-enabled stores are checked through what they
     * dispatch: a TU WRITE whose seed was assembled by byte stores. */
    const uint8_t seed[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x08 };
    for (unsigned i = 0; i < 8; i++)
        KT_EXPECT_EQ(km_cpu_write(m, 0xF1002010u + i, 1, seed[i]), 0);
    KT_EXPECT_EQ(km_cpu_write(m, 0xF1002018, 2, 0x5000), 0);    /* addr [15:0] */
    KT_EXPECT_EQ(km_cpu_write(m, 0xF100201C, 4, 0x20000000), 0);/* opcode 2 at [63:60] */
    rv32_put64(m, 0x2020, inst_hdr(0x07, 1));
    km_cpu_write(m, 0xF1000048, 4, 1);
    km_cpu_write(m, 0xF1000040, 4, 0x21);
    km_cpu_write(m, 0xF1000060, 4, 1);
    km_cpu_write(m, 0xF1000050, 4, 1);
    km_advance(m, 10000);
    uint8_t b[8];
    km_mem_read(m, 0x5000, b, 8);
    KT_EXPECT_EQ(b[0], 0x11);
    KT_EXPECT_EQ(b[7], 0x08);
    KT_EXPECT_EQ(kt_rd(m, 0xF1002000, 4), 0);                     /* STAGE reads 0 */
    km_free(m);
}

static void rv64_program_through_the_window(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    const uint64_t w = 0x01000000u;
    km_cpu_write(m, w + 0x2010, 8, 0x200);
    km_cpu_write(m, w + 0x2018, 8, (0x2ull << 60) | (1ull << 40) | 0x10000000u);
    km_cpu_write(m, w + 0x2020, 8, inst_hdr(0x33, 1));
    km_cpu_write(m, w + 0x0048, 8, 1);
    km_cpu_write(m, w + 0x0040, 8, 0x21);
    km_cpu_write(m, w + 0x0060, 8, 1);
    KT_EXPECT_EQ(km_cpu_write(m, w + 0x0050, 4, 1), -1);         /* registers are 64-bit */
    km_cpu_write(m, w + 0x0050, 8, 1);
    km_advance(m, 10000);
    KT_EXPECT_EQ(kt_rd(m, w + 0x0070, 8), 1);
    KT_EXPECT_EQ(kt_rd(m, w + 0x1000 + 0x21 * 8, 8), 0x0100000033000101ull);
    /* straight through the uncached alias of DRAM 0x1000_0000 */
    KT_EXPECT_EQ(kt_rd(m, 0x4010000000ull, 8), 0x200);
    KT_EXPECT_EQ(kt_rd(m, 0x4010000038ull, 8), 0x207);
    km_free(m);
}

/* Mover register writes per docs/hardware.md §3. */
#define MV_CTRL(mode, width, go) ((uint64_t)(mode) | (uint64_t)(width) << 3 | (uint64_t)(go) << 16)
#define MV_HDR(walker, base, ndim) ((uint64_t)(walker) | (uint64_t)(base) << 4 | (uint64_t)(ndim) << 44)
#define MV_DIM(walker, d, count, stride) \
    ((uint64_t)(walker) | (uint64_t)(d) << 1 | (uint64_t)(count) << 4 | (uint64_t)(uint32_t)(stride) << 20)

static void spad_put32(uint8_t *spad, unsigned word, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        spad[4 * word + i] = (uint8_t)(v >> (8 * i));
}

static void rv32_mvgo_replays_a_descriptor(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    uint8_t *spad = km_spad(m, NULL);
    /* docs/hardware.md §4 descriptor at word 16: n, then {offset, lo, hi} per write; a FILL of two
     * 32-byte words at DRAM 0x9000 with IMM 0xA5A5A5A5. */
    const struct { unsigned off; uint64_t v; } w[] = {
        { 0x40, 0xA5A5A5A5u },
        { 0x10, MV_HDR(1, 0x9000, 1) },
        { 0x18, MV_DIM(1, 0, 2, 32) },
        { 0x20, 0 },
        { 0x00, MV_CTRL(4, 2, 1) },
    };
    unsigned n = sizeof(w) / sizeof(w[0]);
    spad_put32(spad, 16, n);
    for (unsigned i = 0; i < n; i++) {
        spad_put32(spad, 17 + 3 * i, w[i].off);
        spad_put32(spad, 18 + 3 * i, (uint32_t)w[i].v);
        spad_put32(spad, 19 + 3 * i, (uint32_t)(w[i].v >> 32));
    }
    KT_EXPECT_EQ(km_cpu_write(m, 0xF0000000, 4, 16), 0);          /* MVGO word index 16 */
    KT_EXPECT_EQ(kt_rd(m, 0xF0000000, 4) & 1, 1);                 /* busy */
    km_advance(m, 10000);
    KT_EXPECT_EQ(kt_rd(m, 0xF0000000, 4), 0);                     /* idle, no fault */
    uint8_t b[72];
    km_mem_read(m, 0x9000 - 4, b, sizeof(b));
    KT_EXPECT_EQ(b[3], 0);                                        /* guard before */
    KT_EXPECT_EQ(b[4], 0xA5);
    KT_EXPECT_EQ(b[4 + 63], 0xA5);
    KT_EXPECT_EQ(b[4 + 64], 0);                                   /* guard after */
    struct km_referee r;
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.busy_go, 0);
    km_free(m);
}

static void rv64_mover_window_and_mvstat(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    const uint64_t mv = 0x20000 + 0x80;
    /* GENERATE (mode 3) one word at staging offset 0x100: IMM is not needed */
    km_cpu_write(m, mv + 0x38, 8, 0x0123456789ABCDEFull);        /* SEED */
    km_cpu_write(m, mv + 0x10, 8, MV_HDR(1, 0x8000000100ull, 1));
    km_cpu_write(m, mv + 0x18, 8, MV_DIM(1, 0, 1, 32));
    km_cpu_write(m, mv + 0x20, 8, 0);
    km_cpu_write(m, mv + 0x00, 8, MV_CTRL(3, 2, 1));
    KT_EXPECT_EQ(kt_rd(m, 0x20020, 8) >> 32 & 1, 1);               /* MVSTAT busy [32] */
    km_cpu_write(m, mv + 0x00, 8, MV_CTRL(3, 2, 1));               /* GO while busy */
    km_advance(m, 10000);
    uint64_t st = kt_rd(m, 0x20020, 8);
    KT_EXPECT_EQ(st >> 32 & 1, 0);
    KT_EXPECT_EQ(st >> 28 & 0xF, 0);                               /* fault [31:28] */
    KT_EXPECT(kt_rd(m, 0x8000000100ull, 8) != 0);                  /* generated bytes */
    struct km_referee r;
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.busy_go, 1);                                    /* wired to the referee */
    km_free(m);
}

int main(void)
{
    KT_RUN(rv32_program_through_the_window);
    KT_RUN(rv32_stage_is_byte_enabled);
    KT_RUN(rv64_program_through_the_window);
    KT_RUN(rv32_mvgo_replays_a_descriptor);
    KT_RUN(rv64_mover_window_and_mvstat);
    return 0;
}
