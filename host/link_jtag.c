/* link_jtag.c — the jtag link: a TCP client of our Tcl server (host/kohaku-jtag.tcl), which a
 * user sources in a Vivado hardware-manager session; the server turns each request's accesses
 * into JTAG-to-AXI transactions (create_hw_axi_txn / run_hw_axi) and answers once per request.
 * A round trip costs tens of milliseconds on a real cable, so a request carries a whole batch.
 *
 * Our protocol (text, one request in flight; docs/host.md "The jtag protocol"):
 *   request   "KJ1 <seq> <nops>\n" then nops lines:
 *               "H"                         hello: one reply line
 *                                           "kohaku-jtag 1 <beat bytes> <max beats> <max ops>"
 *               "W <addr> <size> <hex>"     write burst of size-byte beats (size 4 or the beat),
 *                                           hex = the data as Vivado's -data takes it: the last
 *                                           beat first, each beat most significant digit first
 *               "R <addr> <size> <beats>"   single-beat reads (a burst on a wide endpoint
 *                                           strides by the endpoint word), one reply line of
 *                                           <beats> hex words in address order
 *   reply     "KJ1 <seq> OK <nlines>\n" + lines | "KJ1 <seq> ERR <op index> <message>\n"
 *             | "KJ1 0 BUSY <message>\n" (another client is being served; then closed)
 * Hazards checked here: the write path is verified at connect (write data lagging the address
 * after a wedge lands every write shifted while reporting success); bursts are split to the
 * server's limit (a burst past the master's FIFO wedges it); a dropped connection, an error
 * from run_hw_axi and a silent server each end in a message naming the round trip. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kh_link.h"
#include "kh_util.h"
#include "libkohaku.h"

#define JT_DEF_SCRATCH   (KH_DEF_DATA_UG + KH_DEF_DATA_BYTES - 128u)   /* kactl's data area's end */
#define JT_PROBE_BEATS   16u
#define JT_MAX_LAG       8u

struct jt {
    int fd;
    bool dead;                 /* after a timeout or a lost connection: no more requests */
    unsigned beat;             /* bytes per beat of the master: 4 or 8 */
    unsigned burst;            /* beats per write burst */
    unsigned max_ops;          /* ops per request */
    uint32_t seq;
    uint64_t scratch;          /* outside address of the write-path check */
    char *rb;                  /* reply buffer */
    size_t rlen, rcap, rpos;
    char *q;                   /* request text */
    size_t qlen, qcap;
    char host[128], port[16];
    char why[400];             /* the failure that ended the connection, repeated after it */
};

static int grow(char **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    char *n = realloc(*p, c);
    if (!n)
        return -1;
    *p = n;
    *cap = c;
    return 0;
}

static int qprintf(struct jt *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int qprintf(struct jt *j, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(j->q + j->qlen, j->qcap - j->qlen, fmt, ap);
        va_end(ap);
        if (k < 0)
            return -1;
        if ((size_t)k < j->qcap - j->qlen) {
            j->qlen += (size_t)k;
            return 0;
        }
        if (grow(&j->q, &j->qcap, j->qlen + (size_t)k + 1))
            return -1;
    }
}

/* The next reply line (NUL-terminated, without '\n'), or NULL: *why -1 closed, -2 timed out. */
static char *get_line(struct jt *j, uint64_t deadline, int *why)
{
    for (;;) {
        char *nl = memchr(j->rb + j->rpos, '\n', j->rlen - j->rpos);
        if (nl) {
            char *line = j->rb + j->rpos;
            *nl = 0;
            if (nl > line && nl[-1] == '\r')
                nl[-1] = 0;
            j->rpos = (size_t)(nl - j->rb) + 1;
            return line;
        }
        if (j->rpos) {
            memmove(j->rb, j->rb + j->rpos, j->rlen - j->rpos);
            j->rlen -= j->rpos;
            j->rpos = 0;
        }
        if (grow(&j->rb, &j->rcap, j->rlen + 65536)) {
            *why = -1;
            return NULL;
        }
        int w = kh_fd_wait(j->fd, POLLIN, deadline);
        if (w) {
            *why = w;
            return NULL;
        }
        ssize_t k = recv(j->fd, j->rb + j->rlen, j->rcap - j->rlen, MSG_DONTWAIT);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k <= 0) {
            *why = -1;
            return NULL;
        }
        j->rlen += (size_t)k;
    }
}

