/* e2e_soak.c — end-to-end soak through libkohaku (the soak: "1,000 mixed commands with no
 * completion lost or duplicated"): against a node booted by `kactl boot`, submits N commands
 * drawn from a fixed mix — valid NOP, UNITS, REPLAY, DISPATCH, RUN and malformed ones — in
 * batches as the rings allow, and checks that every submission completes exactly once, in
 * order, with the status (and detail/value) status.h and the command say it must.
 * Usage: e2e_soak SOCKET VARIANT N DEMO_DIR     (VARIANT 32 or 64; DEMO_DIR = host/demo)
 *        e2e_soak SOCKET VARIANT hostdrive DEMO_DIR: the demo program to NP 1,1 host-driven
 *        (kh_hd_dispatch, the bench's host-driven path), with the firmware stopped; P cleared first
 *        e2e_soak SOCKET VARIANT abort PROG: PROG (a long TU DELAY) dispatched to TU 2,2; once the
 *        firmware has taken it, the core is restarted: the restart must complete it exactly
 *        once as KS_ABORTED (host-interface.md §8) and then serve a NOP
 *        e2e_soak SOCKET VARIANT pend N: writes N NOP submissions into the ring and exits without
 *        waiting, whatever the firmware's state: a host that died after submitting
 *        (a crash), for kactl restart to account for
 * Prints "PASS: <what>" or "FAIL: <what> <why>" lines; exit 0 only when all passed. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku/desc_list.h"
#include "kohaku/status.h"
#include "libkohaku.h"

/* Data in kactl's data area's upper half, so kactl commands in between cannot clobber it. */
#define D_COPY   (KH_DEF_DATA_UG + 0x80000)
#define D_FILL   (KH_DEF_DATA_UG + 0x81000)
#define D_PROG   (KH_DEF_DATA_UG + 0x82000)
#define D_STEPS  (KH_DEF_DATA_UG + 0x83000)

static struct kh_node node;

