/* kactl.c — the host CLI on libkohaku (docs/design.md §4): flash and boot
 * the firmware, drive its command queue, read and write node memory, explain the node's state.
 * docs/host-interface.md "kactl" is the manual; every command has --help.
 * Exit status: 0 done and OK; 1 the node answered with a non-OK status (or a check failed);
 * 2 usage or input error (nothing sent); 3 transport, node state or timeout failure. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kohaku/agent_regs.h"
#include "kohaku/desc_list.h"
#include "kohaku/exitword.h"
#include "kohaku/status.h"
#include "kh_util.h"
#include "libkohaku.h"

#define EX_OK      0
#define EX_STATUS  1
#define EX_USAGE   2
#define EX_NODE    3

static struct {
    const char *link;          /* --link SPEC (or --socket PATH as qemu:PATH); NULL: environment */
    uint64_t queue;            /* 0: from the boot block */
    unsigned timeout_ms;
    int quiet;
    int stats;                 /* --stats: the link's counters on stderr at exit */
    int json;                  /* --json: one JSON object per command on stdout, nothing else there */
    int progress;              /* --progress 1 / --no-progress 0; -1: when stderr is a terminal */
} g = { NULL, 0, KH_DEF_TIMEOUT_MS, 0, 0, 0, -1 };

static struct kh_node node;
static struct kh_queue queue;

/* ---- --json (docs/host-interface.md "kactl --json") ----
 * The human lines still go to stdout, which --json points at /dev/null; the command's one JSON
 * object goes to the real stdout (jout) when it ends, whichever way it ends: keys "command",
 * "ok", "exit" always, "error" when it failed, then the command's own keys. Commands add keys
 * as they learn things; completions of earlier commands (printed as `earlier:` lines) are
 * collected apart and added as "earlier". */
struct jbuf { char *s; size_t n, cap; unsigned depth; unsigned char first[16], arr[16]; };
static struct jbuf J = { .first = { 1 } }, JE = { .first = { 1 } };
static int prog_tty, prog_shown;       /* progress (progress_hook): stderr a terminal; a line shown */   /* the command's members; the earlier completions */
static FILE *jout;
static const char *j_cmd = "";
static int j_done;

static void jput(struct jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jput(struct jbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t c = (b->cap ? b->cap * 2 : 1024) + (size_t)k;
        char *t = realloc(b->s, c);
        if (!t)
            return;
        b->s = t;
        b->cap = c;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static void jstr_lit(struct jbuf *b, const char *v)
{
    jput(b, "\"");
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            jput(b, "\\%c", *p);
        else if (*p < 0x20)
            jput(b, "\\u%04x", *p);
        else
            jput(b, "%c", *p);
    }
    jput(b, "\"");
}

/* The separator and key of the next member (key NULL: an array element). */
static void jkey(struct jbuf *b, const char *k)
{
    if (!b->first[b->depth])
        jput(b, ",");
    b->first[b->depth] = 0;
    if (k) {
        jstr_lit(b, k);
        jput(b, ":");
    }
}
static void j_str(struct jbuf *b, const char *k, const char *v) { if (g.json) { jkey(b, k); jstr_lit(b, v); } }
static void j_num(struct jbuf *b, const char *k, uint64_t v) { if (g.json) { jkey(b, k); jput(b, "%llu", (unsigned long long)v); } }
static void j_bool(struct jbuf *b, const char *k, int v) { if (g.json) { jkey(b, k); jput(b, v ? "true" : "false"); } }
/* 64-bit words and addresses: "0x..." strings (a JSON number loses bits past 2^53). */
static void j_hex(struct jbuf *b, const char *k, uint64_t v) { if (g.json) { jkey(b, k); jput(b, "\"0x%llx\"", (unsigned long long)v); } }
static void j_open(struct jbuf *b, const char *k, int array)
{
    if (!g.json)
        return;
    jkey(b, k);
    jput(b, array ? "[" : "{");
    if (b->depth < sizeof b->first - 1) {
        b->first[++b->depth] = 1;
        b->arr[b->depth] = (unsigned char)array;
    }
}
static void j_close(struct jbuf *b)
{
    if (!g.json || !b->depth)
        return;
    jput(b, b->arr[b->depth] ? "]" : "}");
    b->depth--;
}

/* Writes the command's object once: at its end or at its failure. */
static void j_emit(int code, const char *error)
{
    if (!g.json || j_done || !jout)
        return;
    j_done = 1;
    fflush(stdout);
    fprintf(jout, "{\"command\":");
    struct jbuf h = { 0 };
    jstr_lit(&h, j_cmd);
    fprintf(jout, "%s,\"ok\":%s,\"exit\":%d", h.s ? h.s : "\"\"", code == 0 ? "true" : "false", code);
    free(h.s);
    if (error) {
        struct jbuf e = { 0 };
        jstr_lit(&e, error);
        fprintf(jout, ",\"error\":%s", e.s ? e.s : "\"\"");
        free(e.s);
    }
    if (JE.n)
        fprintf(jout, ",\"earlier\":[%.*s]", (int)JE.n, JE.s);
    while (J.depth)        /* a failure in the middle of a nested member closes it */
        j_close(&J);
    if (J.n)
        fprintf(jout, ",%.*s", (int)J.n, J.s);
    fprintf(jout, "}\n");
    fflush(jout);
}

static void die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void die(int code, const char *fmt, ...)
{
    va_list ap;
    char msg[2048];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (prog_shown && prog_tty)         /* the message starts its own line, not a progress line's end */
        fputs("\r\033[K", stderr);
    fprintf(stderr, "kactl: %s\n", msg);
    j_emit(code, msg);
    exit(code);
}

static void node_die(const char *doing)
{
    die(EX_NODE, "%s: %s", doing, kh_error(&node));
}

/* ---- helpers ---- */

static char *read_file(const char *path, size_t *len)
{
    char *buf = kh_read_file(path, len);
    if (!buf)
        die(errno == ENOMEM ? EX_NODE : EX_USAGE, "cannot read %s: %s", path, strerror(errno));
    return buf;
}

/* A text file (list, program, steps, units): every byte text, or a syntax error FILE:LINE:COL. */
static char *read_text(const char *path, size_t *len)
{
    char *text = read_file(path, len);
    struct kh_text_err e;
    if (kh_text_check(text, *len, &e))
        die(EX_USAGE, "%s:%u:%u: %s", path, e.line, e.col, e.why);
    return text;
}

/* A text file's error: FILE:LINE:COL when it is at a place, FILE alone when it concerns the
 * whole file (an empty program has no position). */
static void text_die(const char *path, const struct kh_text_err *e) __attribute__((noreturn));
static void text_die(const char *path, const struct kh_text_err *e)
{
    if (e->line)
        die(EX_USAGE, "%s:%u:%u: %s", path, e->line, e->col, e->why);
    die(EX_USAGE, "%s: %s", path, e->why);
}

static uint64_t num_arg(const char *opt, const char *s, uint64_t max)
{
    uint64_t v;
    if (!s)
        die(EX_USAGE, "%s needs a value", opt);
    if (kh_parse_u64(s, &v) || v > max)
        die(EX_USAGE, "%s: `%s` is not a number in 0..%llu", opt, s, (unsigned long long)max);
    return v;
}

/* At exit, whatever way kactl ends: posted writes still waiting are sent (a failure is a
 * message and exit 3, never a silent loss), then --stats prints the link's counters. */
static void at_exit(void)
{
    if (node.link.ops && node.b.n && kh_flush(&node)) {
        fprintf(stderr, "kactl: sending the last writes: %s\n", kh_error(&node));
        j_emit(EX_NODE, kh_error(&node));
        fflush(stdout);
        _Exit(EX_NODE);
    }
    if (g.stats && node.link.ops)
        fprintf(stderr, "kactl: link %s: %llu round trips, %llu accesses, %llu bytes out, %llu bytes in\n",
                node.link.name, (unsigned long long)node.stats.round_trips,
                (unsigned long long)node.stats.accesses, (unsigned long long)node.stats.bytes_out,
                (unsigned long long)node.stats.bytes_in);
}

static void connect_node(void)
{
    int rc = kh_open_link(&node, g.link, g.timeout_ms);
    if (rc)
        die(rc == KH_E_INPUT ? EX_USAGE : EX_NODE, "%s", kh_error(&node));
    /* Writes ride with the next read: one round trip for many accesses (docs/host.md). */
    kh_post_writes(&node, true);
    atexit(at_exit);
}

/* The queue of the running firmware: --queue, else the boot block's queue_addr. */
static void attach_queue(void)
{
    uint64_t addr = g.queue;
    if (addr) {
        /* A --queue the firmware does not serve (an earlier boot's) still reads READY on its
         * stale state line: a command there would wait for nothing. The boot block names the
         * queue the firmware serves; any other is refused before anything is sent. */
        struct kx_bootblock bb;
        if (kh_bootblock_read(&node, &bb))
            node_die("finding the queue");
        if (bb.magic == KX_BOOT_MAGIC && bb.queue_addr != addr)
            die(EX_USAGE, "--queue 0x%llx is not the queue the firmware serves: its boot block names 0x%llx "
                "(drop --queue, or give that address); nothing was sent", (unsigned long long)addr,
                (unsigned long long)bb.queue_addr);
    }
    if (!addr) {
        struct kx_bootblock bb;
        if (kh_bootblock_read(&node, &bb))
            node_die("finding the queue");
        if (bb.magic != KX_BOOT_MAGIC)
            die(EX_NODE, "no boot block in the scratchpad (magic 0x%08x): run `kactl boot FW.elf` first",
                bb.magic);
        addr = bb.queue_addr;
    }
    if (kh_queue_attach(&node, &queue, addr))
        node_die("attaching to the queue");
    queue.timeout_ms = g.timeout_ms;
}

/* A completion in words. A RUN's value carries the failed step in [63:48] and that step's own
 * value below: the step's status is explained on the inner value alone, the step named first. */
#define RUN_INNER_MASK UINT64_C(0xFFFFFFFFFFFF)
static void explain_cpl(unsigned op, const struct kq_cpl *c, char *ex, size_t len)
{
    if (op == KQ_OP_RUN && c->status != KS_OK) {
        struct kq_cpl in = *c;
        in.value &= RUN_INNER_MASK;
        int k = snprintf(ex, len, "step %u: ", (unsigned)(c->value >> 48));
        if (k > 0 && (size_t)k < len)
            kh_explain_cpl(&in, ex + k, len - (size_t)k);
        return;
    }
    kh_explain_cpl(c, ex, len);
}

/* The completion's keys (docs/host-interface.md "kactl --json"). */
static void j_cpl(struct jbuf *b, unsigned op, const struct kq_cpl *c, const char *ex)
{
    static const char *const ops[] = { "NOP", "REPLAY", "DISPATCH", "RUN", "UNITS", "STOP" };
    if (op < 6)
        j_str(b, "op", ops[op]);
    j_str(b, "status", kh_status_name(c->status));
    j_num(b, "status_code", c->status);
    j_hex(b, "detail", c->detail);
    j_hex(b, "value", c->value);
    j_num(b, "cycles", c->cycles);
    j_num(b, "tag", c->tag);
    j_str(b, "explain", ex);
}

static unsigned cpl_op = 0xFFFF;       /* the op of the command being reported (explain_cpl) */
static void print_cpl(const char *what, const struct kq_cpl *c)
{
    char ex[512];
    explain_cpl(cpl_op, c, ex, sizeof ex);
    printf("%s: status=%s detail=0x%x value=0x%llx cycles=%llu tag=%u  # %s\n", what,
           kh_status_name(c->status), c->detail, (unsigned long long)c->value,
           (unsigned long long)c->cycles, c->tag, ex);
    if (!strncmp(what, "earlier", 7)) {
        j_open(&JE, NULL, 0);
        j_str(&JE, "what", what);
        j_cpl(&JE, 0xFFFF, c, ex);
        j_close(&JE);
    } else {
        j_cpl(&J, cpl_op, c, ex);
    }
}

/* Runs one command and prints its completion; the exit status follows the completion's. */
static int command(const char *what, struct kq_sub *s, struct kq_cpl *c)
{
    if (kh_command(&node, &queue, s, c))
        node_die(what);
    cpl_op = s->op;
    print_cpl(what, c);
    cpl_op = 0xFFFF;
    return c->status == KS_OK ? EX_OK : EX_STATUS;
}

/* Bytes a blob takes in kactl's data area (each starts 32-byte aligned). */
static uint64_t data_span(size_t len)
{
    return ((uint64_t)len + 31u) & ~UINT64_C(31);
}

/* A command's data must fit the area whole: checked before connecting, so nothing is sent.
 * The message gives the total, and the area's size. */
static void data_fits(const char *what, uint64_t total)
{
    if (total > KH_DEF_DATA_BYTES)
        die(EX_USAGE, "%s: its data (%llu bytes in all) does not fit kactl's %llu-byte (%llu MB) data area "
            "at 0x%llx; nothing was sent", what, (unsigned long long)total,
            (unsigned long long)KH_DEF_DATA_BYTES, (unsigned long long)(KH_DEF_DATA_BYTES >> 20),
            (unsigned long long)KH_DEF_DATA_UG);
}

/* Puts bytes in kactl's data area (docs: KH_DEF_DATA_UG, KH_DEF_DATA_BYTES), 32-byte aligned.
 * Callers checked the total with data_fits first; this is the last line of defence. */
static uint64_t data_cursor = KH_DEF_DATA_UG;
static uint64_t data_put(const void *p, size_t len)
{
    uint64_t a = data_cursor;
    if (len > KH_DEF_DATA_BYTES - (a - KH_DEF_DATA_UG))
        die(EX_USAGE, "command data (%llu bytes in all) does not fit kactl's data area at 0x%llx",
            (unsigned long long)(a - KH_DEF_DATA_UG + len), (unsigned long long)KH_DEF_DATA_UG);
    if (kh_mem_write(&node, a, p, len))
        node_die("writing command data");
    data_cursor = (a + len + 31) & ~UINT64_C(31);
    return a;
}

/* A descriptor list: text, syntax, the firmware's own length limit (KD_MAX_WRITES, so nothing
 * over-long is sent), and every move's walks inside memory (kh_list_check). */
static struct kd_write *parse_list(const char *path, uint32_t *n)
{
    size_t len;
    char *text = read_text(path, &len);
    struct kd_write *w = calloc(KD_MAX_WRITES, sizeof *w);
    struct kd_text_err e;
    if (!w)
        die(EX_NODE, "out of memory");
    unsigned st = kd_text_parse(text, len, w, KD_MAX_WRITES, n, &e);
    if (st == KS_LIST_TOO_LONG)
        die(EX_USAGE, "%s:%u:%u: more than %u writes: a REPLAY takes at most %u (KD_MAX_WRITES)", path,
            e.line, e.col, KD_MAX_WRITES, KD_MAX_WRITES);
    if (st != KS_OK)
        die(EX_USAGE, "%s:%u:%u: %s", path, e.line, e.col, e.why ? e.why : "bad descriptor list");
    if (*n == 0)
        die(EX_USAGE, "%s: the descriptor list has no write", path);
    char err[KH_ERR_LEN];
    uint32_t bad;
    if (kh_list_check(w, *n, &bad, err, sizeof err))
        die(EX_USAGE, "%s: write %u: %s; nothing was sent", path, bad, err);
    free(text);
    struct kd_write *q = realloc(w, (size_t)*n * sizeof *w);
    return q ? q : w;
}

static uint64_t (*parse_prog(const char *path, uint32_t *n))[4]
{
    size_t len;
    char *text = read_file(path, &len);
    uint64_t (*p)[4] = calloc(KQ_MAX_PROG, sizeof *p);
    struct kh_text_err e;
    if (!p)
        die(EX_NODE, "out of memory");
    if (kh_parse_program(text, len, p, KQ_MAX_PROG, n, &e))
        text_die(path, &e);
    free(text);
    /* Keep only what was parsed: a RUN may hold thousands of programs. */
    uint64_t (*q)[4] = realloc(p, (size_t)*n * sizeof *p);
    return q ? q : p;
}

/* Payload words as they lie in memory: word 0 at byte 0, each little-endian (host order on
 * every host we build for is checked in host-lib). */
static uint64_t put_prog(uint64_t (*p)[4], uint32_t n)
{
    return data_put(p, (size_t)n * KQ_PAYLOAD_BYTES);
}

/* ---- usage ---- */

static const char *const usage_main =
    "usage: kactl [--link SPEC | --socket PATH] [--queue ADDR] [--timeout-ms N] [--stats] [--json]\n"
    "             [--progress | --no-progress] [--version] COMMAND [ARGS]\n"
    "  boot FW.elf [--units FILE|--enumerate] [--timeout-cycles N] [--resume]\n"
    "                               flash the image, write boot block and queue, release, wait READY\n"
    "  restart                      restart the firmware in place on the same queue, wait READY\n"
    "  replay FILE|@H               run a descriptor list (text form, or recorded), print each move\n"
    "  dispatch FILE --target X,Y [--target X,Y ...] [--txn N] [--credit N]\n"
    "                               send a program (one 256-bit payload per line) to units\n"
    "  run FILE|@H                  run a step list (dispatch/replay/wait/barrier/signal), or a recorded one\n"
    "  record FILE                  check and keep a descriptor list or step list: prints its handle @H\n"
    "  records                      list the records the firmware holds\n"
    "  forget @H                    free a record\n"
    "  units                        print the firmware's unit table\n"
    "  status                       core state (explained), firmware state, queue indices, referee\n"
    "  read ADDR LEN [--agent]      hex dump of node memory (or an agent register)\n"
    "  write ADDR HEX... [--agent]  write bytes to node memory (or a 64-bit agent register)\n"
    "  nop [--count N]              N NOP commands, every completion checked\n"
    "  stop                         STOP the firmware and wait for the core to exit\n"
    "  referee                      the model's referee counters (exit 1 if any is not 0)\n"
    "  inject ITEM... | clear       arm model faults now (hang@X,Y, axi@N, ...) or disarm them all\n"
    "  submit --op N [...]          one raw submission, fields as given (diagnosis, tests)\n"
    "  faults [--all]               the commands that failed, from the completions the node still holds\n"
    "  drain [--wait]               read and print completions nobody read (a kactl that gave up)\n"
    "  help [COMMAND]               this text, or one command's\n"
    "Link: --link qemu:PATH | jtag:HOST:PORT | xdma:/dev/xdmaN (docs/host.md), else $KACTL_LINK,\n"
    "  else $KACTL_SOCKET (a QEMU host-port socket), else " KH_DEF_LINK ". --socket PATH = qemu:PATH.\n"
    "  --timeout-ms bounds every wait and every round trip on the link; --stats prints the link's\n"
    "  round trips, accesses and bytes at exit.\n"
    "--json: one JSON object per command on stdout, nothing else there (docs/host-interface.md).\n"
    "--progress: a waiting line on stderr for waits past 1 s (the default when stderr is a terminal).\n"
    "Exit: 0 OK; 1 the node reported a non-OK status; 2 usage/input error; 3 node/transport/timeout.\n"
    "`kactl COMMAND --help` describes one command; docs/host-interface.md has the text forms.\n";

struct cmd { const char *name; int (*fn)(int, char **); const char *help; };

static int want_help(int argc, char **argv, const char *help)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            return 1;
        }
    return 0;
}

