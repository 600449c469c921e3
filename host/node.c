/* node.c — libkohaku's host-port client (include/kohaku/hostport.h, docs/hardware.md §6): the Unix
 * socket transport, HELLO, register and byte accesses, node memory, agent registers, the
 * processor host registers and the referee counters. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "kh_util.h"
#include "libkohaku.h"

/* ---- Unix socket transport ---- */

struct unix_ctx { int fd; };

static int unix_write(void *ctx, const void *buf, size_t n)
{
    struct unix_ctx *c = ctx;
    const uint8_t *p = buf;
    while (n) {
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int unix_read(void *ctx, void *buf, size_t n)
{
    struct unix_ctx *c = ctx;
    uint8_t *p = buf;
    while (n) {
        ssize_t k = recv(c->fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
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
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return KH_E_IO;
    }
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
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

/* ---- Errors ---- */

int kh_fail(struct kh_node *n, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->err, sizeof n->err, fmt, ap);
    va_end(ap);
    return code;
}

int kh_context(struct kh_node *n, int code, const char *fmt, ...)
{
    char pre[KH_ERR_LEN], old[KH_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, n->err, sizeof old);
    /* Built by hand: the two parts may together exceed the buffer, which truncates. */
    size_t k = strnlen(pre, sizeof n->err - 3);
    memcpy(n->err, pre, k);
    n->err[k++] = ':';
    n->err[k++] = ' ';
    size_t r = strnlen(old, sizeof n->err - 1 - k);
    memcpy(n->err + k, old, r);
    n->err[k + r] = 0;
    return code;
}

const char *kh_error(const struct kh_node *n)
{
    return n->err[0] ? n->err : "no error";
}

const char *kh_port_status_name(unsigned st)
{
    switch (st) {
    case KHP_OK: return "OK";
    case KHP_E_OP: return "E_OP (unknown op)";
    case KHP_E_ADDR: return "E_ADDR (nothing at that address, read-only, or dropped)";
    case KHP_E_LEN: return "E_LEN (length zero, too long, or past the region)";
    case KHP_E_ALIGN: return "E_ALIGN (misaligned for the region)";
    case KHP_E_WIDTH: return "E_WIDTH (width not allowed for the region)";
    case KHP_E_RUNNING: return "E_RUNNING (load path written while the core is not held)";
    default: return "unknown host-port status";
    }
}

/* ---- Requests ---- */

/* One request and its reply. data/dlen: WRITE data; rbuf/rlen: READ data expected. */
static int request(struct kh_node *n, uint8_t op, uint8_t width, uint64_t addr, uint32_t len,
                   const void *data, void *rbuf, uint64_t *value)
{
    uint8_t h[16], r[16];
    uint16_t tag = n->tag++;
    h[0] = op;
    h[1] = width;
    kh_le_put(h + 2, 2, tag);
    kh_le_put(h + 4, 4, len);
    kh_le_put(h + 8, 8, addr);
    n->requests++;
    if (n->t.write(n->t.ctx, h, sizeof h) != 0 || (data && n->t.write(n->t.ctx, data, len) != 0))
        return kh_fail(n, KH_E_IO, "host port: sending a request failed (QEMU gone?)");
    if (n->t.read(n->t.ctx, r, sizeof r) != 0)
        return kh_fail(n, KH_E_IO, "host port: the node closed the connection (QEMU gone?)");
    uint32_t rl = (uint32_t)kh_le_get(r + 4, 4);
    if (r[0] != op || kh_le_get(r + 2, 2) != tag)
        return kh_fail(n, KH_E_PROTO, "host port: reply op %u tag %u to request op %u tag %u",
                       r[0], (unsigned)kh_le_get(r + 2, 2), op, tag);
    if (r[1] != KHP_OK) {
        n->port_status = r[1];
        if (rl)
            return kh_fail(n, KH_E_PROTO, "host port: a refused request carried %u data bytes", rl);
        return kh_fail(n, KH_E_PORT, "host port refused %s of %u bytes at 0x%llx: %s",
                       op == KHP_OP_READ ? "a read" : op == KHP_OP_WRITE ? "a write" : "a request",
                       len, (unsigned long long)addr, kh_port_status_name(r[1]));
    }
    uint32_t want = (op == KHP_OP_READ && width == 0) ? len : 0;
    if (rl != want)
        return kh_fail(n, KH_E_PROTO, "host port: reply carries %u bytes, expected %u", rl, want);
    if (want && n->t.read(n->t.ctx, rbuf, want) != 0)
        return kh_fail(n, KH_E_IO, "host port: connection closed inside a reply");
    if (value)
        *value = kh_le_get(r + 8, 8);
    return KH_OK;
}

int kh_open(struct kh_node *n, const struct kh_transport *t)
{
    memset(n, 0, sizeof *n);
    n->t = *t;
    n->tag = 1;
    uint64_t v;
    int rc = request(n, KHP_OP_HELLO, 0, 0, 0, NULL, NULL, &v);
    if (rc)
        return rc;
    if ((uint32_t)v != KHP_MAGIC)
        return kh_fail(n, KH_E_PROTO, "HELLO answered 0x%llx: not a kohaku host port (magic 0x%08x)",
                       (unsigned long long)v, KHP_MAGIC);
    if ((v >> 32) != KHP_VERSION)
        return kh_fail(n, KH_E_PROTO, "host port version %llu, this library speaks %u",
                       (unsigned long long)(v >> 32), KHP_VERSION);
    rc = kh_reg_read(n, KHP_CPU_BASE + KHP_CPU_VARIANT, &v);
    if (rc)
        return rc;
    if (v != 32 && v != 64)
        return kh_fail(n, KH_E_PROTO, "the node reports core variant %llu (want 32 or 64)",
                       (unsigned long long)v);
    n->variant = (unsigned)v;
    return KH_OK;
}

void kh_close(struct kh_node *n)
{
    if (n->t.close)
        n->t.close(n->t.ctx);
    n->t.close = NULL;
}

int kh_reg_read(struct kh_node *n, uint64_t addr, uint64_t *v)
{
    return request(n, KHP_OP_READ, 8, addr, 8, NULL, NULL, v);
}

int kh_reg_write(struct kh_node *n, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    kh_le_put(b, 8, v);
    return request(n, KHP_OP_WRITE, 8, addr, 8, b, NULL, NULL);
}

/* A byte transfer as requests of at most KHP_MAX_DATA bytes each: rbuf for a read, data for a
 * write. */
static int bytes_xfer(struct kh_node *n, uint8_t op, uint64_t addr, const uint8_t *data,
                      uint8_t *rbuf, size_t len)
{
    size_t off = 0;
    while (off < len) {
        uint32_t k = len - off > KHP_MAX_DATA ? KHP_MAX_DATA : (uint32_t)(len - off);
        int rc = request(n, op, 0, addr + off, k, data ? data + off : NULL,
                         rbuf ? rbuf + off : NULL, NULL);
        if (rc)
            return rc;
        off += k;
    }
    return KH_OK;
}

int kh_bytes_read(struct kh_node *n, uint64_t addr, void *buf, size_t len)
{
    return bytes_xfer(n, KHP_OP_READ, addr, NULL, buf, len);
}

int kh_bytes_write(struct kh_node *n, uint64_t addr, const void *buf, size_t len)
{
    return bytes_xfer(n, KHP_OP_WRITE, addr, buf, NULL, len);
}

static int ug_check(struct kh_node *n, uint64_t ug, size_t len)
{
    if (ug > KF_UG_MASK_HP || len > KF_UG_MASK_HP + 1 - ug)
        return kh_fail(n, KH_E_INPUT, "address 0x%llx + %zu bytes leaves the 40-bit unit-global space",
                       (unsigned long long)ug, len);
    return KH_OK;
}

int kh_mem_read(struct kh_node *n, uint64_t ug, void *buf, size_t len)
{
    int rc = ug_check(n, ug, len);
    return rc ? rc : kh_bytes_read(n, KHP_MEM(0, ug), buf, len);
}

int kh_mem_write(struct kh_node *n, uint64_t ug, const void *buf, size_t len)
{
    int rc = ug_check(n, ug, len);
    return rc ? rc : kh_bytes_write(n, KHP_MEM(0, ug), buf, len);
}

int kh_mem_zero(struct kh_node *n, uint64_t ug, size_t len)
{
    static const uint8_t zero[65536];
    while (len) {
        size_t k = len > sizeof zero ? sizeof zero : len;
        int rc = kh_mem_write(n, ug, zero, k);
        if (rc)
            return rc;
        ug += k;
        len -= k;
    }
    return KH_OK;
}

int kh_agent_read(struct kh_node *n, uint32_t off, uint64_t *v)
{
    return kh_reg_read(n, KHP_AGENT_BASE + off, v);
}

int kh_agent_write(struct kh_node *n, uint32_t off, uint64_t v)
{
    return kh_reg_write(n, KHP_AGENT_BASE + off, v);
}

/* ---- Core ---- */

int kh_core_hold(struct kh_node *n, bool hold)
{
    return kh_reg_write(n, KHP_CPU_BASE + KHP_CPU_CTRL, hold ? KHP_CPU_CTRL_HOLD : 0);
}

int kh_core_status(struct kh_node *n, struct kh_core_status *s)
{
    uint64_t r[8];
    /* Eight 8-byte registers; each is its own request (the region is width 8 only). */
    for (unsigned i = 1; i < 8; i++) {
        int rc = kh_reg_read(n, KHP_CPU_BASE + 8u * i, &r[i]);
        if (rc)
            return rc;
    }
    s->state = (unsigned)KH_FIELD_GET(KHP_CPU_STATE_STATE, r[1]);
    s->cause = (unsigned)KH_FIELD_GET(KHP_CPU_STATE_CAUSE, r[1]);
    s->word = r[2];
    s->pc = r[3];
    s->cycles = r[4];
    s->instret = r[5];
    s->variant = (unsigned)r[6];
    s->now_ns = r[7];
    return KH_OK;
}

const char *kh_core_state_name(unsigned state)
{
    switch (state) {
    case KHP_CPU_HELD: return "held";
    case KHP_CPU_RUNNING: return "running";
    case KHP_CPU_HALTED: return "halted";
    case KHP_CPU_EXITED: return "exited";
    default: return "unknown";
    }
}

const char *const kh_referee_names[KH_REFEREE_COUNT] = {
    "credit_violations", "bad_reg_writes", "busy_go", "cpu_aux_cfg_writes",
    "stage_oob_writes", "kick_while_running", "stage_overrun", "rx_dropped",
};

int kh_referee_read(struct kh_node *n, uint64_t out[KH_REFEREE_COUNT])
{
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++) {
        int rc = kh_reg_read(n, KHP_MODEL_BASE + 8u * i, &out[i]);
        if (rc)
            return rc;
    }
    return KH_OK;
}

/* ---- fault injection (hostport.h KHP_MODEL_INJ_*) ---- */

static int fault_num(const char **p, uint32_t *v)
{
    char *e;
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(*p, &e, 0);
    if (errno || x > 0xFFFFFFFFull)
        return -1;
    *v = (uint32_t)x;
    *p = e;
    return 0;
}

int kh_parse_fault(const char *item, struct kh_fault *f)
{
    /* nargs: how many :numbers may follow the coordinate (or, for axi, the n). */
    static const struct { const char *name; unsigned kind, nargs; bool needs_arg; } kinds[] = {
        { "fault", KHP_INJ_FAULT, 2, false }, { "hang", KHP_INJ_HANG, 1, false },
        { "drop", KHP_INJ_DROP, 1, false }, { "slow", KHP_INJ_SLOW, 1, true },
        { "ctrllate", KHP_INJ_CTRL_LATE, 1, true }, { "ctrlmute", KHP_INJ_CTRL_MUTE, 1, false },
        { "axi", KHP_INJ_AXI, 0, false },
    };
    const char *at = strchr(item, '@');
    if (!at)
        return -1;
    size_t nl = (size_t)(at - item);
    const char *p = at + 1;
    for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (strlen(kinds[k].name) != nl || strncmp(item, kinds[k].name, nl))
            continue;
        memset(f, 0, sizeof *f);
        f->kind = kinds[k].kind;
        f->n = 1;
        if (f->kind == KHP_INJ_AXI)
            return fault_num(&p, &f->n) || *p ? -1 : 0;
        uint32_t x, y, a[2] = { 1, 0 };
        unsigned got = 0;
        if (fault_num(&p, &x) || *p++ != ',' || fault_num(&p, &y) || x > 15 || y > 15)
            return -1;
        while (*p == ':' && got < kinds[k].nargs) {
            p++;
            if (fault_num(&p, &a[got++]))
                return -1;
        }
        if (*p || (kinds[k].needs_arg && !got))
            return -1;
        f->yx = (uint8_t)(y << 4 | x);
        if (kinds[k].needs_arg) {
            f->n = 0;
            f->arg = a[0];
        } else {
            f->n = a[0];
            f->arg = f->kind == KHP_INJ_FAULT ? (got >= 2 ? a[1] : 0xFA17u) : 0;
        }
        return 0;
    }
    return -1;
}

int kh_inject(struct kh_node *n, const struct kh_fault *f)
{
    int rc;
    if ((rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_UNIT, (uint64_t)(f->yx & 0xF) | (uint64_t)(f->yx >> 4) << 8)) ||
        (rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_N, f->n)) ||
        (rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_ARG, f->arg)))
        return kh_context(n, rc, "fault injection");
    if ((rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_ARM, f->kind)))
        return kh_context(n, rc, "arming the fault (is there a unit at %u,%u?)", f->yx & 0xFu, f->yx >> 4);
    return KH_OK;
}

int kh_inject_clear(struct kh_node *n)
{
    int rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_CLEAR, 1);
    return rc ? kh_context(n, rc, "clearing the faults") : KH_OK;
}
