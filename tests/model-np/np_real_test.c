/* np_real_test.c — the NPU inside the whole device model (km_new: the real framework cu.c,
 * mesh, control agent and memory agent): the example program of docs/npu.md §8 dispatched
 * through the agent's host-side registers (docs/hardware.md §1) to the NP at (1,1) of the default map,
 * its result checked in DRAM against an independent double-precision reference. */
#include <math.h>
#include <stdlib.h>

#include "kmtest.h"
#include "km_internal.h"
#include "kmagent.h"
#include "fp16_ref.h"

static struct kt_plat plat;

/* One CU_INST into staging slot `slot` (docs/hardware.md §2: word 3 = payload [255:192], word 4 the
 * header with type 5 at [15:12], txn [11:4], last [3]; dst/src are rewritten by dispatch). */
static void stage(unsigned slot, uint64_t w3, unsigned txn, unsigned last)
{
    uint32_t b = 0x2000u + 40u * slot;
    wr(b + 0x00, 0);
    wr(b + 0x08, 0);
    wr(b + 0x10, 0);
    wr(b + 0x18, w3);
    wr(b + 0x20, (0x5u << 12) | (txn << 4) | (last << 3));
}

/* docs/npu.md §8, word for word. */
static const uint64_t prog[20] = {
    0x3800000001000000, 0x3000004002000000, 0x3010020001000000, 0x3020004001000200,
    0x34000203c0000000, 0x382fc00000000000, 0x2800000000000000, 0x2800800000004002,
    0x1004000002000200, 0x4000400028001020, 0x4500500030000400, 0x4600500028000410,
    0x4500508030400400, 0x4600508028400410, 0x4500510030800400, 0x4600510028800410,
    0x4500518030c00400, 0x4600518028c00410, 0x3030004001000000, 0x24000000a0008006,
};

static void np_real_example_program(void)
{
    static uint16_t x[4 * 32], w[32 * 16], p[4 * 16];
    uint32_t r = 99;

    M = kt_model(&plat, KM_VARIANT_RV32, true);
    if (!M)
        exit(1);
    for (unsigned i = 0; i < 4 * 32; i++)
        x[i] = h_of(((r = r * 1103515245u + 12345u) >> 16 & 0x7FFF) / 16384.0 - 1.0);
    for (unsigned i = 0; i < 32 * 16; i++)
        w[i] = h_of(((r = r * 1103515245u + 12345u) >> 16 & 0x7FFF) / 16384.0 - 1.0);
    KT_EXPECT_EQ(km_mem_write(M, 0x100000, x, sizeof x), KM_MEM_OK);
    KT_EXPECT_EQ(km_mem_write(M, 0x101000, w, sizeof w), KM_MEM_OK);
    for (unsigned i = 0; i < 20; i++)
        stage(i, prog[i], 0x4C, i == 19);
    /* NP at (1,1) = {y,x} 0x11, credit its inst_depth 16. */
    kick(0, 20, 0x11, 16);
    run(2000000);
    uint64_t ns = rd(0x1000 + 0x11 * 8);
    /* BATCH_COMPLETE (0x01), arg {24'd0, txn 0x4C}, 20 signals, valid. */
    KT_EXPECT_EQ(ns, (0x01ull << 56) | (0x4Cull << 24) | (20ull << 8) | 1u);
    KT_EXPECT_EQ(km_mem_read(M, 0x102000, p, sizeof p), KM_MEM_OK);
    for (int row = 0; row < 4; row++) {
        double logit[16], sum = 0, total = 0;
        for (int j = 0; j < 16; j++) {
            double e = 0;
            for (int k = 0; k < 32; k++)
                e += d_of(x[row * 32 + k]) * d_of(w[k * 16 + j]);
            logit[j] = d_of(h_of(e));
            sum += exp(logit[j]);
        }
        for (int j = 0; j < 16; j++) {
            KT_EXPECT(ulps16(p[row * 16 + j], h_of(exp(logit[j]) / sum)) <= 3);
            total += d_of(p[row * 16 + j]);
        }
        KT_EXPECT(fabs(total - 1.0) < 0.01);
    }
    KT_EXPECT_EQ(M->ref.credit_violations + M->ref.rx_dropped + M->ref.bad_reg_writes, 0);
    km_free(M);
}

/* An unserved aperture is dropped by the real memory agent (docs/hardware.md §8); the NP times out
 * after 100,000 cycles and faults with 0x4E500209 (docs/npu.md §6). */
static void np_real_memcpy_timeout(void)
{
    M = kt_model(&plat, KM_VARIANT_RV32, true);
    if (!M)
        exit(1);
    /* MEMSET scalar 0 = host base 1 << 39 | 5 << 32 (aperture 5); fmap 0 = (1, 32, 0);
     * MEMCPY host -> L2 0, shape 0, last. */
    stage(0, 0x3800085000000000ull, 0x33, 0);
    stage(1, 0x3000001002000000ull, 0x33, 0);
    stage(2, 0x2800000000000000ull, 0x33, 1);
    kick(0, 3, 0x11, 3);
    run(50000);
    KT_EXPECT_EQ(rd(0x1000 + 0x11 * 8) & 0xFFFF01u, (2u << 8) | 1u);   /* still waiting */
    run(100000);
    KT_EXPECT_EQ(rd(0x1000 + 0x11 * 8), (0x04ull << 56) | (0x4E500209ull << 24) | (3ull << 8) | 1u);
    km_free(M);
}

/* A decode-step GEMV (K = N = 256) on each of the four NPs of the default map: each reports
 * exec_result 2096 cycles (docs/npu.md §5) in its NODE_STATUS as an INST_COMPLETE. */
static void np_real_gemv_timing(void)
{
    static const unsigned np[4] = { 0x11, 0x12, 0x13, 0x14 };   /* {y,x} of NP@1..4,1 */

    M = kt_model(&plat, KM_VARIANT_RV32, true);
    if (!M)
        exit(1);
    /* MEMSET fmap 1 = (1, 256, 256); MEMSET weight 2 = (line 0, 1.0, packed);
     * GEMV dest 40000, src 20000, weights 2, shape 1 — none of them last. */
    stage(0, 0x3010001010001000ull, 0x21, 0);
    stage(1, 0x34200003c0000000ull, 0x21, 0);
    stage(2, 0x04e2013880008100ull, 0x21, 0);
    for (unsigned u = 0; u < 4; u++) {
        kick(0, 3, np[u], 3);
        run(10000);
        KT_EXPECT_EQ(rd(0x1000 + np[u] * 8), (0x00ull << 56) | (2096ull << 24) | (3ull << 8) | 1u);
    }
    KT_EXPECT_EQ(M->ref.credit_violations, 0);
    km_free(M);
}

int main(void)
{
    KT_RUN(np_real_gemv_timing);
    KT_RUN(np_real_example_program);
    KT_RUN(np_real_memcpy_timeout);
    return kt_failures ? 1 : 0;
}