/* ---- boot ---- */

static const char help_boot[] =
    "usage: kactl boot FW.elf [--units FILE | --enumerate] [--timeout-cycles N] [--entries N]\n"
    "                         [--resume [--keep-pending]] [--rec-handles N] [--rec-bytes N]\n"
    "Holds the core, loads the ELF's segments through the instruction-window and scratchpad\n"
    "load paths, writes the boot block (queue at --queue or 0x800000 in DRAM, per-wait timeout\n"
    "--timeout-cycles, default 1000000) and a fresh command queue (--entries per ring, default\n"
    "256), releases the core and waits until the firmware reports READY.\n"
    "  --units FILE   the unit table instead of enumeration: one unit per line `X,Y TYPE DEPTH\n"
    "                 [VERSION [BUFFERS]]`, TYPE = NP, TU or a number; # comments\n"
    "  --enumerate    the firmware finds the units (the default)\n"
    "  --resume       keep the queue and its indices (firmware restart): the host's next\n"
    "                 submission continues where the last one stopped; earlier commands are\n"
    "                 accounted for as by `kactl restart` (discarded unless --keep-pending)\n"
    "  --rec-handles N, --rec-bytes N   the records' limits in the boot block (0: the firmware's\n"
    "                 defaults, 8 records and 256 KB; at most 8 and 1 MB, bytes a multiple of 32;\n"
    "                 sent as given: the firmware refuses limits out of range)\n"
    "Every argument is checked before the node is touched (exit 2, nothing sent): the image;\n"
    "--entries a power of two 1..4096; --timeout-cycles not 0; the queue (--queue) 32-byte\n"
    "aligned, header and rings in memory the image's core reaches (RV32: DRAM below 0x70000000;\n"
    "RV64: 4 GB DRAM or the 2 MB staging store), clear of the RV32 firmware's DRAM\n"
    "0x400000-0x40ffff and of kactl's data area 0x900000-0x18fffff.\n";

/* The control agent's {y,x} on every node (docs/hardware.md §1.1: x 0, y 1). */
#define KACTL_AGENT_YX 0x10u

static unsigned parse_units(const char *path, struct kx_unit_entry *u)
{
    size_t len;
    char *text = read_text(path, &len);
    unsigned n = 0, line = 0, lines[KX_BOOT_MAX_UNITS];
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *h = strchr(l, '#');
        if (h)
            *h = 0;
        char *tok[6];
        unsigned nt = 0;
        for (char *s2 = NULL, *t = strtok_r(l, " \t\r", &s2); t && nt < 6; t = strtok_r(NULL, " \t\r", &s2))
            tok[nt++] = t;
        if (nt == 0)
            continue;
        if (nt < 3 || nt > 5)
            die(EX_USAGE, "%s:%u: expected `X,Y TYPE DEPTH [VERSION [BUFFERS]]`", path, line);
        if (n == KX_BOOT_MAX_UNITS)
            die(EX_USAGE, "%s:%u: more than %u units", path, line, KX_BOOT_MAX_UNITS);
        struct kx_unit_entry *e = &u[n++];
        memset(e, 0, sizeof *e);
        if (kh_parse_target(tok[0], &e->yx))
            die(EX_USAGE, "%s:%u: `%s` is not a coordinate X,Y", path, line, tok[0]);
        uint64_t v;
        if (!strcasecmp(tok[1], "NP"))
            e->type = 0x4E50;
        else if (!strcasecmp(tok[1], "TU"))
            e->type = 0x5455;
        else if (!kh_parse_u64(tok[1], &v) && v <= 0xFFFF)
            e->type = (uint16_t)v;
        else
            die(EX_USAGE, "%s:%u: type `%s` is not NP, TU or a 16-bit number", path, line, tok[1]);
        e->inst_depth = (uint16_t)num_arg("DEPTH", tok[2], 0xFFFF);
        e->version = nt > 3 ? (uint8_t)num_arg("VERSION", tok[3], 0xFF) : 1;
        e->buffers = nt > 4 ? (uint8_t)num_arg("BUFFERS", tok[4], 0xF) : 0;
        /* The firmware's own rules for a table (its refusal is only "reason 7"), checked here
         * so the line and the rule are named and nothing is flashed: no depth 0 (no credit
         * could ever be seeded), nothing at 0,0 (the mesh corner holds no unit), nothing at the
         * control agent's own coordinate 0,1 (docs/hardware.md §1.1), no coordinate twice. */
        unsigned x = e->yx & 15u, y = e->yx >> 4;
        lines[n - 1] = line;
        if (e->inst_depth == 0)
            die(EX_USAGE, "%s:%u: unit %u,%u has DEPTH 0: no instruction could ever be sent to it; nothing was sent",
                path, line, x, y);
        if (e->yx == 0)
            die(EX_USAGE, "%s:%u: 0,0 is the mesh's corner, which holds no unit; nothing was sent", path, line);
        if (e->yx == KACTL_AGENT_YX)
            die(EX_USAGE, "%s:%u: %u,%u is the control agent's own coordinate, not a unit; nothing was sent",
                path, line, x, y);
        for (unsigned k = 0; k + 1 < n; k++)
            if (u[k].yx == e->yx)
                die(EX_USAGE, "%s:%u: unit %u,%u is already listed on line %u; nothing was sent", path, line,
                    x, y, lines[k]);
    }
    free(text);
    if (n == 0)
        die(EX_USAGE, "%s: no unit (use --enumerate to let the firmware find them)", path);
    return n;
}

