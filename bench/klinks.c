/* klinks.c — the link cost figures (docs/bench.md "Links"): one REPLAY command of a
 * descriptor list through a link, the way kactl runs it (posted writes: the list and the
 * submission ride with the next read), counted from writing the list to reaping the completion:
 * the round trips and bytes the host spends when "the firmware does the work, the host only
 * writes the list and rings the doorbell". Connecting and finding the queue are counted apart.
 * Usage: klinks LINK LIST.txt      prints "raw NAME VALUE" lines; exit 0 only when the REPLAY
 * completed OK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/desc_list.h"
#include "kohaku/status.h"
#include "libkohaku.h"

static struct kh_node node;

static int die(const char *what)
{
    fprintf(stderr, "klinks: %s: %s\n", what, kh_error(&node));
    return 1;
}

static void print(const char *name, const struct kh_link_stats *a, const struct kh_link_stats *b)
{
    printf("raw %s_round_trips %llu\nraw %s_accesses %llu\nraw %s_bytes %llu\n", name,
           (unsigned long long)(b->round_trips - a->round_trips), name,
           (unsigned long long)(b->accesses - a->accesses), name,
           (unsigned long long)(b->bytes_out + b->bytes_in - a->bytes_out - a->bytes_in));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: klinks LINK LIST.txt\n");
        return 2;
    }
    size_t len;
    char *text = kh_read_file(argv[2], &len);
    if (!text) {
        fprintf(stderr, "klinks: cannot read %s\n", argv[2]);
        return 2;
    }
    static struct kd_write w[KD_MAX_WRITES + 1];
    uint32_t n;
    struct kd_text_err e;
    if (kd_text_parse(text, len, w, KD_MAX_WRITES, &n, &e) != KS_OK || n == 0) {
        fprintf(stderr, "klinks: %s:%u:%u: not a descriptor list\n", argv[2], e.line, e.col);
        return 2;
    }
    struct kh_link_stats s0 = { 0 }, s1, s2, s3;
    if (kh_open_link(&node, argv[1], 30000))
        return die("connecting");
    kh_post_writes(&node, true);
    s1 = node.stats;
    struct kx_bootblock bb;
    struct kh_queue q;
    if (kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &q, bb.queue_addr))
        return die("attaching to the queue");
    q.timeout_ms = 30000;
    s2 = node.stats;
    if (kh_mem_write(&node, KH_DEF_DATA_UG, w, kd_list_bytes(n)))
        return die("writing the list");
    struct kq_sub sub = { .op = KQ_OP_REPLAY, .addr = KH_DEF_DATA_UG, .count = n };
    struct kq_cpl c;
    if (kh_command(&node, &q, &sub, &c) || kh_flush(&node))
        return die("replay");
    s3 = node.stats;
    if (c.status != KS_OK) {
        fprintf(stderr, "klinks: the REPLAY of %u writes ended %s\n", n, kh_status_name(c.status));
        return 1;
    }
    printf("raw replay_writes %u\n", n);
    print("connect", &s0, &s1);
    print("attach", &s1, &s2);
    print("replay", &s2, &s3);
    kh_close(&node);
    return 0;
}
