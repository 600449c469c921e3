/* fuzz_host.c — libFuzzer target over the host library's parsers of user-supplied files
 * (docs/design.md §7 layer 4): the ELF loader's parser, the program and step-list text forms, hex byte
 * strings and coordinates. Invariants checked beyond "no crash, no sanitizer report": an
 * accepted ELF's segments lie inside the file and inside one window of its class; a parsed
 * program or step list never reports more entries than asked for. The first input byte picks
 * the parser. Two modes embed NULs — one inserts a NUL at a position the input
 * chooses into text for the program and step parsers, which must refuse it at that byte (or at
 * an earlier byte that is not text), never read it as the end of the file; the other runs a
 * descriptor list through kactl's path (kh_text_check, kd_text_parse, kh_list_check), where an
 * accepted text has no NUL and a refused list names a write inside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/status.h"
#include "libkohaku.h"

static uint64_t prog[64][4];
static struct kh_step_src steps[16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned which = data[0] % 6;
    data++, size--;
    if (which == 0) {
        struct kh_elf e;
        char err[256];
        if (kh_elf_parse(data, size, &e, err, sizeof err) == KH_OK) {
            const struct kh_map *m = kh_map_for(e.variant);
            if (!m || e.nseg == 0 || e.nseg > KH_ELF_MAX_SEGS)
                abort();
            for (unsigned i = 0; i < e.nseg; i++) {
                const struct kh_segment *s = &e.seg[i];
                const struct kh_window *w = kh_map_window(m, s->window);
                if (s->data < data || s->filesz > size || s->data + s->filesz > data + size)
                    abort();
                if (s->window > KH_WIN_FWDRAM || s->filesz > s->memsz || s->addr < w->base ||
                    s->addr + s->memsz > w->base + w->bytes)
                    abort();
            }
        }
        return 0;
    }
    if (which == 4) {
        /* data[0..1]: where the NUL goes; the rest: the text around it. */
        if (size < 2)
            return 0;
        size_t at = ((size_t)data[0] | (size_t)data[1] << 8) % (size - 1);
        data += 2, size -= 2;
        char *t = malloc(size + 2);
        memcpy(t, data, at);
        t[at] = 0;
        memcpy(t + at + 1, data + at, size - at);
        t[size + 1] = 0;
        unsigned line = 1, col = 1, clean = 1;
        for (size_t i = 0; i < at; i++) {
            unsigned char c = (unsigned char)t[i];
            if (c == '\n')
                line++, col = 1;
            else
                col++;
            if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7E))
                clean = 0;
        }
        struct kh_text_err te;
        uint32_t tn;
        int rp = kh_parse_program(t, size + 1, prog, 64, &tn, &te);
        if (rp != KH_E_INPUT || te.line > line || (te.line == line && te.col > col) ||
            (clean && (te.line != line || te.col != col)))
            abort();
        int rs = kh_parse_steps(t, size + 1, "d", steps, 16, &tn, &te);
        if (rs != KH_E_INPUT || te.line > line || (te.line == line && te.col > col) ||
            (clean && (te.line != line || te.col != col)))
            abort();
        free(t);
        return 0;
    }
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    uint32_t n = 0;
    struct kh_text_err e;
    if (which == 5) {
        static struct kd_write w[KD_MAX_WRITES];
        struct kd_text_err de;
        char err[512];
        uint32_t bad = UINT32_MAX;
        if (kh_text_check(text, size, &e) == KH_OK) {
            if (memchr(text, 0, size))
                abort();
            if (kd_text_parse(text, size, w, KD_MAX_WRITES, &n, &de) == KS_OK && n > 0 &&
                kh_list_check(w, n, &bad, err, sizeof err) != KH_OK && bad >= n)
                abort();
        } else if (e.line == 0 || e.col == 0) {
            abort();
        }
        free(text);
        return 0;
    }
    if (which == 1) {
        if (kh_parse_program(text, size, prog, 64, &n, &e) == KH_OK && (n == 0 || n > 64))
            abort();
    } else if (which == 2) {
        if (kh_parse_steps(text, size, "d", steps, 16, &n, &e) == KH_OK && (n == 0 || n > 16))
            abort();
    } else {
        uint8_t b[64], yx;
        size_t nb = 0;
        if (kh_parse_hex_bytes(text, b, sizeof b, &nb) == 0 && nb > sizeof b)
            abort();
        if (kh_parse_target(text, &yx) == 0 && ((yx & 15) > 15 || (yx >> 4) > 15))
            abort();
        uint64_t v;
        (void)kh_parse_u64(text, &v);
    }
    free(text);
    return 0;
}