static const char *op_name(unsigned op)
{
    static const char *const names[] = { "NOP", "REPLAY", "DISPATCH", "RUN", "UNITS", "STOP" };
    return op < sizeof names / sizeof names[0] ? names[op] : "unknown op";
}

/* ---- every command accounted for across a restart ---- */

struct earlier { unsigned ran, aborted, discarded, kept; uint64_t want; };

/* The core is held (or stopped): what happens to each command of the queue not yet completed
 * and read. Completions posted and not read: they ran; read and printed now. A submission taken
 * and not completed: the restart completes it ABORTED (printed after READY). Submissions written
 * and never taken: withdrawn (discarded, printed) unless keep, when they run after the restart
 * and their completions are waited for and printed. ea->want is the cq_tail to wait for. */
static void account_before(const char *cmd, int keep, struct earlier *ea)
{
    struct kq_cpl c[16];
    unsigned got;
    memset(ea, 0, sizeof *ea);
    do {
        if (kh_reap(&node, &queue, c, 16, &got))
            node_die("reading completions posted before the restart");
        for (unsigned i = 0; i < got; i++, ea->ran++)
            print_cpl("earlier: ran before the restart", &c[i]);
    } while (got);
    struct kq_header h;
    if (kh_mem_read(&node, queue.addr, &h, sizeof h))
        node_die("reading the queue");
    if (h.sq_head.value != h.cq_tail.value)
        printf("%s: earlier: tag %u (taken, not completed) is aborted by the restart\n", cmd, h.sq_head.tag);
    struct kq_sub *p = calloc(queue.sq_entries, sizeof *p);
    uint64_t head;
    if (!p)
        die(EX_NODE, "out of memory");
    if (kh_queue_pending(&node, &queue, p, queue.sq_entries, &got, &head))
        node_die("reading pending submissions");
    for (unsigned i = 0; i < got; i++)
        printf("%s: earlier: tag %u (%s, submitted and never taken) %s\n", cmd, p[i].tag, op_name(p[i].op),
               keep ? "is kept: it runs after the restart (--keep-pending)" :
                      "is discarded: it never runs (--keep-pending would run it)");
    free(p);
    if (keep) {
        ea->kept = got;
    } else {
        uint64_t w;
        if (kh_queue_withdraw(&node, &queue, &w))
            node_die("withdrawing submissions made before the restart");
        ea->discarded = (unsigned)w;
    }
    ea->want = queue.sq_tail;
}

/* After READY: the ABORTED completion and, with keep, the kept commands' completions. */
static void account_after(const char *cmd, struct earlier *ea)
{
    if (queue.cq_head < ea->want && kh_wait_cq(&node, &queue, ea->want, "the completions of commands submitted before the restart"))
        node_die(cmd);
    struct kq_cpl c[16];
    unsigned got;
    do {
        if (kh_reap(&node, &queue, c, 16, &got))
            node_die("reading completions posted after the restart");
        for (unsigned i = 0; i < got; i++) {
            int ab = c[i].status == KS_ABORTED;
            ea->aborted += ab;
            ea->ran += !ab;
            print_cpl(ab ? "earlier: aborted by the restart" : "earlier: ran after the restart", &c[i]);
        }
    } while (got);
    printf("%s: earlier commands: %u ran, %u aborted, %u discarded\n", cmd, ea->ran, ea->aborted, ea->discarded);
    j_num(&J, "earlier_ran", ea->ran);
    j_num(&J, "earlier_aborted", ea->aborted);
    j_num(&J, "earlier_discarded", ea->discarded);
}

/* The queue must be READY with a running core before anything is submitted; commands an
 * earlier kactl left behind (it timed out, or was interrupted) are waited for (bounded) and
 * their completions printed, so this command's completion is the next one posted. */
static void attach_for_submit(const char *cmd)
{
    attach_queue();
    struct kh_core_status cs;
    struct kh_queue_view v;
    if (kh_core_status(&node, &cs) || kh_queue_view(&node, &queue, &v))
        node_die(cmd);
    if (cs.state != KHP_CPU_RUNNING || v.fw.state != KQ_STATE_READY) {
        char ex[256];
        kh_explain_core(&cs, ex, sizeof ex);
        die(EX_NODE, "%s: nothing sent: the firmware is %s and the core %s; `kactl restart` (or `kactl boot`) "
            "first", cmd, kh_fw_state_name(v.fw.state), ex);
    }
    if (v.sq_tail != queue.sq_tail)
        die(EX_NODE, "%s: nothing sent: the queue's sq_tail line reads %llu, the host's index %llu", cmd,
            (unsigned long long)v.sq_tail, (unsigned long long)queue.sq_tail);
    if (v.cq_tail != queue.sq_tail) {
        fprintf(stderr, "kactl: %s: waiting for %llu earlier command(s) (tags up to %u) to complete first\n", cmd,
                (unsigned long long)(queue.sq_tail - v.cq_tail), (uint32_t)queue.sq_tail);
        if (kh_wait_cq(&node, &queue, queue.sq_tail, "earlier commands to complete"))
            die(EX_NODE, "%s: nothing sent: %s; `kactl restart` aborts a running command and discards queued ones",
                cmd, kh_error(&node));
    }
    struct kq_cpl c[16];
    unsigned got;
    do {
        if (kh_reap(&node, &queue, c, 16, &got))
            node_die(cmd);
        for (unsigned i = 0; i < got; i++)
            print_cpl("earlier: completed after its kactl stopped waiting", &c[i]);
    } while (got);
}

static int cmd_boot(int argc, char **argv)
{
    const char *elf = NULL, *units = NULL;
    uint32_t wait = KH_DEF_WAIT_CYCLES, entries = KH_DEF_ENTRIES;
    int resume = 0, keep = 0;
    uint32_t rec_handles = 0, rec_bytes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rec-handles"))
            rec_handles = (uint32_t)num_arg("--rec-handles", argv[++i], 65535);
        else if (!strcmp(argv[i], "--rec-bytes"))
            rec_bytes = (uint32_t)num_arg("--rec-bytes", argv[++i], UINT32_MAX);
        else if (!strcmp(argv[i], "--units"))
            units = argv[++i] ? argv[i] : (die(EX_USAGE, "--units needs a file"), NULL);
        else if (!strcmp(argv[i], "--enumerate"))
            units = NULL;
        else if (!strcmp(argv[i], "--timeout-cycles"))
            wait = (uint32_t)num_arg("--timeout-cycles", argv[++i], UINT32_MAX);
        else if (!strcmp(argv[i], "--entries"))
            entries = (uint32_t)num_arg("--entries", argv[++i], KQ_MAX_ENTRIES);
        else if (!strcmp(argv[i], "--resume"))
            resume = 1;
        else if (!strcmp(argv[i], "--keep-pending"))
            keep = 1;
        else if (argv[i][0] == '-')
            die(EX_USAGE, "boot: unknown option %s (see kactl boot --help)", argv[i]);
        else if (!elf)
            elf = argv[i];
        else
            die(EX_USAGE, "boot: one image only");
    }
    if (!elf)
        die(EX_USAGE, "boot: which image? (kactl boot FW.elf)");
    if (keep && !resume)
        die(EX_USAGE, "boot: --keep-pending needs --resume (a fresh queue has nothing pending)");
    /* Every argument is checked before the node is touched: exit 2 with nothing sent. */
    if (wait == 0)
        die(EX_USAGE, "--timeout-cycles 0: every wait would time out at once (the firmware refuses it, boot "
            "block reason 6); nothing was sent");
    size_t len;
    uint8_t *img = (uint8_t *)read_file(elf, &len);
    struct kh_elf e;
    char err[KH_ERR_LEN];
    if (kh_elf_parse(img, len, &e, err, sizeof err))
        die(EX_USAGE, "%s: %s", elf, err);
    struct kx_unit_entry ut[KX_BOOT_MAX_UNITS];
    unsigned nu = units ? parse_units(units, ut) : 0;
    uint64_t qaddr = g.queue ? g.queue : KH_DEF_QUEUE_UG;
    /* With --resume the ring sizes are the queue's own (checked again when attaching). */
    if (kh_queue_place_check(e.variant, qaddr, resume ? 1 : entries, err, sizeof err))
        die(EX_USAGE, "boot: %s; nothing was sent", err);

    connect_node();
    if (e.variant != node.variant)
        die(EX_USAGE, "%s is an RV%u image but the node's core is RV%u; nothing was sent", elf, e.variant,
            node.variant);
    /* --resume needs the queue it resumes: found (read only) before anything is flashed. */
    if (resume && kh_queue_attach(&node, &queue, qaddr))
        die(EX_NODE, "--resume: %s; nothing was flashed", kh_error(&node));
    if (!resume) {
        /* A fresh queue replaces whatever was there: say what it takes with it. No queue (or an
         * unreadable one) there is the normal first boot and says nothing. */
        struct kh_queue old;
        struct kh_queue_view ov;
        if (!kh_queue_attach(&node, &old, qaddr) && !kh_queue_view(&node, &old, &ov) &&
            (ov.sq_tail != ov.cq_tail || ov.cq_tail != ov.cq_head))
            printf("boot: the earlier queue at 0x%llx had %llu command(s) not completed and %llu completion(s) "
                   "not read: the fresh queue discards them (--resume keeps the queue and accounts for each)\n",
                   (unsigned long long)qaddr, (unsigned long long)(ov.sq_tail - ov.cq_tail),
                   (unsigned long long)(ov.cq_tail - ov.cq_head));
    }
    if (kh_core_hold(&node, true))
        node_die("holding the core");
    if (kh_load_elf(&node, &e))
        node_die("flashing");
    char what[512];
    kh_elf_describe(&e, what, sizeof what);
    printf("boot: flashed %s: %s\n", elf, what);
    fflush(stdout);     /* before any failure message on stderr: scripts read the last line */
    struct kx_bootblock bb;
    kh_bootblock_make(&bb, qaddr, wait, nu ? ut : NULL, nu);
    /* sent as given: the firmware refuses limits out of range (KX_BOOT_BAD_RECORDS) */
    bb.rec_handles = (uint16_t)rec_handles;
    bb.rec_bytes = rec_bytes;
    if (kh_bootblock_write(&node, &bb))
        node_die("boot block");
    struct earlier ea;
    if (resume) {
        queue.timeout_ms = g.timeout_ms;
        account_before("boot", keep, &ea);
        /* The core is held, so the firmware's state line has no writer now: mark it BOOTING so
         * READY below is this boot's, not the last one's. */
        struct kq_fw_state fw = { 0 };
        if (kh_mem_write(&node, qaddr + offsetof(struct kq_header, fw), &fw, sizeof fw))
            node_die("resetting the state line");
    } else if (kh_queue_create(&node, &queue, qaddr, entries, entries)) {
        node_die("creating the queue");
    }
    queue.timeout_ms = g.timeout_ms;
    if (kh_core_hold(&node, false))
        node_die("releasing the core");
    if (kh_wait_ready(&node, &queue))
        node_die("booting");
    struct kh_core_status cs;
    struct kh_queue_view v;
    if (kh_core_status(&node, &cs) || kh_queue_view(&node, &queue, &v))
        node_die("reading the node");
    printf("boot: READY on RV%u, %u units (%s), queue 0x%llx (%u entries), sq %llu/%llu cq %llu/%llu\n",
           node.variant, v.units.count, nu ? "from --units" : "enumerated",
           (unsigned long long)qaddr, queue.sq_entries, (unsigned long long)v.sq_head,
           (unsigned long long)v.sq_tail, (unsigned long long)v.cq_head, (unsigned long long)v.cq_tail);
    /* Two counts that differ by design: the host port's, from the release until it was read
     * just now (the idle polling after READY included), and the firmware's own at READY. RV64's
     * minstret under QEMU counts from QEMU's start, the time held included
     * (docs/host-interface.md §9), so it is not presented as the boot's cost. */
    printf("boot: since the release, read now (idle polling after READY included): cycles=%llu instret=%llu\n",
           (unsigned long long)cs.cycles, (unsigned long long)cs.instret);
    if (v.ready_instret && node.variant == 32)
        printf("boot: release to READY took %llu instructions, %llu cycles (firmware's count)\n",
               (unsigned long long)v.ready_instret, (unsigned long long)v.ready_cycles);
    else if (v.ready_instret)
        printf("boot: the firmware's minstret=%llu mcycle=%llu at READY count from QEMU's start, the time the core "
               "was held included: not the boot's cost (`make bench` measures it)\n",
               (unsigned long long)v.ready_instret, (unsigned long long)v.ready_cycles);
    j_num(&J, "variant", node.variant);
    j_num(&J, "units", v.units.count);
    j_str(&J, "unit_source", nu ? "units_file" : "enumerated");
    j_hex(&J, "queue", qaddr);
    j_num(&J, "entries", queue.sq_entries);
    j_num(&J, "cycles", cs.cycles);
    j_num(&J, "instret", cs.instret);
    j_num(&J, "ready_instret", v.ready_instret);
    j_num(&J, "ready_cycles", v.ready_cycles);
    j_str(&J, "image", elf);
    if (resume)
        account_after("boot", &ea);
    return EX_OK;
}

