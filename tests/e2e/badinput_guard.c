/* badinput_guard.c — the bad-input matrix's boot-time rows (docs/reliability.md
 * "Bad-input matrix"): boots an image with one field of the boot block (include/kohaku/
 * bootblock.h, docs/host-interface.md §2) or of the queue header's setup line or index lines
 * (include/kohaku/queue.h, §3.2) set to a bad value, exactly as `kactl boot` would otherwise
 * do, and reports how the core ended; and fills/checks the guard region the command rows use.
 * Usage: badinput_guard SOCKET boot FW.elf FIELD VALUE
 *        badinput_guard SOCKET midrun OP ADDR COUNT WAIT ADDR2 HEX
 *          submits command OP (its data at ADDR, COUNT records) on kactl's queue, waits until the
 *          firmware is inside it — WAIT "progress:V" (a RUN's SIGNAL V reached the header) or
 *          "mover" (AUX_STAT busy: the REPLAY's first move runs) — then writes the hex bytes HEX
 *          at ADDR2 (the host rewriting command data mid-command), waits for
 *          the completion and prints "midrun: status=NAME detail=0x.. value=0x.." (kactl's
 *          form); "late" instead when the command completed before the rewrite landed
 *          prints "ready" or "stopped state=<n> word=0x<hex>"; exit 0 either way, 3 on transport
 *        badinput_guard SOCKET guard fill|check ADDR LEN
 *          writes / compares a fixed pattern (byte i = 0xC3 ^ i*7); check prints "guard intact"
 *          or the first byte that changed, exit 1
 * FIELD: magic version size flags wait_cycles queue_addr unit_count units_dup units_depth0
 * units_agent units_noflag flag_notable, q_magic q_version q_flags q_rsvd q_sq_entries
 * q_cq_entries q_sq_addr q_cq_addr q_overlap q_indices. VALUE replaces the field (ignored by
 * the units_ and flag_ rows and q_overlap, which build their case). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kohaku/agent_regs.h"
#include "kohaku/bootblock.h"
#include "kohaku/hostport.h"
#include "kohaku/queue.h"
#include "libkohaku.h"

#define QADDR KH_DEF_QUEUE_UG

static struct kh_node node;

static int die(const char *what)
{
    printf("error: %s: %s\n", what, kh_error(&node));
    return 3;
}

static uint8_t pattern(size_t i) { return (uint8_t)(0xC3u ^ (i * 7u)); }

static int guard(const char *how, uint64_t addr, size_t len)
{
    uint8_t *b = malloc(len);
    if (!b)
        return 3;
    if (!strcmp(how, "fill")) {
        for (size_t i = 0; i < len; i++)
            b[i] = pattern(i);
        if (kh_mem_write(&node, addr, b, len))
            return die("guard fill");
        printf("guard filled\n");
        return 0;
    }
    if (kh_mem_read(&node, addr, b, len))
        return die("guard check");
    for (size_t i = 0; i < len; i++)
        if (b[i] != pattern(i)) {
            printf("guard changed at 0x%llx: 0x%02x, want 0x%02x\n", (unsigned long long)(addr + i), b[i],
                   pattern(i));
            return 1;
        }
    printf("guard intact\n");
    return 0;
}

static int boot(const char *elf, const char *field, uint64_t v)
{
    size_t len = 0;
    /* Kept to the end of the process: the parsed segments point into it. */
    const uint8_t *img = (const uint8_t *)kh_read_file(elf, &len);
    struct kh_elf e;
    char err[KH_ERR_LEN];
    if (!img || !len || kh_elf_parse(img, len, &e, err, sizeof err)) {
        printf("error: %s: %s\n", elf, img && len ? err : "unreadable");
        return 3;
    }
    /* A good default-map table, for the rows that break one entry of it. */
    struct kx_unit_entry ut[2] = {
        { .yx = 0x11, .version = 1, .type = 0x4E50, .inst_depth = 16 },
        { .yx = 0x21, .version = 1, .type = 0x5455, .inst_depth = 16 },
    };
    struct kx_bootblock bb;
    int table = !strncmp(field, "units_", 6) || !strcmp(field, "flag_notable");
    kh_bootblock_make(&bb, QADDR, KH_DEF_WAIT_CYCLES, table ? ut : NULL, table ? 2 : 0);
    if (!strcmp(field, "magic"))
        bb.magic = (uint32_t)v;
    else if (!strcmp(field, "version"))
        bb.version = (uint16_t)v;
    else if (!strcmp(field, "size"))
        bb.size = (uint16_t)v;
    else if (!strcmp(field, "flags"))
        bb.flags = (uint32_t)v;
    else if (!strcmp(field, "wait_cycles"))
        bb.wait_cycles = (uint32_t)v;
    else if (!strcmp(field, "queue_addr"))
        bb.queue_addr = v;
    else if (!strcmp(field, "unit_count")) {
        bb.flags = KX_BOOT_F_UNITS;
        bb.unit_count = (uint16_t)v;        /* size kept consistent: the count itself is bad */
        bb.size = (uint16_t)(KX_BOOT_HDR_BYTES + 8u * v);
    } else if (!strcmp(field, "units_dup"))
        bb.units[1].yx = 0x11;
    else if (!strcmp(field, "units_depth0"))
        bb.units[1].inst_depth = 0;
    else if (!strcmp(field, "units_agent"))
        bb.units[1].yx = 0x10;              /* BOARD_AGENT_YX: x 0, y 1 */
    else if (!strcmp(field, "units_noflag"))
        bb.flags = 0;                       /* a table without the flag */
    else if (!strcmp(field, "flag_notable")) {
        bb.unit_count = 0;                  /* the flag without a table */
        bb.size = KX_BOOT_HDR_BYTES;
    } else if (strncmp(field, "q_", 2)) {
        printf("error: unknown field %s\n", field);
        return 2;
    }

    struct kh_queue q;
    if (kh_core_hold(&node, true) || kh_load_elf(&node, &e) || kh_bootblock_write(&node, &bb) ||
        kh_queue_create(&node, &q, QADDR, 16, 16))
        return die("setting up");
    if (!strncmp(field, "q_", 2)) {
        struct kq_header h;
        if (kh_mem_read(&node, QADDR, &h, sizeof h))
            return die("reading the header");
        const char *qf = field + 2;
        if (!strcmp(qf, "magic"))
            h.setup.magic = (uint32_t)v;
        else if (!strcmp(qf, "version"))
            h.setup.version = (uint16_t)v;
        else if (!strcmp(qf, "flags"))
            h.setup.flags = (uint16_t)v;
        else if (!strcmp(qf, "rsvd"))
            h.setup.rsvd0 = (uint32_t)v;
        else if (!strcmp(qf, "sq_entries"))
            h.setup.sq_entries = (uint16_t)v;
        else if (!strcmp(qf, "cq_entries"))
            h.setup.cq_entries = (uint16_t)v;
        else if (!strcmp(qf, "sq_addr"))
            h.setup.sq_addr = v;
        else if (!strcmp(qf, "cq_addr"))
            h.setup.cq_addr = v;
        else if (!strcmp(qf, "overlap"))
            h.setup.cq_addr = h.setup.sq_addr + 64;     /* inside the submission ring */
        else if (!strcmp(qf, "indices"))
            h.sq_tail.value = v;                        /* more submitted than the ring holds */
        else {
            printf("error: unknown field %s\n", field);
            return 2;
        }
        if (kh_mem_write(&node, QADDR, &h, sizeof h))
            return die("writing the header");
    }
    if (kh_core_hold(&node, false))
        return die("releasing");
    /* READY, or the core stops: 2 s of wall clock is ample (boot takes ~130,000 cycles). */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct kh_core_status cs;
        struct kh_queue_view qv;
        if (kh_core_status(&node, &cs))
            return die("reading the core");
        if (cs.state == KHP_CPU_HALTED || cs.state == KHP_CPU_EXITED) {
            printf("stopped state=%u word=0x%llx\n", cs.state, (unsigned long long)cs.word);
            return 0;
        }
        if (!kh_queue_view(&node, &q, &qv) && qv.fw.state == KQ_STATE_READY) {
            printf("ready\n");
            return 0;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 2) {
            printf("neither READY nor stopped after 2 s\n");
            return 0;
        }
    }
}

