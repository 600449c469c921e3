/* core_cpu.c — native tests of the processor side of the model (cpu.c, model.c): docs/hardware.md §4
 * and §5 addresses, halt/exit/console, counters, caches, and the QEMU run contract's halt
 * mapping. Every address and expected value is a literal from docs/hardware.md or the contract. */
#include "kmtest.h"
#include "km_internal.h"

#define FAULT 0xFA17FA17FA17ull

static struct kt_plat P;

/* ---- RV32 local control (docs/hardware.md §4) ---- */

static void rv32_console_bytes_reach_the_platform(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000040, 4, 'o'), 0);
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000040, 1, 'k'), 0);
    KT_EXPECT_EQ(P.console_n, 2);
    KT_EXPECT(memcmp(P.console, "ok", 2) == 0);
    KT_EXPECT_EQ(P.stops, 0);
    km_free(m);
}

static void rv32_exit_store_stops_once_with_its_word(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    P.cur_pc = 0x1234;
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000044, 4, 0xCAFE0001), 0);
    KT_EXPECT_EQ(P.stops, 1);
    KT_EXPECT_EQ(P.state, 3);          /* KHP_CPU_EXITED */
    KT_EXPECT_EQ(P.cause, 0);
    KT_EXPECT_EQ(P.word, 0xCAFE0001);
    KT_EXPECT_EQ(P.pc, 0x1234);
    /* The first stop wins: a later EXIT or trap does not report again. */
    km_cpu_write(m, 0x20000044, 4, 7);
    km_cpu_trap(m, 11, 0x40, 0, 9);
    KT_EXPECT_EQ(P.stops, 1);
    KT_EXPECT_EQ(P.word, 0xCAFE0001);
    km_free(m);
}

static void rv32_cycle_and_instret(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    km_advance(m, 1000);
    P.instret = 777;
    KT_EXPECT_EQ(kt_rd(m, 0x20000018, 4), 1000);   /* CYCLE: 1 cycle per ns */
    KT_EXPECT_EQ(kt_rd(m, 0x2000001C, 4), 777);    /* INSTRET from the platform */
    km_advance(m, 0x100000005ull);
    KT_EXPECT_EQ(kt_rd(m, 0x20000018, 4), 5);      /* 32-bit register wraps */
    km_free(m);
}

static void rv32_local_control_read_only_and_unlisted(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    struct km_referee r;
    KT_EXPECT_EQ(kt_rd(m, 0x20000000, 4), 0);      /* STATUS: flush done, nothing outstanding */
    KT_EXPECT_EQ(kt_rd(m, 0x20000020, 4), 0);      /* WROUT */
    KT_EXPECT_EQ(kt_rd(m, 0x20000030, 4), 0);      /* unlisted reads 0 */
    km_cpu_write(m, 0x20000018, 4, 5);             /* CYCLE is read-only */
    km_cpu_write(m, 0x20000030, 4, 5);             /* unlisted */
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.bad_reg_writes, 2);
    /* decoded on addr[7:2]: a byte load returns the addressed byte of the word */
    km_advance(m, 0x0102);
    KT_EXPECT_EQ(kt_rd(m, 0x20000019, 1), 0x01);
    km_free(m);
}

static void rv32_unassigned_and_instruction_window_fault(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    uint64_t v;
    KT_EXPECT_EQ(km_cpu_read(m, 0x00000000, 4, &v), -1);   /* fetch-only window */
    KT_EXPECT_EQ(km_cpu_write(m, 0x00000100, 4, 1), -1);
    KT_EXPECT_EQ(km_cpu_read(m, 0x30000000, 4, &v), -1);   /* unassigned */
    KT_EXPECT_EQ(km_cpu_read(m, 0xF0000004, 4, &v), -1);   /* past MVGO */
    KT_EXPECT_EQ(km_cpu_read(m, 0xF1004000, 4, &v), -1);   /* past the agent window */
    KT_EXPECT_EQ(km_cpu_read(m, 0x20000002, 4, &v), -1);   /* misaligned */
    KT_EXPECT_EQ(km_cpu_read(m, 0x80000000, 8, &v), -1);   /* RV32 has no 64-bit access */
    km_free(m);
}

