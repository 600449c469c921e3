/* node.c — libkohaku's node over a link (libkohaku.h "Links", docs/hardware.md §6): the window's
 * batches (splitting, alignment, posting, one deadline per round trip, counters), HELLO,
 * register and byte accesses, node memory, agent registers, the processor host registers and
 * the referee counters. */
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

#include "kh_link.h"
#include "kh_util.h"
#include "libkohaku.h"

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

/* ---- The window: batches of accesses on the node's link ---- */

static unsigned batch_cap(const struct kh_node *n)
{
    unsigned c = n->link.lim.max_batch;
    return c == 0 ? 1 : c > KH_BATCH_MAX ? KH_BATCH_MAX : c;
}

static void batch_drop(struct kh_node *n)
{
    n->b.n = 0;
    n->b.used = 0;
    n->b.bytes = 0;
}

/* Runs the batch as one deadline: every access of it, in order. */
int kh_flush(struct kh_node *n)
{
    struct kh_batch *b = &n->b;
    if (!b->n)
        return KH_OK;
    uint64_t deadline = kh_ms_now() + n->timeout_ms;
    unsigned k = b->n;
    char err[KH_ERR_LEN];
    err[0] = 0;
    n->link.timeout_ms = n->timeout_ms;
    int rc = n->link.ops->run(&n->link, b->acc, k, deadline, &n->stats, err, sizeof err);
    n->stats.accesses += k;
    n->requests += k;
    batch_drop(n);
    if (rc) {
        if (rc == KH_E_PORT)
            n->port_status = n->link.port_status;
        return kh_fail(n, rc, "%s", err[0] ? err : "the link failed without saying why");
    }
    return KH_OK;
}

/* Appends one access (a posted write's data copied), sending the batch first when it is full. */
static int push(struct kh_node *n, uint8_t op, uint8_t width, uint64_t addr, uint32_t len,
                const void *wdata, void *rdata)
{
    struct kh_batch *b = &n->b;
    int rc;
    size_t dl = op == KH_ACC_HELLO ? 8 : len;
    bool copy = op == KH_ACC_WRITE && n->post;
    if (copy && !b->data) {
        b->data_cap = n->link.lim.max_batch_bytes;
        if (!(b->data = malloc(b->data_cap)))
            return kh_fail(n, KH_E_IO, "out of memory for posted writes");
    }
    if (b->n == batch_cap(n) || b->bytes + dl > n->link.lim.max_batch_bytes ||
        (copy && b->used + len > b->data_cap))
        if ((rc = kh_flush(n)))
            return rc;
    struct kh_access *a = &b->acc[b->n++];
    a->op = op;
    a->width = width;
    a->len = len;
    a->addr = addr;
    a->wdata = wdata;
    a->rdata = rdata;
    if (copy) {
        memcpy(b->data + b->used, wdata, len);
        a->wdata = b->data + b->used;
        b->used += len;
    }
    b->bytes += dl;
    return KH_OK;
}

/* A block's pieces: at most max_block and at most a batch's data each. */
static uint32_t piece(const struct kh_node *n, size_t left)
{
    size_t m = n->link.lim.max_block;
    if (m > n->link.lim.max_batch_bytes)
        m = n->link.lim.max_batch_bytes;
    return (uint32_t)(left < m ? left : m);
}

/* Queues reads of len bytes at addr into buf (aligned for the link: the caller widened). */
static int queue_block_read(struct kh_node *n, uint64_t addr, uint8_t *buf, size_t len)
{
    for (size_t off = 0; off < len;) {
        uint32_t k = piece(n, len - off);
        int rc = push(n, KH_ACC_READ, 0, addr + off, k, NULL, buf + off);
        if (rc)
            return rc;
        off += k;
    }
    return KH_OK;
}

static int queue_block_write(struct kh_node *n, uint64_t addr, const uint8_t *buf, size_t len)
{
    for (size_t off = 0; off < len;) {
        uint32_t k = piece(n, len - off);
        int rc = push(n, KH_ACC_WRITE, 0, addr + off, k, buf + off, NULL);
        if (rc)
            return rc;
        off += k;
    }
    return KH_OK;
}

