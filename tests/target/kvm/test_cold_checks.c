/* test_cold_checks.c — the cold segment's two checks (hal/rv32/kvm.c hal_cold_bad; docs/kvm.md
 * "Guards"), called directly on this image's own segment in DRAM. The header the link and
 * scripts/cold-sum.sh wrote: magic "KVMC" (0x434D564B), the segment's length, the build id
 * (the sum of the other words, so not 0 here), `ret` (0x00008067). The boot's check (0) looks
 * at the header only: a changed id or magic fails it, a changed code word does not; the full
 * check (1) fails on any of them. Each change is undone and both checks pass again. Literal
 * values: the header layout of docs/kvm.md "Guards". */
// kohaku-test: boards=qemu-rv32
#include "harness.h"
#include "hal/hal.h"
#include "kvm.h"
#include "kvo.h"

/* One word of the segment changed by `x` (xor), both checks run, the word restored. */
static void kt_damage(volatile uint32_t *w, uint32_t x, unsigned hdr_bad)
{
    uint32_t was = *w;
    *w = was ^ x;
    EXPECT_EQ(hal_cold_bad(0) != 0, hdr_bad);
    EXPECT_TRUE(hal_cold_bad(1) != 0);
    *w = was;
    EXPECT_EQ(hal_cold_bad(0), 0);
    EXPECT_EQ(hal_cold_bad(1), 0);
}

int main(void)
{
    volatile uint32_t *h = (volatile uint32_t *)__kx_cold_start;
    EXPECT_EQ(h[0], 0x434D564Bu);
    EXPECT_EQ(h[1], (uint32_t)((uintptr_t)__kx_cold_end - (uintptr_t)__kx_cold_start));
    EXPECT_TRUE(h[2] != 0);
    EXPECT_EQ(h[3], 0x00008067u);
    EXPECT_EQ(hal_cold_bad(0), 0);
    EXPECT_EQ(hal_cold_bad(1), 0);

    kt_damage(&h[2], 1u, 1);                    /* another build's id */
    kt_damage(&h[0], h[0], 1);                  /* magic gone (an absent segment's zero) */
    kt_damage(&h[1], 16u, 1);                   /* another length */
    kt_damage((volatile uint32_t *)kvo_slot_insn, 1u << 20, 0);   /* code: the header holds */
    uintptr_t last = (uintptr_t)__kx_cold_end - 4u;
    kt_damage((volatile uint32_t *)last, 0x80000000u, 0);           /* the last word */

    /* All zero (nothing loaded): both fail. */
    EXPECT_TRUE(h[0] + h[1] + h[2] + h[3] != 0);
    uint32_t keep[4] = { h[0], h[1], h[2], h[3] };
    h[0] = h[1] = h[2] = h[3] = 0;
    EXPECT_TRUE(hal_cold_bad(0) != 0);
    EXPECT_TRUE(hal_cold_bad(1) != 0);
    for (unsigned i = 0; i < 4; i++)
        h[i] = keep[i];

    /* The segment intact: cold code runs (the first call sums it). */
    EXPECT_EQ(kvo_slot(), 1);                  /* kvo_cold.c: returns 1 */
    kt_finish();
}
