/* link.c — choosing and opening a link (libkohaku.h "Links"), the Unix-socket transport with
 * deadlines, and the qemu link: the QEMU host port's protocol (include/kohaku/hostport.h), one
 * request and its reply per access, every byte moved before the round trip's deadline. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "kh_link.h"
#include "kh_util.h"
#include "libkohaku.h"

/* ---- Waiting on a descriptor until a deadline ---- */

int kh_fd_wait(int fd, short events, uint64_t deadline_ms)
{
    for (;;) {
        uint64_t now = kh_ms_now();
        if (now >= deadline_ms)
            return -2;
        uint64_t left = deadline_ms - now;
        struct pollfd p = { .fd = fd, .events = events };
        int k = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k > 0)
            return 0;       /* ready, or an error/hangup the next send/recv reports */
    }
}

int kh_fd_write(int fd, const void *buf, size_t n, uint64_t deadline_ms)
{
    const uint8_t *p = buf;
    while (n) {
        int w = kh_fd_wait(fd, POLLOUT, deadline_ms);
        if (w)
            return w;
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int kh_fd_read(int fd, void *buf, size_t n, uint64_t deadline_ms)
{
    uint8_t *p = buf;
    while (n) {
        int w = kh_fd_wait(fd, POLLIN, deadline_ms);
        if (w)
            return w;
        ssize_t k = recv(fd, p, n, MSG_DONTWAIT);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* ---- Unix socket transport ---- */

struct unix_ctx { int fd; };

static int unix_write(void *ctx, const void *buf, size_t n, uint64_t deadline_ms)
{
    return kh_fd_write(((struct unix_ctx *)ctx)->fd, buf, n, deadline_ms);
}

static int unix_read(void *ctx, void *buf, size_t n, uint64_t deadline_ms)
{
    return kh_fd_read(((struct unix_ctx *)ctx)->fd, buf, n, deadline_ms);
}

static void unix_close(void *ctx)
{
    struct unix_ctx *c = ctx;
    close(c->fd);
    free(c);
}

int kh_transport_unix(const char *path, struct kh_transport *t, char *err, size_t errlen)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof sa.sun_path) {
        snprintf(err, errlen, "socket path %s is longer than %zu bytes", path, sizeof sa.sun_path - 1);
        return KH_E_INPUT;
    }
    strcpy(sa.sun_path, path);
    /* Non-blocking: a full listen backlog (a QEMU busy with another client) must not block the
     * connect forever; the deadlines of later reads and writes bound everything after it. */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return KH_E_IO;
    }
    int rc;
    uint64_t until = kh_ms_now() + 2000;
    while ((rc = connect(fd, (struct sockaddr *)&sa, sizeof sa)) != 0 && errno == EAGAIN &&
           kh_ms_now() < until) {
        struct timespec ts = { 0, 10000000 };
        nanosleep(&ts, NULL);
    }
    if (rc != 0) {
        if (errno == EAGAIN)
            snprintf(err, errlen, "cannot connect to the host port at %s: its queue of waiting "
                     "clients is full for 2 s (another client holds QEMU's host port; it serves "
                     "one at a time)", path);
        else
            snprintf(err, errlen, "cannot connect to the host port at %s: %s (is QEMU running with "
                     "-chardev socket,path=%s,server=on and hostport=?)", path, strerror(errno), path);
        close(fd);
        return KH_E_IO;
    }
    struct unix_ctx *c = malloc(sizeof *c);
    if (!c) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return KH_E_IO;
    }
    c->fd = fd;
    t->ctx = c;
    t->write = unix_write;
    t->read = unix_read;
    t->close = unix_close;
    return KH_OK;
}

/* ---- The qemu link: hostport.h requests over a transport ---- */

static const char *acc_what(const struct kh_access *a, char *buf, size_t len)
{
    if (a->op == KH_ACC_HELLO)
        snprintf(buf, len, "HELLO");
    else
        snprintf(buf, len, "a %s of %u bytes at 0x%llx", a->op == KH_ACC_READ ? "read" : "write",
                 a->len, (unsigned long long)a->addr);
    return buf;
}

