/* test_kq.c — native tests of the command queue's pure checks (service/kq_check.c
 * firmware side; docs/design.md §7 layer 1): ring arithmetic, address ranges per variant reach, the
 * setup line, submissions, RUN step lists. Expected values are literals from docs/hardware.md §4/§5/§7,
 * include/kohaku/queue.h and status.h, never computed by the code under test. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "kq.h"

static unsigned fails, checks;
static const char *cur;

#define CHECK_EQ(got, want) do {                                                           \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want); \
        checks++;                                                                          \
        if (g_ != w_) {                                                                    \
            fails++;                                                                       \
            printf("FAIL: host-service/%s %s:%d %s = 0x%llx, want 0x%llx\n", cur, __FILE__,   \
                   __LINE__, #got, g_, w_);                                                \
            return;                                                                        \
        }                                                                                  \
    } while (0)

#define RUN(fn) do {                                                                       \
        unsigned f0 = fails;                                                               \
        cur = #fn;                                                                         \
        fn();                                                                              \
        if (fails == f0)                                                                   \
            printf("PASS: host-service/%s\n", #fn);                                        \
    } while (0)

/* docs/hardware.md §4: RV32 reaches DRAM offsets 0..0x6FFF_FFFF, no staging; of that, 0x40_0000 +
 * 64 KB is the firmware's own DRAM code (docs/host-interface.md §2.1). §5/§7: RV64 reaches the
 * 4 GB of DRAM (uncached alias) and the 2 MB staging store, and reserves nothing. */
static const struct kq_reach rv32 = { { 0x70000000ull, 0 }, { 0x400000u, 0x410000u } };
static const struct kq_reach rv64 = { { 0x100000000ull, 0x200000ull }, { 0, 0 } };

/* ---- ring arithmetic ---- */

static void ring_sizes(void)
{
    CHECK_EQ(kq_ring_size_ok(0), 0);
    CHECK_EQ(kq_ring_size_ok(1), 1);
    CHECK_EQ(kq_ring_size_ok(2), 1);
    CHECK_EQ(kq_ring_size_ok(3), 0);
    CHECK_EQ(kq_ring_size_ok(4095), 0);
    CHECK_EQ(kq_ring_size_ok(4096), 1);
    CHECK_EQ(kq_ring_size_ok(8192), 0);
    CHECK_EQ(kq_ring_size_ok(0x80000000u), 0);
}

static void ring_used(void)
{
    CHECK_EQ(kq_ring_used(5, 3, 4), 2);
    CHECK_EQ(kq_ring_used(3, 3, 4), 0);
    CHECK_EQ(kq_ring_used(7, 3, 4), 4);         /* full */
    CHECK_EQ(kq_ring_used(8, 3, 4), -1);        /* more than a ring ahead */
    CHECK_EQ(kq_ring_used(3, 5, 4), -1);        /* producer behind the consumer */
    /* counted "ever", across the 2^64 wrap */
    CHECK_EQ(kq_ring_used(2, 0xFFFFFFFFFFFFFFFEull, 8), 4);
    CHECK_EQ(kq_slot(13, 8), 5);
    CHECK_EQ(kq_slot(4096 + 7, 4096), 7);
    CHECK_EQ(kq_slot(0x100000003ull, 1), 0);
}

/* ---- address ranges ---- */

static struct kq_header hdr;
static void good_header_at(uint64_t sq, uint64_t cq);

static void range_rv32(void)
{
    struct kq_err e;
    CHECK_EQ(kq_range(&rv32, 0x0, 32, 32, &e), KS_OK);
    CHECK_EQ(kq_range(&rv32, 0x6FFFFFE0ull, 32, 32, &e), KS_OK);          /* last line */
    CHECK_EQ(kq_range(&rv32, 0x6FFFFFE0ull, 64, 32, &e), KS_BAD_ADDR);    /* runs past */
    CHECK_EQ(e.detail, 64);
    CHECK_EQ(e.value, 0x6FFFFFE0ull);
    CHECK_EQ(kq_range(&rv32, 0x70000000ull, 4, 4, &e), KS_BAD_ADDR);
    CHECK_EQ(kq_range(&rv32, 0x8000000000ull, 32, 8, &e), KS_BAD_ADDR);   /* staging: none */
    CHECK_EQ(kq_range(&rv32, 0x1000000000ull, 32, 8, &e), KS_BAD_ADDR);   /* mesh 1 */
    CHECK_EQ(kq_range(&rv32, 0x4000000000ull, 32, 8, &e), KS_BAD_ADDR);   /* bit 38 */
    CHECK_EQ(kq_range(&rv32, 0x10000000000ull, 32, 8, &e), KS_BAD_ADDR);  /* above 40 bits */
    CHECK_EQ(kq_range(&rv32, 0x104, 8, 8, &e), KS_BAD_ALIGN);
    CHECK_EQ(e.detail, 8);
    CHECK_EQ(e.value, 0x104);
    CHECK_EQ(kq_range(&rv32, 0x104, 12, 4, &e), KS_OK);
    CHECK_EQ(kq_range(&rv32, 0x20, 0xFFFFFFF0u, 4, &e), KS_BAD_ADDR);     /* offset + bytes wraps 2^32 */
    CHECK_EQ(e.detail, 0xFFFFFFF0u);
}

/* Data overlapping the firmware's own DRAM code is refused like unreachable memory:
 * KS_BAD_ADDR, detail = bytes, value = the address. Its neighbours are fine. */
