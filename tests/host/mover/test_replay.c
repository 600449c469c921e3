/* test_replay.c — native tests of replay (mover/replay.c with the RV32 port, mover/rv32/port.c)
 * against the model's mover through the hal stand-in (fakehal.c), under ASan/UBSan: data,
 * chunking of long moves into MVGOs, one MVGO per move, cache maintenance around the list,
 * every fault code decoded, the occupant fault, both timeouts, no GO into a busy mover, the
 * FILL/GENERATE margin (docs/hardware.md §3.1 last row), and nothing at all done for a list that fails
 * validation. Register values are literals from docs/hardware.md §3 bit positions (the working in
 * test_mover.c and docs/mover.md). */
#include <string.h>

#include "fakehal.h"
#include "ht.h"
#include "kmv.h"
#include "kohaku/cpu_map.h"

#define TMO 100000u

/* A 4-word copy 0x2000 -> 0x1000: 11 writes (test_mover.c works out each value). */
#define COPY_4 \
    { 0x10, 0x00020000u, 0x00001000u }, { 0x18, 0x02000040u, 0 }, { 0x20, 0, 0 }, \
    { 0x28, 0, 0 }, { 0x28, 2, 0 }, \
    { 0x10, 0x00010001u, 0x00001000u }, { 0x18, 0x02000041u, 0 }, { 0x20, 0, 0 }, \
    { 0x28, 1, 0 }, { 0x28, 3, 0 }, \
    { 0x00, 0x10010u, 0 }

static const struct kd_write copy4[] = { COPY_4 };

static void src_pattern(void)
{
    for (uint32_t i = 0; i < 4 * 32; i++)
        fh_mem[0x2000 + i] = (uint8_t)(i * 7 + 1);
}

static int dst_is_src(unsigned words)
{
    return memcmp(fh_mem + 0x1000, fh_mem + 0x2000, 32u * words) == 0;
}

static void replay_copy(void)
{
    struct kmv_result r;

    fh_reset();
    src_pattern();
    CHECK_EQ(kmv_replay(copy4, 11, TMO, &r), KS_OK);
    CHECK_EQ(r.moves, 1);
    CHECK_EQ(r.index, 11);
    CHECK(dst_is_src(4));
    CHECK_EQ(fh_mem[0x1000 + 4 * 32], 0);           /* guard word after the destination */
    CHECK_EQ(fh_log.mvgo, 1);
    CHECK_EQ(fh_log.flush, 1);
    CHECK_EQ(fh_log.inval, 1);
    CHECK(fh_log.first_flush_t < fh_log.last_mvgo_t);
    CHECK(fh_log.last_inval_t > fh_log.last_mvgo_t);
    CHECK_EQ(fh_log.busy_go, 0);
}

/* 40 SEED writes then the copy: 51 writes in one move, two MVGOs (32 + 19). Then three moves in
 * one list: three MVGOs. */
static void replay_chunks(void)
{
    static struct kd_write l[64];
    struct kmv_result r;

    fh_reset();
    src_pattern();
    for (unsigned i = 0; i < 40; i++)
        l[i] = kd_make(0x38, i);
    memcpy(l + 40, copy4, sizeof(copy4));
    CHECK_EQ(kmv_replay(l, 51, TMO, &r), KS_OK);
    CHECK_EQ(r.moves, 1);
    CHECK_EQ(fh_log.mvgo, 2);
    CHECK(dst_is_src(4));

    fh_reset();
    src_pattern();
    memcpy(l, copy4, sizeof(copy4));
    memcpy(l + 11, copy4, sizeof(copy4));
    l[22] = kd_make(0x00, 0x10010);
    CHECK_EQ(kmv_replay(l, 23, TMO, &r), KS_OK);
    CHECK_EQ(r.moves, 3);
    CHECK_EQ(fh_log.mvgo, 3);
    CHECK_EQ(fh_log.busy_go, 0);
    CHECK(dst_is_src(4));

    /* Exactly 32 writes before the GO's chunk: the first chunk fills the buffer. */
    fh_reset();
    src_pattern();
    for (unsigned i = 0; i < 32; i++)
        l[i] = kd_make(0x38, i);
    memcpy(l + 32, copy4, sizeof(copy4));
    CHECK_EQ(kmv_replay(l, 43, TMO, &r), KS_OK);
    CHECK_EQ(fh_log.mvgo, 2);
    CHECK(dst_is_src(4));
}

