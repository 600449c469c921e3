/* stackmark.c — the RV32 stack's measured high-water mark (docs/kvm.md
 * "Stack"), for tests/e2e/coldguard.sh: boots an image as `kactl boot` would (enumerated units,
 * the default queue), but paints the stack region of the scratchpad with a pattern after the
 * image is loaded and before the core is released; after a workload, reads the region back and
 * reports how deep the stack went (the lowest word that no longer holds the pattern).
 * Usage: stackmark SOCKET boot FW.elf LO HI     paint [LO, HI) (scratchpad addresses), boot;
 *                                               prints "ready", exit 0
 *        stackmark SOCKET measure LO HI          prints "high_water=<bytes below HI>", exit 0
 * exit 3 on a transport or boot failure, with the reason. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/cpu_map.h"
#include "kohaku/hostport.h"
#include "libkohaku.h"

#define PAINT 0x5A17C0DEu      /* no code address, no small number, no ASCII */

static struct kh_node node;

static int die(const char *what)
{
    printf("error: %s: %s\n", what, kh_error(&node));
    return 3;
}

int main(int argc, char **argv)
{
    struct kh_transport t;
    char err[KH_ERR_LEN];
    if (argc < 5)
        return fprintf(stderr, "usage: stackmark SOCKET boot FW.elf LO HI | SOCKET measure LO HI\n"), 2;
    int boot = !strcmp(argv[2], "boot");
    uint32_t lo = (uint32_t)strtoul(argv[boot ? 4 : 3], NULL, 0);
    uint32_t hi = (uint32_t)strtoul(argv[boot ? 5 : 4], NULL, 0);
    if (hi <= lo || lo < RV32_SPAD_BASE || hi > RV32_SPAD_BASE + RV32_SPAD_BYTES || (lo | hi) & 3u)
        return fprintf(stderr, "stackmark: [0x%x, 0x%x) is not a word range of the RV32 scratchpad\n", lo, hi), 2;
    if (kh_transport_unix(argv[1], &t, err, sizeof err) || kh_open(&node, &t))
        return printf("error: %s\n", err), 3;
    size_t n = (hi - lo) / 4u;
    uint32_t *w = malloc(n * 4u);
    if (!w)
        return 3;
    uint64_t at = KHP_SPAD_BASE + (lo - RV32_SPAD_BASE);
    if (boot) {
        size_t len = 0;
        const uint8_t *img = (const uint8_t *)kh_read_file(argv[3], &len);
        struct kh_elf e;
        if (!img || !len || kh_elf_parse(img, len, &e, err, sizeof err))
            return printf("error: %s: %s\n", argv[3], img && len ? err : "unreadable"), 3;
        struct kx_bootblock bb;
        struct kh_queue q;
        kh_bootblock_make(&bb, KH_DEF_QUEUE_UG, KH_DEF_WAIT_CYCLES, NULL, 0);
        for (size_t i = 0; i < n; i++)
            w[i] = PAINT;
        if (kh_core_hold(&node, true) || kh_load_elf(&node, &e) || kh_bytes_write(&node, at, w, n * 4u) ||
            kh_bootblock_write(&node, &bb) || kh_queue_create(&node, &q, KH_DEF_QUEUE_UG, 256, 256) ||
            kh_core_hold(&node, false) || kh_wait_ready(&node, &q))
            return die("boot");
        printf("ready\n");
        return 0;
    }
    if (kh_bytes_read(&node, at, w, n * 4u))
        return die("reading the stack");
    size_t i = 0;
    while (i < n && w[i] == PAINT)
        i++;
    printf("high_water=%zu\n", (n - i) * 4u);
    return 0;
}