/* ---- Hex in Vivado's order: a block's bytes b0..bn-1 as the number bn-1..b0 ---- */

static const char hexd[] = "0123456789abcdef";

static int put_hex_block(struct jt *j, const uint8_t *p, size_t n)
{
    if (grow(&j->q, &j->qcap, j->qlen + 2 * n + 2))
        return -1;
    char *o = j->q + j->qlen;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = p[n - 1 - i];
        *o++ = hexd[b >> 4];
        *o++ = hexd[b & 15];
    }
    j->qlen += 2 * n;
    return 0;
}

static int hexv(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
           c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* One beat's hex word (Vivado order, '_' allowed) into size bytes little-endian; -1 malformed. */
static int get_beat(const char *s, size_t len, uint8_t *out, unsigned size)
{
    unsigned nd = 0;
    memset(out, 0, size);
    for (size_t i = len; i-- > 0;) {
        if (s[i] == '_')
            continue;
        int v = hexv(s[i]);
        if (v < 0 || nd >= 2 * size)
            return -1;
        out[nd / 2] |= (uint8_t)(v << (4 * (nd & 1)));
        nd++;
    }
    return nd == 2 * size ? 0 : -1;
}

/* ---- Ops: an access as the server's lines ---- */

/* One op of the request, remembered to route its reply line. */
struct jop { unsigned acc; uint8_t *dst; unsigned size, beats; };

struct jreq {
    struct jop *op;
    unsigned n, cap;
};

static int add_op(struct jreq *r, unsigned acc, uint8_t *dst, unsigned size, unsigned beats)
{
    if (r->n == r->cap) {
        unsigned c = r->cap ? 2 * r->cap : 256;
        struct jop *o = realloc(r->op, c * sizeof *o);
        if (!o)
            return -1;
        r->op = o;
        r->cap = c;
    }
    r->op[r->n++] = (struct jop){ acc, dst, size, beats };
    return 0;
}

/* The ops of one access: size-4 beats for an edge not on the master's beat, full beats in
 * bursts of at most j->burst (writes) or single-beat reads. */
static int ops_for(struct jt *j, struct jreq *r, unsigned ai, const struct kh_access *a)
{
    uint64_t addr = a->addr;
    size_t len = a->len;
    const uint8_t *w = a->wdata;
    uint8_t *d = a->rdata;
    while (len) {
        unsigned size = j->beat;
        size_t beats;
        if (addr % j->beat || len < j->beat) {
            size = 4;           /* a sub-width transaction: one 32-bit beat */
            beats = 1;
        } else {
            beats = len / j->beat;
            if (a->op == KH_ACC_WRITE && beats > j->burst)
                beats = j->burst;
            if (a->op == KH_ACC_READ && beats > 256)
                beats = 256;
        }
        size_t n = (size_t)size * beats;
        if (a->op == KH_ACC_WRITE) {
            if (qprintf(j, "W %llx %u ", (unsigned long long)addr, size) || put_hex_block(j, w, n) ||
                qprintf(j, "\n") || add_op(r, ai, NULL, size, (unsigned)beats))
                return -1;
            w += n;
        } else {
            if (qprintf(j, "R %llx %u %zu\n", (unsigned long long)addr, size, beats) ||
                add_op(r, ai, d, size, (unsigned)beats))
                return -1;
            d += n;
        }
        addr += n;
        len -= n;
    }
    return 0;
}

static void describe(const struct kh_access *a, char *buf, size_t len)
{
    if (a->op == KH_ACC_HELLO)
        snprintf(buf, len, "the hello");
    else
        snprintf(buf, len, "a %s of %u bytes at 0x%llx", a->op == KH_ACC_READ ? "read" : "write",
                 a->len, (unsigned long long)a->addr);
}

/* Sends the request text in j->q (ops r) and routes the reply. */
static int exchange(struct kh_link *l, struct jreq *r, const struct kh_access *a, uint64_t deadline,
                    unsigned ms, struct kh_link_stats *st, char *hello, size_t hlen, char *err, size_t errlen)
{
    struct jt *j = l->ctx;
    char what[96];
    int why = 0;
    describe(&a[r->n ? r->op[0].acc : 0], what, sizeof what);
    st->round_trips++;
    int w = kh_fd_write(j->fd, j->q, j->qlen, deadline);
    char *line = w ? NULL : get_line(j, deadline, &why);
    if (w)
        why = w;
    if (!line) {
        j->dead = true;
        if (why == -2)
            snprintf(err, errlen, "%s: no reply within %u ms to round trip %llu (%u transactions, "
                     "from %s): Vivado is busy or frozen, the server stopped serving, or the "
                     "JTAG-AXI master is wedged with run_hw_axi waiting", l->name, ms,
                     (unsigned long long)st->round_trips, r->n, what);
        else
            snprintf(err, errlen, "%s: the server closed the connection during round trip %llu "
                     "(%u transactions, from %s): the Vivado session or the server script "
                     "stopped; some of these transactions may have run", l->name,
                     (unsigned long long)st->round_trips, r->n, what);
        return why == -2 ? KH_E_TIMEOUT : KH_E_IO;
    }
    char tag[8], status[8];
    unsigned long seq = 0;
    int at = 0;
    if (sscanf(line, "%7s %lu %7s %n", tag, &seq, status, &at) < 3 || strcmp(tag, "KJ1")) {
        j->dead = true;
        snprintf(err, errlen, "%s: `%.60s` is not a kohaku-jtag reply (is something else listening "
                 "on that port?)", l->name, line);
        return KH_E_PROTO;
    }
    if (!strcmp(status, "BUSY")) {
        j->dead = true;
        snprintf(err, errlen, "%s: the server refused the connection: %s", l->name, line + at);
        return KH_E_IO;
    }
    if (seq != j->seq) {
        j->dead = true;
        snprintf(err, errlen, "%s: reply to request %lu while waiting for %u: out of step", l->name,
                 seq, j->seq);
        return KH_E_PROTO;
    }
    if (!strcmp(status, "ERR")) {
        unsigned long oi = 0;
        int at2 = 0;
        sscanf(line + at, "%lu %n", &oi, &at2);
        const char *msg = line + at + at2;
        if (oi < r->n)
            describe(&a[r->op[oi].acc], what, sizeof what);
        snprintf(err, errlen, "%s: the AXI transaction for %s failed: %s. A burst past the "
                 "JTAG-AXI master's FIFO wedges it and every later transaction fails: run "
                 "`reset_hw_axi [get_hw_axis]` in Vivado (or reprogram the FPGA), then use a "
                 "shorter burst (link option burst=N, now %u beats)", l->name, what, msg, j->burst);
        return KH_E_PORT;
    }
    unsigned long nl = 0;
    if (strcmp(status, "OK") || sscanf(line + at, "%lu", &nl) != 1) {
        j->dead = true;
        snprintf(err, errlen, "%s: malformed reply header `%.60s`", l->name, line);
        return KH_E_PROTO;
    }
    unsigned want = 0;
    for (unsigned i = 0; i < r->n; i++)
        want += r->op[i].size == 0 || r->op[i].dst != NULL;
    if (nl != want) {
        j->dead = true;
        snprintf(err, errlen, "%s: reply has %lu lines, the request asked for %u", l->name, nl, want);
        return KH_E_PROTO;
    }
    for (unsigned i = 0; i < r->n; i++) {
        struct jop *o = &r->op[i];
        if (o->size != 0 && !o->dst)
            continue;           /* a write: no line */
        line = get_line(j, deadline, &why);
        if (!line) {
            j->dead = true;
            snprintf(err, errlen, "%s: the reply to round trip %llu stopped after a header (%s)", l->name,
                     (unsigned long long)st->round_trips, why == -2 ? "timed out" : "connection closed");
            return why == -2 ? KH_E_TIMEOUT : KH_E_IO;
        }
        if (o->size == 0) {     /* hello */
            snprintf(hello, hlen, "%s", line);
            continue;
        }
        const char *p = line;
        for (unsigned b = 0; b < o->beats; b++) {
            while (*p == ' ')
                p++;
            size_t k = strcspn(p, " ");
            if (get_beat(p, k, o->dst + (size_t)b * o->size, o->size)) {
                j->dead = true;
                describe(&a[o->acc], what, sizeof what);
                snprintf(err, errlen, "%s: the data of %s is not %u hex words of %u bytes: `%.40s`",
                         l->name, what, o->beats, o->size, line);
                return KH_E_PROTO;
            }
            p += k;
        }
        st->bytes_in += (uint64_t)o->size * o->beats;
    }
    return KH_OK;
}

static int jt_run(struct kh_link *l, const struct kh_access *a, unsigned n, uint64_t deadline,
                  struct kh_link_stats *st, char *err, size_t errlen)
{
    struct jt *j = l->ctx;
    unsigned ms = l->timeout_ms;
    if (j->dead) {
        snprintf(err, errlen, "the connection was lost after an earlier failure: %s", j->why);
        return KH_E_IO;
    }
    struct jreq r = { 0 };
    int rc = KH_OK;
    unsigned i = 0;
    while (i < n && rc == KH_OK) {
        /* One request: as many accesses as the server takes ops. */
        j->qlen = 0;
        j->seq++;
        r.n = 0;
        size_t hdr = 0;
        if (qprintf(j, "KJ1 %u %*s\n", j->seq, 10, "")) {
            rc = KH_E_IO;
            break;
        }
        hdr = j->qlen;
        unsigned first = i;
        for (; i < n; i++) {
            unsigned before_ops = r.n;
            size_t before_len = j->qlen;
            int e;
            if (a[i].op == KH_ACC_HELLO) {
                /* The link's own handshake (at open) stands for the host port's HELLO. */
                kh_le_put(a[i].rdata, 8, KHP_MAGIC | (uint64_t)KHP_VERSION << 32);
                continue;
            }
            e = ops_for(j, &r, i, &a[i]);
            if (e) {
                rc = KH_E_IO;
                snprintf(err, errlen, "out of memory");
                break;
            }
            if (r.n > j->max_ops && i > first) {
                r.n = before_ops;       /* this access goes in the next request */
                j->qlen = before_len;
                break;
            }
            if (a[i].op == KH_ACC_WRITE)
                st->bytes_out += a[i].len;
        }
        if (rc)
            break;
        if (r.n == 0)
            continue;
        /* The op count, now known, in the header's reserved field. */
        char cnt[16];
        snprintf(cnt, sizeof cnt, "%10u", r.n);
        memcpy(j->q + hdr - 11, cnt, 10);
        char hello[8];
        rc = exchange(l, &r, a, deadline, ms, st, hello, sizeof hello, err, errlen);
    }
    free(r.op);
    if (rc && j->dead)
        snprintf(j->why, sizeof j->why, "%s", err);
    return rc;
}

static void jt_close(struct kh_link *l)
{
    struct jt *j = l->ctx;
    if (!j)
        return;
    close(j->fd);
    free(j->rb);
    free(j->q);
    free(j);
    l->ctx = NULL;
}

static const struct kh_link_ops jt_ops = { jt_run, jt_close };

/* TCP connect bounded by the deadline. */
static int tcp_connect(struct jt *j, const char *spec, uint64_t deadline, char *err, size_t errlen)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
    int e = getaddrinfo(j->host, j->port, &hints, &res);
    if (e) {
        snprintf(err, errlen, "%s: cannot resolve %s: %s", spec, j->host, gai_strerror(e));
        return KH_E_IO;
    }
    int last = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0) {
            last = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
            (errno == EINPROGRESS && kh_fd_wait(fd, POLLOUT, deadline) == 0)) {
            int so = 0;
            socklen_t sl = sizeof so;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl);
            if (so == 0) {
                j->fd = fd;
                freeaddrinfo(res);
                return KH_OK;
            }
            last = so;
        } else {
            last = errno == EINPROGRESS ? ETIMEDOUT : errno;
        }
        close(fd);
    }
    freeaddrinfo(res);
    snprintf(err, errlen, "%s: no JTAG server at %s:%s (%s): in Vivado's hardware manager open the "
             "target, then `source host/kohaku-jtag.tcl; kj::serve %s` (README \"Flash a node\")",
             spec, j->host, j->port, strerror(last), j->port);
    return KH_E_IO;
}

