/* core_integ.c — the processor side inside the whole model: a program staged and kicked by
 * the processor itself through its agent window (BOARD.md §4 32-bit half rules on RV32, §5
 * 64-bit on RV64) into the default map's TU at (1,2), which writes DRAM through real memory
 * flits; the processor then sees the data only after an invalidate (RV32 L1) or at once
 * through the uncached alias (RV64). The TU encoding is docs/model-mesh.md §5's (WRITE: opcode
 * 0x2 at word 3 [63:60], len [47:40], addr [39:0]; word 2 the seed; 64-bit lane j of beat b =
 * seed + 4b + j), NODE_STATUS per BOARD.md §1. */
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
    /* STAGE reads 0 (BOARD.md §1), so byte-enabled stores are checked through what they
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

int main(void)
{
    KT_RUN(rv32_program_through_the_window);
    KT_RUN(rv32_stage_is_byte_enabled);
    KT_RUN(rv64_program_through_the_window);
    return 0;
}
