/* core_time.c — native tests of the model's virtual time (model.c, docs/hardware.md §10.2): events run in
 * time order, ties in scheduling order, never in the past, and reset drops them. */
#include "kmtest.h"
#include "km_internal.h"

static struct kt_plat P;
static char order[64];
static size_t norder;
static uint64_t seen_at[64];

static void rec(struct km_model *m, void *ctx, uint64_t arg)
{
    (void)ctx;
    if (norder < sizeof(order) - 1) {
        seen_at[norder] = km_now(m);
        order[norder++] = (char)arg;
    }
}

static void chain(struct km_model *m, void *ctx, uint64_t arg)
{
    rec(m, ctx, arg);
    /* scheduled from inside an event, at the same time and in the past: both still run now */
    km_at(m, km_now(m), rec, NULL, 'x');
    km_at(m, 0, rec, NULL, 'y');
}

static struct km_model *fresh(void)
{
    norder = 0;
    memset(order, 0, sizeof(order));
    return kt_model(&P, KM_VARIANT_RV32, false);
}

static void events_run_in_time_then_schedule_order(void)
{
    struct km_model *m = fresh();
    uint64_t base = km_next_deadline(m);   /* whatever the other parts keep pending */
    km_at(m, 30, rec, NULL, 'c');
    km_at(m, 10, rec, NULL, 'a');
    km_at(m, 20, rec, NULL, 'b');
    km_at(m, 20, rec, NULL, 'B');
    KT_EXPECT_EQ(km_next_deadline(m), base < 10 ? base : 10);
    km_advance(m, 25);
    KT_EXPECT(strcmp(order, "abB") == 0);
    KT_EXPECT_EQ(seen_at[0], 10);
    KT_EXPECT_EQ(seen_at[2], 20);
    KT_EXPECT_EQ(km_now(m), 25);
    km_advance(m, 5);                      /* earlier than now: ignored */
    KT_EXPECT_EQ(km_now(m), 25);
    km_advance(m, 30);
    KT_EXPECT(strcmp(order, "abBc") == 0);
    km_free(m);
}

static void events_scheduled_while_running_run_in_order(void)
{
    struct km_model *m = fresh();
    km_at(m, 50, chain, NULL, 'p');
    km_at(m, 50, rec, NULL, 'q');
    km_advance(m, 50);
    KT_EXPECT(strcmp(order, "pqxy") == 0);
    KT_EXPECT_EQ(seen_at[3], 50);
    km_free(m);
}

static uint64_t mono_last, mono_count;
static bool mono_ok;
static void mono(struct km_model *m, void *ctx, uint64_t arg)
{
    (void)ctx;
    if (km_now(m) < mono_last || km_now(m) != arg)
        mono_ok = false;
    mono_last = km_now(m);
    mono_count++;
}

static void many_events_stay_ordered(void)
{
    struct km_model *m = fresh();
    mono_last = mono_count = 0;
    mono_ok = true;
    /* 1000 events at pseudo-random times: the heap must hand them back sorted, each at its time */
    uint64_t t = 12345;
    for (unsigned i = 0; i < 1000; i++) {
        t = t * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t when = 100 + (t >> 54);
        km_at(m, when, mono, NULL, when);
    }
    for (uint64_t now = 0; now < 1200; now += 7)
        km_advance(m, now);
    KT_EXPECT(mono_ok);
    KT_EXPECT_EQ(mono_count, 1000);
    km_free(m);
}

static void reset_drops_pending_events_and_counters(void)
{
    struct km_model *m = fresh();
    km_at(m, 100, rec, NULL, 'z');
    km_cpu_write(m, 0x20000018, 4, 1);     /* a read-only write: referee counts it */
    struct km_referee r;
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.bad_reg_writes, 1);
    km_advance(m, 50);
    km_reset(m);
    km_advance(m, 200);
    KT_EXPECT_EQ(norder, 0);
    KT_EXPECT_EQ(km_now(m), 200);          /* the clock is the glue's: reset keeps it */
    km_referee_get(m, &r);
    KT_EXPECT_EQ(r.bad_reg_writes, 0);
    km_free(m);
}

static char lines[8][64];
static unsigned nlines;
static void put_line(void *ctx, const char *l)
{
    (void)ctx;
    if (nlines < 8)
        snprintf(lines[nlines], sizeof(lines[0]), "%s", l);
    nlines++;
}

static void referee_prints_one_line_per_counter(void)
{
    struct km_model *m = fresh();
    km_cpu_write(m, 0x2000001C, 4, 1);     /* INSTRET is read-only */
    nlines = 0;
    km_referee_print(m, put_line, NULL);
    KT_EXPECT_EQ(nlines, 8);
    KT_EXPECT(strcmp(lines[0], "credit_violations=0") == 0);
    KT_EXPECT(strcmp(lines[1], "bad_reg_writes=1") == 0);
    KT_EXPECT(strcmp(lines[2], "busy_go=0") == 0);
    KT_EXPECT(strcmp(lines[3], "cpu_aux_cfg_writes=0") == 0);
    KT_EXPECT(strcmp(lines[4], "stage_oob_writes=0") == 0);
    KT_EXPECT(strcmp(lines[5], "kick_while_running=0") == 0);
    KT_EXPECT(strcmp(lines[6], "stage_overrun=0") == 0);
    KT_EXPECT(strcmp(lines[7], "rx_dropped=0") == 0);
    km_free(m);
}

int main(void)
{
    KT_RUN(events_run_in_time_then_schedule_order);
    KT_RUN(events_scheduled_while_running_run_in_order);
    KT_RUN(many_events_stay_ordered);
    KT_RUN(reset_drops_pending_events_and_counters);
    KT_RUN(referee_prints_one_line_per_counter);
    return 0;
}