struct kind {
    const char *name;
    struct kq_sub sub;
    uint16_t status;
    uint32_t detail;
    uint64_t value;
    int check_value;
};

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: e2e_soak SOCKET VARIANT N DEMO_DIR\n");
        return 2;
    }
    unsigned variant = (unsigned)atoi(argv[2]);
    int hostdrive = !strcmp(argv[3], "hostdrive");
    unsigned total = (unsigned)atoi(argv[3]);
    char path[512];
    if (kh_open_link(&node, argv[1], 0)) {
        printf("FAIL: soak connect %s\n", kh_error(&node));
        return 1;
    }
    if (hostdrive) {
        static uint64_t hp[64][4];
        uint32_t hn;
        struct kh_text_err he;
        size_t hl;
        char *ht;
        snprintf(path, sizeof path, "%s/softmax.prog", argv[4]);
        if (!(ht = kh_read_file(path, &hl)) || kh_parse_program(ht, hl, hp, 64, &hn, &he)) {
            printf("FAIL: hostdrive cannot read %s\n", path);
            return 1;
        }
        free(ht);
        struct kh_hd_result r;
        if (kh_mem_zero(&node, 0x102000, 128) || kh_hd_dispatch(&node, 0x11, 3, hp, hn, 0, 10000, &r)) {
            printf("FAIL: hostdrive %s\n", kh_error(&node));
            return 1;
        }
        if (r.status != KS_OK) {
            printf("FAIL: hostdrive status %s value 0x%llx\n", kh_status_name(r.status), (unsigned long long)r.value);
            return 1;
        }
        /* 20 flits x 5 staging writes + 5 PROG_* writes at least, each a host-port request. */
        printf("PASS: hostdrive %u flits in %llu ns of model time, %llu host-port requests\n", hn,
               (unsigned long long)r.ns, (unsigned long long)r.requests);
        return r.requests >= 105 ? 0 : 1;
    }
    struct kx_bootblock bb;
    if (!strcmp(argv[3], "pend")) {
        struct kh_queue pq;
        struct kq_sub ps[16];
        unsigned k = (unsigned)atoi(argv[4]);
        memset(ps, 0, sizeof ps);
        if (k == 0 || k > 16 || kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &pq, bb.queue_addr)) {
            printf("FAIL: pend %s\n", k == 0 || k > 16 ? "N must be 1..16" : kh_error(&node));
            return 1;
        }
        /* Written as a host that bypasses the library's READY check would: entries, then
         * sq_tail (kh_submit refuses a firmware that is not READY). */
        for (unsigned i = 0; i < k; i++) {
            ps[i].tag = kh_tag_next(&pq);
            uint64_t slot = (pq.sq_tail + i) & (pq.sq_entries - 1u);
            if (kh_mem_write(&node, pq.sq_addr + slot * sizeof ps[i], &ps[i], sizeof ps[i])) {
                printf("FAIL: pend write %s\n", kh_error(&node));
                return 1;
            }
        }
        pq.sq_tail += k;
        struct kq_index_line tl = { .value = pq.sq_tail };
        if (kh_mem_write(&node, pq.addr + offsetof(struct kq_header, sq_tail), &tl, sizeof tl)) {
            printf("FAIL: pend tail %s\n", kh_error(&node));
            return 1;
        }
        printf("PASS: pend %u NOPs, tags %u..%u, sq_tail %llu\n", k, ps[0].tag, ps[k - 1].tag,
               (unsigned long long)pq.sq_tail);
        return 0;
    }
    struct kh_queue q;
    if (!strcmp(argv[3], "abort")) {
        static uint64_t ap[4][4];
        uint32_t an;
        struct kh_text_err ae;
        size_t al;
        char *at = kh_read_file(argv[4], &al);
        struct kh_queue_view v;
        if (!at || kh_parse_program(at, al, ap, 4, &an, &ae)) {
            printf("FAIL: abort cannot read %s\n", argv[4]);
            return 1;
        }
        free(at);
        if (kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &q, bb.queue_addr) ||
            kh_mem_write(&node, D_PROG, ap, (size_t)an * 32)) {
            printf("FAIL: abort setup %s\n", kh_error(&node));
            return 1;
        }
        struct kq_sub s = { .op = KQ_OP_DISPATCH, .addr = D_PROG, .count = an, .ntargets = 1, .targets = { 0x22 } };
        s.tag = kh_tag_next(&q);
        if (kh_submit(&node, &q, &s, 1)) {
            printf("FAIL: abort submit %s\n", kh_error(&node));
            return 1;
        }
        /* Taken (sq_head moved) and not completed (cq_tail did not): restart right there. */
        for (unsigned i = 0;; i++) {
            if (kh_queue_view(&node, &q, &v)) {
                printf("FAIL: abort view %s\n", kh_error(&node));
                return 1;
            }
            if (v.sq_head == q.sq_tail)
                break;
            if (i == 100000) {
                printf("FAIL: abort: the firmware never took the submission\n");
                return 1;
            }
        }
        struct kq_fw_state fw = { 0 };
        if (v.cq_tail == q.sq_tail) {
            printf("FAIL: abort: the command completed before the restart (make PROG longer)\n");
            return 1;
        }
        if (kh_core_hold(&node, true) ||
            kh_mem_write(&node, q.addr + offsetof(struct kq_header, fw), &fw, sizeof fw) ||
            kh_core_hold(&node, false) || kh_wait_ready(&node, &q) ||
            kh_wait_cq(&node, &q, q.cq_head + 1, "the ABORTED completion")) {
            printf("FAIL: abort restart %s\n", kh_error(&node));
            return 1;
        }
        struct kq_cpl c[4];
        unsigned got;
        if (kh_reap(&node, &q, c, 4, &got) || got != 1 || c[0].tag != s.tag || c[0].status != KS_ABORTED ||
            c[0].detail != 0 || c[0].value != 0) {
            printf("FAIL: abort: %u completions, first tag %u status %s (want one, tag %u, ABORTED)\n", got,
                   got ? c[0].tag : 0, got ? kh_status_name(c[0].status) : "-", s.tag);
            return 1;
        }
        struct kq_sub nop = { .op = KQ_OP_NOP };
        struct kq_cpl nc;
        if (kh_command(&node, &q, &nop, &nc) || nc.status != KS_OK) {
            printf("FAIL: abort: NOP after the restart: %s\n", kh_error(&node));
            return 1;
        }
        printf("PASS: abort tag %u completed once as ABORTED by the restart, NOP tag %u OK\n", s.tag, nop.tag);
        return 0;
    }
    if (kh_bootblock_read(&node, &bb) || kh_queue_attach(&node, &q, bb.queue_addr)) {
        printf("FAIL: soak attach %s\n", kh_error(&node));
        return 1;
    }

    /* The demo's files, in their binary forms, through the same parsers kactl uses. */
    size_t len;
    char *txt;
    struct kd_write copy[64], fill[64];
    uint32_t ncopy, nfill, nprog;
    struct kd_text_err de;
    static uint64_t prog[64][4];
    struct kh_text_err pe;
    snprintf(path, sizeof path, "%s/copy.txt", argv[4]);
    if (!(txt = kh_read_file(path, &len)) || kd_text_parse(txt, len, copy, 64, &ncopy, &de)) {
        printf("FAIL: soak cannot read %s\n", path);
        return 1;
    }
    free(txt);
    snprintf(path, sizeof path, "%s/fill.txt", argv[4]);
    if (!(txt = kh_read_file(path, &len)) || kd_text_parse(txt, len, fill, 64, &nfill, &de)) {
        printf("FAIL: soak cannot read %s\n", path);
        return 1;
    }
    free(txt);
    snprintf(path, sizeof path, "%s/softmax.prog", argv[4]);
    if (!(txt = kh_read_file(path, &len)) || kh_parse_program(txt, len, prog, 64, &nprog, &pe)) {
        printf("FAIL: soak cannot read %s\n", path);
        return 1;
    }
    free(txt);
    struct kq_step steps[3] = {
        { .op = KQ_STEP_DISPATCH, .target = 0x12, .txn = 2, .n = nprog, .addr = D_PROG },
        { .op = KQ_STEP_WAIT, .target = 0x12, .n = 1 },
        { .op = KQ_STEP_SIGNAL, .addr = 0x50AC },
    };
    if (kh_mem_write(&node, D_COPY, copy, kd_list_bytes(ncopy)) ||
        kh_mem_write(&node, D_FILL, fill, kd_list_bytes(nfill)) ||
        kh_mem_write(&node, D_PROG, prog, (size_t)nprog * 32) ||
        kh_mem_write(&node, D_STEPS, steps, sizeof steps)) {
        printf("FAIL: soak data %s\n", kh_error(&node));
        return 1;
    }

    /* Expected outcomes: literals of status.h and the command (docs/host-interface.md). */
    struct kind kinds[] = {
        { "nop", { .op = KQ_OP_NOP }, KS_OK, 0, 0, 1 },
        { "units", { .op = KQ_OP_UNITS }, KS_OK, 0, 6, 1 },
        { "replay-copy", { .op = KQ_OP_REPLAY, .addr = D_COPY, .count = ncopy }, KS_OK, 0, 2, 1 },
        { "replay-fill", { .op = KQ_OP_REPLAY, .addr = D_FILL, .count = nfill },
          variant == 64 ? KS_NO_REACH : KS_OK, variant == 64 ? 0x40 : 0, variant == 64 ? 0 : 1, variant != 64 },
        { "dispatch", { .op = KQ_OP_DISPATCH, .addr = D_PROG, .count = nprog, .txn = 1, .ntargets = 1,
                        .targets = { 0x11 } }, KS_OK, 0, 20, 1 },
        { "run", { .op = KQ_OP_RUN, .addr = D_STEPS, .count = 3 }, KS_OK, 0, 3, 1 },
        { "bad-op", { .op = 9 }, KS_BAD_OP, 9, 0, 1 },      /* past RECORDS (8): queue.h */
        { "bad-align", { .op = KQ_OP_REPLAY, .addr = D_COPY + 2, .count = ncopy }, KS_BAD_ALIGN, 4, D_COPY + 2, 1 },
        { "bad-target", { .op = KQ_OP_DISPATCH, .addr = D_PROG, .count = nprog, .ntargets = 1,
                          .targets = { 0x99 } }, KS_BAD_TARGET, 0x99, 0, 1 },
        { "bad-len", { .op = KQ_OP_REPLAY, .addr = D_COPY, .count = 0 }, KS_BAD_LEN, 0, 0, 1 },
    };
    const unsigned nk = sizeof kinds / sizeof kinds[0];
    /* A fixed mix, NOP-heavy as a real host's would be: every kind appears. */
    static const unsigned weight[] = { 40, 5, 10, 5, 10, 5, 10, 5, 5, 5 };
    unsigned cum[16], wsum = 0;
    for (unsigned i = 0; i < nk; i++)
        cum[i] = (wsum += weight[i]);

    unsigned batch = q.sq_entries < 64 ? q.sq_entries : 64;
    if (batch > q.cq_entries)
        batch = q.cq_entries;
    struct kq_sub subs[64];
    unsigned kind_of[64], count[16] = { 0 }, done = 0, bad = 0;
    uint32_t seed = 12345;
    while (done < total && !bad) {
        unsigned k = total - done < batch ? total - done : batch;
        for (unsigned i = 0; i < k; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 8) % wsum, j = 0;
            while (r >= cum[j])
                j++;
            kind_of[i] = j;
            subs[i] = kinds[j].sub;
            subs[i].tag = kh_tag_next(&q);
        }
        struct kq_cpl c[64];
        unsigned got = 0;
        if (kh_submit(&node, &q, subs, k) || kh_wait_cq(&node, &q, q.cq_head + k, "a soak batch") ||
            kh_reap(&node, &q, c, k, &got)) {
            printf("FAIL: soak after %u commands: %s\n", done, kh_error(&node));
            return 1;
        }
        if (got != k) {
            printf("FAIL: soak batch of %u gave %u completions\n", k, got);
            return 1;
        }
        for (unsigned i = 0; i < k && !bad; i++) {
            const struct kind *kd = &kinds[kind_of[i]];
            count[kind_of[i]]++;
            if (c[i].tag != subs[i].tag) {
                printf("FAIL: soak completion %u has tag %u, expected %u (lost, duplicated or reordered)\n",
                       done + i, c[i].tag, subs[i].tag);
                bad = 1;
            } else if (c[i].status != kd->status || c[i].detail != kd->detail ||
                       (kd->check_value && c[i].value != kd->value)) {
                printf("FAIL: soak command %u (%s): status=%s detail=0x%x value=0x%llx, want %s detail=0x%x value=0x%llx\n",
                       done + i, kd->name, kh_status_name(c[i].status), c[i].detail,
                       (unsigned long long)c[i].value, kh_status_name(kd->status), kd->detail,
                       (unsigned long long)kd->value);
                bad = 1;
            }
        }
        done += k;
    }
    /* Nothing extra was posted, and the firmware's indices agree with the host's. */
    struct kh_queue_view v;
    if (!bad && (kh_queue_view(&node, &q, &v) || v.sq_head != q.sq_tail || v.cq_tail != q.cq_head)) {
        printf("FAIL: soak indices: sq %llu/%llu cq %llu/%llu\n", (unsigned long long)v.sq_head,
               (unsigned long long)q.sq_tail, (unsigned long long)v.cq_tail, (unsigned long long)q.cq_head);
        bad = 1;
    }
    if (!bad && v.progress != 0x50AC) {
        printf("FAIL: soak progress line 0x%llx, want 0x50ac\n", (unsigned long long)v.progress);
        bad = 1;
    }
    if (!bad) {
        printf("PASS: mixed_%u_commands (", total);
        for (unsigned i = 0; i < nk; i++)
            printf("%s%s=%u", i ? " " : "", kinds[i].name, count[i]);
        printf(")\n");
    }
    kh_close(&node);
    return bad;
}
