/* test_cost.c — what validation and replay cost per mover write on both boards (the bench
 * "replay_insns_per_write": RV64 ≤ 8, RV32 ≤ 12; docs/mover.md "Size and cost"), measured with
 * the processor's instret counter as the difference between a list padded with PAD extra
 * writes and the same list without them, so call overheads and the move itself cancel.
 * Figures are printed as notes (hundredths of an instruction a write, hex) for the docs;
 * the checks hold the budgets so a regression fails here. */
// kohaku-test: expect-referee=busy_go=0
#include "mvt.h"

#define S MVT_SRC
#define D MVT_DST
#define PAD 256u                            /* per write = diff >> 8 */

static const struct kd_write copy[] = {
    MV_WALK1(0, S, 4, 32), MV_WALK1(1, D, 4, 32), MV_W(0x00, MV_CTRL(0, 2, 0)),
};
#define NCOPY MV_N(copy)

/* The lists live in DRAM (MVT_AUX): 267 records would not fit the RV32 scratchpad. */
static struct kd_write *list(void)
{
    return (struct kd_write *)(uintptr_t)mvt_cpu(MVT_AUX);
}

static void put(uint32_t i, uint32_t off, uint32_t lo, uint32_t hi)
{
    list()[i] = (struct kd_write){ off, lo, hi };
}

/* kind 0: PAD SEED writes, then the copy (one move); kind 1: PAD / 2 DIM + AXIS pairs (each
 * stages and commits a dimension), then the copy; kind 2: the copy PAD / NCOPY + 1 times (the
 * per-move checks at every GO counted in); kind 3: the copy, then PAD more GOs (each repeats
 * the move: the GO checks alone). Returns the writes added over `copy`. */
static uint32_t make(unsigned kind)
{
    uint32_t n = 0;

    if (kind == 3) {
        for (; n < NCOPY; n++)
            list()[n] = copy[n];
        for (; n < NCOPY + PAD; n++)
            list()[n] = copy[NCOPY - 1u];
        return PAD;
    }

    if (kind == 2) {
        /* PAD % NCOPY SEED writes make the added writes exactly PAD. */
        for (; n < PAD % NCOPY; n++)
            put(n, 0x38, n, 0);
        for (uint32_t k = 0; k <= PAD / NCOPY; k++)
            for (uint32_t i = 0; i < NCOPY; i++, n++)
                list()[n] = copy[i];
        return n - NCOPY;
    }
    for (; n < PAD; n += 2) {
        if (kind == 0) {
            put(n, 0x38, n, 0);
            put(n + 1, 0x38, n + 1, 0);
        } else {
            put(n, 0x18, (uint32_t)MV_DIM(0, 0, 4, 32), (uint32_t)(MV_DIM(0, 0, 4, 32) >> 32));
            put(n + 1, 0x20, 0, 0);
        }
    }
    for (uint32_t i = 0; i < NCOPY; i++)
        list()[n + i] = copy[i];
    return PAD;
}

enum { VALIDATE, REPLAY, REPLAY_VALIDATED };

static unsigned bad;                        /* runs that did not end KS_OK */

static uint64_t run(unsigned what, const struct kd_write *w, uint32_t n)
{
    struct kmv_result r;
    uint64_t t0 = hal_instret();
    unsigned st = what == VALIDATE ? kmv_validate(w, n, kmv_caps_self(), &r)
                : what == REPLAY   ? kmv_replay(w, n, MVT_TIMEOUT, &r)
                                   : kmv_replay_validated(w, n, MVT_TIMEOUT, &r);
    uint64_t t = hal_instret() - t0;

    bad += st != KS_OK;
    return t;
}

/* Instructions a write added, in hundredths. */
static uint32_t per_write(unsigned what, unsigned kind)
{
    uint32_t added = make(kind);
    uint64_t padded = run(what, list(), NCOPY + added);
    uint64_t plain = run(what, copy, NCOPY);

    bad += added != PAD;
    return (uint32_t)(((padded - plain) * 100u) >> 8);
}

int main(void)
{
    static const char *const name[3][4] = {
        { "validate_seed", "validate_dim_axis", "validate_moves", "validate_go" },
        { "replay_seed", "replay_dim_axis", "replay_moves", "replay_go" },
        { "replay_validated_seed", "replay_validated_dim_axis", "replay_validated_moves",
          "replay_validated_go" },
    };
    uint32_t c[3][4];

    mvt_setup();
    for (unsigned what = 0; what < 3; what++)
        for (unsigned kind = 0; kind < 4; kind++) {
            c[what][kind] = per_write(what, kind);
            kt_note(name[what][kind], c[what][kind]);
        }
    EXPECT_EQ(bad, 0);
    /* The bench: the replay loop of a list validated earlier. */
    EXPECT_TRUE(c[REPLAY_VALIDATED][0] <= (mvt_rv32() ? 1200u : 800u));
    EXPECT_TRUE(c[REPLAY_VALIDATED][1] <= (mvt_rv32() ? 1200u : 800u));
    kt_finish();
}
