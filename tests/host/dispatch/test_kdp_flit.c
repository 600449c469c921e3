/* test_kdp_flit.c — native tests of the dispatch layer's pure logic (dispatch/kdp_flit.h, the
 * static inline helpers dispatch.c and enum.c call, and units.c; scripts/check-kdp-helpers.sh
 * checks that the firmware uses them rather than copies): header and flit encoding against literal bit positions of docs/hardware.md §2.1, §2.4.4,
 * §4.8 and docs/hardware.md §1-§2, CU_CAPS and NODE_STATUS decode, the modulo-2^16 count, unit table
 * checks, kick and chunk plans. Every expected value is a literal worked out by hand from the
 * documents, never computed by the code under test. One "PASS: name" / "FAIL: name why" line
 * per test (the suite log format of the top Makefile). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "kdp_flit.h"
#include "kohaku/status.h"

static int failed_in_test;

#define CHECK(c) do { if (!(c)) { printf("  check failed: %s (line %d)\n", #c, __LINE__); failed_in_test = 1; } } while (0)
#define CHECK_EQ(got, want) do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
    if (g_ != w_) { printf("  check failed: %s == %s: got 0x%" PRIx64 " want 0x%" PRIx64 " (line %d)\n", \
                           #got, #want, g_, w_, __LINE__); failed_in_test = 1; } } while (0)

static int total_failed;
static void run(const char *name, void (*fn)(void))
{
    failed_in_test = 0;
    fn();
    if (failed_in_test)
        printf("FAIL: host-dispatch/%s see the check lines above\n", name);
    else
        printf("PASS: host-dispatch/%s\n", name);
    total_failed += failed_in_test;
}

/* Header [31:0] = flit [287:256]: dst_x [31:28], dst_y [27:24], src_x [23:20], src_y [19:16],
 * type [15:12], txn [11:4], last [3], rsvd [2:0] (docs/hardware.md §2.1 at the defaults). A
 * CU_CTRL request's header (kdp_ctrl_hdr, what enum.c sends): type 7, last 1. */
static void hdr_example(void)
{
    /* dst (3,2), src (0,1): 0x3<<28 | 0x2<<24 | 0x0<<20 | 0x1<<16 | 0x7<<12 | 0x5A<<4 | 1<<3 */
    CHECK_EQ(kdp_ctrl_hdr(KDP_YX(3, 2), KDP_YX(0, 1), 0x5A), 0x320175A8u);
}

static void hdr_each_field(void)
{
    const uint32_t base = 0x00007008u;          /* type CU_CTRL, last: every request has them */
    CHECK_EQ(kdp_ctrl_hdr(0, 0, 0), base);
    CHECK_EQ(kdp_ctrl_hdr(KDP_YX(0xF, 0), 0, 0), base | 0xF0000000u);
    CHECK_EQ(kdp_ctrl_hdr(KDP_YX(0, 0xF), 0, 0), base | 0x0F000000u);
    CHECK_EQ(kdp_ctrl_hdr(0, KDP_YX(0xF, 0), 0), base | 0x00F00000u);
    CHECK_EQ(kdp_ctrl_hdr(0, KDP_YX(0, 0xF), 0), base | 0x000F0000u);
    CHECK_EQ(kdp_ctrl_hdr(0, 0, 0xFF), base | 0x00000FF0u);
    CHECK_EQ(KDP_REPLY_MASK, 0x00FFFFF0u);      /* src_x, src_y, type, txn */
}

/* A staged CU_INST: dst/src 0 (the dispatcher stamps them), type 5 [15:12], txn, last. */
static void inst_hdr(void)
{
    CHECK_EQ(kdp_inst_hdr(0x5A, true), 0x000055A8u);
    CHECK_EQ(kdp_inst_hdr(0x01, false), 0x00005010u);
    CHECK_EQ(kdp_inst_hdr(0xFF, false), 0x00005FF0u);
    /* The shared encoder in include/kohaku/flit.h agrees on the same literal. */
    CHECK_EQ(kf_hdr(3, 2, 0, 1, 5, 0x5A, 1), 0x320155A8u);
}