/* Bounded polls: each is one host request (1 us of the model's time); far above the few
 * hundred the tests' slow programs and long moves leave. */
#define MIDRUN_POLLS 200000u

static int midrun(unsigned op, uint64_t addr, uint32_t count, const char *wait, uint64_t at,
                  const char *hex)
{
    struct kh_queue q;
    uint8_t bytes[256];
    size_t nb = 0;
    if (kh_parse_hex_bytes(hex, bytes, sizeof bytes, &nb) || !nb) {
        printf("error: bad hex bytes %s\n", hex);
        return 2;
    }
    if (kh_queue_attach(&node, &q, QADDR))
        return die("attaching to the queue");
    struct kq_sub sub = { .op = (uint16_t)op, .addr = addr, .count = count };
    sub.tag = kh_tag_next(&q);
    uint64_t want = q.cq_head + 1;
    if (kh_submit(&node, &q, &sub, 1))
        return die("submitting");
    uint64_t progress = strncmp(wait, "progress:", 9) ? 0 : strtoull(wait + 9, NULL, 0);
    unsigned i;
    for (i = 0; i < MIDRUN_POLLS; i++) {
        struct kh_queue_view v;
        if (kh_queue_view(&node, &q, &v))
            return die("reading the queue");
        if (v.cq_tail >= want) {
            printf("late: the command completed before the rewrite (after %u polls)\n", i);
            return 1;
        }
        if (progress) {
            if (v.progress == progress)
                break;
        } else {
            uint64_t aux;
            if (kh_agent_read(&node, KA_AUX_STAT, &aux))
                return die("reading AUX_STAT");
            if (aux & KA_AUX_STAT_BUSY)
                break;
        }
    }
    if (i == MIDRUN_POLLS) {
        printf("error: waited %u polls for %s and never saw it\n", MIDRUN_POLLS, wait);
        return 1;
    }
    if (kh_mem_write(&node, at, bytes, nb))
        return die("rewriting");
    struct kh_queue_view v;
    if (kh_queue_view(&node, &q, &v))
        return die("reading the queue");
    if (v.cq_tail >= want) {
        printf("late: the command completed as the rewrite landed\n");
        return 1;
    }
    struct kq_cpl c;
    unsigned got = 0;
    if (kh_wait_cq(&node, &q, want, "the rewritten command's completion") ||
        kh_reap(&node, &q, &c, 1, &got))
        return die("waiting for the completion");
    if (got != 1 || c.tag != sub.tag) {
        printf("error: completion %u with tag %u, want tag %u\n", got, c.tag, sub.tag);
        return 1;
    }
    printf("midrun: status=%s detail=0x%x value=0x%llx polls=%u\n", kh_status_name(c.status),
           c.detail, (unsigned long long)c.value, i);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: badinput_guard SOCKET boot FW FIELD VALUE | guard fill|check ADDR LEN\n");
        return 2;
    }
    if (kh_open_link(&node, argv[1], 0))
        return die("connect");
    int rc = 2;
    if (!strcmp(argv[2], "boot") && argc == 6)
        rc = boot(argv[3], argv[4], strtoull(argv[5], NULL, 0));
    else if (!strcmp(argv[2], "midrun") && argc == 9)
        rc = midrun((unsigned)strtoul(argv[3], NULL, 0), strtoull(argv[4], NULL, 0),
                    (uint32_t)strtoul(argv[5], NULL, 0), argv[6], strtoull(argv[7], NULL, 0), argv[8]);
    else if (!strcmp(argv[2], "guard") && argc == 6)
        rc = guard(argv[3], strtoull(argv[4], NULL, 0), (size_t)strtoull(argv[5], NULL, 0));
    else
        fprintf(stderr, "badinput_guard: bad arguments\n");
    kh_close(&node);
    return rc;
}