static void range_rv32_fw_dram(void)
{
    struct kq_err e;
    CHECK_EQ(kq_range(&rv32, 0x3FFFE0ull, 32, 32, &e), KS_OK);           /* ends at its start */
    CHECK_EQ(kq_range(&rv32, 0x410000ull, 32, 32, &e), KS_OK);           /* starts at its end */
    CHECK_EQ(kq_range(&rv32, 0x400000ull, 12, 4, &e), KS_BAD_ADDR);      /* its first word */
    CHECK_EQ(e.detail, 12);
    CHECK_EQ(e.value, 0x400000ull);
    CHECK_EQ(kq_range(&rv32, 0x3FFFE0ull, 64, 32, &e), KS_BAD_ADDR);     /* runs into it */
    CHECK_EQ(e.detail, 64);
    CHECK_EQ(e.value, 0x3FFFE0ull);
    CHECK_EQ(kq_range(&rv32, 0x40FFFCull, 4, 4, &e), KS_BAD_ADDR);       /* its last word */
    CHECK_EQ(kq_range(&rv32, 0x40FFFCull, 8, 4, &e), KS_BAD_ADDR);       /* out of its end */
    CHECK_EQ(kq_range(&rv32, 0x100000ull, 0x400000u, 32, &e), KS_BAD_ADDR); /* all of it */
    CHECK_EQ(e.detail, 0x400000u);
    CHECK_EQ(e.value, 0x100000ull);
    CHECK_EQ(kq_range(&rv32, 0x6FFFFFE0ull, 32, 32, &e), KS_OK);         /* the reach end probe */
    CHECK_EQ(kq_range(&rv32, 0x1000400000ull, 32, 8, &e), KS_BAD_ADDR);  /* mesh 1 still refused */
    /* RV64 reserves nothing: the same ranges are its DRAM. */
    CHECK_EQ(kq_range(&rv64, 0x400000ull, 12, 4, &e), KS_OK);
    CHECK_EQ(kq_range(&rv64, 0x100000ull, 0x400000u, 32, &e), KS_OK);
    /* The queue and its rings. */
    good_header_at(0x2000, 0x3000);
    CHECK_EQ(kq_setup_check(&rv32, 0x400000, &hdr), KQ_SETUP_ADDR);
    CHECK_EQ(kq_setup_check(&rv64, 0x400000, &hdr), 0);
    good_header_at(0x40FE00, 0x3000);                                    /* 512 bytes: its last */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_SQ_ADDR);
    good_header_at(0x2000, 0x3FFF20);                                    /* 256 bytes into it */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_CQ_ADDR);
    good_header_at(0x410000, 0x3FFF00);                                  /* both just outside */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
}

static void range_rv64(void)
{
    struct kq_err e;
    CHECK_EQ(kq_range(&rv64, 0xFFFFFFE0ull, 32, 32, &e), KS_OK);
    CHECK_EQ(kq_range(&rv64, 0x100000000ull, 32, 32, &e), KS_BAD_ADDR);     /* 4 GB */
    CHECK_EQ(kq_range(&rv64, 0x70000000ull, 32, 32, &e), KS_OK);            /* RV32 cannot */
    CHECK_EQ(kq_range(&rv64, 0x8000000000ull, 32, 32, &e), KS_OK);          /* staging 0 */
    CHECK_EQ(kq_range(&rv64, 0x80001FFFE0ull, 32, 32, &e), KS_OK);          /* last staging line */
    CHECK_EQ(kq_range(&rv64, 0x8000200000ull, 32, 32, &e), KS_BAD_ADDR);    /* past 2 MB */
    CHECK_EQ(kq_range(&rv64, 0x8100000000ull, 32, 32, &e), KS_BAD_ADDR);    /* aperture 1 */
    CHECK_EQ(kq_range(&rv64, 0x9000000000ull, 32, 32, &e), KS_BAD_ADDR);    /* staging, mesh 1 */
    CHECK_EQ(kq_range(&rv64, 0xFFFFFFE0ull, 0xFFFFFFFFu, 32, &e), KS_BAD_ADDR); /* wraps 2^32, ends past 4 GB */
    CHECK_EQ(kq_range(&rv64, 0xFFFFFFE0ull, 33, 32, &e), KS_BAD_ADDR);      /* one byte past 4 GB */
    CHECK_EQ(kq_range(&rv64, 0x80001FFFE0ull, 33, 32, &e), KS_BAD_ADDR);    /* one byte past 2 MB */
}

/* ---- setup line ---- */

/* A good queue: header at 0x1000, 8 submissions at 0x2000 (512 bytes), 8 completions at
 * 0x3000 (256 bytes). */
static void good_header(void)
{
    memset(&hdr, 0, sizeof hdr);
    hdr.setup.magic = 0x4B51554Eu;
    hdr.setup.version = 1;
    hdr.setup.sq_entries = 8;
    hdr.setup.cq_entries = 8;
    hdr.setup.sq_addr = 0x2000;
    hdr.setup.cq_addr = 0x3000;
}

static void good_header_at(uint64_t sq, uint64_t cq)
{
    good_header();
    hdr.setup.sq_addr = sq;
    hdr.setup.cq_addr = cq;
}

static void setup_rules(void)
{
    good_header();
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    CHECK_EQ(kq_setup_check(&rv32, 0x1010, &hdr), KQ_SETUP_ADDR);        /* not a line */
    CHECK_EQ(kq_setup_check(&rv32, 0x6FFFFF00ull, &hdr), KQ_SETUP_ADDR); /* 512 bytes run past */
    CHECK_EQ(kq_setup_check(&rv32, 0x8000001000ull, &hdr), KQ_SETUP_ADDR); /* staging on RV32 */
    hdr.setup.magic = 0x4B51554Fu;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_MAGIC);
    good_header(); hdr.setup.version = 2;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_VERSION);
    good_header(); hdr.setup.flags = 1;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_FLAGS);
    good_header(); hdr.setup.rsvd0 = 1;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_FLAGS);
    good_header(); hdr.setup.sq_entries = 6;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_SQ_ENTRIES);
    good_header(); hdr.setup.sq_entries = 0;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_SQ_ENTRIES);
    good_header(); hdr.setup.cq_entries = 8192;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_CQ_ENTRIES);
    good_header(); hdr.setup.sq_addr = 0x2010;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_SQ_ADDR);
    good_header(); hdr.setup.cq_addr = 0x6FFFFF20ull;        /* 256 bytes run past 0x7000_0000 */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_CQ_ADDR);
    good_header(); hdr.setup.sq_addr = 0x1100;               /* inside the 512-byte header */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_OVERLAP);
    good_header(); hdr.setup.cq_addr = 0x21E0;               /* last line of the submissions */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_OVERLAP);
    good_header(); hdr.setup.cq_addr = 0x2200;               /* right after them: fine */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    good_header(); hdr.setup.sq_addr = 0x0E00;               /* ends where the header starts */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    /* the library's order (header, submissions, completions), accepted natively: its edges */
    good_header(); hdr.setup.sq_addr = 0x1200;               /* right after the header */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    hdr.setup.sq_addr = 0x11E0;                              /* its last line */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_OVERLAP);
    good_header(); hdr.setup.cq_addr = 0x2200;               /* right after the submissions */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    hdr.setup.cq_addr = 0x21E0;                              /* on their last line */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_OVERLAP);
    /* RV64: the rings in staging (another region, bits [63:32] 0x80) at the header's offsets
     * do not overlap it */
    good_header(); hdr.setup.sq_addr = 0x8000001000ull;
    CHECK_EQ(kq_setup_check(&rv64, 0x1000, &hdr), 0);
}