static void rv32_windows_are_8k_and_spad_is_on_the_bus(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    size_t ib, sb;
    uint8_t *imem = km_imem(m, &ib);
    uint8_t *spad = km_spad(m, &sb);
    KT_EXPECT_EQ(ib, 8192);
    KT_EXPECT_EQ(sb, 8192);
    KT_EXPECT(imem != NULL && spad != NULL);
    spad[8188] = 0x78; spad[8189] = 0x56; spad[8190] = 0x34; spad[8191] = 0x12;
    KT_EXPECT_EQ(kt_rd(m, 0x10001FFC, 4), 0x12345678);
    KT_EXPECT_EQ(kt_rd(m, 0x10002000, 4), FAULT);
    km_free(m);
}

/* ---- halt mapping (QEMU run contract, docs/hardware.md §4/§5) ---- */

static void rv32_trap_mapping(void)
{
    static const struct { uint64_t mcause; unsigned cause; bool word_is_a0; } cases[] = {
        { 11, 1, true }, { 8, 1, true }, { 3, 2, true },
        { 2, 3, false }, { 5, 3, false }, { 7, 3, false }, { 1, 3, false }, { 4, 3, false },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
        km_cpu_trap(m, cases[i].mcause, 0x00000ABC, 0xDEAD, 0x5A5A5A5A);
        KT_EXPECT_EQ(P.stops, 1);
        KT_EXPECT_EQ(P.state, 2);      /* KHP_CPU_HALTED */
        KT_EXPECT_EQ(P.cause, cases[i].cause);
        KT_EXPECT_EQ(P.word, cases[i].word_is_a0 ? 0x5A5A5A5A : 0x00000ABC);
        KT_EXPECT_EQ(P.pc, 0x00000ABC);
        km_free(m);
    }
}

static void rv64_trap_reports_raw_csrs(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    km_cpu_trap(m, 5, 0x2468, 0x30000000, 1);
    KT_EXPECT_EQ(P.stops, 1);
    KT_EXPECT_EQ(P.state, 2);
    KT_EXPECT_EQ(P.cause, 5);
    KT_EXPECT_EQ(P.word, 0x30000000);
    KT_EXPECT_EQ(P.pc, 0x2468);
    km_free(m);
}

/* ---- RV32 cache: 128 x 32-byte lines, write-back, on the DRAM window ---- */

static uint32_t mem32(struct km_model *m, uint64_t ug)
{
    uint8_t b[4];
    km_mem_read(m, ug, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void mem32_put(struct km_model *m, uint64_t ug, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    km_mem_write(m, ug, b, 4);
}

static void rv32_cache_is_write_back_until_flush(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    KT_EXPECT_EQ(km_cpu_write(m, 0x80000040, 4, 0xDEADBEEF), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x80000040, 4), 0xDEADBEEF);
    KT_EXPECT_EQ(mem32(m, 0x40), 0);                   /* still only in the cache */
    km_cpu_write(m, 0x20000004, 4, 1);                 /* FLUSH */
    KT_EXPECT_EQ(mem32(m, 0x40), 0xDEADBEEF);
    km_free(m);
}

static void rv32_stale_read_until_invalidate(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    KT_EXPECT_EQ(kt_rd(m, 0x80000100, 4), 0);          /* line now cached */
    mem32_put(m, 0x100, 0x11112222);                   /* a host/mover write behind it */
    KT_EXPECT_EQ(kt_rd(m, 0x80000100, 4), 0);          /* stale, as on silicon */
    km_cpu_write(m, 0x20000008, 4, 1);                 /* INVAL */
    KT_EXPECT_EQ(kt_rd(m, 0x80000100, 4), 0x11112222);
    km_free(m);
}

static void rv32_invalidate_drops_dirty_lines(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    km_cpu_write(m, 0x80000200, 4, 0xAAAA5555);
    km_cpu_write(m, 0x20000008, 4, 1);                 /* INVAL without FLUSH */
    KT_EXPECT_EQ(mem32(m, 0x200), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x80000200, 4), 0);
    km_free(m);
}