static int qemu_one(struct kh_link *l, const struct kh_access *a, uint64_t deadline, unsigned ms,
                    struct kh_link_stats *st, char *err, size_t errlen)
{
    struct kh_link *c = l;
    uint8_t h[16], r[16];
    uint8_t op = a->op == KH_ACC_HELLO ? KHP_OP_HELLO : a->op == KH_ACC_READ ? KHP_OP_READ : KHP_OP_WRITE;
    uint32_t len = a->op == KH_ACC_HELLO ? 0 : a->len;
    uint16_t tag = c->tag++;
    char what[96];
    h[0] = op;
    h[1] = a->width;
    kh_le_put(h + 2, 2, tag);
    kh_le_put(h + 4, 4, len);
    kh_le_put(h + 8, 8, a->op == KH_ACC_HELLO ? 0 : a->addr);
    st->round_trips++;
    int rc = c->t.write(c->t.ctx, h, sizeof h, deadline);
    if (!rc && op == KHP_OP_WRITE)
        rc = c->t.write(c->t.ctx, a->wdata, len, deadline);
    if (!rc)
        rc = c->t.read(c->t.ctx, r, sizeof r, deadline);
    if (rc == -2)
        goto timeout;
    if (rc) {
        snprintf(err, errlen, "%s: the node closed the connection during %s (QEMU gone?)", l->name,
                 acc_what(a, what, sizeof what));
        return KH_E_IO;
    }
    uint32_t rl = (uint32_t)kh_le_get(r + 4, 4);
    if (r[0] != op || kh_le_get(r + 2, 2) != tag) {
        snprintf(err, errlen, "host port: reply op %u tag %u to request op %u tag %u", r[0],
                 (unsigned)kh_le_get(r + 2, 2), op, tag);
        return KH_E_PROTO;
    }
    if (r[1] != KHP_OK) {
        l->port_status = r[1];
        if (rl) {
            snprintf(err, errlen, "host port: a refused request carried %u data bytes", rl);
            return KH_E_PROTO;
        }
        snprintf(err, errlen, "host port refused %s of %u bytes at 0x%llx: %s",
                 op == KHP_OP_READ ? "a read" : op == KHP_OP_WRITE ? "a write" : "a request", len,
                 (unsigned long long)a->addr, kh_port_status_name(r[1]));
        return KH_E_PORT;
    }
    uint32_t want = (op == KHP_OP_READ && a->width == 0) ? len : 0;
    if (rl != want) {
        snprintf(err, errlen, "host port: reply carries %u bytes, expected %u", rl, want);
        return KH_E_PROTO;
    }
    if (want) {
        rc = c->t.read(c->t.ctx, a->rdata, want, deadline);
        if (rc == -2)
            goto timeout;
        if (rc) {
            snprintf(err, errlen, "%s: connection closed inside a reply", l->name);
            return KH_E_IO;
        }
        st->bytes_in += want;
    } else if (op == KHP_OP_READ || op == KHP_OP_HELLO) {
        kh_le_put(a->rdata, op == KHP_OP_HELLO ? 8 : a->width, kh_le_get(r + 8, 8));
        st->bytes_in += op == KHP_OP_HELLO ? 8 : a->width;
    }
    if (op == KHP_OP_WRITE)
        st->bytes_out += len;
    return KH_OK;
timeout:
    snprintf(err, errlen, "%s: no reply within %u ms to %s: QEMU is stopped (kill -STOP?) or "
             "stuck, or another client holds its host port (it serves one client at a time)",
             l->name, ms, acc_what(a, what, sizeof what));
    return KH_E_TIMEOUT;
}

static int qemu_run(struct kh_link *l, const struct kh_access *a, unsigned n, uint64_t deadline,
                    struct kh_link_stats *st, char *err, size_t errlen)
{
    unsigned ms = l->timeout_ms;
    /* One request at a time, as the host port's latency model expects (docs/model.md §6). */
    for (unsigned i = 0; i < n; i++) {
        int rc = qemu_one(l, &a[i], deadline, ms, st, err, errlen);
        if (rc)
            return rc;
    }
    return KH_OK;
}

static void qemu_close(struct kh_link *l)
{
    if (l->t.close)
        l->t.close(l->t.ctx);
}

static const struct kh_link_ops qemu_ops = { qemu_run, qemu_close };

void kh_link_qemu(struct kh_link *l, const struct kh_transport *t, const char *name)
{
    memset(l, 0, sizeof *l);
    l->t = *t;
    l->tag = 1;
    l->ops = &qemu_ops;
    l->lim = (struct kh_link_limits){ .align = 1, .max_block = KHP_MAX_DATA, .max_batch = 64,
                                      .max_batch_bytes = 4u * KHP_MAX_DATA };
    snprintf(l->name, sizeof l->name, "%s", name);
}

/* ---- Choosing a link ---- */

const char *kh_link_spec(const char *spec)
{
    if (spec && *spec)
        return spec;
    const char *e = getenv("KACTL_LINK");
    if (e && *e)
        return e;
    /* KACTL_SOCKET, the variable of the qemu-only days, still names a host-port socket. */
    e = getenv("KACTL_SOCKET");
    if (e && *e)
        return e;
    return KH_DEF_LINK;
}

int kh_link_open(const char *spec, unsigned timeout_ms, struct kh_link *l, char *err, size_t errlen)
{
    spec = kh_link_spec(spec);
    if (!strncmp(spec, "jtag:", 5))
        return kh_link_jtag(spec, spec + 5, timeout_ms, l, err, errlen);
    if (!strncmp(spec, "xdma:", 5))
        return kh_link_xdma(spec, spec + 5, timeout_ms, l, err, errlen);
    const char *path = !strncmp(spec, "qemu:", 5) ? spec + 5 : spec;
    /* A bare path is a qemu socket (KACTL_SOCKET's form); anything else with a scheme is not. */
    const char *colon = strchr(spec, ':'), *slash = strchr(spec, '/');
    if (path == spec && colon && (!slash || colon < slash)) {
        snprintf(err, errlen, "unknown link `%s`: use qemu:PATH, jtag:HOST:PORT or xdma:/dev/xdmaN", spec);
        return KH_E_INPUT;
    }
    if (!*path) {
        snprintf(err, errlen, "link `%s` names no socket path", spec);
        return KH_E_INPUT;
    }
    struct kh_transport t;
    int rc = kh_transport_unix(path, &t, err, errlen);
    if (rc)
        return rc;
    char name[160];
    snprintf(name, sizeof name, "qemu:%s", path);
    kh_link_qemu(l, &t, name);
    return KH_OK;
}