/* A list that fails validation does nothing through the hal. */
static void replay_refused_touches_nothing(void)
{
    static struct kd_write l[11];
    struct kmv_result r;

    fh_reset();
    src_pattern();
    memcpy(l, copy4, sizeof(copy4));
    l[10] = kd_make(0x00, 0x10011);                 /* TRANSPOSE */
    CHECK_EQ(kmv_replay(l, 11, TMO, &r), KS_MV_TRANSPOSE);
    CHECK_EQ(fh_log.mvgo + fh_log.flush + fh_log.inval, 0);
    CHECK_EQ(fh_now(), 0);                          /* not one hal call */
    CHECK_EQ(fh_mem[0x1000], 0);
}

/* Every fault code, through kmv_replay_validated (the validator refuses most of these). */
static void replay_faults(void)
{
    static struct kd_write l[16];
    static const struct { uint32_t off; uint32_t lo, hi; unsigned code; } mut[] = {
        { 0x00, 0x10019u, 0, 5 },                   /* width 3 (and mode 1: 5 first) */
        { 0x00, 0x10011u, 0, 4 },                   /* mode 1 */
        { 0x18, 0x03000041u, 0, 6 },                /* destination stride 48 */
        { 0x10, 0x00020000u, 0x00001800u, 3 },      /* source base | bit 39 (hi bit 11): AXI error */
    };
    struct kmv_result r;

    for (unsigned k = 0; k < sizeof(mut) / sizeof(mut[0]); k++) {
        fh_reset();
        src_pattern();
        memcpy(l, copy4, sizeof(copy4));
        unsigned at = mut[k].off == 0x00 ? 10 : mut[k].off == 0x18 ? 6 : 0;
        l[at] = (struct kd_write){ mut[k].off, mut[k].lo, mut[k].hi };
        CHECK_EQ(kmv_replay_validated(l, 11, TMO, &r), KS_MOVER_FAULT);
        CHECK_EQ(r.detail, mut[k].code);
        CHECK_EQ(r.index, 10);
        CHECK_EQ(r.moves, 0);
        CHECK_EQ(fh_log.inval, 1);                  /* cache maintenance after a fault too */
        /* The mover still works. */
        CHECK_EQ(kmv_replay(copy4, 11, TMO, &r), KS_OK);
        CHECK(dst_is_src(4));
    }
    /* Fault 6 wrote element 0 and nothing after: checked on its own. */
    fh_reset();
    src_pattern();
    memcpy(l, copy4, sizeof(copy4));
    l[6] = kd_make(0x18, 0x03000041u);
    CHECK_EQ(kmv_replay_validated(l, 11, TMO, &r), KS_MOVER_FAULT);
    CHECK(memcmp(fh_mem + 0x1000, fh_mem + 0x2000, 32) == 0);
    CHECK_EQ(fh_mem[0x1000 + 48], 0);
    CHECK_EQ(fh_mem[0x1000 + 32], 0);

    /* Fault 1: 2049 indices. */
    static const struct kd_write g[] = {
        { 0x10, 0x00020000u, 0 }, { 0x10, 0x00010001u, 0x00001000u }, { 0x18, 0x02000041u, 0 },
        { 0x20, 0, 0 }, { 0x28, 1, 0 }, { 0x28, 3, 0 },
        { 0x30, 0x00008000u, 0x00080100u },          /* count 0x801 << 40 */
        { 0x00, 0x10012u, 0 },
    };
    fh_reset();
    CHECK_EQ(kmv_replay_validated(g, 8, TMO, &r), KS_MOVER_FAULT);
    CHECK_EQ(r.detail, 1);
    /* Fault 2 (model only): 65535 x 512 elements. */
    static const struct kd_write big[] = {
        { 0x10, 0x00010001u, 0x00002000u },
        { 0x18, 0x000FFFF1u, 0 }, { 0x20, 0, 0 }, { 0x18, 0x00002003u, 0 }, { 0x20, 0, 0 },
        { 0x28, 1, 0 }, { 0x28, 3, 0 }, { 0x00, 0x10013u, 0 },
    };
    fh_reset();
    CHECK_EQ(kmv_replay(big, 8, TMO, &r), KS_MOVER_FAULT);
    CHECK_EQ(r.detail, 2);
    /* Fault 7: XFORM with a source bound out of range at the first entry's first word (bound 0
     * base -1, extent 4, no axis feeding it: docs/hardware.md §3.1); and occupant fault 1: XFORM mode 2. */
    static struct kd_write x[] = {
        { 0x10, 0x00020000u, 0x00009000u },          /* src 0x2000, 1 dim, id 1 */
        { 0x18, 0x02000080u, 0 }, { 0x20, 0, 0 }, { 0x28, 0x0013FFFCu, 0 }, { 0x28, 2, 0 },
        { 0x10, 0x00010001u, 0x00001000u }, { 0x18, 0x08000011u, 0 }, { 0x20, 0, 0 },
        { 0x28, 1, 0 }, { 0x28, 3, 0 }, { 0x00, 0x10015u, 0 },
    };
    fh_reset();
    CHECK_EQ(kmv_replay_validated(x, 11, TMO, &r), KS_MOVER_FAULT);
    CHECK_EQ(r.detail, 7);
    x[3] = kd_make(0x28, 0);
    x[0].hi = 0x01009000u;                           /* xform mode 2: 2 << 55 is hi bit 24 */
    fh_reset();
    CHECK_EQ(kmv_replay(x, 11, TMO, &r), KS_XFORM_FAULT);
    CHECK_EQ(r.detail, 1);
    CHECK_EQ(r.index, 10);
    CHECK_EQ(fh_log.busy_go, 0);
}