/* Five-word form (docs/hardware.md §2): words 0..3 payload [63:0]..[255:192], word 4 the header. */
static void inst_flit(void)
{
    const uint64_t pay[4] = { 0x0706050403020100u, 0x0F0E0D0C0B0A0908u,
                              0x1716151413121110u, 0x4000000000000001u };
    struct kf_flit f;
    memset(&f, 0xEE, sizeof f);
    kdp_flit_inst(&f, pay, 7, true);
    CHECK_EQ(f.w[0], 0x0706050403020100u);
    CHECK_EQ(f.w[3], 0x4000000000000001u);      /* opcode 4 at payload [255:252] = w3 [63:60] */
    CHECK_EQ(f.w[4], 0x5078u);                  /* type 5, txn 7, last: no upper bits */
    kdp_flit_inst(&f, pay, 7, false);
    CHECK_EQ(f.w[4], 0x5070u);
    /* The byte image is the register image: word 4 byte 0 is header [7:0]. */
    const uint8_t *b = (const uint8_t *)&f;
    CHECK_EQ(sizeof f, 40);
    CHECK_EQ(b[32], 0x70); CHECK_EQ(b[33], 0x50); CHECK_EQ(b[0], 0x00); CHECK_EQ(b[31], 0x40);
}

/* CU_CTRL read (docs/hardware.md §2.4.6): op [255:248] = w3 [63:56], index [247:240] = w3 [55:48]. */
static void ctrl_request(void)
{
    struct kf_flit f;
    memset(&f, 0xEE, sizeof f);
    kdp_flit_ctrl_read(&f, KDP_YX(2, 1), KDP_YX(0, 1), 0, 0x11);
    /* dst (2,1): 0x2<<28 | 0x1<<24; src (0,1): 0x1<<16; type 7; txn 0x11; last */
    CHECK_EQ(f.w[4], 0x21017118u);
    CHECK_EQ(f.w[3], 0); CHECK_EQ(f.w[2], 0); CHECK_EQ(f.w[1], 0); CHECK_EQ(f.w[0], 0);
    kdp_flit_ctrl_read(&f, KDP_YX(4, 2), KDP_YX(0, 1), 3, 0x80);
    CHECK_EQ(f.w[4], 0x42017808u);
    CHECK_EQ(f.w[3], 0x0003000000000000u);
    CHECK_EQ(kdp_ctrl_read_w3(0x0B), 0x000B000000000000u);    /* the word enum.c writes */
    CHECK_EQ(kdp_ctrl_read_w3(0xFF), 0x00FF000000000000u);
    CHECK_EQ(KDP_YX(2, 1), 0x12); CHECK_EQ(KDP_X(0x12), 2); CHECK_EQ(KDP_Y(0x12), 1);
}

/* Reply: op 0x02, index echoed, value [239:176] = w3 [47:0] (value [63:16]) and w2 [63:48]
 * (value [15:0]), txn echoed, src = the unit. */
