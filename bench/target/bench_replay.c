/* bench_replay.c — bench figure 4 on the real mover layer (mover/, docs/mover.md §5):
 *  - replay_insns_per_write: a one-word COPY (11 writes: two one-dimensional walkers and the
 *    GO) replayed with and without 256 extra SEED writes before its GO; the difference in
 *    instructions retired over 256 is the cost of one register write replayed. Measured on
 *    kmv_replay_validated (the replay itself: lists already validated, as RUN's REPLAY steps
 *    are when the command is accepted) and on kmv_replay (validation + replay: what a REPLAY
 *    command runs today), both printed;
 *  - move_cycles: one COPY of 1 MB (32,768 words of 32 bytes) from DRAM to DRAM, processor
 *    cycles from the call to its return (GO, the mover's walk, the idle wait, cache upkeep),
 *    the data's first and last words checked afterwards.
 * Register values from docs/hardware.md §3 bit positions (the builder is not linked: RV32 window). */
#include "kb.h"
#include "kmv.h"

#define PAD 256u

#define W_CTRL(mode, width) ((uint64_t)(mode) | ((uint64_t)(width) << 3) | (UINT64_C(1) << 16))
#define W_HDR(w, base, nd)  ((uint64_t)(w) | ((uint64_t)(base) << 4) | ((uint64_t)(nd) << 44))
#define W_DIM(w, d, cnt, stride) \
    ((uint64_t)(w) | ((uint64_t)(d) << 1) | ((uint64_t)(cnt) << 4) | ((uint64_t)(uint32_t)(stride) << 20))
#define W_BOUND(w, b)       ((uint64_t)(w) | ((uint64_t)(b) << 1))     /* extent 0: off */

static void put(struct kd_write *l, uint32_t *n, uint32_t off, uint64_t v)
{
    l[*n].off = off;
    l[*n].lo = (uint32_t)v;
    l[*n].hi = (uint32_t)(v >> 32);
    (*n)++;
}

/* A COPY of `words` 32-byte words src -> dst, 32-bit elements, with `pad` SEED writes before
 * the GO. Returns the number of writes. */
static uint32_t copy_list(struct kd_write *l, uint32_t src, uint32_t dst, uint32_t words, uint32_t pad)
{
    uint32_t n = 0;
    for (unsigned w = 0; w < 2; w++) {
        put(l, &n, KMV_REG_HDR, W_HDR(w, w ? dst : src, 1));
        put(l, &n, KMV_REG_DIM, W_DIM(w, 0, words, 32));
        put(l, &n, KMV_REG_AXIS, 0);
        put(l, &n, KMV_REG_BOUND, W_BOUND(w, 0));
        put(l, &n, KMV_REG_BOUND, W_BOUND(w, 1));
    }
    for (uint32_t i = 0; i < pad; i++)
        put(l, &n, KMV_REG_SEED, 0x5EED0000u + i);
    put(l, &n, KMV_REG_CTRL, W_CTRL(0, 2));              /* COPY, 32-bit elements, GO */
    return n;
}

typedef unsigned (*replay_fn)(const struct kd_write *, uint32_t, uint64_t, struct kmv_result *);

static uint64_t replay_insns(replay_fn f, const struct kd_write *l, uint32_t n)
{
    struct kmv_result r;
    uint64_t i0 = hal_instret();
    unsigned st = f(l, n, KDT_WAIT, &r);
    uint64_t d = hal_instret() - i0;
    EXPECT_EQ(st, KS_OK);
    EXPECT_EQ(r.moves, 1);
    return d;
}

int main(void)
{
    struct kd_write *a = kb_dram(KB_UG_LIST);
    struct kd_write *b = a + 16;
    struct kmv_result r;
    uint32_t na = copy_list(a, KB_UG_SRC, KB_UG_DST, 1, 0);
    uint32_t nb = copy_list(b, KB_UG_SRC, KB_UG_DST, 1, PAD);
    EXPECT_EQ(na, 11);
    EXPECT_EQ(nb, 11 + PAD);
    EXPECT_EQ(kmv_validate(a, na, kmv_caps_self(), &r), KS_OK);
    EXPECT_EQ(kmv_validate(b, nb, kmv_caps_self(), &r), KS_OK);

    /* Warm-up, then each list on each path. */
    replay_insns(kmv_replay_validated, a, na);
    kb_raw("replay_v_base_insns", replay_insns(kmv_replay_validated, a, na));
    kb_raw("replay_v_pad_insns", replay_insns(kmv_replay_validated, b, nb));
    kb_raw("replay_full_base_insns", replay_insns(kmv_replay, a, na));
    kb_raw("replay_full_pad_insns", replay_insns(kmv_replay, b, nb));
    kb_raw("replay_pad_writes", PAD);

    /* 1 MB copy: marks at both ends of the source, guards at both ends of the destination. */
    volatile uint32_t *s = kb_dram(KB_UG_SRC), *d = kb_dram(KB_UG_DST);
    const uint32_t last = (1u << 20) / 4u - 1u;
    s[0] = 0xC0FFEE01u;
    s[last] = 0xC0FFEE02u;
    d[0] = d[last] = 0xDEADBEEFu;
    hal_dcache_flush();
    hal_dcache_inval();
    uint32_t nc = copy_list(a, KB_UG_SRC, KB_UG_DST, (1u << 20) / 32u, 0);
    EXPECT_EQ(kmv_validate(a, nc, kmv_caps_self(), &r), KS_OK);
    uint64_t c0 = hal_cycles(), i0 = hal_instret();
    EXPECT_EQ(kmv_replay_validated(a, nc, KDT_WAIT, &r), KS_OK);
    uint64_t mc = hal_cycles() - c0, mi = hal_instret() - i0;
    EXPECT_EQ(r.moves, 1);
    EXPECT_EQ(d[0], 0xC0FFEE01u);
    EXPECT_EQ(d[last], 0xC0FFEE02u);
    kb_raw("move_cycles", mc);
    kb_raw("move_insns", mi);
    kt_finish();
}
