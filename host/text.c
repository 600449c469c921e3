/* text.c — kactl's text forms (docs/host-interface.md "Text forms"): unit coordinates, NPU/CU
 * programs (one 256-bit payload per line), hex byte strings and RUN step lists. The descriptor
 * list text form is mover/desc_text.c's, reused as is. Pure C, no I/O except reading nothing:
 * callers hand in the text. */
#include <stdio.h>
#include <string.h>

#include "libkohaku.h"

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Number in C syntax from [p, end): 0x hex or decimal, no sign. Advances *pp. */
static int number(const char **pp, const char *end, uint64_t *v)
{
    const char *p = *pp;
    uint64_t a = 0;
    int d = 0;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        for (int h; p < end && (h = hexval(*p)) >= 0; p++, d++) {
            if (a >> 60)
                return -1;
            a = a << 4 | (uint64_t)h;
        }
    } else {
        for (; p < end && *p >= '0' && *p <= '9'; p++, d++) {
            unsigned dig = (unsigned)(*p - '0');
            if (a > (UINT64_MAX - dig) / 10)
                return -1;
            a = a * 10 + dig;
        }
    }
    if (!d)
        return -1;
    *pp = p;
    *v = a;
    return 0;
}

int kh_parse_u64(const char *s, uint64_t *v)
{
    const char *end = s + strlen(s);
    return number(&s, end, v) == 0 && s == end ? 0 : -1;
}

static int target_span(const char *p, const char *end, uint8_t *yx)
{
    uint64_t x, y;
    if (number(&p, end, &x) || p == end || *p != ',')
        return -1;
    p++;
    if (number(&p, end, &y) || p != end || x > 15 || y > 15)
        return -1;
    *yx = (uint8_t)(y << 4 | x);
    return 0;
}

int kh_parse_target(const char *s, uint8_t *yx)
{
    return target_span(s, s + strlen(s), yx);
}

int kh_parse_hex_bytes(const char *s, uint8_t *out, size_t max, size_t *n)
{
    size_t len = strlen(s);
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, len -= 2;
    if (len == 0 || len % 2)
        return -1;
    for (size_t i = 0; i < len; i += 2) {
        int h = hexval(s[i]), l = hexval(s[i + 1]);
        if (h < 0 || l < 0 || *n >= max)
            return -1;
        out[(*n)++] = (uint8_t)(h << 4 | l);
    }
    return 0;
}

static int err_at(struct kh_text_err *e, unsigned line, const char *ls, const char *at, const char *why)
{
    e->line = line;
    e->col = (unsigned)(at - ls) + 1;
    snprintf(e->why, sizeof e->why, "%s", why);
    return KH_E_INPUT;
}

/* Splits text into lines with comments and surrounding blanks removed; calls fn per non-empty
 * line. Returns fn's first failure. */
typedef int (*line_fn)(void *ctx, unsigned line, const char *ls, const char *p, const char *end);
static int each_line(const char *text, size_t len, line_fn fn, void *ctx, struct kh_text_err *e)
{
    const char *p = text, *end = text + len;
    /* Bytes that are not text (a NUL first of all) are a syntax error at their position, never
     * the end of the file: a NUL used to truncate the text silently. */
    int rc = kh_text_check(text, len, e);
    if (rc)
        return rc;
    unsigned line = 0;
    while (p < end) {
        const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p));
        if (!le)
            le = end;
        line++;
        const char *ce = memchr(ls, '#', (size_t)(le - ls));
        if (!ce)
            ce = le;
        const char *b = ls;
        while (b < ce && blank(*b))
            b++;
        while (ce > b && blank(ce[-1]))
            ce--;
        if (b < ce) {
            rc = fn(ctx, line, ls, b, ce);
            if (rc)
                return rc;
        }
        p = le < end ? le + 1 : end;
    }
    return 0;
}

/* ---- Programs ---- */

struct prog_ctx { uint64_t (*out)[4]; uint32_t max, n; struct kh_text_err *e; };