static void setup_indices(void)
{
    good_header();
    /* a restart: 5 taken, 4 completed, 9 submitted, 2 consumed */
    hdr.sq_head.value = 5; hdr.cq_tail.value = 4; hdr.sq_tail.value = 9; hdr.cq_head.value = 2;
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    hdr.cq_tail.value = 3;                                  /* two taken, not completed */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_INDICES);
    hdr.cq_tail.value = 6;                                  /* completed more than taken */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_INDICES);
    hdr.cq_tail.value = 5; hdr.sq_tail.value = 14;          /* 9 ahead of a ring of 8 */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_INDICES);
    hdr.sq_tail.value = 13;                                 /* exactly full: fine */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), 0);
    hdr.cq_head.value = 6;                                  /* consumed more than posted */
    CHECK_EQ(kq_setup_check(&rv32, 0x1000, &hdr), KQ_SETUP_INDICES);
}

/* ---- submissions ---- */

static uint8_t mem[0x10000];          /* "DRAM" from unit-global 0 for the step lists */
static const void *map(uint64_t ug) { return mem + ug; }

static const struct kx_unit_entry units[] = {
    { .yx = 0x11, .type = 0x4E50, .version = 1, .inst_depth = 16 },
    { .yx = 0x12, .type = 0x4E50, .version = 1, .inst_depth = 16 },
    { .yx = 0x21, .type = 0x5455, .version = 1, .inst_depth = 16 },
};

static struct kq_env env(const struct kq_reach *r, const struct kmv_caps *caps)
{
    struct kq_env e = { *r, units, 3, caps, map, 0, 0, 0, 0, 0, 0, 0 };
    return e;
}

static struct kq_sub sub(unsigned op, uint64_t addr, uint32_t count)
{
    struct kq_sub s;
    memset(&s, 0, sizeof s);
    s.op = (uint16_t)op;
    s.tag = 0x1234;
    s.addr = addr;
    s.count = count;
    return s;
}

/* Every submission case runs through both checks: kq_sub_check's answer is the one asserted,
 * and kq_sub_fast (RV64's straight path for the common commands, queue.c) may accept only
 * what it accepts, leaving e as it does (KS_OK, detail 0, value 0). */
static unsigned fast_disagree;
static unsigned sub_check(const struct kq_sub *s, const struct kq_env *v, struct kq_err *e)
{
    struct kq_err f;
    memset(&f, 0xA5, sizeof f);
    int fast = kq_sub_fast(s, v, &f);
    unsigned st = kq_sub_check(s, v, e);
    if (fast && (st != KS_OK || f.status != e->status || f.detail != e->detail ||
                 f.value != e->value)) {
        fast_disagree++;
        fails++;
        printf("FAIL: host-service/%s kq_sub_fast accepted op %u flags 0x%x that kq_sub_check "
               "answers 0x%x (fast: status 0x%x detail 0x%x value 0x%llx)\n", cur, s->op, s->flags,
               st, f.status, f.detail, (unsigned long long)f.value);
    }
    return st;
}

static void sub_simple(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    struct kq_sub s = sub(0, 0, 0);                        /* NOP: nothing else is read */
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(4, 0, 0); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);        /* UNITS */
    s = sub(5, 0, 0); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);        /* STOP */
    s = sub(9, 0, 0);                                      /* past RECORDS (8) */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_OP);
    CHECK_EQ(e.detail, 9);
    s = sub(0xFFFF, 0, 0); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_OP);
    s = sub(0, 0, 0); s.flags = 0x80;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    CHECK_EQ(e.detail, 0x80);
    s = sub(0, 0, 0); s.rsvd[2] = 1;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 48);                                /* byte offset of rsvd[2] */
}

static void sub_replay(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    struct kq_sub s = sub(1, 0x100, 3);
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(1, 0x104, 3); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);   /* 4-byte records */
    s = sub(1, 0x102, 3);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
    CHECK_EQ(e.detail, 4);
    s = sub(1, 0x100, 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    CHECK_EQ(e.detail, 0);
    s = sub(1, 0x100, 4096); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(1, 0x100, 4097);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    CHECK_EQ(e.detail, 4097);
    /* 3 records = 36 bytes: the last byte at 0x6FFF_FFFF is fine, one more is not */
    s = sub(1, 0x6FFFFFDCull, 3); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(1, 0x6FFFFFE0ull, 3);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.detail, 36);
    CHECK_EQ(e.value, 0x6FFFFFE0ull);
}

static void sub_dispatch(void)
{
    struct kq_env v = env(&rv64, &kmv_caps_rv64);
    struct kq_err e;
    struct kq_sub s = sub(2, 0x8000000000ull, 4);          /* a program in staging (RV64) */
    s.ntargets = 2; s.targets[0] = 0x11; s.targets[1] = 0x21;
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s.addr = 0x8000000004ull;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
    CHECK_EQ(e.detail, 8);
    s.addr = 0x80001FFFC0ull;                             /* 4 payloads = 128 bytes run past 2 MB */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    s.addr = 0x1000;
    s.count = 65536; CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s.count = 65537; CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s.count = 4;
    s.ntargets = 0;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_NTARGETS);
    s.ntargets = 9;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_NTARGETS);
    CHECK_EQ(e.detail, 9);
    s.ntargets = 3; s.targets[2] = 0x13;                  /* not in the table */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_TARGET);
    CHECK_EQ(e.detail, 0x13);
    s.targets[2] = 0x11;
    CHECK_EQ(sub_check(&s, &v, &e), KS_DUP_TARGET);
    CHECK_EQ(e.detail, 0x11);
    s.targets[2] = 0x12;
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    /* targets past ntargets are not looked at */
    s.targets[5] = 0x77;
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
}

/* ---- RUN step lists ---- */

static struct kq_step *steps = (struct kq_step *)(void *)(mem + 0x1000);

static void step(unsigned i, unsigned op, uint8_t target, uint32_t n, uint64_t addr)
{
    memset(&steps[i], 0, sizeof steps[i]);
    steps[i].op = (uint8_t)op;
    steps[i].target = target;
    steps[i].n = n;
    steps[i].addr = addr;
}

/* Descriptor records at mem + 0x100 (unit-global 0x100): {offset, lo, hi}. */
static void record(unsigned i, uint32_t off, uint32_t lo)
{
    uint32_t *w = (uint32_t *)(void *)(mem + 0x100 + 12 * i);
    w[0] = off; w[1] = lo; w[2] = 0;
}

static void run_sub(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    struct kq_sub s = sub(3, 0x1000, 4);
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(3, 0x1004, 4); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
    s = sub(3, 0x1000, 0); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s = sub(3, 0x1000, 4097); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
}

