/* link_xdma.c — the xdma link: a card on PCIe through the Linux XDMA driver's character devices
 * (Xilinx dma_ip_drivers, XDMA/linux-kernel): DEV_user is the AXI-Lite user BAR, one 32-bit
 * word per pread/pwrite at offset = address; DEV_h2c_0 / DEV_c2h_0 move a block by DMA with
 * pwrite/pread at offset = AXI address. The driver mishandles DMA under 64 bytes and host
 * buffers that are not page-aligned, so:
 *   - control space (outside addresses below 4 GB: agent, processor host registers, load paths)
 *     goes through the user BAR, word by word; a 64-bit register is two words, low then high;
 *   - memory (outside addresses (mesh + 1) << 40 | unit-global) goes by DMA in whole 64-byte
 *     blocks from a page-aligned staging buffer; a piece smaller than a block is read as its
 *     block, and written by reading the block, changing it and writing it back (docs/host.md
 *     "Address map" says what that costs and what it cannot promise).
 * Deadlines: a syscall blocked in the driver (a DMA that never completes) is interrupted by
 * SIGALRM at the round trip's deadline (the driver waits interruptibly); a round trip here is
 * one syscall. Test-only options provoke the driver's refusals: min_dma=N (DMA pieces of N
 * bytes and up, default 64) and buf_offset=N (stage at page + N, default 0). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "kh_link.h"
#include "kh_util.h"
#include "libkohaku.h"

#define XD_BLOCK     64u
#define XD_PAGE      4096u
#define XD_MAX_DMA   (8u << 20)      /* the largest one DMA; larger ones are split */
#define XD_MEM_BASE  (UINT64_C(1) << 40)

struct xd {
    int user, h2c, c2h;
    uint8_t *stage_mem;        /* page-aligned, XD_MAX_DMA + a page */
    uint8_t *stage;            /* stage_mem + buf_offset */
    unsigned min_dma, buf_offset;
    char dev[128];
};

static volatile sig_atomic_t xd_alarm;
static void on_alarm(int s) { (void)s; xd_alarm = 1; }

/* One syscall bounded by the deadline: pread (rd) or pwrite of n bytes at off. Returns the
 * syscall's result, or -2 when the deadline passed first. */