int kh_bytes_read(struct kh_node *n, uint64_t addr, void *buf, size_t len)
{
    uint64_t al = n->link.lim.align > 1 ? n->link.lim.align : 1;
    uint64_t a0 = addr & ~(al - 1), a1 = (addr + len + al - 1) & ~(al - 1);
    int rc;
    if (len == 0)
        return KH_OK;
    if (a0 == addr && a1 == addr + len) {
        if ((rc = queue_block_read(n, addr, buf, len)))
            return rc;
        return kh_flush(n);
    }
    /* A link that moves whole words: read the words around the range and keep the middle. */
    uint8_t *t = malloc((size_t)(a1 - a0));
    if (!t)
        return kh_fail(n, KH_E_IO, "out of memory");
    if (!(rc = queue_block_read(n, a0, t, (size_t)(a1 - a0))) && !(rc = kh_flush(n)))
        memcpy(buf, t + (addr - a0), len);
    free(t);
    return rc;
}

int kh_bytes_write(struct kh_node *n, uint64_t addr, const void *buf, size_t len)
{
    uint64_t al = n->link.lim.align > 1 ? n->link.lim.align : 1;
    uint64_t a0 = addr & ~(al - 1), a1 = (addr + len + al - 1) & ~(al - 1);
    int rc;
    if (len == 0)
        return KH_OK;
    if (a0 == addr && a1 == addr + len) {
        rc = queue_block_write(n, addr, buf, len);
    } else {
        /* Whole words only: the bytes around the range are read first and written back
         * unchanged (not atomic against the firmware: docs/host.md "Address map"). */
        uint8_t *t = malloc((size_t)(a1 - a0));
        if (!t)
            return kh_fail(n, KH_E_IO, "out of memory");
        if (!(rc = queue_block_read(n, a0, t, (size_t)al)) &&
            !(rc = queue_block_read(n, a1 - al, t + (a1 - al - a0), (size_t)al)) && !(rc = kh_flush(n))) {
            memcpy(t + (addr - a0), buf, len);
            rc = queue_block_write(n, a0, t, (size_t)(a1 - a0));
            if (!rc && !n->post)
                rc = kh_flush(n);      /* before t goes: unposted writes point at it */
        }
        free(t);
    }
    if (rc)
        return rc;
    return n->post ? KH_OK : kh_flush(n);
}

/* Queues a register read (flushed by the caller). */
static int queue_reg_read(struct kh_node *n, uint64_t addr, uint64_t *v)
{
    *v = 0;     /* little-endian hosts only (host-lib checks): the 8 bytes are the value */
    return push(n, KH_ACC_READ, 8, addr, 8, NULL, v);
}

int kh_reg_read(struct kh_node *n, uint64_t addr, uint64_t *v)
{
    int rc = queue_reg_read(n, addr, v);
    return rc ? rc : kh_flush(n);
}

int kh_reg_write(struct kh_node *n, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    kh_le_put(b, 8, v);
    int rc = push(n, KH_ACC_WRITE, 8, addr, 8, b, NULL);
    if (rc)
        return rc;
    return n->post ? KH_OK : kh_flush(n);
}

int kh_access_run(struct kh_node *n, const struct kh_access *a, unsigned count)
{
    bool any_read = false;
    for (unsigned i = 0; i < count; i++) {
        int rc;
        if (a[i].width == 0 && a[i].op == KH_ACC_READ)
            rc = queue_block_read(n, a[i].addr, a[i].rdata, a[i].len);
        else if (a[i].width == 0 && a[i].op == KH_ACC_WRITE)
            rc = queue_block_write(n, a[i].addr, a[i].wdata, a[i].len);
        else
            rc = push(n, a[i].op, a[i].width, a[i].addr, a[i].len, a[i].wdata, a[i].rdata);
        if (rc)
            return rc;
        any_read |= a[i].op != KH_ACC_WRITE;
    }
    return any_read || !n->post ? kh_flush(n) : KH_OK;
}

void kh_set_timeout(struct kh_node *n, unsigned timeout_ms)
{
    n->timeout_ms = timeout_ms ? timeout_ms : KH_DEF_TIMEOUT_MS;
}

void kh_post_writes(struct kh_node *n, bool on)
{
    n->post = on;
}

