/* mkbootblock.c — host tool: writes a boot block file (include/kohaku/bootblock.h) for
 * QEMU's bootblock= property. Defaults give a good block; options break one field at a time
 * so tests can show the firmware refusing each.
 *   mkbootblock -o FILE [--magic N] [--version N] [--size N] [--flags N] [--wait N]
 *                       [--queue N] [--units N] [--depth N] [--dup]
 * --units N writes N entries (yx = 0x20, 0x21, ...: never (0,0) nor the agent's 0x10; type 1, version 1, 2 buffers) and sets
 * KX_BOOT_F_UNITS; --depth sets every entry's inst_depth (default 16); --dup repeats the
 * first coordinate in the last entry. Numbers take C syntax (0x..). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kohaku/bootblock.h"

static unsigned long long num(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "mkbootblock: bad number '%s'\n", s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    struct kx_bootblock bb;
    const char *out = NULL;
    long long size = -1, flags = -1;
    unsigned units = 0, depth = 16;
    int dup = 0;

    memset(&bb, 0, sizeof bb);
    bb.magic = KX_BOOT_MAGIC;
    bb.version = KX_BOOT_VERSION;
    bb.wait_cycles = 1000000u;
    bb.queue_addr = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--dup")) { dup = 1; continue; }
        if (!has) { fprintf(stderr, "mkbootblock: %s needs a value\n", a); return 2; }
        const char *v = argv[++i];
        if (!strcmp(a, "-o")) out = v;
        else if (!strcmp(a, "--magic")) bb.magic = (uint32_t)num(v);
        else if (!strcmp(a, "--version")) bb.version = (uint16_t)num(v);
        else if (!strcmp(a, "--size")) size = (long long)num(v);
        else if (!strcmp(a, "--flags")) flags = (long long)num(v);
        else if (!strcmp(a, "--wait")) bb.wait_cycles = (uint32_t)num(v);
        else if (!strcmp(a, "--queue")) bb.queue_addr = num(v);
        else if (!strcmp(a, "--units")) units = (unsigned)num(v);
        else if (!strcmp(a, "--depth")) depth = (unsigned)num(v);
        else { fprintf(stderr, "mkbootblock: unknown option %s\n", a); return 2; }
    }
    if (!out || units > KX_BOOT_MAX_UNITS) {
        fprintf(stderr, "mkbootblock: need -o FILE and --units <= %u\n", KX_BOOT_MAX_UNITS);
        return 2;
    }
    bb.unit_count = (uint16_t)units;
    for (unsigned i = 0; i < units; i++) {
        bb.units[i].yx = (uint8_t)(0x20 + i);
        bb.units[i].version = 1;
        bb.units[i].buffers = 2;
        bb.units[i].type = 1;
        bb.units[i].inst_depth = (uint16_t)depth;
    }
    if (dup && units >= 2)
        bb.units[units - 1].yx = bb.units[0].yx;
    bb.flags = flags >= 0 ? (uint32_t)flags : (units ? KX_BOOT_F_UNITS : 0);
    bb.size = (uint16_t)(size >= 0 ? (unsigned long long)size
                                   : KX_BOOT_HDR_BYTES + units * sizeof(struct kx_unit_entry));

    /* The file holds the header and the entries (at least the header), the bytes the host
     * would write; the firmware reads no further than size. */
    size_t n = KX_BOOT_HDR_BYTES + units * sizeof(struct kx_unit_entry);
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(&bb, 1, n, f) != n || fclose(f) != 0) {
        perror(out);
        return 1;
    }
    return 0;
}