/* ---- restart ---- */

static const char help_restart[] =
    "usage: kactl restart [--keep-pending]\n"
    "Restarts the firmware in place: holds the core, marks the state line BOOTING (the core has\n"
    "no other writer while held), releases it from PC 0 with the same image, boot block and\n"
    "queue, and waits for READY. The firmware resumes the queue's indices. Every command not yet\n"
    "completed and read is accounted for and printed: completions already posted (`ran before\n"
    "the restart`), a command taken and not finished (completed ABORTED by the firmware: `aborted\n"
    "by the restart`), and commands submitted and never taken: discarded (withdrawn from the ring\n"
    "while the core is held, so nothing submitted before a restart runs after it), or with\n"
    "--keep-pending run after the restart and their completions printed (`ran after the restart`).\n"
    "The last line counts them: `restart: earlier commands: N ran, N aborted, N discarded`.\n";

static int cmd_restart(int argc, char **argv)
{
    int keep = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--keep-pending"))
            keep = 1;
        else
            die(EX_USAGE, "usage: kactl restart [--keep-pending]");
    }
    connect_node();
    attach_queue();
    struct kq_fw_state fw = { 0 };
    struct earlier ea;
    if (kh_core_hold(&node, true))
        node_die("holding the core");
    account_before("restart", keep, &ea);
    if (kh_mem_write(&node, queue.addr + offsetof(struct kq_header, fw), &fw, sizeof fw))
        node_die("resetting the state line");
    if (kh_core_hold(&node, false))
        node_die("releasing the core");
    if (kh_wait_ready(&node, &queue))
        node_die("restarting");
    struct kh_queue_view v;
    if (kh_queue_view(&node, &queue, &v))
        node_die("reading the queue");
    printf("restart: READY, sq %llu/%llu cq %llu/%llu\n", (unsigned long long)v.sq_head,
           (unsigned long long)v.sq_tail, (unsigned long long)v.cq_head, (unsigned long long)v.cq_tail);
    j_str(&J, "firmware", "READY");
    j_num(&J, "sq_tail", v.sq_tail);
    j_num(&J, "cq_tail", v.cq_tail);
    account_after("restart", &ea);
    return EX_OK;
}

/* ---- replay ---- */

static const char help_replay[] =
    "usage: kactl replay FILE|@H\n"
    "Runs a mover descriptor list given in its text form: one register write `OFFSET VALUE` per\n"
    "line (C numbers, 0x.. or decimal), `#` comments, blank lines; a CTRL write with GO ends a\n"
    "move. The list goes to kactl's data area (0x900000) and one REPLAY command runs it; each\n"
    "move's status is printed (moves after a failure did not run). @H: the list recorded as H\n"
    "(kactl record), run with no check and no read of host memory.\n";

static int by_handle(const char *what, unsigned op, const char *arg);

static int cmd_replay(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-')
        die(EX_USAGE, "usage: kactl replay FILE|@H");
    if (argv[1][0] == '@')
        return by_handle("replay", KQ_OP_REPLAY, argv[1]);
    uint32_t n;
    struct kd_write *w = parse_list(argv[1], &n);
    connect_node();
    attach_for_submit("replay");
    uint64_t a = data_put(w, kd_list_bytes(n));
    struct kq_sub s = { .op = KQ_OP_REPLAY, .addr = a, .count = n };
    struct kq_cpl c;
    int rc = command("replay", &s, &c);
    /* Per move. REPLAY's value: moves done when OK; else the write concerned in [63:32] for
     * the mover's statuses (0x10-0x1F validation, faults, timeouts). The queue's own input
     * statuses (address, length) concern the whole list. */
    int indexed = c.status != KS_OK && !(KS_IS_INPUT(c.status) && c.status < 0x10);
    uint32_t at = indexed ? (uint32_t)(c.value >> 32) : n;
    int refused = KS_IS_INPUT(c.status);
    unsigned mv = 0;
    uint32_t first = 0;
    j_open(&J, "moves", 1);
    for (uint32_t i = 0; i < n; i++) {
        if (!kd_is_go(&w[i]) && i + 1 < n)
            continue;
        const char *st;
        if (c.status == KS_OK)
            st = "OK";
        else if (indexed && at >= first && at <= i)
            st = kh_status_name(c.status);
        else if (refused || at < first)
            st = "not run";
        else
            st = "OK";
        printf("  move %u (writes %u-%u): %s\n", mv, first, i, st);
        j_open(&J, NULL, 0);
        j_num(&J, "move", mv);
        j_num(&J, "first_write", first);
        j_num(&J, "last_write", i);
        j_str(&J, "outcome", st);
        j_close(&J);
        mv++;
        first = i + 1;
    }
    j_close(&J);
    free(w);
    return rc;
}

/* ---- dispatch ---- */

static const char help_dispatch[] =
    "usage: kactl dispatch FILE --target X,Y [--target X,Y ...] [--txn N] [--credit N]\n"
    "Sends a program to one or more units (at most 8) through the firmware: FILE has one 256-bit\n"
    "CU_INST payload per line, either four 64-bit words `W0 W1 W2 W3` (W0 = payload bits [63:0];\n"
    "an NPU instruction is W3) or one 64-hex-digit number written most significant digit first;\n"
    "`#` comments. The firmware sets `last` on the final one. --txn: the program id (0-255);\n"
    "--credit: cap on the credit seeded (0 = the unit's inst_depth).\n";

static int cmd_dispatch(int argc, char **argv)
{
    const char *file = NULL;
    struct kq_sub s = { .op = KQ_OP_DISPATCH };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target")) {
            if (!argv[++i])
                die(EX_USAGE, "--target needs X,Y");
            if (s.ntargets == KQ_MAX_TARGETS)
                die(EX_USAGE, "at most %u targets", KQ_MAX_TARGETS);
            if (kh_parse_target(argv[i], &s.targets[s.ntargets++]))
                die(EX_USAGE, "--target `%s` is not X,Y with 0 <= X, Y <= 15", argv[i]);
        } else if (!strcmp(argv[i], "--txn")) {
            s.txn = (uint8_t)num_arg("--txn", argv[++i], 255);
        } else if (!strcmp(argv[i], "--credit")) {
            s.credit_cap = (uint16_t)num_arg("--credit", argv[++i], 65535);
        } else if (argv[i][0] == '-') {
            die(EX_USAGE, "dispatch: unknown option %s", argv[i]);
        } else if (!file) {
            file = argv[i];
        } else {
            die(EX_USAGE, "dispatch: one program file only");
        }
    }
    if (!file || !s.ntargets)
        die(EX_USAGE, "usage: kactl dispatch FILE --target X,Y [...]");
    uint32_t n;
    uint64_t (*p)[4] = parse_prog(file, &n);
    connect_node();
    attach_for_submit("dispatch");
    s.addr = put_prog(p, n);
    s.count = n;
    struct kq_cpl c;
    free(p);
    int rc = command("dispatch", &s, &c);
    if (c.status == KS_OK) {
        /* The unit's own report: its NODE_STATUS word (docs/hardware.md §1) holds its last
         * signal, a BATCH_COMPLETE whose arg is the txn (the unit's exec_result of the last
         * instruction is not kept by the hardware), and how many signals it has sent (16 bits). */
        printf("dispatch: %llu instruction(s) sent in all (%u to each of %u target(s)), every one completed\n",
               (unsigned long long)c.value, n, s.ntargets);
        j_num(&J, "instructions", c.value);
        j_open(&J, "units", 1);
        for (unsigned t = 0; t < s.ntargets; t++) {
            uint64_t ns;
            if (kh_agent_read(&node, KA_NODE_STATUS(s.targets[t]), &ns))
                node_die("reading the unit's NODE_STATUS");
            unsigned code = (unsigned)(ns >> 56);
            uint32_t arg = (uint32_t)(ns >> 24);
            static const char *const sig[] = { "INST_COMPLETE", "BATCH_COMPLETE", "?", "?", "FAULT" };
            const char *sn = code < 5 ? sig[code] : "?";
            printf("  unit %u,%u: last signal %s, result 0x%x%s, signal count %u (16 bits, wraps)\n", s.targets[t] & 15,
                   s.targets[t] >> 4, sn, arg, code == 1 ? " (its txn)" : "",
                   (unsigned)((ns >> 8) & 0xFFFF));
            j_open(&J, NULL, 0);
            j_num(&J, "x", s.targets[t] & 15u);
            j_num(&J, "y", s.targets[t] >> 4);
            j_str(&J, "last_signal", sn);
            j_hex(&J, "result", arg);
            j_num(&J, "signals", (ns >> 8) & 0xFFFF);
            j_close(&J);
        }
        j_close(&J);
    }
    return rc;
}

/* ---- run ---- */

static const char help_run[] =
    "usage: kactl run FILE|@H\n"
    "Runs a step list with one RUN command. One step per line, `#` comments:\n"
    "  dispatch X,Y PROGRAM [txn N] [credit N]   send a program file (dispatch's form); no wait\n"
    "  replay LIST                               a descriptor list file; waits for every move\n"
    "  replay @H                                 the descriptor list recorded as H\n"
    "  wait X,Y N                                until N programs dispatched to X,Y have completed\n"
    "  barrier                                   until every dispatched program has completed\n"
    "  signal VALUE                              write VALUE to the queue's progress line\n"
    "File names are relative to the step file's directory. A failure names the step.\n"
    "@H: the step list recorded as H (kactl record), run with no check and no host read.\n";

/* A step list file: parsed (every file it names too) before the node is touched, then its
 * programs and lists and the steps put in kactl's data area. Returns the steps' address; the
 * parsed steps (for naming a failed one) in *src. `replay @H` steps name a record. */