static void ctrl_reply(void)
{
    struct kf_flit r = { { 0, 0, 0x7788000000000000u, 0x0200112233445566u, 0x01217118u } };
    uint64_t v = 0;
    CHECK(kdp_ctrl_reply_match(&r, KDP_YX(2, 1), 0, 0x11, &v));
    CHECK_EQ(v, 0x1122334455667788u);
    v = 0;
    CHECK(!kdp_ctrl_reply_match(&r, KDP_YX(1, 1), 0, 0x11, &v));   /* asked (1,1): (2,1) answered */
    CHECK(!kdp_ctrl_reply_match(&r, KDP_YX(2, 1), 0, 0x12, &v));   /* stale txn */
    CHECK(!kdp_ctrl_reply_match(&r, KDP_YX(2, 1), 1, 0x11, &v));   /* other index */
    CHECK_EQ(v, 0);
    struct kf_flit q = r;
    q.w[3] = 0x0000112233445566u;                                    /* op 0: a request, not a reply */
    CHECK(!kdp_ctrl_reply_match(&q, KDP_YX(2, 1), 0, 0x11, &v));
    q = r;
    q.w[4] = 0x01216118u;                                            /* type 6: a signal */
    CHECK(!kdp_ctrl_reply_match(&q, KDP_YX(2, 1), 0, 0x11, &v));
    /* The same on the words enum.c reads (header word, word 3): dst is not compared (the
     * agent's coordinate, stamped by the mesh), last neither. */
    CHECK(kdp_ctrl_reply_ok(0x01217118u, 0x0200112233445566u, KDP_YX(2, 1), 0, 0x11));
    CHECK(kdp_ctrl_reply_ok(0xF1217110u, 0x0200112233445566u, KDP_YX(2, 1), 0, 0x11));
    CHECK(kdp_ctrl_reply_ok(0x01217138u, 0x0205000000000000u, KDP_YX(2, 1), 5, 0x13));
    CHECK(!kdp_ctrl_reply_ok(0x01227118u, 0x0200000000000000u, KDP_YX(2, 1), 0, 0x11)); /* src y 2 */
    CHECK(!kdp_ctrl_reply_ok(0x01217118u, 0x0300000000000000u, KDP_YX(2, 1), 0, 0x11)); /* op 3 */
    /* Belongs to the request of txn 0x11 (any src: a clamped answer, or the request itself
     * back at the agent), or is a late flit of another request. */
    CHECK(kdp_ctrl_for_txn(0x01217118u, 0x11));
    CHECK(kdp_ctrl_for_txn(0x10457110u, 0x11));         /* another src, no last: still this txn */
    CHECK(!kdp_ctrl_for_txn(0x01217128u, 0x11));        /* txn 0x12 */
    CHECK(!kdp_ctrl_for_txn(0x01216118u, 0x11));        /* type 6: a signal */
    CHECK(kdp_ctrl_reply_op(0x0200000000000000u, 0));
    CHECK(kdp_ctrl_reply_op(0x020BFFFFFFFFFFFFu, 0x0B));
    CHECK(!kdp_ctrl_reply_op(0x0000000000000000u, 0));  /* op 0: the request itself */
    CHECK(!kdp_ctrl_reply_op(0x0201000000000000u, 0));
    /* A reply's word 3 rebuilt from kdp_ctrl_read's value: op 0x02, the index, value[63:16]
     * in [47:0] (docs/hardware.md §2.4.6). */
    CHECK_EQ(kdp_ctrl_reply_w3(0, 0x1122334455660000u), 0x0200112233445566u);
    CHECK_EQ(kdp_ctrl_reply_w3(0x0B, 0xFFFFFFFFFFFF0000u), 0x020BFFFFFFFFFFFFu);
    CHECK(kdp_ctrl_reply_op(kdp_ctrl_reply_w3(0, 0x1122334455660000u), 0));
}

/* CU_CAPS (docs/hardware.md §1): [63:48] type, [47:40] version, [39:36] buffers, [35:20] inst_depth. */
static void caps_decode(void)
{
    struct kx_unit_entry u;
    kdp_caps_unit(0x12, 0x5455010001000000u, &u);      /* "TU", v1, 0 buffers, depth 16 */
    CHECK_EQ(u.yx, 0x12); CHECK_EQ(u.type, 0x5455); CHECK_EQ(u.version, 1);
    CHECK_EQ(u.buffers, 0); CHECK_EQ(u.inst_depth, 16);
    kdp_caps_unit(0x21, 0x4E50023002000000u, &u);      /* "NP", v2, 3 buffers, depth 32 */
    CHECK_EQ(u.type, 0x4E50); CHECK_EQ(u.version, 2); CHECK_EQ(u.buffers, 3); CHECK_EQ(u.inst_depth, 32);
    kdp_caps_unit(0x21, 0x0000000FFFF00000u, &u);      /* depth field alone, all ones */
    CHECK_EQ(u.inst_depth, 0xFFFF); CHECK_EQ(u.buffers, 0); CHECK_EQ(u.type, 0);
    kdp_caps_unit(0x21, 0x000000F0000FFFFFu, &u);      /* buffers alone; bits below 20 ignored */
    CHECK_EQ(u.buffers, 0xF); CHECK_EQ(u.inst_depth, 0);
}