/* Commands whose data overlaps the firmware's own DRAM code (RV32): BAD_ADDR, the address. */
static void sub_fw_dram(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    struct kq_sub s = sub(1, 0x400000, 1);                 /* REPLAY of its first record */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.detail, 12);
    CHECK_EQ(e.value, 0x400000ull);
    s = sub(2, 0x3FFFE0, 2);                               /* DISPATCH: payload 2 inside */
    s.ntargets = 1; s.targets[0] = 0x11;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.detail, 0x40);
    CHECK_EQ(e.value, 0x3FFFE0ull);
    s.count = 1;                                           /* payload 1 alone: outside */
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(3, 0x40FFE0, 1);                               /* RUN: a step list in it */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.value, 0x40FFE0ull);
    /* A DISPATCH step pointing into it: step 1's refusal, value[63:48] = 1. */
    step(0, 1, 0x11, 8, 0x2000);
    step(1, 1, 0x12, 1, 0x400020);
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.detail, 32);
    CHECK_EQ(e.value, (1ull << 48) | 0x400020ull);
    struct kq_env v64 = env(&rv64, &kmv_caps_rv64);
    CHECK_EQ(kq_steps_check(steps, 2, &v64, &e), KS_OK);    /* RV64: plain DRAM */
}

static void run_steps_good(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    step(0, 1, 0x11, 8, 0x2000);       /* DISPATCH 8 to 0x11 */
    step(1, 1, 0x12, 8, 0x2100);       /* DISPATCH 8 to 0x12 */
    step(2, 3, 0x11, 1, 0);            /* WAIT 1 on 0x11 */
    step(3, 1, 0x11, 8, 0x2000);       /* DISPATCH again to 0x11 */
    step(4, 3, 0x11, 2, 0);            /* WAIT 2 on 0x11 */
    step(5, 4, 0, 0, 0);               /* BARRIER */
    step(6, 5, 0, 0, 0xABCD);          /* SIGNAL */
    CHECK_EQ(kq_steps_check(steps, 7, &v, &e), KS_OK);
}

static void run_steps_bad(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    step(0, 1, 0x11, 8, 0x2000);
    step(1, 7, 0, 0, 0);                                   /* unknown step (past REPLAY_H, 6) */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_STEP);
    CHECK_EQ(e.detail, 7);
    CHECK_EQ(e.value, 0x0001000000000000ull);             /* step 1 in [63:48] */
    step(1, 0, 0, 0, 0);
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_STEP);
    step(1, 3, 0x12, 1, 0);                                /* WAIT on a unit never dispatched to */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_UNSATISFIABLE);
    CHECK_EQ(e.detail, 0x12);
    CHECK_EQ(e.value, 0x0001000000000001ull);
    step(1, 3, 0x11, 2, 0);                                /* 2 of 1 */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_UNSATISFIABLE);
    CHECK_EQ(e.value, 0x0001000000000002ull);
    step(1, 3, 0x11, 0, 0);
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_LEN);
    step(1, 3, 0x13, 1, 0);                                /* WAIT on an unknown unit */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_TARGET);
    CHECK_EQ(e.detail, 0x13);
    step(0, 3, 0x11, 1, 0);                                /* WAIT before its DISPATCH */
    step(1, 1, 0x11, 8, 0x2000);
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_UNSATISFIABLE);
    CHECK_EQ(e.value, 0x0000000000000001ull);
    step(0, 1, 0x14, 8, 0x2000);                           /* DISPATCH to an unknown unit */
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_TARGET);
    step(0, 1, 0x11, 0, 0x2000);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_LEN);
    step(0, 1, 0x11, 8, 0x2004);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_ALIGN);
    step(0, 1, 0x11, 8, 0x6FFFFF00ull);                    /* 256 bytes end at 0x7000_0000 */
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    step(0, 1, 0x11, 9, 0x6FFFFF00ull);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.value, 0x00006FFFFF00ull);
    step(0, 4, 0, 0, 0); steps[0].rsvd2 = 1;
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 12);
}

static void run_steps_replay(void)
{
    struct kq_env v32 = env(&rv32, &kmv_caps_rv32), v64 = env(&rv64, &kmv_caps_rv64);
    struct kq_err e;
    /* IMM (0x40) is beyond RV64's window 0x00-0x3F (docs/hardware.md §3): NO_REACH, naming it. */
    record(0, 0x40, 7);
    step(0, 4, 0, 0, 0);
    step(1, 2, 0, 1, 0x100);
    CHECK_EQ(kq_steps_check(steps, 2, &v64, &e), KS_NO_REACH);
    CHECK_EQ(e.detail, 0x40);
    CHECK_EQ(e.value >> 48, 1);
    /* 0x08 is a free offset (docs/hardware.md §3): no register there. */
    record(0, 0x08, 0);
    CHECK_EQ(kq_steps_check(steps, 2, &v32, &e), KS_BAD_OFFSET);
    /* A list without GO moves nothing. */
    record(0, 0x38, 0);
    CHECK_EQ(kq_steps_check(steps, 2, &v32, &e), KS_NO_GO);
    step(1, 2, 0, 0, 0x100);
    CHECK_EQ(kq_steps_check(steps, 2, &v32, &e), KS_BAD_LEN);
    step(1, 2, 0, 4097, 0x100);
    CHECK_EQ(kq_steps_check(steps, 2, &v32, &e), KS_BAD_LEN);
    step(1, 2, 0, 1, 0x102);
    CHECK_EQ(kq_steps_check(steps, 2, &v32, &e), KS_BAD_ALIGN);
}

/* ---- Records (docs/host-interface.md §12): the submission rows by flags, the REPLAY_H step
 * rows and the handle statuses; expected values from queue.h's handle layout and status.h. */