static uint64_t steps_put(const char *what, const char *file, uint32_t *n, struct kh_step_src **src)
{
    size_t len;
    char *text = read_file(file, &len);
    char *dcopy = strdup(file);
    struct kh_step_src *st = calloc(KH_STEPS_MAX, sizeof *st);
    struct kh_text_err e;
    if (kh_parse_steps(text, len, dirname(dcopy), st, KH_STEPS_MAX, n, &e))
        text_die(file, &e);
    /* Parse every file before touching the node: bad input sends nothing. */
    void **blob = calloc(*n, sizeof *blob);
    size_t *blen = calloc(*n, sizeof *blen);
    struct kq_step *steps = calloc(*n, sizeof *steps);
    if (!blob || !blen || !steps)
        die(EX_NODE, "out of memory");
    uint64_t total = data_span((size_t)*n * sizeof steps[0]);
    for (uint32_t i = 0; i < *n; i++) {
        blob[i] = NULL;
        if (st[i].step.op == KQ_STEP_DISPATCH) {
            uint32_t k;
            blob[i] = parse_prog(st[i].file, &k);
            blen[i] = (size_t)k * KQ_PAYLOAD_BYTES;
            st[i].step.n = k;
        } else if (st[i].step.op == KQ_STEP_REPLAY) {
            uint32_t k;
            blob[i] = parse_list(st[i].file, &k);
            blen[i] = kd_list_bytes(k);
            st[i].step.n = k;
        }
        if (blob[i])
            total += data_span(blen[i]);
    }
    data_fits(what, total);
    connect_node();
    attach_for_submit(what);
    for (uint32_t i = 0; i < *n; i++) {
        if (blob[i])
            st[i].step.addr = data_put(blob[i], blen[i]);
        steps[i] = st[i].step;
        free(blob[i]);
    }
    uint64_t a = data_put(steps, *n * sizeof steps[0]);
    free(steps);
    free(blob);
    free(blen);
    free(dcopy);
    free(text);
    *src = st;
    return a;
}

/* A handle argument: `@H` or `H` (C number, not 0). */
static uint32_t handle_arg(const char *s)
{
    return (uint32_t)num_arg("handle", s[0] == '@' ? s + 1 : s, UINT32_MAX);
}

/* REPLAY or RUN of a record (`kactl replay @H`, `kactl run @H`). */
static int by_handle(const char *what, unsigned op, const char *arg)
{
    uint32_t h = handle_arg(arg);
    connect_node();
    attach_for_submit(what);
    struct kq_cpl c;
    if (kh_run_handle(&node, &queue, op, h, &c))
        node_die(what);
    print_cpl(what, &c);
    return c.status == KS_OK ? EX_OK : EX_STATUS;
}

static int cmd_run(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-')
        die(EX_USAGE, "usage: kactl run FILE|@H");
    if (argv[1][0] == '@')
        return by_handle("run", KQ_OP_RUN, argv[1]);
    uint32_t n;
    struct kh_step_src *st;
    uint64_t a = steps_put("run", argv[1], &n, &st);
    struct kq_sub s = { .op = KQ_OP_RUN, .addr = a, .count = n };
    struct kq_cpl c;
    int rc = command("run", &s, &c);
    static const char *const step_name[] = { "?", "dispatch", "replay", "wait", "barrier", "signal",
                                             "replay @" };
    uint32_t at = (uint32_t)(c.value >> 48);
    if (c.status != KS_OK && at < n)
        printf("  failed at step %u (%s:%u: %s); inner value 0x%llx\n", at, argv[1], st[at].line,
               st[at].step.op <= 6 ? step_name[st[at].step.op] : "?",
               (unsigned long long)(c.value & 0xFFFFFFFFFFFFull));
    /* Every step's outcome (docs/host-interface.md §6): all OK when the RUN is; a refusal of the
     * list (an input status other than CHANGED) ran nothing; otherwise the steps before the
     * failed one ran, none after. */
    int refused = KS_IS_INPUT(c.status) && c.status != KS_CHANGED;
    char inner[512];
    struct kq_cpl in = c;
    in.value &= RUN_INNER_MASK;
    kh_explain_cpl(&in, inner, sizeof inner);
    j_open(&J, "steps", 1);
    for (uint32_t i = 0; i < n; i++) {
        const char *out = c.status == KS_OK ? "OK" : i == at ? kh_status_name(c.status)
                        : i < at && !refused ? "OK" : "not run";
        const char *nm = st[i].step.op <= 6 ? step_name[st[i].step.op] : "?";
        printf("  step %u (%s:%u: %s): %s%s%s\n", i, argv[1], st[i].line, nm, out,
               i == at && c.status != KS_OK ? " - " : "", i == at && c.status != KS_OK ? inner : "");
        j_open(&J, NULL, 0);
        j_num(&J, "index", i);
        j_num(&J, "line", st[i].line);
        j_str(&J, "step", nm);
        j_str(&J, "outcome", out);
        j_close(&J);
    }
    j_close(&J);
    free(st);
    return rc;
}

/* ---- records ---- */

static const char help_record[] =
    "usage: kactl record FILE\n"
    "Records a descriptor list (replay's text form) or a step list (run's text form, told by its\n"
    "first word) with one RECORD command: the firmware checks it as REPLAY or RUN would and keeps\n"
    "a copy in memory it owns. Prints the handle, @H: `kactl replay @H` / `kactl run @H` then run\n"
    "it with no check and no read of the file's data, `replay @H` names it in a step list,\n"
    "`kactl forget @H` frees it. Records do not survive a firmware restart.\n";

/* Is the first word of the text (past comments and blanks) a step name (a letter)? */
static int is_step_text(const char *t, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '#') {
            while (i < len && t[i] != '\n')
                i++;
        } else if (!isspace((unsigned char)t[i])) {
            return isalpha((unsigned char)t[i]) != 0;
        }
    }
    return 0;
}

static int cmd_record(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-')
        die(EX_USAGE, "usage: kactl record FILE");
    size_t len;
    char *text = read_file(argv[1], &len);
    int steps = is_step_text(text, len);
    free(text);
    uint32_t n;
    uint64_t a;
    struct kh_step_src *st = NULL;
    if (steps) {
        a = steps_put("record", argv[1], &n, &st);
    } else {
        struct kd_write *w = parse_list(argv[1], &n);
        connect_node();
        attach_for_submit("record");
        a = data_put(w, kd_list_bytes(n));
        free(w);
    }
    struct kq_cpl c;
    if (kh_record(&node, &queue, a, n, steps, &c))
        node_die("record");
    print_cpl("record", &c);
    if (c.status == KS_OK)
        printf("handle @0x%x (%s, %u %s)\n", (unsigned)c.value, steps ? "step list" : "descriptor list",
               c.detail, steps ? "steps" : "writes");
    else if (steps && (uint32_t)(c.value >> 48) < n)
        printf("  failed at step %u (%s:%u)\n", (unsigned)(c.value >> 48), argv[1], st[c.value >> 48].line);
    free(st);
    return c.status == KS_OK ? EX_OK : EX_STATUS;
}

static const char help_records[] =
    "usage: kactl records\n"
    "Lists the records the firmware holds (RECORDS): handle, kind, writes or steps, bytes,\n"
    "and where in the record area; then the count and the free bytes.\n";

static int cmd_records(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        die(EX_USAGE, "usage: kactl records");
    connect_node();
    attach_for_submit("records");
    struct kq_rec_info r[KQ_REC_MAX_HANDLES];
    unsigned got;
    struct kq_cpl c;
    /* the answer goes to kactl's data area, 32-byte aligned */
    if (kh_records(&node, &queue, KH_DEF_DATA_UG, r, KQ_REC_MAX_HANDLES, &got, &c))
        node_die("records");
    print_cpl("records", &c);
    for (unsigned i = 0; i < got; i++)
        printf("  @0x%x %s %u %s, %u bytes at 0x%x\n", r[i].handle,
               r[i].handle & KQ_H_STEPS ? "steps" : "list", r[i].count,
               r[i].handle & KQ_H_STEPS ? "steps" : "writes", r[i].bytes, r[i].offset);
    if (c.status == KS_OK)
        printf("records: %llu held, %u bytes free\n", (unsigned long long)c.value, c.detail);
    return c.status == KS_OK ? EX_OK : EX_STATUS;
}

static const char help_forget[] =
    "usage: kactl forget @H\n"
    "Frees the record H (FORGET); its handle is stale from then on.\n";

static int cmd_forget(int argc, char **argv)
{
    if (argc != 2)
        die(EX_USAGE, "usage: kactl forget @H");
    uint32_t h = handle_arg(argv[1]);
    connect_node();
    attach_for_submit("forget");
    struct kq_cpl c;
    if (kh_forget(&node, &queue, h, &c))
        node_die("forget");
    print_cpl("forget", &c);
    return c.status == KS_OK ? EX_OK : EX_STATUS;
}

/* ---- units ---- */

static const char help_units[] =
    "usage: kactl units\n"
    "Asks the firmware to publish its unit table (UNITS) and prints it: coordinate, type,\n"
    "version, buffers, instruction FIFO depth.\n";

static const char *type_name(unsigned t)
{
    return t == 0x4E50 ? "NP" : t == 0x5455 ? "TU" : "?";
}

static int cmd_units(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        die(EX_USAGE, "usage: kactl units");
    connect_node();
    attach_for_submit("units");
    struct kq_sub s = { .op = KQ_OP_UNITS };
    struct kq_cpl c;
    int rc = command("units", &s, &c);
    struct kh_queue_view v;
    if (kh_queue_view(&node, &queue, &v))
        node_die("reading the unit table");
    unsigned n = v.units.count > KQ_MAX_UNITS ? KQ_MAX_UNITS : v.units.count;
    printf("%u units\n", v.units.count);
    j_num(&J, "count", v.units.count);
    j_open(&J, "units", 1);
    for (unsigned i = 0; i < n; i++) {
        struct kx_unit_entry u;
        memcpy(&u, v.units.entries[i], sizeof u);
        printf("  unit %u,%u type=0x%04x (%s) version=%u buffers=%u depth=%u\n", u.yx & 15, u.yx >> 4,
               u.type, type_name(u.type), u.version, u.buffers, u.inst_depth);
        j_open(&J, NULL, 0);
        j_num(&J, "x", u.yx & 15u);
        j_num(&J, "y", u.yx >> 4);
        j_hex(&J, "type", u.type);
        j_str(&J, "type_name", type_name(u.type));
        j_num(&J, "version", u.version);
        j_num(&J, "buffers", u.buffers);
        j_num(&J, "depth", u.inst_depth);
        j_close(&J);
    }
    j_close(&J);
    return rc;
}

/* ---- status ---- */

static const char help_status[] =
    "usage: kactl status\n"
    "The core's state from the processor host registers, explained in words (RV32 halts:\n"
    "ECALL/EBREAK with a0, faults with the PC; RV64 traps: the mcause name, mtval and PC; exit\n"
    "words: clean stop, boot block refusal, assertion), cycles and instructions retired; the\n"
    "waypoint (what the firmware last began waiting for, and since when: docs/host-interface.md\n"
    "§2.2); the firmware's state line (BOOTING/READY/STOPPED/FATAL with its cause and PC), the queue's\n"
    "indices and progress line; the referee counters. Exit 1 when the core or firmware is\n"
    "stopped by a fault.\n";