/* NODE_STATUS (docs/hardware.md §1): [63:56] code, [55:24] arg, [23:8] count, [0] valid: the
 * field macros dispatch.c's kdp_poll decodes it with. */
static void node_status(void)
{
    const uint64_t w = 0x04DEADBEEF123401u;
    CHECK_EQ(KBF_FIELD_GET(KA_NS_CODE, w), 4); CHECK_EQ(KBF_FIELD_GET(KA_NS_ARG, w), 0xDEADBEEFu);
    CHECK_EQ(KBF_FIELD_GET(KA_NS_COUNT, w), 0x1234); CHECK_EQ(KBF_FIELD_GET(KA_NS_VALID, w), 1);
    const uint64_t b = 0x0100000007FFFF00u;             /* BATCH_COMPLETE, arg = txn 7 */
    CHECK_EQ(KBF_FIELD_GET(KA_NS_CODE, b), 1); CHECK_EQ(KBF_FIELD_GET(KA_NS_ARG, b), 7);
    CHECK_EQ(KBF_FIELD_GET(KA_NS_COUNT, b), 0xFFFF); CHECK_EQ(KBF_FIELD_GET(KA_NS_VALID, b), 0);
    /* RV32 reads the count from the low half alone (kdp_poll) */
    CHECK_EQ(KBF_FIELD_GET(KA_NS_COUNT, (uint32_t)w), 0x1234);
}

/* Completions as differences modulo 2^16 from a snapshot (docs/hardware.md §1.1). */
static void count_mod16(void)
{
    CHECK_EQ(kdp_count_since(0x0002, 0xFFFE), 4);
    CHECK_EQ(kdp_count_since(5, 5), 0);
    CHECK_EQ(kdp_count_since(0x1234, 0x1000), 0x234);
    CHECK_EQ(kdp_count_since(0x0000, 0x0001), 0xFFFF);
    CHECK_EQ(kdp_count_since(0x03E7, 0xFC18), 0x07CF);   /* 999 after a snapshot of 64536 */
}

static void units_check(void)
{
    struct kx_unit_entry t[KX_BOOT_MAX_UNITS + 1];
    memset(t, 0, sizeof t);
    for (unsigned i = 0; i < KX_BOOT_MAX_UNITS + 1; i++) {
        t[i].yx = (uint8_t)(0x20 + i);
        t[i].inst_depth = 16;
    }
    CHECK_EQ(kdp_units_check(t, 4, 0x10), KS_OK);
    CHECK_EQ(kdp_units_check(t, 0, 0x10), KS_OK);
    CHECK_EQ(kdp_units_check(t, 32, 0x10), KS_OK);
    CHECK_EQ(kdp_units_check(t, 33, 0x10), KS_DISPATCH_BAD_UNITS);
    CHECK_EQ(kdp_units_check(t, 4, 0x22), KS_DISPATCH_BAD_UNITS);   /* the agent's coordinate */
    t[3].yx = 0x21;
    CHECK_EQ(kdp_units_check(t, 4, 0x10), KS_DISPATCH_BAD_UNITS);   /* listed twice */
    t[3].yx = 0x00;
    CHECK_EQ(kdp_units_check(t, 4, 0x10), KS_DISPATCH_BAD_UNITS);   /* (0,0) holds nothing */
    t[3].yx = 0x23;
    t[2].inst_depth = 0;
    CHECK_EQ(kdp_units_check(t, 4, 0x10), KS_DISPATCH_BAD_UNITS);
    CHECK_EQ(KS_DISPATCH_BAD_UNITS, 0x33);      /* the status table's literal */
    CHECK(KS_IS_INPUT(KS_DISPATCH_BAD_UNITS));
    CHECK(KS_IS_FAULT(KS_UNIT_FAULT));
    CHECK(KS_IS_TIMEOUT(KS_TIMEOUT));
}

