/* xdma_shim.c — LD_PRELOAD stand-in for the Linux XDMA driver's character devices, so the
 * unchanged xdma link (host/link_xdma.c) runs against a QEMU node: open() of $KHX_DEV_user,
 * _h2c_0 and _c2h_0 gives descriptors whose pread/pwrite become host-port requests
 * (include/kohaku/hostport.h) on the Unix socket $KHX_SOCKET, AXI address = outside address.
 *   user BAR   4-byte words at 4-aligned offsets, as the driver's control device: a register
 *              region (agent, processor, model registers) is 64 bits wide behind a bridge that
 *              latches the high half when the low half is read and commits a write when the
 *              high half arrives after the low half (docs/host.md "Address map"); the load paths
 *              take words as they are
 *   h2c / c2h  a DMA at offset = AXI address; the driver's mishandled cases are refused with
 *              EINVAL: fewer than 64 bytes, or a host buffer that is not page-aligned
 * A blocked wait for QEMU returns EINTR when a signal arrives, as the driver's interruptible
 * waits do. Paths without the $KHX_DEV prefix go to the real open(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include "kohaku/hostport.h"

enum kind { K_NONE, K_USER, K_H2C, K_C2H };
#define MAXFD 1024
static enum kind kinds[MAXFD];
static int qfd = -1;
static uint16_t qtag;
/* The register bridge's latches. */
static uint64_t rd_latch_addr = UINT64_MAX, rd_latch_val;
static uint64_t wr_latch_addr = UINT64_MAX;
static uint32_t wr_latch_lo;

static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);

static void init(void)
{
    if (!real_open) {
        real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
        real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    }
}

static enum kind match(const char *path)
{
    const char *dev = getenv("KHX_DEV");
    size_t n = dev ? strlen(dev) : 0;
    if (!n || strncmp(path, dev, n))
        return K_NONE;
    if (!strcmp(path + n, "_user"))
        return K_USER;
    if (!strcmp(path + n, "_h2c_0"))
        return K_H2C;
    if (!strcmp(path + n, "_c2h_0"))
        return K_C2H;
    return (enum kind)-1;
}

static int fake_open(const char *path, enum kind k)
{
    if ((int)k == -1) {
        errno = ENOENT;
        return -1;
    }
    if (qfd < 0) {
        const char *sp = getenv("KHX_SOCKET");
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        if (!sp || strlen(sp) >= sizeof sa.sun_path) {
            errno = ENODEV;
            return -1;
        }
        strcpy(sa.sun_path, sp);
        qfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (qfd < 0 || connect(qfd, (struct sockaddr *)&sa, sizeof sa)) {
            int e = errno;
            if (qfd >= 0)
                real_close(qfd);
            qfd = -1;
            errno = e == ENOENT ? ENODEV : e;
            return -1;
        }
    }
    (void)path;
    int fd = real_open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd < 0 || fd >= MAXFD) {
        errno = EMFILE;
        return -1;
    }
    kinds[fd] = k;
    return fd;
}