static void sub_records(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_err e;
    struct kq_sub s = sub(1, 0x200, 0);                    /* REPLAY by handle 0x200 */
    s.flags = 1;
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s.op = 3; CHECK_EQ(sub_check(&s, &v, &e), KS_OK);   /* RUN by handle */
    s.count = 1;                                           /* count must be 0 by handle */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 16);
    s = sub(1, 0x100000200ull, 0); s.flags = 1;            /* addr[63:32] must be 0 */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 12);
    s = sub(2, 0x2000, 1); s.flags = 1;                    /* DISPATCH takes no flag */
    s.ntargets = 1; s.targets[0] = 0x11;
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    CHECK_EQ(e.detail, 1);
    s = sub(0, 0, 0); s.flags = 2;                         /* NOP neither */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    s = sub(1, 0x100, 2); s.flags = 2;                     /* STEPS is RECORD's only */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    s = sub(1, 0x100, 2); s.flags = 4;                     /* undefined bit */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    CHECK_EQ(e.detail, 4);
    s = sub(6, 0x100, 2); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);         /* RECORD a list */
    s = sub(6, 0x100, 4097); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s = sub(6, 0x1000, 4); s.flags = 2; CHECK_EQ(sub_check(&s, &v, &e), KS_OK);   /* steps */
    s = sub(6, 0x1004, 4); s.flags = 2; CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
    s = sub(6, 0x100, 2); s.flags = 1; CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    /* the firmware's reach with the record area owned (host-interface.md §12: 0x40_0000 up
     * to 0x51_0000) */
    static const struct kq_reach rv32rec = { { 0x70000000ull, 0 }, { 0x400000u, 0x510000u } };
    v = env(&rv32rec, &kmv_caps_rv32);
    s = sub(6, 0x410000, 1);                               /* data in the record area */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    CHECK_EQ(e.value, 0x410000);
    s = sub(6, 0x50FFF4, 1); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);  /* its last 12 */
    s = sub(6, 0x510000, 1); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);       /* past it */
    s = sub(7, 0x200, 0); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);          /* FORGET */
    s.count = 1; CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);
    s = sub(7, 0x200, 0); s.flags = 1; CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    s = sub(8, 0x1000, 8); CHECK_EQ(sub_check(&s, &v, &e), KS_OK);         /* RECORDS */
    s = sub(8, 0x1000, 9); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s = sub(8, 0x1010, 1); CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
}

static void handles(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    struct kq_recs t;
    memset(&t, 0, sizeof t);
    for (unsigned i = 0; i < KQ_REC_SLOTS; i++)
        t.r[i].key = KQ_REC_FREE(i);
    /* this run's generations 0x10..0x12; 4 slots; slot 1 holds list 0x1101 (generation 0x11),
     * slot 2 the step list 0x1012 */
    t.lo_slots = 0x10u | (4u - 1u) << 24;    /* [26:24] slots - 1 */
    t.gen_hi = 0x13;
    t.r[1].key = KQ_REC_KEY(0x1101u);
    t.r[2].key = KQ_REC_KEY(0x1012u);
    t.r[1].n = 3;                               /* held: n not 0 (a record has a move) */
    t.r[2].n = 2;
    /* their bytes at unit-global 0x8000 and 0x8040, 64 each, with the digest RECORD keeps */
    for (unsigned i = 0; i < 128; i++)
        mem[0x8000 + i] = (uint8_t)(i * 13 + 5);
    t.r[1].ug = 0x8000, t.r[1].bytes = t.r[1].span = 64;
    t.r[2].ug = 0x8040, t.r[2].bytes = t.r[2].span = 64;
    t.r[1].sum = 0 - kq_rec_digest(mem + 0x8000, 64, 0);
    t.r[2].sum = 0 - kq_rec_digest(mem + 0x8040, 64, 0);
    v.recs = &t;
    struct kq_err e;
    const struct kq_rec *r;
    /* a slot whose n is 0 is free whatever its key says (boot sets n only, kq.h) */
    t.r[3].key = KQ_REC_KEY(0x1103u);
    CHECK_EQ(kq_rec_check(&v, 0x1103, 0, &e, &r), KS_REC_STALE);
    CHECK_EQ(r == 0, 1);
    CHECK_EQ(kq_rec_check(&v, 0x1101, 0, &e, &r), KS_OK);
    CHECK_EQ(r == &t.r[1], 1);
    CHECK_EQ(kq_rec_check(&v, 0x1012, KQ_H_STEPS, &e, &r), KS_OK);
    CHECK_EQ(kq_rec_check(&v, 0x1101, KQ_H_STEPS, &e, &r), KS_REC_KIND);
    CHECK_EQ(e.detail, 0x1101);
    CHECK_EQ(kq_rec_check(&v, 0x1012, 0, &e, &r), KS_REC_KIND);
    CHECK_EQ(kq_rec_check(&v, 0x1201, 0, &e, &r), KS_REC_STALE);  /* issued this run, not held */
    CHECK_EQ(e.value, 1);
    CHECK_EQ(kq_rec_check(&v, 0x0F01, 0, &e, &r), KS_REC_STALE);  /* before this run */
    CHECK_EQ(e.value, 2);
    CHECK_EQ(kq_rec_check(&v, 0x1301, 0, &e, &r), KS_REC_UNKNOWN); /* not issued yet */
    CHECK_EQ(e.detail, 0x1301);
    CHECK_EQ(kq_rec_check(&v, 0x1104, 0, &e, &r), KS_REC_UNKNOWN); /* slot 4 of 4 */
    CHECK_EQ(kq_rec_check(&v, 0x1109, 0, &e, &r), KS_REC_UNKNOWN); /* bit 3 */
    CHECK_EQ(kq_rec_check(&v, 0x0001, 0, &e, &r), KS_REC_UNKNOWN); /* generation 0 */
    /* the by-handle lookup's compare (queue.c): key == h ^ op << 3, op REPLAY 1 or RUN 3 */
    CHECK_EQ(t.r[1].key, 0x1101u ^ (1u << 3));
    CHECK_EQ(t.r[2].key, 0x1012u ^ (3u << 3));
    for (unsigned i = 0; i < KQ_REC_SLOTS; i++)          /* a free slot never matches */
        for (uint32_t h = i; h < 0x400; h += KQ_REC_SLOTS)
            if (i != 1 && i != 2) {
                CHECK_EQ(KQ_REC_FREE(i) == (h ^ (1u << 3)), 0);
                CHECK_EQ(KQ_REC_FREE(i) == (h ^ (3u << 3)), 0);
            }
    /* REPLAY_H steps: n and addr[63:32] 0, the handle live and a list */
    step(0, 6, 0, 0, 0x1101);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    /* a byte of the record changed since RECORD (a host write, a unit program): refused,
     * detail = the handle, value = the step | 0; the same bytes again: accepted */
    mem[0x8000 + 63] ^= 0x40;
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_REC_CHANGED);
    CHECK_EQ(e.detail, 0x1101);
    CHECK_EQ(e.value, 0);
    step(0, 4, 0, 0, 0); step(1, 6, 0, 0, 0x1101);     /* BARRIER, then the changed one */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_REC_CHANGED);
    CHECK_EQ(e.value, 0x0001000000000000ull);             /* step 1 | 0 */
    mem[0x8000 + 63] ^= 0x40;
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_OK);
    step(0, 6, 0, 0, 0x1101);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    step(0, 6, 0, 0, 0x1012);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_REC_KIND);
    CHECK_EQ(e.value, 0);                                  /* step 0 | 0 */
    step(0, 6, 0, 1, 0x1101);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 8);
    step(0, 2, 0, 0, 0); step(1, 6, 0, 0, 0x100001101ull);
    step(0, 4, 0, 0, 0);                                   /* BARRIER, then the bad one */
    CHECK_EQ(kq_steps_check(steps, 2, &v, &e), KS_BAD_RSVD);
    CHECK_EQ(e.detail, 20);
    CHECK_EQ(e.value, 0x0001000000000000ull);
    v.recs = 0;                                            /* no table: nothing is held */
    step(0, 6, 0, 0, 0x1101);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_REC_UNKNOWN);
}