static ssize_t bounded(int fd, bool rd, void *buf, size_t n, uint64_t off, uint64_t deadline)
{
    for (;;) {
        uint64_t now = kh_ms_now();
        if (now >= deadline)
            return -2;
        uint64_t left = deadline - now;
        struct sigaction sa = { .sa_handler = on_alarm }, old;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;            /* no SA_RESTART: the blocked call returns EINTR */
        sigaction(SIGALRM, &sa, &old);
        struct itimerval it = { { 0, 0 }, { (time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000 } }, oit;
        xd_alarm = 0;
        setitimer(ITIMER_REAL, &it, &oit);
        ssize_t k = rd ? pread(fd, buf, n, (off_t)off) : pwrite(fd, buf, n, (off_t)off);
        int e = errno;
        struct itimerval zero = { { 0, 0 }, { 0, 0 } };
        setitimer(ITIMER_REAL, &zero, NULL);
        sigaction(SIGALRM, &old, NULL);
        errno = e;
        if (k < 0 && e == EINTR) {
            if (kh_ms_now() >= deadline || xd_alarm)
                return -2;
            continue;
        }
        return k;
    }
}

struct xrun {
    struct kh_link *l;
    uint64_t deadline;
    unsigned ms;
    struct kh_link_stats *st;
    char *err;
    size_t errlen;
};

static int xfail(struct xrun *x, ssize_t k, const char *what, uint64_t addr, size_t n)
{
    struct xd *d = x->l->ctx;
    if (k == -2) {
        snprintf(x->err, x->errlen, "%s: no reply within %u ms to %s of %zu bytes at 0x%llx: the card "
                 "does not answer (a DMA engine or the AXI fabric is stuck, or the card is gone)",
                 x->l->name, x->ms, what, n, (unsigned long long)addr);
        return KH_E_TIMEOUT;
    }
    if (k >= 0)
        snprintf(x->err, x->errlen, "%s: %s of %zu bytes at 0x%llx moved %zd", x->l->name, what, n,
                 (unsigned long long)addr, k);
    else if (errno == EINVAL && strstr(what, "DMA"))
        snprintf(x->err, x->errlen, "%s: the XDMA driver refused %s of %zu bytes at 0x%llx from a "
                 "buffer at page offset %u: %s (it mishandles DMA under %u bytes and host buffers "
                 "not page-aligned; min_dma=%u, buf_offset=%u)", x->l->name, what, n,
                 (unsigned long long)addr, (unsigned)((uintptr_t)d->stage % XD_PAGE), strerror(errno),
                 XD_BLOCK, d->min_dma, d->buf_offset);
    else
        snprintf(x->err, x->errlen, "%s: %s of %zu bytes at 0x%llx failed: %s (outside the user BAR, "
                 "or the card answered with an AXI error)", x->l->name, what, n,
                 (unsigned long long)addr, strerror(errno));
    return KH_E_IO;
}

/* One 32-bit word of the user BAR. */
static int bar_word(struct xrun *x, bool rd, uint64_t addr, uint8_t *p)
{
    struct xd *d = x->l->ctx;
    x->st->round_trips++;
    ssize_t k = bounded(d->user, rd, p, 4, addr, x->deadline);
    if (k != 4)
        return xfail(x, k, rd ? "a user-BAR read" : "a user-BAR write", addr, 4);
    return KH_OK;
}

/* One DMA of n bytes (from or into the staging buffer). */
static int dma(struct xrun *x, bool rd, uint64_t addr, size_t n)
{
    struct xd *d = x->l->ctx;
    x->st->round_trips++;
    ssize_t k = bounded(rd ? d->c2h : d->h2c, rd, d->stage, n, addr, x->deadline);
    if (k != (ssize_t)n)
        return xfail(x, k, rd ? "a DMA read (c2h_0)" : "a DMA write (h2c_0)", addr, n);
    return KH_OK;
}

static int mem_access(struct xrun *x, const struct kh_access *a)
{
    struct xd *d = x->l->ctx;
    uint64_t addr = a->addr;
    size_t len = a->len, done = 0;
    bool rd = a->op == KH_ACC_READ;
    int rc;
    while (done < len) {
        uint64_t at = addr + done;
        size_t left = len - done;
        if (at % XD_BLOCK == 0 && left >= XD_BLOCK) {
            size_t k = left & ~(size_t)(XD_BLOCK - 1);
            if (k > XD_MAX_DMA)
                k = XD_MAX_DMA;
            if (!rd)
                memcpy(d->stage, (const uint8_t *)a->wdata + done, k);
            if ((rc = dma(x, rd, at, k)))
                return rc;
            if (rd)
                memcpy((uint8_t *)a->rdata + done, d->stage, k);
            done += k;
            continue;
        }
        /* A piece inside one block. */
        uint64_t blk = at & ~(uint64_t)(XD_BLOCK - 1);
        size_t k = (size_t)(blk + XD_BLOCK - at);
        if (k > left)
            k = left;
        if (d->min_dma < XD_BLOCK && k >= d->min_dma) {
            /* Test only (min_dma=): the small DMA the driver refuses. */
            if (!rd)
                memcpy(d->stage, (const uint8_t *)a->wdata + done, k);
            if ((rc = dma(x, rd, at, k)))
                return rc;
            if (rd)
                memcpy((uint8_t *)a->rdata + done, d->stage, k);
        } else {
            if ((rc = dma(x, true, blk, XD_BLOCK)))
                return rc;
            if (rd) {
                memcpy((uint8_t *)a->rdata + done, d->stage + (at - blk), k);
            } else {
                memcpy(d->stage + (at - blk), (const uint8_t *)a->wdata + done, k);
                if ((rc = dma(x, false, blk, XD_BLOCK)))
                    return rc;
            }
        }
        done += k;
    }
    return KH_OK;
}

static int xd_run(struct kh_link *l, const struct kh_access *a, unsigned n, uint64_t deadline,
                  struct kh_link_stats *st, char *err, size_t errlen)
{
    struct xrun x = { l, deadline, l->timeout_ms, st, err, errlen };
    for (unsigned i = 0; i < n; i++) {
        const struct kh_access *c = &a[i];
        int rc = KH_OK;
        if (c->op == KH_ACC_HELLO) {
            /* Opening the driver's devices was the handshake; the variant read that follows
             * is the first word from the card. */
            kh_le_put(c->rdata, 8, KHP_MAGIC | (uint64_t)KHP_VERSION << 32);
            continue;
        }
        bool rd = c->op == KH_ACC_READ;
        if (c->addr >= XD_MEM_BASE) {
            rc = mem_access(&x, c);
        } else if (c->addr % 4 || c->len % 4) {
            snprintf(err, errlen, "%s: a user-BAR access of %u bytes at 0x%llx is not whole 32-bit "
                     "words", l->name, c->len, (unsigned long long)c->addr);
            rc = KH_E_INPUT;
        } else {
            /* Control space: 32-bit words, ascending (a 64-bit register low then high). */
            for (uint32_t off = 0; off < c->len && !rc; off += 4)
                rc = bar_word(&x, rd, c->addr + off, rd ? (uint8_t *)c->rdata + off
                                                          : (uint8_t *)(uintptr_t)c->wdata + off);
        }
        if (rc)
            return rc;
        if (rd)
            st->bytes_in += c->len;
        else
            st->bytes_out += c->len;
    }
    return KH_OK;
}

static void xd_close(struct kh_link *l)
{
    struct xd *d = l->ctx;
    if (!d)
        return;
    close(d->user);
    close(d->h2c);
    close(d->c2h);
    free(d->stage_mem);
    free(d);
    l->ctx = NULL;
}

static const struct kh_link_ops xd_ops = { xd_run, xd_close };

int kh_link_xdma(const char *spec, const char *rest, unsigned timeout_ms, struct kh_link *l,
                 char *err, size_t errlen)
{
    (void)timeout_ms;           /* opening a character device does not wait on the card */
    struct xd *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return KH_E_IO;
    }
    d->user = d->h2c = d->c2h = -1;
    d->min_dma = XD_BLOCK;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", rest);
    char *opts = strchr(buf, ',');
    if (opts)
        *opts++ = 0;
    int rc = KH_OK;
    if (!buf[0] || strlen(buf) >= sizeof d->dev - 8) {
        snprintf(err, errlen, "%s: want xdma:/dev/xdmaN[,min_dma=N][,buf_offset=N]", spec);
        rc = KH_E_INPUT;
    }
    for (char *o = opts, *save = NULL; !rc && o && (o = strtok_r(o, ",", &save)); o = NULL) {
        uint64_t v;
        char *eq = strchr(o, '=');
        if (!eq || kh_parse_u64(eq + 1, &v)) {
            snprintf(err, errlen, "%s: option `%s` is not NAME=NUMBER", spec, o);
            rc = KH_E_INPUT;
            break;
        }
        *eq = 0;
        if (!strcmp(o, "min_dma") && v >= 4 && v <= XD_BLOCK && v % 4 == 0)
            d->min_dma = (unsigned)v;
        else if (!strcmp(o, "buf_offset") && v < XD_PAGE && v % 4 == 0)
            d->buf_offset = (unsigned)v;
        else {
            snprintf(err, errlen, "%s: unknown option or value out of range: %s (test only: "
                     "min_dma=4..64, buf_offset=0..4092, multiples of 4)", spec, o);
            rc = KH_E_INPUT;
        }
    }
    if (rc) {
        free(d);
        return rc;
    }
    memcpy(d->dev, buf, strlen(buf) + 1);
    static const char *const suffix[3] = { "_user", "_h2c_0", "_c2h_0" };
    static const int mode[3] = { O_RDWR, O_WRONLY, O_RDONLY };
    int *fd[3] = { &d->user, &d->h2c, &d->c2h };
    for (unsigned i = 0; i < 3; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s%s", d->dev, suffix[i]);
        *fd[i] = open(path, mode[i] | O_CLOEXEC);
        if (*fd[i] < 0) {
            int e = errno;
            if (e == ENOENT || e == ENXIO || e == ENODEV)
                snprintf(err, errlen, "%s: no XDMA device: cannot open %s (%s): load the XDMA driver "
                         "(dma_ip_drivers XDMA/linux-kernel, xdma.ko) and check that the card is on "
                         "the bus (lspci -d 10ee:)", spec, path, strerror(e));
            else
                snprintf(err, errlen, "%s: cannot open %s: %s%s", spec, path, strerror(e),
                         e == EACCES ? " (the driver's device files need root, or a udev rule)" : "");
            for (unsigned k = 0; k < i; k++)
                close(*fd[k]);
            free(d);
            return KH_E_IO;
        }
    }
    if (posix_memalign((void **)&d->stage_mem, XD_PAGE, XD_MAX_DMA + XD_PAGE)) {
        snprintf(err, errlen, "out of memory for the DMA staging buffer");
        close(d->user);
        close(d->h2c);
        close(d->c2h);
        free(d);
        return KH_E_IO;
    }
    d->stage = d->stage_mem + d->buf_offset;
    memset(l, 0, sizeof *l);
    l->ops = &xd_ops;
    l->ctx = d;
    l->lim = (struct kh_link_limits){ .align = 4, .max_block = XD_MAX_DMA, .max_batch = KH_BATCH_MAX,
                                      .max_batch_bytes = 4u * XD_MAX_DMA };
    snprintf(l->name, sizeof l->name, "%s", spec);
    return KH_OK;
}
