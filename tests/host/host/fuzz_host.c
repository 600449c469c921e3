/* fuzz_host.c — libFuzzer target over the host library's parsers of user-supplied files
 * (docs/design.md §7 layer 4): the ELF loader's parser, the program and step-list text forms, hex byte
 * strings and coordinates. Invariants checked beyond "no crash, no sanitizer report": an
 * accepted ELF's segments lie inside the file and inside one window of its class; a parsed
 * program or step list never reports more entries than asked for. The first input byte picks
 * the parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkohaku.h"

static uint64_t prog[64][4];
static struct kh_step_src steps[16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned which = data[0] % 4;
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
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    uint32_t n = 0;
    struct kh_text_err e;
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