static int open_on(struct kh_node *n, const struct kh_link *l, unsigned timeout_ms)
{
    memset(n, 0, sizeof *n);
    n->link = *l;
    n->tag = 1;
    n->timeout_ms = timeout_ms;
    /* What the link spent connecting (its own handshake, the jtag write-path check) counts. */
    n->stats = l->opened;
    uint64_t v = 0;
    int rc = push(n, KH_ACC_HELLO, 0, 0, 0, NULL, &v);
    if (rc || (rc = kh_flush(n)))
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

int kh_open_on(struct kh_node *n, const struct kh_link *l)
{
    return open_on(n, l, KH_DEF_TIMEOUT_MS);
}

int kh_open(struct kh_node *n, const struct kh_transport *t)
{
    struct kh_link l;
    kh_link_qemu(&l, t, "qemu");
    return kh_open_on(n, &l);
}

int kh_open_link(struct kh_node *n, const char *spec, unsigned timeout_ms)
{
    struct kh_link l;
    unsigned ms = timeout_ms ? timeout_ms : KH_DEF_TIMEOUT_MS;
    memset(n, 0, sizeof *n);
    int rc = kh_link_open(spec, ms, &l, n->err, sizeof n->err);
    if (rc)
        return rc;
    return open_on(n, &l, ms);
}

void kh_close(struct kh_node *n)
{
    /* Posted writes still waiting go now (a caller that cares about their failure flushes). */
    if (n->link.ops && n->b.n)
        (void)kh_flush(n);
    if (n->link.ops && n->link.ops->close)
        n->link.ops->close(&n->link);
    n->link.ops = NULL;
    free(n->b.data);
    n->b.data = NULL;
    n->b.n = 0;
}

/* Memory only where memory is (host/check.c): no alias, no wrap, nothing that hits nothing. */
static int ug_check(struct kh_node *n, uint64_t ug, size_t len)
{
    char m[KH_ERR_LEN - 16];
    if (kh_ug_check(ug, len, m, sizeof m))
        return kh_fail(n, KH_E_INPUT, "%s", m);
    return KH_OK;
}

int kh_mem_read(struct kh_node *n, uint64_t ug, void *buf, size_t len)
{
    int rc = ug_check(n, ug, len);
    return rc ? rc : kh_bytes_read(n, KHP_MEM(0, ug), buf, len);
}

int kh_mem_write_raw(struct kh_node *n, uint64_t ug, const void *buf, size_t len)
{
    int rc = ug_check(n, ug, len);
    return rc ? rc : kh_bytes_write(n, KHP_MEM(0, ug), buf, len);
}

int kh_mem_write(struct kh_node *n, uint64_t ug, const void *buf, size_t len)
{
    char m[KH_ERR_LEN - 16];
    if (kh_fw_own_check(ug, len, m, sizeof m))
        return kh_fail(n, KH_E_INPUT, "%s", m);
    return kh_mem_write_raw(n, ug, buf, len);
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
    /* Seven 8-byte registers (the region is width 8 only), one round trip where the link
     * batches. */
    int rc = KH_OK;
    for (unsigned i = 1; i < 8 && !rc; i++)
        rc = queue_reg_read(n, KHP_CPU_BASE + 8u * i, &r[i]);
    if (rc || (rc = kh_flush(n)))
        return rc;
    s->state = (unsigned)KBF_FIELD_GET(KHP_CPU_STATE_STATE, r[1]);
    s->cause = (unsigned)KBF_FIELD_GET(KHP_CPU_STATE_CAUSE, r[1]);
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
    int rc = KH_OK;
    for (unsigned i = 0; i < KH_REFEREE_COUNT && !rc; i++)
        rc = queue_reg_read(n, KHP_MODEL_BASE + 8u * i, &out[i]);
    return rc ? rc : kh_flush(n);
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
    if ((rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_ARM, f->kind)) || (rc = kh_flush(n)))
        return kh_context(n, rc, "arming the fault (is there a unit at %u,%u?)", f->yx & 0xFu, f->yx >> 4);
    return KH_OK;
}

int kh_inject_clear(struct kh_node *n)
{
    int rc = kh_reg_write(n, KHP_MODEL_BASE + KHP_MODEL_INJ_CLEAR, 1);
    if (!rc)
        rc = kh_flush(n);
    return rc ? kh_context(n, rc, "clearing the faults") : KH_OK;
}