/* A REPLAY_H step naming a list kept as sealed moves (RV64: kq_env.sealed_check, docs/mover.md
 * §5.1): the record's digest covers its two steps (span 64), its REPLAY step names the moves
 * (addr, rsvd2 moves, rsvd3 bytes), and the check sums every move as well: a word of a move
 * changed is KS_REC_CHANGED (detail the handle, value the step | 0) though the steps' digest
 * holds; the word put back, accepted; without sealed_check (RV32) the moves are not looked at. */
static void handles_sealed(void)
{
    struct kq_env v = env(&rv64, &kmv_caps_rv64);
    struct kq_recs t;
    memset(&t, 0, sizeof t);
    for (unsigned i = 0; i < KQ_REC_SLOTS; i++)
        t.r[i].key = KQ_REC_FREE(i);
    t.lo_slots = 0x10u | (4u - 1u) << 24;
    t.gen_hi = 0x11;
    t.r[1].key = KQ_REC_KEY(0x1001u);
    t.r[1].n = 2;                                           /* its moves */
    /* two COPY-shaped moves: 3 writes then GO, 1 write then GO */
    struct kd_write w[6] = {
        { KMV_REG_HDR, 0x1000u, 0 }, { KMV_REG_DIM, 0x2000010u, 0 }, { KMV_REG_AXIS, 0, 0 },
        { KMV_REG_CTRL, 0x10010u, 0 }, { KMV_REG_HDR, 0x1001u, 0 }, { KMV_REG_CTRL, 0x10010u, 0 },
    };
    uint32_t moves, words = kmv_seal((volatile uint64_t *)(void *)(mem + 0x9040), w, 6, &moves);
    CHECK_EQ(moves, 2);
    CHECK_EQ(words, (3 + 3 + 2) + (3 + 1 + 2));     /* 3 + e + 2 ceil(e / 16) each (kmv.h) */
    memset(mem + 0x9000, 0, 64);
    struct kq_step *rs = (struct kq_step *)(void *)(mem + 0x9000);
    rs->op = KQ_STEP_REPLAY, rs->n = 6, rs->addr = 0x9040, rs->rsvd2 = 2, rs->rsvd3 = 128;
    t.r[1].ug = 0x9000, t.r[1].bytes = 192, t.r[1].span = 64;
    t.r[1].sum = 0 - kq_rec_digest(mem + 0x9000, 64, 0);
    v.recs = &t;
    v.sealed_check = kmv_sealed_check;
    struct kq_err e;
    step(0, 6, 0, 0, 0x1001);
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    mem[0x9040 + 8 * 11] ^= 0x01;                           /* the second move's value */
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_REC_CHANGED);
    CHECK_EQ(e.detail, 0x1001);
    CHECK_EQ(e.value, 0);
    v.sealed_check = 0;                                     /* lists as they are: not summed */
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    v.sealed_check = kmv_sealed_check;
    mem[0x9040 + 8 * 11] ^= 0x01;
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_OK);
    mem[0x9000 + 8] ^= 0x02;                                /* the REPLAY step itself: the digest */
    CHECK_EQ(kq_steps_check(steps, 1, &v, &e), KS_REC_CHANGED);
    mem[0x9000 + 8] ^= 0x02;
}

/* The record digest (kq.h kq_rec_digest: RECORD keeps it; the native check at every use by
 * handle runs the same loop, include/kohaku/sum4.h kx_sum4, as hal_sum4; RV32's cold-segment
 * check too): by its definition in docs/service.md "Records", the sum of the bytes read as native
 * words modulo 2^(8 x word), plus the seed; any one word changed by anything is seen, any one
 * bit flipped is seen; words swapped are not (the documented limit of a sum). */
static void digest(void)
{
    enum { W = sizeof(kq_sum), N = 96 / W };              /* 96 bytes: three 32-byte turns */
    kq_sum w[N];
    for (unsigned i = 0; i < N; i++)
        w[i] = (kq_sum)(i + 1);
    kq_sum want = (kq_sum)N * (N + 1) / 2;                /* 1 + 2 + ... + N */
    CHECK_EQ(kq_rec_digest(w, 32, 0) == (kq_sum)(32 / W) * (32 / W + 1) / 2, 1);
    CHECK_EQ(kq_rec_digest(w, 96, 0) == want, 1);
    CHECK_EQ(kq_rec_digest(w, 96, 0 - want) == 0, 1);    /* RECORD keeps minus it: 0 at use */
    CHECK_EQ(kq_rec_digest(w, 96, 5) == want + 5, 1);
    w[0] = ~(kq_sum)0;                                     /* wraps modulo 2^bits */
    CHECK_EQ(kq_rec_digest(w, 96, 0) == want - 1 + ~(kq_sum)0, 1);
    w[0] = 1;
    /* every single bit of every byte, flipped: seen */
    uint8_t *b = (uint8_t *)(void *)w;
    unsigned missed = 0;
    for (unsigned i = 0; i < sizeof w; i++)
        for (unsigned k = 0; k < 8; k++) {
            b[i] ^= (uint8_t)(1u << k);
            missed += kq_rec_digest(w, 96, 0 - want) == 0;
            b[i] ^= (uint8_t)(1u << k);
        }
    CHECK_EQ(missed, 0);
    /* one word set to anything else: seen (a few values, the last word too) */
    static const kq_sum vals[] = { 0, 2, 0x80000000u, 0xFFFFFFFFu, 0x12345678u };
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < sizeof vals / sizeof vals[0]; k++) {
            kq_sum keep = w[i];
            if (vals[k] == keep)
                continue;
            w[i] = vals[k];
            missed += kq_rec_digest(w, 96, 0 - want) == 0;
            w[i] = keep;
        }
    CHECK_EQ(missed, 0);
    /* the limit: two words swapped leave the sum as it was */
    kq_sum t = w[3];
    w[3] = w[17 % N];
    w[17 % N] = t;
    CHECK_EQ(kq_rec_digest(w, 96, 0 - want) == 0, 1);
}

