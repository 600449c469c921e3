/* desc_text.c — the descriptor list's text form (include/kohaku/desc_list.h, docs/mover.md):
 * one `offset value` write per line, `#` comments, blank lines. Pure C, no firmware headers
 * beyond the shared protocol ones, so kactl and the host tests build it unchanged. */
#include "kohaku/desc_list.h"
#include "kohaku/status.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads one unsigned number (0x.. hex or decimal) from *p, no sign, no suffix. Returns 0 and
 * advances *p, or -1 (overflow past 64 bits, no digits). Decimal is multiplied by shifts and
 * adds: the RV32 core has no divide and the firmware build bans libgcc's helpers for it. */
static int read_number(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    uint64_t acc = 0;
    int digits = 0;

    if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        for (int d; s < end && (d = hex_digit(*s)) >= 0; s++, digits++) {
            if (acc >> 60)
                return -1;
            acc = (acc << 4) | (uint64_t)d;
        }
    } else {
        for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
            uint64_t d = (uint64_t)(*s - '0');
            /* acc * 10 + d must stay below 2^64: acc <= (2^64 - 1 - d) / 10, checked without
             * a divide as acc <= 1844674407370955161 with the last digit at most 5. */
            if (acc > UINT64_C(1844674407370955161) ||
                (acc == UINT64_C(1844674407370955161) && d > 5))
                return -1;
            acc = (acc << 3) + (acc << 1) + d;
        }
    }
    if (digits == 0)
        return -1;
    *p = s;
    *v = acc;
    return 0;
}

static unsigned syntax(struct kd_text_err *err, uint32_t line, const char *lstart,
                       const char *at, const char *why)
{
    err->line = line;
    err->col = (uint32_t)(at - lstart) + 1u;
    err->why = why;
    return KS_TEXT_SYNTAX;
}

unsigned kd_text_parse(const char *text, size_t len, struct kd_write *out, uint32_t max,
                       uint32_t *n, struct kd_text_err *err)
{
    const char *p = text, *end = text + len;
    uint32_t line = 0, count = 0;

    err->line = 0;
    err->col = 0;
    err->why = 0;
    *n = 0;
    for (const char *q = text; q < end; q++) {
        if (*q == '\0') {
            end = q;
            break;
        }
    }

    while (p < end) {
        const char *lstart = p, *lend = p;
        uint64_t off, val;

        line++;
        while (lend < end && *lend != '\n')
            lend++;
        /* Strip the comment, then surrounding blanks. */
        const char *cend = lstart;
        while (cend < lend && *cend != '#')
            cend++;
        p = lstart;
        while (p < cend && is_blank(*p))
            p++;
        if (p == cend)
            goto next;

        if (read_number(&p, cend, &off) != 0)
            return syntax(err, line, lstart, p, "expected an offset (0x.. or decimal)");
        if (off > UINT32_MAX)
            return syntax(err, line, lstart, lstart, "offset does not fit 32 bits");
        if (p == cend || !is_blank(*p))
            return syntax(err, line, lstart, p, "expected a blank after the offset");
        while (p < cend && is_blank(*p))
            p++;
        const char *vstart = p;
        if (read_number(&p, cend, &val) != 0)
            return syntax(err, line, lstart, vstart, "expected a value (0x.. or decimal, < 2^64)");
        while (p < cend && is_blank(*p))
            p++;
        if (p != cend)
            return syntax(err, line, lstart, p, "unexpected text after the value");

        if (count == max) {
            err->line = line;
            err->col = 1;
            err->why = "more writes than the list may hold";
            return KS_LIST_TOO_LONG;
        }
        out[count++] = kd_make((uint32_t)off, val);
        *n = count;
next:
        p = lend < end ? lend + 1 : end;
    }
    return KS_OK;
}

size_t kd_text_format(const struct kd_write *w, char *buf)
{
    static const char hx[] = "0123456789abcdef";
    uint64_t v = kd_value(w);
    size_t k = 0;
    int od = 2;

    buf[k++] = '0';
    buf[k++] = 'x';
    /* Offsets print as two digits (0x18); a malformed one keeps all of its digits. */
    for (uint32_t o = w->off >> 8; o != 0; o >>= 4)
        od++;
    for (int i = od - 1; i >= 0; i--)
        buf[k++] = hx[(w->off >> (4 * i)) & 0xFu];
    buf[k++] = ' ';
    buf[k++] = '0';
    buf[k++] = 'x';
    for (int i = 15; i >= 0; i--)
        buf[k++] = hx[(v >> (4 * i)) & 0xFu];
    buf[k++] = '\n';
    buf[k] = '\0';
    return k;
}
