/* test_link.c — suite host-link: the node layer over a recording stand-in link (docs/host.md
 * "Links"): posted writes wait for a read or a flush and keep their order; unposted writes go at
 * once; blocks split at the link's max_block and batches at its max_batch; an unaligned block
 * becomes a read of its edge words and a write of whole words that keeps the bytes around it;
 * every round trip gets the node's timeout as its deadline; a link failure is the call's error
 * and drops the batch; the counters add up. And kh_link_open's refusals of malformed specs.
 * Expected values come from the contract in libkohaku.h, not from node.c. */
#define _GNU_SOURCE
#define HT_SUITE "host-link"
#include <stdlib.h>
#include <time.h>

#include "ht.h"
#include "kh_util.h"
#include "libkohaku.h"

#define MEM_BASE (UINT64_C(1) << 40)
#define MAXREC 64

struct fake {
    uint8_t mem[4096];              /* outside addresses MEM_BASE.. */
    struct kh_access rec[MAXREC];   /* every access, in order */
    uint64_t recaddr_data[MAXREC][8];
    unsigned nrec, runs, per_run[MAXREC];
    uint64_t deadline, now_at_run;
    int fail;                       /* next run returns this */
};

static int fake_run(struct kh_link *l, const struct kh_access *a, unsigned n, uint64_t deadline,
                    struct kh_link_stats *st, char *err, size_t errlen)
{
    struct fake *f = l->ctx;
    f->deadline = deadline;
    f->now_at_run = kh_ms_now();
    if (f->runs < MAXREC)
        f->per_run[f->runs] = n;
    f->runs++;
    st->round_trips++;
    if (f->fail) {
        int rc = f->fail;
        f->fail = 0;
        snprintf(err, errlen, "stand-in: no reply within %u ms", l->timeout_ms);
        return rc;
    }
    for (unsigned i = 0; i < n; i++) {
        if (f->nrec < MAXREC)
            f->rec[f->nrec++] = a[i];
        if (a[i].op == KH_ACC_HELLO) {
            kh_le_put(a[i].rdata, 8, KHP_MAGIC | (uint64_t)KHP_VERSION << 32);
            continue;
        }
        if (a[i].addr == KHP_CPU_BASE + KHP_CPU_VARIANT) {
            kh_le_put(a[i].rdata, 8, 32);
            continue;
        }
        uint64_t off = a[i].addr - MEM_BASE;
        if (a[i].addr < MEM_BASE || off + a[i].len > sizeof f->mem) {
            snprintf(err, errlen, "stand-in: nothing at 0x%llx", (unsigned long long)a[i].addr);
            return KH_E_PORT;
        }
        if (a[i].op == KH_ACC_WRITE) {
            memcpy(f->mem + off, a[i].wdata, a[i].len);
            st->bytes_out += a[i].len;
        } else {
            memcpy(a[i].rdata, f->mem + off, a[i].len);
            st->bytes_in += a[i].len;
        }
    }
    return KH_OK;
}

static void fake_close(struct kh_link *l) { (void)l; }
static const struct kh_link_ops fake_ops = { fake_run, fake_close };

static void open_fake(struct kh_node *n, struct fake *f, uint32_t align, uint32_t max_block,
                      uint32_t max_batch)
{
    memset(f, 0, sizeof *f);
    for (unsigned i = 0; i < sizeof f->mem; i++)
        f->mem[i] = (uint8_t)(0xA0 + i % 7);
    struct kh_link l = { .ops = &fake_ops, .ctx = f,
                         .lim = { align, max_block, max_batch, 1u << 16 } };
    snprintf(l.name, sizeof l.name, "fake:");
    CHECK_EQ(kh_open_on(n, &l), KH_OK);
    CHECK_EQ(n->variant, 32);
    f->nrec = 0;
    f->runs = 0;
}