static int cmd_status(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        die(EX_USAGE, "usage: kactl status");
    connect_node();
    struct kh_core_status cs;
    if (kh_core_status(&node, &cs))
        node_die("reading the core");
    char ex[256];
    kh_explain_core(&cs, ex, sizeof ex);
    int bad = cs.state == KHP_CPU_HALTED || (cs.state == KHP_CPU_EXITED && cs.word != KX_EXIT_OK);
    printf("core: RV%u %s: %s\n", cs.variant, kh_core_state_name(cs.state), ex);
    /* The PC, cause and word registers are latched when the core stops (docs/hardware.md §6):
     * while it runs or is held they say nothing, so they are not shown as if they did. */
    int stopped = cs.state == KHP_CPU_HALTED || cs.state == KHP_CPU_EXITED;
    char pcs[80];
    if (stopped)
        snprintf(pcs, sizeof pcs, "cause=%u word=0x%llx pc=0x%llx", cs.cause, (unsigned long long)cs.word,
                 (unsigned long long)cs.pc);
    else
        snprintf(pcs, sizeof pcs, "pc=- (the PC is reported when the core stops)");
    printf("core: state=%s %s cycles=%llu instret=%llu now_ns=%llu\n", kh_core_state_name(cs.state), pcs,
           (unsigned long long)cs.cycles, (unsigned long long)cs.instret, (unsigned long long)cs.now_ns);
    j_open(&J, "core", 0);
    j_num(&J, "variant", cs.variant);
    j_str(&J, "state", kh_core_state_name(cs.state));
    j_str(&J, "explain", ex);
    if (stopped) {
        j_num(&J, "cause", cs.cause);
        j_hex(&J, "word", cs.word);
        j_hex(&J, "pc", cs.pc);
    }
    j_num(&J, "cycles", cs.cycles);
    j_num(&J, "instret", cs.instret);
    j_num(&J, "now_ns", cs.now_ns);
    j_close(&J);
    /* What the firmware last began waiting for (docs/host-interface.md §2.2). */
    struct kx_waypoint wp;
    struct kx_bootblock wb;
    if (!kh_waypoint_read(&node, &wp) && !kh_bootblock_read(&node, &wb) && wb.magic == KX_BOOT_MAGIC) {
        kh_explain_waypoint(&wp, cs.cycles, wb.wait_cycles, cs.variant == 32, ex, sizeof ex);
        printf("waypoint: %s\n", ex);
        j_str(&J, "waypoint", ex);
    }
    struct kx_bootblock bb;
    uint64_t addr = g.queue;
    if (!addr && !kh_bootblock_read(&node, &bb) && bb.magic == KX_BOOT_MAGIC)
        addr = bb.queue_addr;
    if (!addr) {
        printf("firmware: no boot block in the scratchpad (not booted by kactl)\n");
    } else if (kh_queue_attach(&node, &queue, addr)) {
        printf("firmware: no queue: %s\n", kh_error(&node));
    } else {
        struct kh_queue_view v;
        if (kh_queue_view(&node, &queue, &v))
            node_die("reading the queue");
        printf("firmware: state=%s", kh_fw_state_name(v.fw.state));
        if (v.fw.state == KQ_STATE_FATAL) {
            bad = 1;
            if (v.fw.code == KQ_FATAL_TRAP)
                printf(" code=TRAP: %s (mcause %llu) at pc 0x%llx, mtval 0x%llx",
                       kh_mcause_name(v.fw.cause), (unsigned long long)v.fw.cause,
                       (unsigned long long)v.fw.pc, (unsigned long long)v.fw.tval);
            else if (v.fw.code == KQ_FATAL_ASSERT)
                printf(" code=ASSERT: site 0x%llx, caller 0x%llx, line %llu", (unsigned long long)v.fw.cause,
                       (unsigned long long)v.fw.pc, (unsigned long long)v.fw.tval);
            else if (v.fw.code == KQ_FATAL_QUEUE)
                printf(" code=QUEUE: the host broke the %s rule (host wrote %llu, firmware at %llu)",
                       v.fw.cause == KQ_BROKEN_SQ_TAIL ? "sq_tail" : "cq_head",
                       (unsigned long long)v.fw.pc, (unsigned long long)v.fw.tval);
            else
                printf(" code=%u cause=0x%llx pc=0x%llx tval=0x%llx", v.fw.code,
                       (unsigned long long)v.fw.cause, (unsigned long long)v.fw.pc,
                       (unsigned long long)v.fw.tval);
        }
        printf("\nqueue: addr=0x%llx entries=%u/%u sq_tail=%llu sq_head=%llu cq_tail=%llu cq_head=%llu "
               "progress=0x%llx units=%u\n", (unsigned long long)queue.addr, queue.sq_entries,
               queue.cq_entries, (unsigned long long)v.sq_tail, (unsigned long long)v.sq_head,
               (unsigned long long)v.cq_tail, (unsigned long long)v.cq_head,
               (unsigned long long)v.progress, v.units.count);
        j_open(&J, "firmware", 0);
        j_str(&J, "state", kh_fw_state_name(v.fw.state));
        j_num(&J, "code", v.fw.code);
        j_hex(&J, "cause", v.fw.cause);
        j_hex(&J, "pc", v.fw.pc);
        j_hex(&J, "tval", v.fw.tval);
        j_close(&J);
        j_open(&J, "queue", 0);
        j_hex(&J, "addr", queue.addr);
        j_num(&J, "sq_entries", queue.sq_entries);
        j_num(&J, "cq_entries", queue.cq_entries);
        j_num(&J, "sq_tail", v.sq_tail);
        j_num(&J, "sq_head", v.sq_head);
        j_num(&J, "cq_tail", v.cq_tail);
        j_num(&J, "cq_head", v.cq_head);
        j_hex(&J, "progress", v.progress);
        j_num(&J, "units", v.units.count);
        j_close(&J);
    }
    /* The agent and the mover: quiet (nothing running, RX empty, mover idle) between commands. */
    uint64_t ps, rx, aux;
    if (kh_agent_read(&node, KA_PROG_STAT, &ps) || kh_agent_read(&node, KA_RX_STATUS, &rx) ||
        kh_agent_read(&node, KA_AUX_STAT, &aux))
        node_die("reading the agent");
    printf("agent: PROG_STAT=0x%llx (run %u, left %u) RX_STATUS=0x%llx (%s%s) AUX_STAT=0x%llx "
           "(busy %u, fault %u, moves %llu) %s\n", (unsigned long long)ps, (unsigned)(ps & KA_PROG_STAT_RUN),
           (unsigned)KBF_FIELD_GET(KA_PROG_STAT_LEFT, ps), (unsigned long long)rx,
           rx & KA_RX_STATUS_EMPTY ? "empty" : "not empty", rx & KA_RX_STATUS_OVERFLOW ? ", overflowed" : "",
           (unsigned long long)aux, (unsigned)(aux & KA_AUX_STAT_BUSY), (unsigned)KBF_FIELD_GET(KA_AUX_STAT_FAULT, aux),
           (unsigned long long)KBF_FIELD_GET(KA_AUX_STAT_MOVES, aux),
           !(ps & KA_PROG_STAT_RUN) && (rx & KA_RX_STATUS_EMPTY) && !(aux & KA_AUX_STAT_BUSY) ? "quiet" : "BUSY");
    uint64_t r[KH_REFEREE_COUNT];
    if (kh_referee_read(&node, r))
        node_die("reading the referee");
    printf("referee:");
    j_open(&J, "agent", 0);
    j_hex(&J, "prog_stat", ps);
    j_hex(&J, "rx_status", rx);
    j_hex(&J, "aux_stat", aux);
    j_close(&J);
    j_open(&J, "referee", 0);
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++) {
        printf(" %s=%llu", kh_referee_names[i], (unsigned long long)r[i]);
        j_num(&J, kh_referee_names[i], r[i]);
    }
    j_close(&J);
    printf("\n");
    return bad ? EX_STATUS : EX_OK;
}

/* ---- read / write ---- */

static const char help_read[] =
    "usage: kactl read ADDR LEN [--out FILE]   LEN bytes of node memory at unit-global ADDR: a hex\n"
    "                                  dump, or the raw bytes into FILE (`-`: stdout)\n"
    "       kactl read --agent OFF     one 64-bit control-agent register (docs/hardware.md §1 offset)\n";
static const char help_write[] =
    "usage: kactl write ADDR HEX...    bytes (pairs of hex digits, optional 0x, several arguments\n"
    "                                  concatenated) to node memory at unit-global ADDR\n"
    "       kactl write ADDR --file FILE   the bytes of FILE (`-`: stdin), any size that fits memory\n"
    "       kactl write --raw ADDR ...   also into the firmware's own DRAM (0x400000-0x50ffff: its\n"
    "                                  cold code, copy buffer, records), refused without --raw:\n"
    "                                  for tests that play a stray write and for repairs\n"
    "       kactl write --agent OFF VALUE   one 64-bit control-agent register\n";

/* What is wrong with a HEX argument of `kactl write`, in the user's words. */
static void hex_die(const char *arg)
{
    const char *s = arg;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!*s)
        die(EX_USAGE, "write: `%s` has no hex digits", arg);
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789abcdefABCDEF", *p))
            die(EX_USAGE, "write: `%s`: `%c` (character %u) is not a hex digit (0-9, a-f)", arg, *p,
                (unsigned)(p - arg) + 1);
    die(EX_USAGE, "write: `%s` has %zu hex digits, an odd number: each byte is two digits", arg, strlen(s));
}

/* All of a file or of stdin ("-"): binary, any size. */
static uint8_t *slurp(const char *path, size_t *len)
{
    if (strcmp(path, "-"))
        return (uint8_t *)read_file(path, len);
    size_t cap = 65536, n = 0;
    uint8_t *b = malloc(cap);
    for (;;) {
        if (!b)
            die(EX_NODE, "out of memory reading stdin");
        size_t k = fread(b + n, 1, cap - n, stdin);
        n += k;
        if (k == 0)
            break;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    if (ferror(stdin))
        die(EX_USAGE, "cannot read stdin: %s", strerror(errno));
    *len = n;
    return b;
}

static int cmd_read(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--agent")) {
        uint32_t off = (uint32_t)num_arg("OFF", argv[2], KHP_AGENT_END - 8);
        connect_node();
        uint64_t v;
        if (kh_agent_read(&node, off, &v))
            node_die("read");
        printf("agent[0x%04x] = 0x%016llx\n", off, (unsigned long long)v);
        j_hex(&J, "agent_offset", off);
        j_hex(&J, "value", v);
        return EX_OK;
    }
    const char *outf = NULL;
    if (argc == 5 && !strcmp(argv[3], "--out"))
        outf = argv[4], argc = 3;
    if (argc != 3)
        die(EX_USAGE, "usage: kactl read ADDR LEN [--out FILE]");
    if (outf && g.json && !strcmp(outf, "-"))
        die(EX_USAGE, "read: --out - and --json both want stdout; give --out a file");
    uint64_t a = num_arg("ADDR", argv[1], UINT64_MAX);
    size_t len = (size_t)num_arg("LEN", argv[2], 16u << 20);
    if (!len)
        die(EX_USAGE, "LEN must be at least 1");
    char err[KH_ERR_LEN];
    if (kh_ug_check(a, len, err, sizeof err))
        die(EX_USAGE, "read: %s; nothing was read", err);
    uint8_t *b = malloc(len);
    connect_node();
    if (kh_mem_read(&node, a, b, len))
        node_die("read");
    j_hex(&J, "addr", a);
    j_num(&J, "len", len);
    if (outf) {
        FILE *f = strcmp(outf, "-") ? fopen(outf, "wb") : stdout;
        if (!f || fwrite(b, 1, len, f) != len || fflush(f) || (f != stdout && fclose(f)))
            die(EX_USAGE, "read: cannot write %s: %s", outf, strerror(errno));
        if (f != stdout)
            fprintf(stderr, "kactl: read %zu bytes at 0x%llx into %s\n", len, (unsigned long long)a, outf);
        j_str(&J, "out", outf);
        free(b);
        return EX_OK;
    }
    if (g.json) {
        char *hx = malloc(2 * len + 1);
        for (size_t i = 0; hx && i < len; i++)
            snprintf(hx + 2 * i, 3, "%02x", b[i]);
        if (hx)
            j_str(&J, "data", hx);
        free(hx);
    }
    for (size_t i = 0; i < len; i += 16) {
        printf("%010llx:", (unsigned long long)(a + i));
        for (size_t k = i; k < i + 16 && k < len; k++)
            printf(" %02x", b[k]);
        printf("\n");
    }
    free(b);
    return EX_OK;
}