/* The kick (docs/hardware.md §1 "Credit", §1.1; docs/dispatch.md "Credit"). */
static void plan_kick(void)
{
    struct kdp_kick k;
    /* Top-ups (several targets, or another unit may return credit): at most the room, credit
     * seeded 0x1000 (above 8 jobs x 255 in flight), so a kick never waits for credit. */
    k = kdp_plan_kick(5, 16, false);  CHECK_EQ(k.len, 5);  CHECK_EQ(k.credit, 0x1000);
    k = kdp_plan_kick(16, 16, false); CHECK_EQ(k.len, 16); CHECK_EQ(k.credit, 0x1000);
    k = kdp_plan_kick(32, 16, false); CHECK_EQ(k.len, 16); CHECK_EQ(k.credit, 0x1000);
    k = kdp_plan_kick(32, 3, false);  CHECK_EQ(k.len, 3);  CHECK_EQ(k.credit, 0x1000);
    k = kdp_plan_kick(1, 1, false);   CHECK_EQ(k.len, 1);  CHECK_EQ(k.credit, 0x1000);
    /* The stream (one target, nobody else owing credit): the whole region, credit = the room:
     * every returned credit is a slot this unit freed. */
    k = kdp_plan_kick(64, 16, true);  CHECK_EQ(k.len, 64); CHECK_EQ(k.credit, 16);
    k = kdp_plan_kick(64, 3, true);   CHECK_EQ(k.len, 64); CHECK_EQ(k.credit, 3);
    k = kdp_plan_kick(5, 16, true);   CHECK_EQ(k.len, 5);  CHECK_EQ(k.credit, 16);
    CHECK_EQ(KDP_TOPUP_CREDIT, 0x1000);
}

/* Chunks of a program of n into regions of 32 (the several-target loop) or 64 slots (the
 * stream's halves) of a 128-slot RAM, and where each region starts. */
static void plan_chunk(void)
{
    CHECK_EQ(kdp_plan_chunk(1000, 0, 32), 32);
    CHECK_EQ(kdp_plan_chunk(1000, 992, 32), 8);
    CHECK_EQ(kdp_plan_chunk(1000, 1000, 32), 0);
    CHECK_EQ(kdp_plan_chunk(1, 0, 64), 1);
    CHECK_EQ(kdp_plan_chunk(100, 40, 64), 60);
    CHECK_EQ(kdp_plan_chunk(200, 40, 64), 64);
    /* 1000 instructions in chunks of 32 from cursor 0: 31 full chunks and one of 8. */
    uint32_t cur = 0, chunks = 0, last = 0;
    for (;;) {
        uint32_t len = kdp_plan_chunk(1000, cur, 32);
        if (!len)
            break;
        cur += len; chunks++; last = len;
    }
    CHECK_EQ(chunks, 32); CHECK_EQ(last, 8); CHECK_EQ(cur, 1000);
}

static void detail_codes(void)
{
    CHECK_EQ(KDP_DETAIL(KDP_AWAIT_COMPLETION, 0x22), 0x0322);
    CHECK_EQ(KDP_DETAIL(KDP_AWAIT_CREDIT, 0x11), 0x0211);
    CHECK_EQ(KDP_DETAIL_WHAT(0x0521u), 5); CHECK_EQ(KDP_DETAIL_YX(0x0521u), 0x21);
}

int main(void)
{
    run("hdr_example", hdr_example);
    run("hdr_each_field", hdr_each_field);
    run("inst_hdr", inst_hdr);
    run("inst_flit", inst_flit);
    run("ctrl_request", ctrl_request);
    run("ctrl_reply", ctrl_reply);
    run("caps_decode", caps_decode);
    run("node_status", node_status);
    run("count_mod16", count_mod16);
    run("units_check", units_check);
    run("plan_kick", plan_kick);
    run("plan_chunk", plan_chunk);
    run("detail_codes", detail_codes);
    return 0;
}