/* Writes a pattern at the scratch address and reads it back in one round trip: write data
 * that lags its address (the master's write channel holding stale beats after a wedge) would
 * otherwise put every later write in the wrong place while reporting success. */
static int verify_write_path(struct kh_link *l, uint64_t deadline, struct kh_link_stats *st,
                             char *err, size_t errlen)
{
    struct jt *j = l->ctx;
    unsigned n = JT_PROBE_BEATS * j->beat;
    uint8_t want[JT_PROBE_BEATS * 8], got[JT_PROBE_BEATS * 8];
    for (unsigned i = 0; i < n; i++)
        want[i] = (uint8_t)(0xA5 ^ (i * 7 + (i / j->beat) * 0x31));
    struct kh_access acc[2] = {
        { .op = KH_ACC_WRITE, .len = n, .addr = j->scratch, .wdata = want },
        { .op = KH_ACC_READ, .len = n, .addr = j->scratch, .rdata = got },
    };
    int rc = jt_run(l, acc, 2, deadline, st, err, errlen);
    if (rc)
        return rc;
    if (!memcmp(want, got, n))
        return KH_OK;
    for (unsigned d = 1; d <= JT_MAX_LAG && d < JT_PROBE_BEATS; d++)
        if (!memcmp(got + d * j->beat, want, n - d * j->beat)) {
            snprintf(err, errlen, "%s: the write path is skewed: write data lags the write address "
                     "by %u beat%s (checked at 0x%llx), so every write would land in the wrong "
                     "place while reporting success. This follows a wedge: reprogram the FPGA (or "
                     "reset the JTAG-AXI master) and connect again", l->name, d, d == 1 ? "" : "s",
                     (unsigned long long)j->scratch);
            return KH_E_IO;
        }
    unsigned i = 0;
    while (want[i] == got[i])
        i++;
    snprintf(err, errlen, "%s: the write-path check at 0x%llx read back 0x%02x at byte %u, wrote "
             "0x%02x: is memory at that address (link option scratch=UG moves the check)?",
             l->name, (unsigned long long)j->scratch, got[i], i, want[i]);
    return KH_E_IO;
}