static int cmd_write(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--agent")) {
        uint32_t off = (uint32_t)num_arg("OFF", argv[2], KHP_AGENT_END - 8);
        uint64_t v = num_arg("VALUE", argv[3], UINT64_MAX);
        connect_node();
        if (kh_agent_write(&node, off, v))
            node_die("write");
        j_hex(&J, "agent_offset", off);
        j_hex(&J, "value", v);
        return EX_OK;
    }
    /* --raw: the firmware's own DRAM too (kh_mem_write_raw) */
    int raw = argc > 1 && !strcmp(argv[1], "--raw");
    if (raw) {
        argc--;
        argv++;
    }
    if (argc < 3)
        die(EX_USAGE, "usage: kactl write [--raw] ADDR HEX... | kactl write [--raw] ADDR --file FILE");
    uint64_t a = num_arg("ADDR", argv[1], UINT64_MAX);
    size_t cap = 0, n = 0;
    uint8_t *b;
    if (!strcmp(argv[2], "--file")) {
        if (argc != 4)
            die(EX_USAGE, "usage: kactl write ADDR --file FILE (`-` for stdin)");
        b = slurp(argv[3], &n);
        if (!n)
            die(EX_USAGE, "write: %s is empty; nothing was written", argv[3]);
    } else {
        for (int i = 2; i < argc; i++)
            cap += strlen(argv[i]) / 2;
        b = malloc(cap + 1);
        for (int i = 2; i < argc; i++)
            if (kh_parse_hex_bytes(argv[i], b, cap, &n))
                hex_die(argv[i]);
    }
    /* The whole range where memory is, before anything is sent: no alias, no wrap, no byte
     * that would vanish (host/check.c). */
    char err[KH_ERR_LEN];
    if (kh_ug_check(a, n, err, sizeof err) || (!raw && kh_fw_own_check(a, n, err, sizeof err)))
        die(EX_USAGE, "write: %s; nothing was written", err);
    connect_node();
    if ((raw ? kh_mem_write_raw(&node, a, b, n) : kh_mem_write(&node, a, b, n)) ||
        kh_flush(&node))                                    /* landed before it says so */
        node_die("write");
    printf("wrote %zu bytes at 0x%llx\n", n, (unsigned long long)a);
    j_hex(&J, "addr", a);
    j_num(&J, "len", n);
    free(b);
    return EX_OK;
}

/* ---- nop ---- */

static const char help_nop[] =
    "usage: kactl nop [--count N]\n"
    "Submits N NOP commands (default 1) as fast as the ring allows and checks that exactly N\n"
    "completions come back, each OK, each tag once, in submission order.\n";

static int cmd_nop(int argc, char **argv)
{
    uint64_t count = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count"))
            count = num_arg("--count", argv[++i], 100000000);
        else
            die(EX_USAGE, "nop: unknown argument %s", argv[i]);
    }
    if (!count)
        die(EX_USAGE, "--count must be at least 1");
    connect_node();
    attach_for_submit("nop");
    uint32_t batch = queue.sq_entries < queue.cq_entries ? queue.sq_entries : queue.cq_entries;
    struct kq_sub *s = calloc(batch, sizeof *s);
    struct kq_cpl *c = calloc(batch, sizeof *c);
    uint64_t done = 0, cycles = 0, bad = 0;
    uint32_t first_tag = queue.next_tag;
    while (done < count) {
        uint32_t k = count - done < batch ? (uint32_t)(count - done) : batch;
        for (uint32_t i = 0; i < k; i++) {
            memset(&s[i], 0, sizeof s[i]);
            s[i].op = KQ_OP_NOP;
            s[i].tag = kh_tag_next(&queue);
        }
        if (kh_submit(&node, &queue, s, k) ||
            kh_wait_cq(&node, &queue, queue.cq_head + k, "the NOP batch's completions"))
            node_die("nop");
        unsigned got = 0;
        if (kh_reap(&node, &queue, c, k, &got))
            node_die("nop");
        if (got != k)
            die(EX_NODE, "nop: %u completions read, %u expected", got, k);
        for (uint32_t i = 0; i < k; i++) {
            if (c[i].tag != s[i].tag)
                die(EX_STATUS, "nop: completion %llu has tag %u, expected %u (lost or duplicated)",
                    (unsigned long long)(done + i), c[i].tag, s[i].tag);
            if (c[i].status != KS_OK)
                bad++;
            cycles += c[i].cycles;
        }
        done += k;
    }
    j_num(&J, "count", done);
    j_num(&J, "not_ok", bad);
    j_num(&J, "first_tag", first_tag);
    j_num(&J, "last_tag", queue.next_tag - 1);
    j_num(&J, "cycles", cycles);
    printf("nop: %llu completed, %llu not OK, tags %u..%u in order, cycles total %llu (%.1f per NOP)\n",
           (unsigned long long)done, (unsigned long long)bad, first_tag, queue.next_tag - 1,
           (unsigned long long)cycles, (double)cycles / (double)done);
    free(s);
    free(c);
    return bad ? EX_STATUS : EX_OK;
}

/* ---- stop ---- */

static const char help_stop[] =
    "usage: kactl stop\n"
    "Sends STOP: the firmware completes it, marks the queue STOPPED and exits; kactl waits for the\n"
    "core to stop and prints how it stopped. A firmware already STOPPED with its core exited is\n"
    "left alone (`stop: already stopped ...`, exit 0): no second STOP is queued to kill the next\n"
    "restart. Any other state than READY: nothing is sent, exit 3.\n";

static int cmd_stop(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        die(EX_USAGE, "usage: kactl stop");
    connect_node();
    attach_queue();
    struct kh_core_status c0;
    struct kh_queue_view v0;
    if (kh_core_status(&node, &c0) || kh_queue_view(&node, &queue, &v0))
        node_die("stop");
    if (v0.fw.state == KQ_STATE_STOPPED && c0.state == KHP_CPU_EXITED) {
        char ex0[256];
        kh_explain_core(&c0, ex0, sizeof ex0);
        printf("stop: already stopped: firmware STOPPED, core %s; nothing sent\n", ex0);
        j_bool(&J, "already_stopped", 1);
        j_str(&J, "core", ex0);
        return c0.word == KX_EXIT_OK ? EX_OK : EX_STATUS;
    }
    attach_for_submit("stop");
    struct kq_sub s = { .op = KQ_OP_STOP };
    struct kq_cpl c;
    int rc = command("stop", &s, &c);
    struct kh_core_status cs;
    uint64_t t0 = kh_ms_now();
    for (;;) {
        if (kh_core_status(&node, &cs))
            node_die("stop");
        if (cs.state != KHP_CPU_RUNNING)
            break;
        if (kh_ms_now() - t0 > g.timeout_ms)
            die(EX_NODE, "stop: timed out after %u ms waiting for the core to stop after the STOP completion",
                g.timeout_ms);
    }
    char ex[256];
    kh_explain_core(&cs, ex, sizeof ex);
    printf("stop: core %s\n", ex);
    j_str(&J, "core", ex);
    if (cs.state != KHP_CPU_EXITED || cs.word != KX_EXIT_OK)
        rc = EX_STATUS;
    return rc;
}

/* ---- submit (raw) ---- */

static const char help_submit[] =
    "usage: kactl submit --op N [--flags N] [--tag N] [--addr A] [--count N] [--txn N]\n"
    "                    [--target X,Y ...] [--credit N]\n"
    "One raw submission, every field as given (no checks, no data written): for diagnosis and\n"
    "for testing the firmware's refusals. Ops: 0 NOP, 1 REPLAY, 2 DISPATCH, 3 RUN, 4 UNITS,\n"
    "5 STOP. --ntargets N overrides the target count; --rsvd V puts V in the first reserved\n"
    "word (which must be 0).\n";

static int cmd_submit(int argc, char **argv)
{
    struct kq_sub s = { 0 };
    int have_op = 0, ntargets = -1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--op"))
            s.op = (uint16_t)num_arg(o, argv[++i], 0xFFFF), have_op = 1;
        else if (!strcmp(o, "--flags"))
            s.flags = (uint16_t)num_arg(o, argv[++i], 0xFFFF);
        else if (!strcmp(o, "--tag"))
            s.tag = (uint32_t)num_arg(o, argv[++i], UINT32_MAX);
        else if (!strcmp(o, "--addr"))
            s.addr = num_arg(o, argv[++i], UINT64_MAX);
        else if (!strcmp(o, "--count"))
            s.count = (uint32_t)num_arg(o, argv[++i], UINT32_MAX);
        else if (!strcmp(o, "--txn"))
            s.txn = (uint8_t)num_arg(o, argv[++i], 255);
        else if (!strcmp(o, "--credit"))
            s.credit_cap = (uint16_t)num_arg(o, argv[++i], 65535);
        else if (!strcmp(o, "--ntargets"))
            ntargets = (int)num_arg(o, argv[++i], 255);
        else if (!strcmp(o, "--rsvd"))
            s.rsvd[0] = num_arg(o, argv[++i], UINT64_MAX);   /* must be 0: refusal tests */
        else if (!strcmp(o, "--target")) {
            if (!argv[++i] || s.ntargets == KQ_MAX_TARGETS || kh_parse_target(argv[i], &s.targets[s.ntargets++]))
                die(EX_USAGE, "--target: X,Y, at most %u", KQ_MAX_TARGETS);
        } else
            die(EX_USAGE, "submit: unknown argument %s", o);
    }
    if (!have_op)
        die(EX_USAGE, "submit: --op is required");
    if (ntargets >= 0)
        s.ntargets = (uint8_t)ntargets;
    connect_node();
    attach_for_submit("submit");
    struct kq_cpl c;
    return command("submit", &s, &c);
}

/* ---- referee ---- */

static const char help_referee[] =
    "usage: kactl referee\n"
    "Prints the model's referee counters (docs/model.md §7) as name=value lines; exit 1 when\n"
    "any is not zero (a rule of the hardware was broken).\n";

static int cmd_referee(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        die(EX_USAGE, "usage: kactl referee");
    connect_node();
    uint64_t r[KH_REFEREE_COUNT];
    if (kh_referee_read(&node, r))
        node_die("referee");
    int bad = 0;
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++) {
        printf("referee: %s=%llu\n", kh_referee_names[i], (unsigned long long)r[i]);
        bad |= r[i] != 0;
    }
    j_open(&J, "referee", 0);
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++)
        j_num(&J, kh_referee_names[i], r[i]);
    j_close(&J);
    return bad ? EX_STATUS : EX_OK;
}

/* ---- inject ---- */

static const char help_inject[] =
    "usage: kactl inject ITEM...      arm faults in the model now (docs/model.md \"Fault injection\")\n"
    "       kactl inject clear        disarm every fault\n"
    "ITEM, as the faults= machine property: fault@X,Y[:N[:CODE]] (the unit's N-th instruction\n"
    "from now retires as FAULT with CODE, default 0xFA17), hang@X,Y[:N] (never retires),\n"
    "drop@X,Y[:N] (its N-th completion is lost), slow@X,Y:K (K cycles per unit cycle),\n"
    "ctrllate@X,Y:K (CU_CTRL replies K unit cycles late), ctrlmute@X,Y[:N] (the N-th CU_CTRL\n"
    "request is never answered), axi@N (the mover's N-th memory access is an AXI error).\n"
    "N counts from now, 1 the next (default), 0 every one.\n";

static int cmd_inject(int argc, char **argv)
{
    if (argc < 2)
        die(EX_USAGE, "usage: kactl inject ITEM... | clear");
    struct kh_fault f[16];
    int clear = argc == 2 && !strcmp(argv[1], "clear");
    if (!clear) {
        if (argc - 1 > 16)
            die(EX_USAGE, "at most 16 items at once");
        for (int i = 1; i < argc; i++)
            if (kh_parse_fault(argv[i], &f[i - 1]))
                die(EX_USAGE, "`%s` is not a fault item (kactl inject --help)", argv[i]);
    }
    connect_node();
    if (clear) {
        if (kh_inject_clear(&node))
            node_die("inject");
        printf("inject: every fault disarmed\n");
        j_bool(&J, "cleared", 1);
        return EX_OK;
    }
    j_open(&J, "armed", 1);
    for (int i = 1; i < argc; i++) {
        if (kh_inject(&node, &f[i - 1]))
            node_die(argv[i]);
        printf("inject: %s armed\n", argv[i]);
        j_str(&J, NULL, argv[i]);
    }
    j_close(&J);
    return EX_OK;
}

/* ---- faults: the history the node still holds ---- */

static const char help_faults[] =
    "usage: kactl faults [--all]\n"
    "The fault history the node still holds, read only (nothing consumed, nothing sent): every\n"
    "command among the last completions that did not end OK, oldest first (the completion ring\n"
    "keeps the last N, N its entries, 256 by default), with its number, op (from the submission\n"
    "ring when that slot still holds it, matched by tag), tag, status and explanation; then the\n"
    "firmware's state line and the core's state when either stopped by a fault. --all lists the\n"
    "OK completions too. Exit 0 when none of them failed, 1 when one did.\n";