static void posted_writes_wait_for_a_read(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 1024, 64);
    kh_post_writes(&n, true);
    uint8_t a[4] = { 1, 2, 3, 4 }, b[2] = { 9, 8 }, got[6];
    CHECK_EQ(kh_bytes_write(&n, MEM_BASE + 0x10, a, 4), KH_OK);
    a[0] = 0x55;                       /* the caller's buffer is free once the call returns */
    CHECK_EQ(kh_bytes_write(&n, MEM_BASE + 0x14, b, 2), KH_OK);
    CHECK_EQ(f.runs, 0);               /* nothing sent yet */
    CHECK_EQ(f.mem[0x10], 0xA0 + 0x10 % 7);
    CHECK_EQ(kh_bytes_read(&n, MEM_BASE + 0x10, got, 6), KH_OK);
    CHECK_EQ(f.runs, 1);               /* both writes and the read: one round trip */
    CHECK_EQ(f.per_run[0], 3);
    CHECK_EQ(f.rec[0].op, KH_ACC_WRITE);
    CHECK_EQ(f.rec[1].op, KH_ACC_WRITE);
    CHECK_EQ(f.rec[2].op, KH_ACC_READ);
    CHECK_EQ(got[0], 1);
    CHECK_EQ(got[3], 4);
    CHECK_EQ(got[4], 9);
    CHECK_EQ(got[5], 8);
    /* A write then kh_flush: sent by the flush, nothing left after it. */
    CHECK_EQ(kh_reg_write(&n, MEM_BASE + 0x20, 0x1122334455667788ull), KH_OK);
    CHECK_EQ(f.runs, 1);
    CHECK_EQ(kh_flush(&n), KH_OK);
    CHECK_EQ(f.runs, 2);
    CHECK_EQ(kh_le_get(f.mem + 0x20, 8), 0x1122334455667788ull);
    CHECK_EQ(kh_flush(&n), KH_OK);
    CHECK_EQ(f.runs, 2);
    kh_close(&n);
}

static void unposted_writes_go_at_once(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 1024, 64);
    CHECK_EQ(kh_reg_write(&n, MEM_BASE, 7), KH_OK);
    CHECK_EQ(f.runs, 1);
    CHECK_EQ(kh_reg_write(&n, MEM_BASE + 8, 8), KH_OK);
    CHECK_EQ(f.runs, 2);
    CHECK_EQ(f.rec[1].width, 8);
    kh_close(&n);
}

static void blocks_split_at_max_block(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 16, 64);
    uint8_t d[40];
    for (unsigned i = 0; i < sizeof d; i++)
        d[i] = (uint8_t)i;
    CHECK_EQ(kh_bytes_write(&n, MEM_BASE + 0x100, d, sizeof d), KH_OK);
    CHECK_EQ(f.runs, 1);
    CHECK_EQ(f.nrec, 3);
    CHECK_EQ(f.rec[0].len, 16);
    CHECK_EQ(f.rec[1].len, 16);
    CHECK_EQ(f.rec[2].len, 8);
    CHECK_EQ(f.rec[2].addr, MEM_BASE + 0x120);
    CHECK(!memcmp(f.mem + 0x100, d, sizeof d));
    kh_close(&n);
}

static void batches_split_at_max_batch(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 1024, 2);
    kh_post_writes(&n, true);
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ(kh_reg_write(&n, MEM_BASE + 8u * i, i), KH_OK);
    CHECK_EQ(f.runs, 2);               /* two full batches went as the third and fifth came */
    CHECK_EQ(kh_flush(&n), KH_OK);
    CHECK_EQ(f.runs, 3);
    CHECK_EQ(f.per_run[0], 2);
    CHECK_EQ(f.per_run[1], 2);
    CHECK_EQ(f.per_run[2], 1);
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ(kh_le_get(f.mem + 8u * i, 8), i);
    kh_close(&n);
}

static void unaligned_blocks_on_a_word_link(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 4, 1024, 64);
    uint8_t before[16], d[3] = { 0x11, 0x22, 0x33 };
    memcpy(before, f.mem + 0x200, sizeof before);
    CHECK_EQ(kh_bytes_write(&n, MEM_BASE + 0x203, d, 3), KH_OK);
    /* Edge words read first, then whole words [0x200, 0x208) written. */
    CHECK_EQ(f.runs, 2);
    CHECK_EQ(f.rec[0].op, KH_ACC_READ);
    CHECK_EQ(f.rec[0].addr % 4, 0);
    CHECK_EQ(f.rec[0].len, 4);
    CHECK_EQ(f.rec[2].op, KH_ACC_WRITE);
    CHECK_EQ(f.rec[2].addr, MEM_BASE + 0x200);
    CHECK_EQ(f.rec[2].len, 8);
    CHECK(!memcmp(f.mem + 0x200, before, 3));          /* the bytes around it kept */
    CHECK_EQ(f.mem[0x203], 0x11);
    CHECK_EQ(f.mem[0x205], 0x33);
    CHECK(!memcmp(f.mem + 0x206, before + 6, 10));
    /* An unaligned read: whole words asked for, the middle returned. */
    uint8_t got[3];
    unsigned r0 = f.nrec;
    CHECK_EQ(kh_bytes_read(&n, MEM_BASE + 0x203, got, 3), KH_OK);
    CHECK_EQ(f.rec[r0].addr, MEM_BASE + 0x200);
    CHECK_EQ(f.rec[r0].len, 8);
    CHECK(!memcmp(got, d, 3));
    kh_close(&n);
}

