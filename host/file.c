/* file.c — libkohaku's one file reader, for the tools and tests that hand a whole file to the
 * ELF loader or the text-form parsers (docs/host-interface.md "Text forms"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "libkohaku.h"

char *kh_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1u << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb)
                free(buf);
            buf = nb;
            cap *= 2;
        }
    }
    int bad = !buf ? ENOMEM : ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (bad) {
        free(buf);
        errno = bad;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