/* RV64 owns the firmware's DRAM range too (KQ_FW_OWN_*, host-interface.md §2.1: the copy
 * buffer); the 32-bit end test stays exact at the 4 GB reach end. */
static void range_rv64_fw_dram(void)
{
    static const struct kq_reach r = { { 0x100000000ull, 0x200000ull }, { KQ_FW_OWN_LO, KQ_FW_OWN_HI } };
    struct kq_err e;
    CHECK_EQ(KQ_FW_OWN_LO, 0x400000u);
    CHECK_EQ(KQ_FW_OWN_HI, 0x510000u);        /* and the record area at its largest, 1 MB */
    CHECK_EQ(kq_range(&r, 0x404000ull, 12, 4, &e), KS_BAD_ADDR);        /* the copy buffer */
    CHECK_EQ(kq_range(&r, 0x3FFFE0ull, 64, 32, &e), KS_BAD_ADDR);       /* runs into it */
    CHECK_EQ(kq_range(&r, 0x410000ull, 32, 32, &e), KS_BAD_ADDR);       /* the record area */
    CHECK_EQ(kq_range(&r, 0x50FFE0ull, 64, 32, &e), KS_BAD_ADDR);       /* its last bytes */
    CHECK_EQ(kq_range(&r, 0x510000ull, 32, 32, &e), KS_OK);
    CHECK_EQ(kq_range(&r, 0xFFFFFFE0ull, 32, 32, &e), KS_OK);           /* ends at 4 GB exactly */
    CHECK_EQ(kq_range(&r, 0xFFFFFFE0ull, 64, 32, &e), KS_BAD_ADDR);     /* across 4 GB */
}

/* At use: kq_step_use checks, on a step's copy, what its execution reads. */
static void step_use(void)
{
    struct kq_env v = env(&rv32, &kmv_caps_rv32);
    step(0, 1, 0x12, 8, 0x2000);                           /* DISPATCH to the table's entry 1 */
    CHECK_EQ(kq_step_use(&steps[0], &v), 1);
    step(0, 3, 0x21, 5, 0);                                /* WAIT: entry 2; its count not read */
    CHECK_EQ(kq_step_use(&steps[0], &v), 2);
    step(0, 1, 0x99, 8, 0x2000);                           /* rewritten target */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 3, 0x99, 1, 0);
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 9, 0x12, 8, 0x2000);                           /* rewritten op */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 0, 0x12, 8, 0x2000);
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 1, 0x12, 0, 0x2000);                           /* count 0 */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 1, 0x12, 65537, 0x2000);                       /* count past KQ_MAX_PROG */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 1, 0x12, 1, 0x400000);                         /* into the firmware's DRAM */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 1, 0x12, 1, 0x2004);                           /* misaligned */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
    step(0, 5, 0x99, 0, 0xFFFF);                           /* SIGNAL: nothing it reads */
    CHECK_EQ(kq_step_use(&steps[0], &v), 0);
    step(0, 2, 0x99, 9999, 0x102);                         /* REPLAY: checked on its copy */
    CHECK_EQ(kq_step_use(&steps[0], &v), 0);
    step(0, 6, 0x99, 9999, 0x102);                         /* REPLAY_H: looked up on its copy */
    CHECK_EQ(kq_step_use(&steps[0], &v), 0);
    step(0, 7, 0x12, 8, 0x2000);                           /* past REPLAY_H */
    CHECK_EQ(kq_step_use(&steps[0], &v), -1);
}

/* A REPLAY step's list is validated with the owned ranges: the RUN's step list (KQ_OWN_CMD)
 * and its own list (KQ_OWN_LIST) are in use; at use (at_use) the list is not read here. */
static void run_steps_replay_owned(void)
{
    struct kmv_span owned[KQ_OWN_N] = { { 0x400000, 0x410000 } };
    struct kmv_caps caps = kmv_caps_rv32;
    caps.owned = owned;
    caps.n_owned = KQ_OWN_N;
    struct kq_env v = env(&rv32, &caps);
    struct kq_sub s = sub(3, 0x1000, 2);
    struct kq_err e;
    v.owned = owned;
    v.sub = &s;
    /* A GENERATE of one word at DST (7 records at 0x100). */
    uint64_t dst[4] = { 0x1000, 0x100, 0x3000, 0x400000 };
    unsigned want[4] = { KS_MV_OWNED, KS_MV_OWNED, KS_OK, KS_MV_OWNED };
    uint32_t det[4] = { 0x401, 0x501, 0, 0x001 };
    for (unsigned k = 0; k < 4; k++) {
        uint32_t *w = (uint32_t *)(void *)(mem + 0x100);
        uint64_t hdr = 1 | (dst[k] << 4) | (UINT64_C(1) << 44);
        uint32_t l[7][3] = { { 0x10, (uint32_t)hdr, (uint32_t)(hdr >> 32) }, { 0x18, 0x2000011, 0 },
                             { 0x20, 0, 0 }, { 0x28, 1, 0 }, { 0x28, 3, 0 }, { 0x38, 7, 0 },
                             { 0x00, 0x10013, 0 } };
        memcpy(w, l, sizeof l);
        step(0, 4, 0, 0, 0);
        step(1, 2, 0, 7, 0x100);
        CHECK_EQ(kq_steps_check(steps, 2, &v, &e), want[k]);
        CHECK_EQ(e.detail, det[k]);
        if (want[k] != KS_OK)
            CHECK_EQ(e.value, (1ull << 48) | 6);              /* step 1, the GO's write */
        CHECK_EQ(owned[KQ_OWN_CMD].lo, 0x1000ull);
        CHECK_EQ(owned[KQ_OWN_CMD].hi, 0x1040ull);
        CHECK_EQ(owned[KQ_OWN_LIST].lo, 0x100ull);
        CHECK_EQ(owned[KQ_OWN_LIST].hi, 0x154ull);
    }
    /* At use the list is not read (it is checked on its copy where it runs). */
    v.at_use = 1;
    CHECK_EQ(kq_step_check(&steps[1], &v, 0, &e), KS_OK);
}