static void deadline_is_the_node_timeout(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 1024, 64);
    kh_set_timeout(&n, 1234);
    uint64_t v;
    CHECK_EQ(kh_reg_read(&n, MEM_BASE, &v), KH_OK);
    CHECK(f.deadline >= f.now_at_run + 1234 - 50 && f.deadline <= f.now_at_run + 1234);
    kh_close(&n);
}

static void link_failure_is_the_error(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 1024, 64);
    kh_post_writes(&n, true);
    kh_set_timeout(&n, 700);
    CHECK_EQ(kh_reg_write(&n, MEM_BASE, 1), KH_OK);
    f.fail = KH_E_TIMEOUT;
    uint64_t v;
    CHECK_EQ(kh_reg_read(&n, MEM_BASE + 8, &v), KH_E_TIMEOUT);
    CHECK_HAS(kh_error(&n), "stand-in: no reply within 700 ms");
    CHECK_EQ(f.nrec, 0);
    /* The failed batch is gone: the next flush sends nothing, the next read only itself. */
    CHECK_EQ(kh_flush(&n), KH_OK);
    CHECK_EQ(f.runs, 1);
    CHECK_EQ(kh_reg_read(&n, MEM_BASE + 8, &v), KH_OK);
    CHECK_EQ(f.per_run[1], 1);
    /* A refusal from the far end is KH_E_PORT with its message. */
    CHECK_EQ(kh_reg_read(&n, UINT64_C(0x500000), &v), KH_E_PORT);
    CHECK_HAS(kh_error(&n), "nothing at 0x500000");
    kh_close(&n);
}

static void counters_add_up(void)
{
    struct kh_node n;
    struct fake f;
    open_fake(&n, &f, 1, 16, 64);
    struct kh_link_stats s0 = n.stats;
    uint8_t d[40] = { 0 }, got[8];
    CHECK_EQ(kh_bytes_write(&n, MEM_BASE, d, 40), KH_OK);   /* 3 accesses, 1 round trip */
    CHECK_EQ(kh_bytes_read(&n, MEM_BASE, got, 8), KH_OK);   /* 1 access, 1 round trip */
    CHECK_EQ(n.stats.accesses - s0.accesses, 4);
    CHECK_EQ(n.stats.round_trips - s0.round_trips, 2);
    CHECK_EQ(n.stats.bytes_out - s0.bytes_out, 40);
    CHECK_EQ(n.stats.bytes_in - s0.bytes_in, 8);
    kh_close(&n);
}

static void link_spec_refusals(void)
{
    struct kh_link l;
    char err[KH_ERR_LEN];
    CHECK_EQ(kh_link_open("serial:/dev/ttyS0", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "unknown link `serial:/dev/ttyS0`");
    CHECK_EQ(kh_link_open("jtag:localhost", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "want jtag:HOST:PORT");
    CHECK_EQ(kh_link_open("jtag:localhost:1,burst=999", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "burst=1..256");
    CHECK_EQ(kh_link_open("xdma:", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_link_open("xdma:/dev/xdma0,min_dma=3", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_link_open("qemu:", 100, &l, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_link_open("qemu:/nonexistent/kohaku.sock", 100, &l, err, sizeof err), KH_E_IO);
    CHECK_HAS(err, "cannot connect to the host port at /nonexistent/kohaku.sock");
    CHECK_EQ(kh_link_open("xdma:/nonexistent/xdma9", 100, &l, err, sizeof err), KH_E_IO);
    CHECK_HAS(err, "no XDMA device: cannot open /nonexistent/xdma9_user");
}

static void link_spec_precedence(void)
{
    setenv("KACTL_LINK", "jtag:h:1", 1);
    setenv("KACTL_SOCKET", "/tmp/s.sock", 1);
    CHECK_STR(kh_link_spec("xdma:/dev/x"), "xdma:/dev/x");
    CHECK_STR(kh_link_spec(NULL), "jtag:h:1");
    unsetenv("KACTL_LINK");
    CHECK_STR(kh_link_spec(NULL), "/tmp/s.sock");
    unsetenv("KACTL_SOCKET");
    CHECK_STR(kh_link_spec(""), "qemu:/tmp/kohaku-hostport.sock");
}

int main(void)
{
    RUN(posted_writes_wait_for_a_read);
    RUN(unposted_writes_go_at_once);
    RUN(blocks_split_at_max_block);
    RUN(batches_split_at_max_batch);
    RUN(unaligned_blocks_on_a_word_link);
    RUN(deadline_is_the_node_timeout);
    RUN(link_failure_is_the_error);
    RUN(counters_add_up);
    RUN(link_spec_refusals);
    RUN(link_spec_precedence);
    return ht_failures ? 1 : 0;
}