static void rv32_cache_has_128_lines_of_32_bytes(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, false);
    /* 128 x 32 = 4096: addresses 4 KB apart share a line and evict each other. */
    km_cpu_write(m, 0x80000000, 4, 0x01020304);
    km_cpu_write(m, 0x80000FE0, 4, 0x0A0B0C0D);       /* line 127: no conflict */
    KT_EXPECT_EQ(mem32(m, 0x0), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x80000800, 4), 0);          /* 2 KB away is line 64: no conflict */
    KT_EXPECT_EQ(mem32(m, 0x0), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x80001000, 4), 0);          /* evicts line 0, writing it back */
    KT_EXPECT_EQ(mem32(m, 0x0), 0x01020304);
    KT_EXPECT_EQ(mem32(m, 0xFE0), 0);                  /* line 127 still dirty in the cache */
    /* bytes 0 and 31 of one line live in one line: no write-back between them */
    km_cpu_write(m, 0x80002000, 1, 0x5A);
    km_cpu_write(m, 0x8000201F, 1, 0xA5);
    KT_EXPECT_EQ(mem32(m, 0x2000), 0);
    km_cpu_write(m, 0x20000004, 4, 1);
    KT_EXPECT_EQ(mem32(m, 0x2000), 0x5A);
    KT_EXPECT_EQ(mem32(m, 0x201C), 0xA5000000);
    KT_EXPECT_EQ(mem32(m, 0xFE0), 0x0A0B0C0D);
    /* the top of the window is local offset 0x6FFF_FFFF */
    km_cpu_write(m, 0xEFFFFFFC, 4, 0x600DF00D);
    km_cpu_write(m, 0x20000004, 4, 1);
    KT_EXPECT_EQ(mem32(m, 0x6FFFFFFC), 0x600DF00D);
    km_free(m);
}

/* ---- RV64 caches: 64 lines on cached DRAM, none on the uncached alias or staging ---- */

static void rv64_cached_dram_and_uncached_alias(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    KT_EXPECT_EQ(km_cpu_write(m, 0x10000000, 8, 0x1122334455667788ull), 0);
    KT_EXPECT_EQ(mem32(m, 0x10000000), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x4010000000ull, 8), 0);                 /* bit 38: uncached alias */
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000 + 0x1C8, 8, 1), 0);       /* DCACHE flush */
    KT_EXPECT_EQ(kt_rd(m, 0x4010000000ull, 8), 0x1122334455667788ull);
    /* an uncached write goes straight to memory; the cached copy is stale until invalidated */
    km_cpu_write(m, 0x4010000000ull, 8, 0x99);
    KT_EXPECT_EQ(mem32(m, 0x10000000), 0x99);
    KT_EXPECT_EQ(kt_rd(m, 0x10000000, 8), 0x1122334455667788ull);
    km_cpu_write(m, 0x20000 + 0x1C8, 8, 2);                        /* DCACHE invalidate */
    KT_EXPECT_EQ(kt_rd(m, 0x10000000, 8), 0x99);
    km_free(m);
}

static void rv64_cache_has_64_lines(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    /* 64 x 32 = 2048: addresses 2 KB apart share a line */
    km_cpu_write(m, 0x10000000, 8, 0xABCD);
    KT_EXPECT_EQ(kt_rd(m, 0x10000400, 8), 0);          /* 1 KB away: another line */
    KT_EXPECT_EQ(mem32(m, 0x10000000), 0);
    KT_EXPECT_EQ(kt_rd(m, 0x10000800, 8), 0);          /* 2 KB away: evicts */
    KT_EXPECT_EQ(mem32(m, 0x10000000), 0xABCD);
    km_free(m);
}

static void rv64_staging_is_uncached(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    KT_EXPECT_EQ(km_cpu_write(m, 0x8000000100ull, 4, 0x5157A6E0), 0);
    KT_EXPECT_EQ(mem32(m, 0x8000000100ull), 0x5157A6E0);
    mem32_put(m, 0x8000000100ull, 7);
    KT_EXPECT_EQ(kt_rd(m, 0x8000000100ull, 4), 7);
    km_free(m);
}

/* ---- RV64 control region (docs/hardware.md §5) ---- */

static void rv64_exit_console_and_stdin(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    size_t ib, sb;
    km_imem(m, &ib);
    km_spad(m, &sb);
    KT_EXPECT_EQ(ib, 32768);
    KT_EXPECT_EQ(sb, 32768);
    KT_EXPECT_EQ(km_cpu_write(m, 0x20008, 8, 'A'), 0);
    KT_EXPECT_EQ(P.console_n, 1);
    KT_EXPECT_EQ(P.console[0], 'A');
    KT_EXPECT_EQ(kt_rd(m, 0x20030, 8), 0);                 /* STDIN empty: valid 0 */
    KT_EXPECT_EQ(km_stdin_push(m, (const uint8_t *)"xy", 2), 2);
    KT_EXPECT_EQ(kt_rd(m, 0x20030, 8), 0x100 | 'x');       /* {valid[8], byte} */
    km_cpu_write(m, 0x20030, 8, 0);                        /* a store pops */
    KT_EXPECT_EQ(kt_rd(m, 0x20030, 8), 0x100 | 'y');
    km_cpu_write(m, 0x20030, 8, 0);
    KT_EXPECT_EQ(kt_rd(m, 0x20030, 8), 0);
    P.cur_pc = 0x3000;
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000, 8, 0x123456789ABCDEF0ull), 0);
    KT_EXPECT_EQ(P.stops, 1);
    KT_EXPECT_EQ(P.state, 3);
    KT_EXPECT_EQ(P.cause, 0);
    KT_EXPECT_EQ(P.word, 0x123456789ABCDEF0ull);
    KT_EXPECT_EQ(P.pc, 0x3000);
    km_free(m);
}