/* A 2 MB GENERATE given 100 cycles: KS_TIMEOUT naming the move; a list while it runs:
 * KS_TIMEOUT naming the idle wait, nothing sent; with time, the list waits and runs. */
static void replay_timeouts(void)
{
    static const struct kd_write gen[] = {
        { 0x10, 0x00000001u, 0x00001000u }, { 0x18, 0x020FFFF1u, 0 }, { 0x20, 0, 0 },
        { 0x28, 1, 0 }, { 0x28, 3, 0 }, { 0x38, 7, 0 }, { 0x00, 0x10013u, 0 },
    };
    struct kmv_result r;

    fh_reset();
    src_pattern();
    CHECK_EQ(kmv_replay(gen, 7, 100, &r), KS_TIMEOUT);
    CHECK_EQ(r.detail, KS_AWAIT_MOVER << 8);
    CHECK_EQ(r.index, 6);
    CHECK(r.value & RV32_MVGO_BUSY);
    CHECK_EQ(fh_log.inval, 1);
    unsigned go_before = fh_log.mvgo;
    CHECK_EQ(kmv_replay(copy4, 11, 100, &r), KS_TIMEOUT);
    CHECK_EQ(r.detail, KS_AWAIT_MOVER_IDLE << 8);
    CHECK_EQ(r.index, 0);
    CHECK_EQ(fh_log.mvgo, go_before);
    CHECK_EQ(kmv_replay(copy4, 11, 1000000, &r), KS_OK);
    CHECK(dst_is_src(4));
    CHECK_EQ(fh_log.busy_go, 0);

    /* The bound is honoured to within a few polls. */
    fh_reset();
    uint64_t t0 = fh_now();
    CHECK_EQ(kmv_replay(gen, 7, 500, &r), KS_TIMEOUT);
    CHECK(fh_now() - t0 < 500 + 200);
}

/* docs/hardware.md §3.1 last row: after a FILL or GENERATE, the next MVGO waits the margin after busy
 * fell; after a COPY it need not. */
static void replay_fill_margin(void)
{
    static struct kd_write l[32];
    struct kmv_result r;

    fh_reset();
    /* FILL 4 words at 0x1000 (IMM 0x5A), then the copy. */
    static const struct kd_write fill[] = {
        { 0x10, 0x00010001u, 0x00001000u }, { 0x18, 0x02000041u, 0 }, { 0x20, 0, 0 },
        { 0x28, 1, 0 }, { 0x28, 3, 0 }, { 0x40, 0x5Au, 0 }, { 0x00, 0x10004u, 0 },
    };
    memcpy(l, fill, sizeof(fill));
    memcpy(l + 7, copy4, sizeof(copy4));
    CHECK_EQ(kmv_replay(l, 18, TMO, &r), KS_OK);
    CHECK_EQ(fh_log.mvgo, 2);
    CHECK(fh_log.gap_after_idle[1] >= KMV_FILL_MARGIN_CYCLES);

    fh_reset();
    memcpy(l, copy4, sizeof(copy4));
    memcpy(l + 11, copy4, sizeof(copy4));
    CHECK_EQ(kmv_replay(l, 22, TMO, &r), KS_OK);
    CHECK_EQ(fh_log.mvgo, 2);
    CHECK(fh_log.gap_after_idle[1] < KMV_FILL_MARGIN_CYCLES);
}

int main(void)
{
    RUN(replay_copy);
    RUN(replay_chunks);
    RUN(replay_refused_touches_nothing);
    RUN(replay_faults);
    RUN(replay_timeouts);
    RUN(replay_fill_margin);
    return ht_failures ? 1 : 0;
}