static int prog_line(void *vc, unsigned line, const char *ls, const char *p, const char *end)
{
    struct prog_ctx *c = vc;
    const char *tok[5];
    const char *tend[5];
    unsigned nt = 0;
    while (p < end) {
        if (nt == 5)
            return err_at(c->e, line, ls, p, "more than four words on the line");
        tok[nt] = p;
        while (p < end && !blank(*p))
            p++;
        tend[nt++] = p;
        while (p < end && blank(*p))
            p++;
    }
    if (c->n == c->max) {
        char why[96];
        snprintf(why, sizeof why, "more than %u payloads: a DISPATCH takes at most %u (KQ_MAX_PROG)",
                 c->max, KQ_MAX_PROG);
        return err_at(c->e, line, ls, tok[0], why);
    }
    uint64_t *w = c->out[c->n];
    if (nt == 1) {
        /* One 256-bit number: 64 hex digits, most significant first, optional 0x. */
        const char *s = tok[0];
        if (tend[0] - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            s += 2;
        if (tend[0] - s != 64)
            return err_at(c->e, line, ls, tok[0], "a one-word payload must be exactly 64 hex digits "
                          "(or give four 64-bit words w0 w1 w2 w3)");
        for (unsigned k = 0; k < 4; k++) {
            uint64_t v = 0;
            for (unsigned i = 0; i < 16; i++) {
                int h = hexval(s[16 * k + i]);
                if (h < 0)
                    return err_at(c->e, line, ls, s + 16 * k + i, "not a hex digit");
                v = v << 4 | (uint64_t)h;
            }
            w[3 - k] = v;
        }
    } else if (nt == 4) {
        for (unsigned k = 0; k < 4; k++) {
            const char *q = tok[k];
            if (number(&q, tend[k], &w[k]) || q != tend[k])
                return err_at(c->e, line, ls, tok[k], "expected a 64-bit number (0x.. or decimal)");
        }
    } else {
        return err_at(c->e, line, ls, tok[0], "expected four 64-bit words w0 w1 w2 w3 or one "
                      "64-hex-digit payload");
    }
    c->n++;
    return 0;
}

int kh_parse_program(const char *text, size_t len, uint64_t (*out)[4], uint32_t max, uint32_t *n,
                     struct kh_text_err *e)
{
    struct prog_ctx c = { out, max, 0, e };
    memset(e, 0, sizeof *e);
    int rc = each_line(text, len, prog_line, &c, e);
    *n = c.n;
    if (!rc && c.n == 0) {
        snprintf(e->why, sizeof e->why, "the program has no payload line (one 256-bit payload per line; blank lines and # comments do not count)");
        return KH_E_INPUT;
    }
    return rc;
}

/* ---- Step lists ---- */

struct step_ctx { const char *dir; struct kh_step_src *out; uint32_t max, n; struct kh_text_err *e; };

/* Next blank-separated token of [*pp, end); NULL at the end. */
static const char *token(const char **pp, const char *end, const char **tend)
{
    const char *p = *pp;
    while (p < end && blank(*p))
        p++;
    if (p == end)
        return NULL;
    const char *s = p;
    while (p < end && !blank(*p))
        p++;
    *tend = p;
    *pp = p;
    return s;
}

static int tok_is(const char *s, const char *e, const char *word)
{
    return (size_t)(e - s) == strlen(word) && memcmp(s, word, (size_t)(e - s)) == 0;
}

static int step_line(void *vc, unsigned line, const char *ls, const char *p, const char *end)
{
    struct step_ctx *c = vc;
    const char *te, *t = token(&p, end, &te);
    if (c->n == c->max) {
        char why[96];
        snprintf(why, sizeof why, "more than %u steps: a RUN takes at most %u (KQ_MAX_STEPS)", c->max,
                 KQ_MAX_STEPS);
        return err_at(c->e, line, ls, t, why);
    }
    struct kh_step_src *s = &c->out[c->n];
    memset(s, 0, sizeof *s);
    const char *a, *ae;
    uint64_t v;
    if (tok_is(t, te, "dispatch")) {
        s->step.op = KQ_STEP_DISPATCH;
        if (!(a = token(&p, end, &ae)) || target_span(a, ae, &s->step.target))
            return err_at(c->e, line, ls, a ? a : end, "dispatch: expected a target X,Y");
        goto file;
    } else if (tok_is(t, te, "replay")) {
        s->step.op = KQ_STEP_REPLAY;
        /* `replay @H`: a list the firmware holds (a REPLAY_H step, docs/host-interface.md
         * "Records"); else a descriptor list file */
        const char *q = p;
        if ((a = token(&q, end, &ae)) && *a == '@') {
            a++;
            if (number(&a, ae, &v) || a != ae || v == 0 || v > UINT32_MAX)
                return err_at(c->e, line, ls, a, "replay @H: expected a handle (a number, not 0)");
            s->step.op = KQ_STEP_REPLAY_H;
            s->step.addr = v;
            p = q;
            goto done;
        }
        goto file;
    } else if (tok_is(t, te, "wait")) {
        s->step.op = KQ_STEP_WAIT;
        if (!(a = token(&p, end, &ae)) || target_span(a, ae, &s->step.target))
            return err_at(c->e, line, ls, a ? a : end, "wait: expected a target X,Y");
        if (!(a = token(&p, end, &ae)) || number(&a, ae, &v) || a != ae || v == 0 || v > UINT32_MAX)
            return err_at(c->e, line, ls, a ? a : end, "wait: expected a count of programs N >= 1");
        s->step.n = (uint32_t)v;
    } else if (tok_is(t, te, "barrier")) {
        s->step.op = KQ_STEP_BARRIER;
    } else if (tok_is(t, te, "signal")) {
        s->step.op = KQ_STEP_SIGNAL;
        if (!(a = token(&p, end, &ae)) || number(&a, ae, &v) || a != ae)
            return err_at(c->e, line, ls, a ? a : end, "signal: expected a value");
        s->step.addr = v;
    } else {
        return err_at(c->e, line, ls, t, "unknown step (dispatch, replay, wait, barrier, signal)");
    }
    goto done;
file:
    if (!(a = token(&p, end, &ae)))
        return err_at(c->e, line, ls, end, "expected a file name");
    {
        size_t fl = (size_t)(ae - a), dl = (a[0] == '/' || !c->dir) ? 0 : strlen(c->dir);
        if (dl + 1 + fl >= sizeof s->file)
            return err_at(c->e, line, ls, a, "file name too long");
        if (dl)
            snprintf(s->file, sizeof s->file, "%s/%.*s", c->dir, (int)fl, a);
        else
            snprintf(s->file, sizeof s->file, "%.*s", (int)fl, a);
    }
    /* Options of dispatch: txn N, credit N. */
    while ((a = token(&p, end, &ae))) {
        if (s->step.op != KQ_STEP_DISPATCH)
            return err_at(c->e, line, ls, a, "unexpected text after the file name");
        int is_txn = tok_is(a, ae, "txn"), is_cred = tok_is(a, ae, "credit");
        if (!is_txn && !is_cred)
            return err_at(c->e, line, ls, a, "dispatch: expected `txn N` or `credit N`");
        const char *b, *be;
        if (!(b = token(&p, end, &be)) || number(&b, be, &v) || b != be || v > (is_txn ? 255u : 65535u))
            return err_at(c->e, line, ls, b ? b : end, is_txn ? "txn: expected 0..255" : "credit: expected 0..65535");
        if (is_txn)
            s->step.txn = (uint8_t)v;
        else
            s->step.credit_cap = (uint16_t)v;
    }
done:
    if (token(&p, end, &ae))
        return err_at(c->e, line, ls, p, "unexpected text at the end of the step");
    s->line = line;
    c->n++;
    return 0;
}

int kh_parse_steps(const char *text, size_t len, const char *dir, struct kh_step_src *out,
                   uint32_t max, uint32_t *n, struct kh_text_err *e)
{
    struct step_ctx c = { dir, out, max, 0, e };
    memset(e, 0, sizeof *e);
    int rc = each_line(text, len, step_line, &c, e);
    *n = c.n;
    if (!rc && c.n == 0) {
        snprintf(e->why, sizeof e->why, "the step list is empty");
        return KH_E_INPUT;
    }
    return rc;
}