static void rv64_mover_window_stops_at_0x40(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    struct km_referee r;
    km_cpu_write(m, 0x20000 + 0x80 + 0x38, 8, 1);     /* SEED: inside the window */
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.bad_reg_writes, 0);
    km_cpu_write(m, 0x20000 + 0x80 + 0x40, 8, 1);     /* IMM: unreachable from RV64 */
    km_cpu_write(m, 0x20000 + 0x80 + 0x50, 8, 1);     /* GATHER: unreachable */
    km_cpu_write(m, 0x20000 + 0x20, 8, 1);            /* MVSTAT is read-only */
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.bad_reg_writes, 3);
    KT_EXPECT_EQ(kt_rd(m, 0x20000 + 0x1C8, 8), 0);    /* DCACHE: not busy */
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000 + 0x80, 4, 1), -1);   /* mover registers are 64-bit */
    KT_EXPECT_EQ(km_cpu_write(m, 0x20000 + 0x08, 1, 'x'), 0);  /* CONSOLE takes a byte store */
    km_free(m);
}

static void rv64_unassigned_faults(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV64, false);
    uint64_t v;
    KT_EXPECT_EQ(km_cpu_read(m, 0x0, 8, &v), -1);              /* fetch-only window */
    KT_EXPECT_EQ(km_cpu_read(m, 0x00018000, 8, &v), -1);       /* past the 32 KB scratchpad */
    KT_EXPECT_EQ(km_cpu_read(m, 0x00030000, 8, &v), -1);
    KT_EXPECT_EQ(km_cpu_read(m, 0x01004000, 8, &v), -1);       /* past the agent window */
    KT_EXPECT_EQ(km_cpu_read(m, 0x10000000000ull, 8, &v), -1); /* beyond 40 bits */
    KT_EXPECT_EQ(km_cpu_read(m, 0x8100000000ull, 8, &v), -1);  /* aperture 1: dropped */
    KT_EXPECT_EQ(km_cpu_read(m, 0x9000000000ull, 8, &v), -1);  /* mesh 1 staging: dropped */
    KT_EXPECT_EQ(km_cpu_read(m, 0x10000000, 8, &v), 0);        /* DRAM */
    km_free(m);
}

/* ---- hold / release ---- */

static void start_held_then_release(void)
{
    struct km_model *m = kt_model(&P, KM_VARIANT_RV32, true);
    km_advance(m, 500);
    km_cpu_hold(m, false);
    KT_EXPECT_EQ(P.releases, 1);
    km_advance(m, 800);
    KT_EXPECT_EQ(kt_rd(m, 0x20000018, 4), 300);      /* cycles count from the release */
    km_free(m);
}

int main(void)
{
    KT_RUN(rv32_console_bytes_reach_the_platform);
    KT_RUN(rv32_exit_store_stops_once_with_its_word);
    KT_RUN(rv32_cycle_and_instret);
    KT_RUN(rv32_local_control_read_only_and_unlisted);
    KT_RUN(rv32_unassigned_and_instruction_window_fault);
    KT_RUN(rv32_windows_are_8k_and_spad_is_on_the_bus);
    KT_RUN(rv32_trap_mapping);
    KT_RUN(rv64_trap_reports_raw_csrs);
    KT_RUN(rv32_cache_is_write_back_until_flush);
    KT_RUN(rv32_stale_read_until_invalidate);
    KT_RUN(rv32_invalidate_drops_dirty_lines);
    KT_RUN(rv32_cache_has_128_lines_of_32_bytes);
    KT_RUN(rv64_cached_dram_and_uncached_alias);
    KT_RUN(rv64_cache_has_64_lines);
    KT_RUN(rv64_staging_is_uncached);
    KT_RUN(rv64_exit_console_and_stdin);
    KT_RUN(rv64_mover_window_stops_at_0x40);
    KT_RUN(rv64_unassigned_faults);
    KT_RUN(start_held_then_release);
    return 0;
}