static int cmd_faults(int argc, char **argv)
{
    int all = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = 1;
        else
            die(EX_USAGE, "usage: kactl faults [--all]");
    }
    connect_node();
    attach_queue();
    struct kh_queue_view v;
    struct kh_core_status cs;
    if (kh_queue_view(&node, &queue, &v) || kh_core_status(&node, &cs))
        node_die("faults");
    uint64_t first = v.cq_tail > queue.cq_entries ? v.cq_tail - queue.cq_entries : 0;
    struct kq_cpl *c = calloc(queue.cq_entries, sizeof *c);
    struct kq_sub *sb = calloc(queue.sq_entries, sizeof *sb);
    if (!c || !sb)
        die(EX_NODE, "out of memory");
    if (kh_mem_read(&node, queue.cq_addr, c, (size_t)queue.cq_entries * sizeof *c) ||
        kh_mem_read(&node, queue.sq_addr, sb, (size_t)queue.sq_entries * sizeof *sb))
        node_die("reading the rings");
    unsigned bad = 0, shown = 0;
    printf("faults: completions %llu..%llu are still in the ring (of %llu posted)\n", (unsigned long long)first,
           (unsigned long long)(v.cq_tail ? v.cq_tail - 1 : 0), (unsigned long long)v.cq_tail);
    j_num(&J, "first", first);
    j_num(&J, "posted", v.cq_tail);
    j_open(&J, "completions", 1);
    for (uint64_t k = first; k < v.cq_tail; k++) {
        const struct kq_cpl *e = &c[kh_ring_slot(k, queue.cq_entries)];
        const struct kq_sub *u = &sb[kh_ring_slot(k, queue.sq_entries)];
        unsigned op = u->tag == e->tag ? u->op : 0xFFFF;
        bad += e->status != KS_OK;
        if (e->status == KS_OK && !all)
            continue;
        char ex[512];
        explain_cpl(op, e, ex, sizeof ex);
        printf("  #%llu %s tag=%u status=%s detail=0x%x value=0x%llx  # %s\n", (unsigned long long)k,
               op == 0xFFFF ? "?" : op_name(op), e->tag, kh_status_name(e->status), e->detail,
               (unsigned long long)e->value, ex);
        j_open(&J, NULL, 0);
        j_num(&J, "index", k);
        j_cpl(&J, op, e, ex);
        j_close(&J);
        shown++;
    }
    j_close(&J);
    if (!shown)
        printf("  no command failed\n");
    char ex[256];
    kh_explain_core(&cs, ex, sizeof ex);
    int stopped = cs.state == KHP_CPU_HALTED || (cs.state == KHP_CPU_EXITED && cs.word != KX_EXIT_OK);
    printf("faults: firmware %s; core %s\n", kh_fw_state_name(v.fw.state), ex);
    j_str(&J, "firmware", kh_fw_state_name(v.fw.state));
    j_num(&J, "fatal_code", v.fw.code);
    j_str(&J, "core", ex);
    j_num(&J, "failed", bad);
    free(c);
    free(sb);
    return bad || stopped || v.fw.state == KQ_STATE_FATAL ? EX_STATUS : EX_OK;
}

/* ---- drain: completions nobody read ---- */

static const char help_drain[] =
    "usage: kactl drain [--wait]\n"
    "Reads, prints (`drained: ...`) and consumes every completion posted and not yet read: a\n"
    "command an earlier kactl stopped waiting for (it timed out or was interrupted), or one a\n"
    "program of yours submitted. Commands still running are named; --wait waits for them\n"
    "(bounded by --timeout-ms) and drains them too. Nothing is submitted. Exit 0, or 1 when a\n"
    "drained completion is not OK; 3 when --wait ran out.\n";

static int cmd_drain(int argc, char **argv)
{
    int wait = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--wait"))
            wait = 1;
        else
            die(EX_USAGE, "usage: kactl drain [--wait]");
    }
    connect_node();
    attach_queue();
    struct kh_queue_view v;
    if (kh_queue_view(&node, &queue, &v))
        node_die("drain");
    if (wait && v.cq_tail < queue.sq_tail &&
        kh_wait_cq(&node, &queue, queue.sq_tail, "the running commands' completions (drain --wait)"))
        node_die("drain");
    struct kq_cpl c[16];
    unsigned got, n = 0, bad = 0;
    j_open(&J, "drained", 1);
    do {
        if (kh_reap(&node, &queue, c, 16, &got))
            node_die("drain");
        for (unsigned i = 0; i < got; i++, n++) {
            char ex[512];
            kh_explain_cpl(&c[i], ex, sizeof ex);
            bad += c[i].status != KS_OK;
            printf("drained: status=%s detail=0x%x value=0x%llx cycles=%llu tag=%u  # %s\n",
                   kh_status_name(c[i].status), c[i].detail, (unsigned long long)c[i].value,
                   (unsigned long long)c[i].cycles, c[i].tag, ex);
            j_open(&J, NULL, 0);
            j_cpl(&J, 0xFFFF, &c[i], ex);
            j_close(&J);
        }
    } while (got);
    j_close(&J);
    if (kh_queue_view(&node, &queue, &v))
        node_die("drain");
    uint64_t running = queue.sq_tail - v.cq_tail;
    printf("drain: %u completion(s) drained; %llu command(s) still running%s\n", n, (unsigned long long)running,
           running ? " (`kactl drain --wait` waits for them)" : "");
    j_num(&J, "count", n);
    j_num(&J, "running", running);
    return bad ? EX_STATUS : EX_OK;
}

static const struct cmd cmds[] = {
    { "boot", cmd_boot, help_boot },
    { "restart", cmd_restart, help_restart },
    { "replay", cmd_replay, help_replay },
    { "dispatch", cmd_dispatch, help_dispatch },
    { "run", cmd_run, help_run },
    { "record", cmd_record, help_record },
    { "records", cmd_records, help_records },
    { "forget", cmd_forget, help_forget },
    { "units", cmd_units, help_units },
    { "status", cmd_status, help_status },
    { "read", cmd_read, help_read },
    { "write", cmd_write, help_write },
    { "nop", cmd_nop, help_nop },
    { "stop", cmd_stop, help_stop },
    { "referee", cmd_referee, help_referee },
    { "submit", cmd_submit, help_submit },
    { "inject", cmd_inject, help_inject },
    { "faults", cmd_faults, help_faults },
    { "drain", cmd_drain, help_drain },
};

/* ---- help, --version, progress ---- */

#ifndef KACTL_VERSION
#define KACTL_VERSION "unknown"
#endif

static int cmd_version(void)
{
    j_cmd = "version";
    printf("kactl %s (host port protocol %u, queue version %u, boot block version %u)\n", KACTL_VERSION,
           KHP_VERSION, KQ_VERSION, KX_BOOT_VERSION);
    j_str(&J, "version", KACTL_VERSION);
    j_num(&J, "hostport_version", KHP_VERSION);
    j_num(&J, "queue_version", KQ_VERSION);
    j_num(&J, "bootblock_version", KX_BOOT_VERSION);
    j_emit(EX_OK, NULL);
    return EX_OK;
}

/* `kactl help` (the overview and the command names) and `kactl help CMD` (its --help). */
static int cmd_help(int argc, char **argv)
{
    j_cmd = "help";
    if (argc > 2)
        die(EX_USAGE, "usage: kactl help [COMMAND]");
    const char *text = usage_main;
    if (argc == 2) {
        text = NULL;
        for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
            if (!strcmp(argv[1], cmds[k].name))
                text = cmds[k].help;
        if (!text)
            die(EX_USAGE, "help: there is no command `%s`; `kactl help` lists them", argv[1]);
        j_str(&J, "topic", argv[1]);
    }
    fputs(text, stdout);
    j_str(&J, "text", text);
    j_open(&J, "commands", 1);
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        j_str(&J, NULL, cmds[k].name);
    j_close(&J);
    j_emit(EX_OK, NULL);
    return EX_OK;
}

/* Progress of a long wait on stderr (kh_set_wait_hook): after the first second, a line that
 * redraws itself four times a second on a terminal, or one line a second when asked for
 * (--progress) on anything else. Never on stdout: scripts read that. */
static uint64_t prog_tick;
static void progress_hook(void *arg, const char *what, uint64_t ms)
{
    (void)arg;
    if (ms < 1000)
        return;
    uint64_t tick = prog_tty ? ms / 250 : ms / 1000;
    if (tick == prog_tick)
        return;
    prog_tick = tick;
    prog_shown = 1;
    if (prog_tty)
        fprintf(stderr, "\rkactl: %.1f s waiting for %s\033[K", (double)ms / 1000.0, what);
    else
        fprintf(stderr, "kactl: %llu s waiting for %s\n", (unsigned long long)(ms / 1000), what);
}
static void progress_end(void)
{
    if (prog_shown && prog_tty)
        fprintf(stderr, "\r\033[K");
    prog_shown = 0;
}

int main(int argc, char **argv)
{
    int i = 1, want_version = 0;
    /* --json: stdout (the human lines) goes to /dev/null, the JSON object to the real one. */
    for (int a = 1; a < argc && argv[a][0] == '-'; a++)
        if (!strcmp(argv[a], "--json")) {
            int fd = dup(STDOUT_FILENO);
            jout = fd >= 0 ? fdopen(fd, "w") : NULL;
            int nul = open("/dev/null", O_WRONLY);
            if (!jout || nul < 0 || dup2(nul, STDOUT_FILENO) < 0) {
                fprintf(stderr, "kactl: --json: cannot set up stdout: %s\n", strerror(errno));
                return EX_NODE;
            }
            close(nul);
            g.json = 1;
            break;
        }
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--socket") && i + 1 < argc) {
            static char qspec[4096];
            snprintf(qspec, sizeof qspec, "qemu:%s", argv[++i]);
            g.link = qspec;
        } else if (!strcmp(argv[i], "--link")) {
            if (i + 1 == argc || !argv[i + 1][0])
                die(EX_USAGE, "--link needs a link: qemu:PATH, jtag:HOST:PORT or xdma:/dev/xdmaN");
            g.link = argv[++i];
        } else if (!strcmp(argv[i], "--stats"))
            g.stats = 1;
        else if (!strcmp(argv[i], "--json"))
            g.json = 1;
        else if (!strcmp(argv[i], "--progress"))
            g.progress = 1;
        else if (!strcmp(argv[i], "--no-progress"))
            g.progress = 0;
        else if (!strcmp(argv[i], "--version"))
            want_version = 1;
        else if (!strcmp(argv[i], "--queue"))
            g.queue = num_arg("--queue", argv[++i], KF_UG_MASK_HP);
        else if (!strcmp(argv[i], "--timeout-ms"))
            g.timeout_ms = (unsigned)num_arg("--timeout-ms", argv[++i], 3600000);
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return cmd_help(1, argv);
        } else
            die(EX_USAGE, "unknown option %s\n%s", argv[i], usage_main);
    }
    if (want_version)
        return cmd_version();
    if (i == argc) {
        fputs(usage_main, stderr);
        die(EX_USAGE, "which command? (`kactl help` lists them)");
    }
    if (!strcmp(argv[i], "help"))
        return cmd_help(argc - i, argv + i);
    prog_tty = isatty(STDERR_FILENO);
    if (g.progress == 1 || (g.progress < 0 && prog_tty))
        kh_set_wait_hook(progress_hook, NULL);
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
        if (!strcmp(argv[i], cmds[k].name)) {
            j_cmd = cmds[k].name;
            if (want_help(argc - i, argv + i, cmds[k].help)) {
                j_str(&J, "text", cmds[k].help);
                j_emit(EX_OK, NULL);
                return EX_OK;
            }
            int rc = cmds[k].fn(argc - i, argv + i);
            progress_end();
            if (node.link.ops && kh_flush(&node))
                node_die("sending the last writes");
            if (g.stats)
                at_exit();
            g.stats = 0;
            kh_close(&node);
            j_emit(rc, NULL);
            return rc;
        }
    j_cmd = argv[i];
    die(EX_USAGE, "unknown command `%s` (`kactl help` lists the commands)\n%s", argv[i], usage_main);
}