int kh_link_jtag(const char *spec, const char *rest, unsigned timeout_ms, struct kh_link *l,
                 char *err, size_t errlen)
{
    struct jt *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return KH_E_IO;
    }
    j->fd = -1;
    j->scratch = KHP_MEM(0, JT_DEF_SCRATCH);
    unsigned burst = 0;
    /* HOST:PORT[,burst=N][,scratch=UG]; HOST may be [v6]. */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", rest);
    char *opts = strchr(buf, ',');
    if (opts)
        *opts++ = 0;
    char *colon = strrchr(buf, ':');
    if (!colon || colon == buf || !colon[1] || strlen(colon + 1) >= sizeof j->port) {
        snprintf(err, errlen, "%s: want jtag:HOST:PORT[,burst=N][,scratch=UG]", spec);
        free(j);
        return KH_E_INPUT;
    }
    *colon = 0;
    snprintf(j->port, sizeof j->port, "%s", colon + 1);
    char *h = buf;
    if (*h == '[' && h[strlen(h) - 1] == ']') {
        h[strlen(h) - 1] = 0;
        h++;
    }
    if (strlen(h) >= sizeof j->host) {
        snprintf(err, errlen, "%s: host name too long", spec);
        free(j);
        return KH_E_INPUT;
    }
    memcpy(j->host, h, strlen(h) + 1);
    for (char *o = opts, *save = NULL; o && (o = strtok_r(o, ",", &save)); o = NULL) {
        uint64_t v;
        char *eq = strchr(o, '=');
        if (!eq || kh_parse_u64(eq + 1, &v)) {
            snprintf(err, errlen, "%s: option `%s` is not NAME=NUMBER", spec, o);
            free(j);
            return KH_E_INPUT;
        }
        *eq = 0;
        if (!strcmp(o, "burst") && v >= 1 && v <= 256)
            burst = (unsigned)v;
        else if (!strcmp(o, "scratch") && v <= KF_UG_MASK_HP - 128 && v % 8 == 0)
            j->scratch = KHP_MEM(0, v);
        else {
            snprintf(err, errlen, "%s: unknown option or value out of range: %s (burst=1..256, "
                     "scratch=8-aligned unit-global address)", spec, o);
            free(j);
            return KH_E_INPUT;
        }
    }
    memset(l, 0, sizeof *l);
    l->ops = &jt_ops;
    l->ctx = j;
    l->timeout_ms = timeout_ms;
    snprintf(l->name, sizeof l->name, "%s", spec);
    uint64_t deadline = kh_ms_now() + timeout_ms;
    int rc = tcp_connect(j, spec, deadline, err, errlen);
    if (rc) {
        free(j);
        l->ctx = NULL;
        return rc;
    }
    /* Hello: the server's beat, burst and op limits. */
    struct kh_link_stats st = { 0 };
    j->beat = 8;
    j->burst = 1;
    j->max_ops = 1;
    j->seq++;
    j->qlen = 0;
    struct jreq r = { 0 };
    char hello[160] = "";
    struct kh_access ha = { .op = KH_ACC_HELLO };
    if (qprintf(j, "KJ1 %u 1\nH\n", j->seq) || add_op(&r, 0, NULL, 0, 0))
        rc = KH_E_IO;
    else
        rc = exchange(l, &r, &ha, deadline, timeout_ms, &st, hello, sizeof hello, err, errlen);
    free(r.op);
    unsigned ver = 0, beat = 0, maxb = 0, maxops = 0;
    if (!rc && (sscanf(hello, "kohaku-jtag %u %u %u %u", &ver, &beat, &maxb, &maxops) != 4 || ver != 1 ||
                (beat != 4 && beat != 8) || maxb == 0 || maxops < 16)) {
        snprintf(err, errlen, "%s: the server's hello `%.80s` is not kohaku-jtag version 1 with a "
                 "32- or 64-bit master", spec, hello);
        rc = KH_E_PROTO;
    }
    if (rc) {
        jt_close(l);
        return rc;
    }
    j->beat = beat;
    j->burst = burst ? burst : maxb;
    j->max_ops = maxops;
    l->lim = (struct kh_link_limits){ .align = 4, .max_block = 1u << 20, .max_batch = KH_BATCH_MAX,
                                      .max_batch_bytes = 64u << 10 };
    rc = verify_write_path(l, deadline, &st, err, errlen);
    st.accesses += 3;       /* hello, the check's write and read */
    l->opened = st;
    if (rc)
        jt_close(l);
    return rc;
}