/* The status table keeps its ranges (status.h): input codes change nothing, ABORTED is other. */
static void status_ranges(void)
{
    static const unsigned input[] = { KS_BAD_OP, KS_BAD_FLAGS, KS_BAD_LEN, KS_BAD_ALIGN,
        KS_BAD_ADDR, KS_BAD_TARGET, KS_BAD_NTARGETS, KS_DUP_TARGET, KS_BAD_STEP,
        KS_UNSATISFIABLE, KS_BAD_RSVD, KS_CHANGED };
    for (unsigned i = 0; i < sizeof input / sizeof input[0]; i++) {
        CHECK_EQ(KS_IS_INPUT(input[i]), 1);
        CHECK_EQ(input[i], i + 1);             /* 0x01..0x0C in order, no gaps, no reuse */
    }
    CHECK_EQ(KS_IS_OTHER(KS_ABORTED), 1);
    CHECK_EQ(KS_ABORTED, 0x71);
    CHECK_EQ(KS_IS_INPUT(KS_REC_UNKNOWN) && KS_IS_INPUT(KS_REC_STALE) && KS_IS_INPUT(KS_REC_KIND), 1);
    CHECK_EQ(KS_IS_INPUT(KS_REC_CHANGED), 1);
    CHECK_EQ(KS_IS_OTHER(KS_REC_FULL), 1);
    /* The mover's refusals of walks are input (nothing written); RV64's XFORM completion is
     * "other": the moves ran. */
    CHECK_EQ(KS_IS_INPUT(KS_MV_OWNED) && KS_IS_INPUT(KS_MV_ADDR) && KS_IS_INPUT(KS_MV_GATHER_ROWS), 1);
    CHECK_EQ(KS_MV_OWNED, 0x20);
    CHECK_EQ(KS_MV_ADDR, 0x21);
    CHECK_EQ(KS_MV_GATHER_ROWS, 0x22);
    CHECK_EQ(KS_IS_OTHER(KS_XFORM_UNCHECKED), 1);
    CHECK_EQ(KS_XFORM_UNCHECKED, 0x72);
}

/* kq_sub_fast on its own: the commands it is for pass it (so queue.c's straight path is the
 * one they take), and one field wrong in any of them sends it to the rows (0). The expected
 * answers are the submission rules of include/kohaku/queue.h, docs/host-interface.md. */
static void sub_fast(void)
{
    struct kq_env v = env(&rv64, &kmv_caps_rv64);
    struct kq_err e;
    struct kq_sub s;
    /* accepted: NOP, UNITS, STOP; REPLAY and RUN by handle; DISPATCH of 4 payloads to 0x21 */
    s = sub(0, 0, 0); CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    CHECK_EQ(e.status, KS_OK); CHECK_EQ(e.detail, 0); CHECK_EQ(e.value, 0);
    s = sub(4, 0, 0); CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    s = sub(5, 0, 0); CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    s = sub(1, 0x1101, 0); s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    s = sub(3, 0xFFFFFFFFull, 0); s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    s = sub(2, 0x8000000000ull, 4); s.ntargets = 1; s.targets[0] = 0x21;
    memset(&e, 0xA5, sizeof e);
    CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    CHECK_EQ(e.status, KS_OK); CHECK_EQ(e.detail, 0); CHECK_EQ(e.value, 0);
    s.targets[1] = 0x77;                                   /* past ntargets: not read */
    CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);
    s.count = 65536; s.addr = 0x1000; CHECK_EQ(kq_sub_fast(&s, &v, &e), 1);   /* 2 MB, DRAM */
    /* one thing wrong: 0, and the rows name it */
    for (unsigned k = 0; k < 4; k++) {
        s = sub(0, 0, 0); s.rsvd[k] = 1ull << 63;
        CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
        CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);
    }
    s = sub(0, 0, 0); s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    s = sub(9, 0, 0); CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_OP);
    s = sub(1, 0x100000001ull, 0); s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);        /* addr[63:32] of a handle */
    s = sub(3, 0x1012, 1); s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_RSVD);        /* count of a by-handle command */
    s = sub(3, 0x1012, 0); s.flags = 3; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    /* not its commands at all (the rows check them): REPLAY and RUN of data, RECORD, FORGET */
    s = sub(1, 0x100, 3); CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);
    s = sub(3, 0x1000, 4); CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    s = sub(6, 0x100, 3); CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    s = sub(7, 0x1101, 0); CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    /* DISPATCH: each field in turn */
    struct kq_sub d = sub(2, 0x8000000000ull, 4);
    d.ntargets = 1; d.targets[0] = 0x21;
    s = d; s.count = 0; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s = d; s.count = 65537; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_LEN);
    s = d; s.addr = 0x8000000004ull; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ALIGN);
    s = d; s.addr = 0x80001FFFC0ull; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);    /* past 2 MB */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    s = d; s.addr = 0x100000000ull; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);     /* past 4 GB DRAM */
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_ADDR);
    s = d; s.targets[0] = 0x13; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_TARGET);
    s = d; s.ntargets = 0; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_NTARGETS);
    s = d; s.ntargets = 2; s.targets[1] = 0x11; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_OK);              /* two targets: the rows' */
    s = d; s.flags = 1; CHECK_EQ(kq_sub_fast(&s, &v, &e), 0);
    CHECK_EQ(sub_check(&s, &v, &e), KS_BAD_FLAGS);
    /* the RV32 reach: its firmware DRAM refused on the straight path too */
    struct kq_env w = env(&rv32, &kmv_caps_rv32);
    s = d; s.addr = 0x400000; CHECK_EQ(kq_sub_fast(&s, &w, &e), 0);
    CHECK_EQ(sub_check(&s, &w, &e), KS_BAD_ADDR);
    s = d; s.addr = 0x3FFFE0; CHECK_EQ(kq_sub_fast(&s, &w, &e), 0);          /* runs into it */
    s = d; s.addr = 0x3FFF80; CHECK_EQ(kq_sub_fast(&s, &w, &e), 1);          /* ends at it */
    CHECK_EQ(fast_disagree, 0);
}

int main(void)
{
    RUN(ring_sizes);
    RUN(ring_used);
    RUN(range_rv32);
    RUN(range_rv64);
    RUN(range_rv32_fw_dram);
    RUN(setup_rules);
    RUN(setup_indices);
    RUN(sub_simple);
    RUN(sub_replay);
    RUN(sub_dispatch);
    RUN(sub_fast);
    RUN(run_sub);
    RUN(sub_fw_dram);
    RUN(run_steps_good);
    RUN(run_steps_bad);
    RUN(run_steps_replay);
    RUN(sub_records);
    RUN(handles);
    RUN(handles_sealed);
    RUN(digest);
    RUN(range_rv64_fw_dram);
    RUN(step_use);
    RUN(run_steps_replay_owned);
    RUN(status_ranges);
    fprintf(stderr, "host-service: %u checks, %u failed\n", checks, fails);
    return fails != 0;
}