int open(const char *path, int flags, ...)
{
    init();
    enum kind k = match(path);
    if (k != K_NONE)
        return fake_open(path, k);
    mode_t m = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list ap;
        va_start(ap, flags);
        m = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return real_open(path, flags, m);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int close(int fd)
{
    init();
    if (fd >= 0 && fd < MAXFD && kinds[fd] != K_NONE) {
        kinds[fd] = K_NONE;
        bool any = false;
        for (int i = 0; i < MAXFD; i++)
            any |= kinds[i] != K_NONE;
        if (!any && qfd >= 0) {
            real_close(qfd);
            qfd = -1;
        }
    }
    return real_close(fd);
}

/* Exactly n bytes; a signal ends the wait with EINTR. */
static int xfer(bool out, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t k = out ? send(qfd, p, n, MSG_NOSIGNAL) : recv(qfd, p, n, 0);
        if (k < 0 && errno == EINTR)
            return -1;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* One host-port request; 0 or -1 with errno (EIO: refused, an AXI error on the card). */
static int hp(uint8_t op, uint8_t width, uint64_t addr, uint32_t len, const void *wdata, void *rdata,
              uint64_t *value)
{
    uint8_t h[16], r[16];
    h[0] = op;
    h[1] = width;
    qtag++;
    memcpy(h + 2, &qtag, 2);
    memcpy(h + 4, &len, 4);
    memcpy(h + 8, &addr, 8);
    if (xfer(true, h, 16) || (op == KHP_OP_WRITE && xfer(true, (void *)(uintptr_t)wdata, len)) ||
        xfer(false, r, 16))
        return -1;
    uint32_t rl;
    memcpy(&rl, r + 4, 4);
    if (rl && xfer(false, rdata, rl))
        return -1;
    if (r[1] != KHP_OK) {
        errno = EIO;
        return -1;
    }
    if (value)
        memcpy(value, r + 8, 8);
    return 0;
}

static bool is_reg(uint64_t a)
{
    return a < KHP_CPU_END || (a >= KHP_MODEL_BASE && a < KHP_MODEL_END);
}

static ssize_t user_rw(bool rd, void *buf, size_t count, off_t pos)
{
    uint64_t a = (uint64_t)pos;
    if (pos < 0 || (a & 3) || count < 4) {
        errno = EPROTO;         /* the control device moves one aligned 32-bit word */
        return -1;
    }
    if (!is_reg(a)) {
        if (hp(rd ? KHP_OP_READ : KHP_OP_WRITE, 0, a, 4, buf, buf, NULL))
            return -1;
        return 4;
    }
    uint64_t r = a & ~UINT64_C(7);
    uint32_t w;
    if (rd) {
        if (!(a & 4) || rd_latch_addr != r) {
            uint64_t v;
            if (hp(KHP_OP_READ, 8, r, 8, NULL, NULL, &v))
                return -1;
            rd_latch_addr = r;
            rd_latch_val = v;
        }
        w = (uint32_t)(rd_latch_val >> (a & 4 ? 32 : 0));
        if (a & 4)
            rd_latch_addr = UINT64_MAX;
        memcpy(buf, &w, 4);
        return 4;
    }
    memcpy(&w, buf, 4);
    if (!(a & 4)) {
        wr_latch_addr = r;
        wr_latch_lo = w;
        return 4;
    }
    if (wr_latch_addr != r) {
        errno = EIO;            /* a high half without its low half: the bridge drops it */
        return -1;
    }
    wr_latch_addr = UINT64_MAX;
    uint64_t v = (uint64_t)w << 32 | wr_latch_lo;
    if (hp(KHP_OP_WRITE, 8, r, 8, &v, NULL, NULL))
        return -1;
    return 4;
}

static ssize_t dma_rw(bool rd, void *buf, size_t count, off_t pos)
{
    if (count < 64 || ((uintptr_t)buf & 4095) || pos < 0) {
        errno = EINVAL;         /* what the driver mishandles is refused here, loudly */
        return -1;
    }
    size_t done = 0;
    while (done < count) {
        uint32_t k = count - done > KHP_MAX_DATA ? KHP_MAX_DATA : (uint32_t)(count - done);
        if (hp(rd ? KHP_OP_READ : KHP_OP_WRITE, 0, (uint64_t)pos + done, k, (uint8_t *)buf + done,
               (uint8_t *)buf + done, NULL))
            return -1;
        done += k;
    }
    return (ssize_t)count;
}

static ssize_t fake_rw(int fd, bool rd, void *buf, size_t count, off_t pos, bool *handled)
{
    *handled = fd >= 0 && fd < MAXFD && kinds[fd] != K_NONE;
    if (!*handled)
        return 0;
    switch (kinds[fd]) {
    case K_USER:
        return user_rw(rd, buf, count, pos);
    case K_H2C:
        if (rd)
            break;
        return dma_rw(false, buf, count, pos);
    case K_C2H:
        if (!rd)
            break;
        return dma_rw(true, buf, count, pos);
    default:
        break;
    }
    errno = EINVAL;
    return -1;
}

ssize_t pread(int fd, void *buf, size_t count, off_t pos)
{
    bool h;
    ssize_t k = fake_rw(fd, true, buf, count, pos, &h);
    if (h)
        return k;
    static ssize_t (*real)(int, void *, size_t, off_t);
    if (!real)
        real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
    return real(fd, buf, count, pos);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t pos)
{
    bool h;
    ssize_t k = fake_rw(fd, false, (void *)(uintptr_t)buf, count, pos, &h);
    if (h)
        return k;
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    return real(fd, buf, count, pos);
}

ssize_t pread64(int fd, void *buf, size_t count, off_t pos) __attribute__((alias("pread")));
ssize_t pwrite64(int fd, const void *buf, size_t count, off_t pos) __attribute__((alias("pwrite")));
