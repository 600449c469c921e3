/* libkohaku.h — the host library (docs/design.md §4, docs/hardware.md §6): talks to a
 * system node through a transport (the QEMU host port over a Unix socket stands in for the
 * PCIe/JTAG window), flashes and boots the firmware, and drives its command queue
 * (include/kohaku/queue.h). docs/host-interface.md "Host library" is the long form.
 *
 * Conventions: every function returning int returns 0 (KH_OK) or a negative KH_E_*; the
 * message of the last failure is kh_error(node), one line saying what was being done, what
 * went wrong and, for a timeout, what was awaited. Nothing here prints. Addresses named `ug`
 * are unit-global (40 bits); the library adds the outside-address prefix of mesh 0. */
#ifndef KOHAKU_LIBKOHAKU_H
#define KOHAKU_LIBKOHAKU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kohaku/bootblock.h"
#include "kohaku/hostport.h"
#include "kohaku/queue.h"

enum kh_err {
    KH_OK = 0,
    KH_E_IO = -1,        /* the transport failed or closed */
    KH_E_PORT = -2,      /* the host port refused a request (kh_node.port_status) */
    KH_E_PROTO = -3,     /* a reply that does not match the request, a wrong HELLO */
    KH_E_INPUT = -4,     /* the caller's input is malformed (ELF, text, arguments) */
    KH_E_STATE = -5,     /* the node is not in a state that allows it (core running, no queue) */
    KH_E_TIMEOUT = -6,   /* a bounded wait ran out; the message names what was awaited */
};

/* ---- Transport: a byte stream to the node ---- */

struct kh_transport {
    void *ctx;
    /* Writes all n bytes; 0, or -1 with errno-style failure. */
    int (*write)(void *ctx, const void *buf, size_t n);
    /* Reads exactly n bytes; 0, or -1 (closed or failed). */
    int (*read)(void *ctx, void *buf, size_t n);
    void (*close)(void *ctx);
};

/* The QEMU host port: connects to the Unix socket of `-chardev socket,...,server=on`. */
int kh_transport_unix(const char *path, struct kh_transport *t, char *err, size_t errlen);

/* ---- A node ---- */

#define KH_ERR_LEN 512

struct kh_node {
    struct kh_transport t;
    uint16_t tag;              /* next host-port request tag */
    unsigned variant;          /* 32 or 64, KHP_CPU_VARIANT at open */
    uint8_t port_status;       /* last refused request's enum khp_status */
    uint64_t requests;         /* host-port requests made (for the bench and tests) */
    char err[KH_ERR_LEN];
};

/* HELLO (magic and version checked), then reads the core's variant. Takes the transport. */
int kh_open(struct kh_node *n, const struct kh_transport *t);
void kh_close(struct kh_node *n);
const char *kh_error(const struct kh_node *n);
/* Sets the message (printf-style) and returns code, for callers building on the library. */
int kh_fail(struct kh_node *n, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefixes the current message with "<context>: " and returns code. */
int kh_context(struct kh_node *n, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Raw host-port access. A register is 8 bytes at an 8-aligned outside address. Byte ranges of
 * any length are split into requests of at most KHP_MAX_DATA. */
int kh_reg_read(struct kh_node *n, uint64_t addr, uint64_t *v);
int kh_reg_write(struct kh_node *n, uint64_t addr, uint64_t v);
int kh_bytes_read(struct kh_node *n, uint64_t addr, void *buf, size_t len);
int kh_bytes_write(struct kh_node *n, uint64_t addr, const void *buf, size_t len);
const char *kh_port_status_name(unsigned st);

/* Node memory (DRAM, staging) at unit-global addresses, behind the processor's caches. */
int kh_mem_read(struct kh_node *n, uint64_t ug, void *buf, size_t len);
int kh_mem_write(struct kh_node *n, uint64_t ug, const void *buf, size_t len);
int kh_mem_zero(struct kh_node *n, uint64_t ug, size_t len);
/* The control agent's registers (docs/hardware.md §1 offsets, include/kohaku/agent_regs.h): the
 * host-driven path of the bench (PROG_*, STAGE, NODE_STATUS) is these two calls. */
int kh_agent_read(struct kh_node *n, uint32_t off, uint64_t *v);
int kh_agent_write(struct kh_node *n, uint32_t off, uint64_t v);

/* ---- The core (processor host registers) ---- */

struct kh_core_status {
    unsigned state;            /* enum khp_cpu_state */
    unsigned cause;            /* halt cause (RV32 1 ECALL, 2 EBREAK, 3 fault; RV64 mcause) */
    uint64_t word;             /* exit or halt word */
    uint64_t pc;               /* PC of the halting instruction */
    uint64_t cycles, instret;  /* since release */
    unsigned variant;
    uint64_t now_ns;           /* the model's virtual time */
};
int kh_core_hold(struct kh_node *n, bool hold);   /* false releases the core from PC 0 */
int kh_core_status(struct kh_node *n, struct kh_core_status *s);
const char *kh_core_state_name(unsigned state);
/* One line in words: "exited with word 0x0 (clean stop)", "halted: ECALL, a0 = 0x.. at pc
 * 0x..", "halted: RV64 trap, load access fault (mcause 5), mtval 0x.. at pc 0x..", the boot
 * block refusal reason, an assertion site. */
void kh_explain_core(const struct kh_core_status *s, char *buf, size_t len);
const char *kh_mcause_name(uint64_t mcause);
const char *kh_boot_reason_name(unsigned reason);

/* Referee counters (docs/model.md §7), in order. */
#define KH_REFEREE_COUNT 8u
extern const char *const kh_referee_names[KH_REFEREE_COUNT];
int kh_referee_read(struct kh_node *n, uint64_t out[KH_REFEREE_COUNT]);

/* Fault injection through the host port (docs/model.md "Fault injection"; hostport.h
 * KHP_MODEL_INJ_*): one item in the faults= property's syntax — fault@X,Y[:N[:CODE]],
 * hang@X,Y[:N], drop@X,Y[:N], slow@X,Y:K, ctrllate@X,Y:K, ctrlmute@X,Y[:N], axi@N — armed now;
 * N counts from now (1 = the next, 0 = every one). KH_E_INPUT for a malformed item, KH_E_PORT
 * when the model refuses it (no unit at X,Y). Clear disarms every item. */
struct kh_fault { unsigned kind; uint8_t yx; uint32_t n, arg; };
int kh_parse_fault(const char *item, struct kh_fault *f);
int kh_inject(struct kh_node *n, const struct kh_fault *f);
int kh_inject_clear(struct kh_node *n);

/* ---- ELF images ---- */

/* Where an image's segments may go (docs/hardware.md §4/§5, include/kohaku/cpu_map.h): base and bytes
 * as the core addresses it, khp the host-port address of its first byte. fwdram is the RV32
 * firmware-owned DRAM range (docs/host-interface.md §2.1, written through the host port's
 * memory WRITE at its unit-global address); RV64 has none (bytes 0). */
struct kh_window { uint64_t base, bytes, khp; };
struct kh_map { unsigned variant; struct kh_window imem, spad, fwdram; };
const struct kh_map *kh_map_for(unsigned variant);
enum kh_window_id { KH_WIN_IMEM = 0, KH_WIN_SPAD = 1, KH_WIN_FWDRAM = 2 };
/* The window a segment's `window` names; its name for messages. */
const struct kh_window *kh_map_window(const struct kh_map *m, unsigned window);
const char *kh_window_name(unsigned window);

#define KH_ELF_MAX_SEGS 16u
struct kh_segment {
    uint64_t addr;             /* physical (load) address */
    uint64_t filesz, memsz;
    const uint8_t *data;       /* filesz bytes inside the image */
    unsigned window;           /* enum kh_window_id */
};
struct kh_elf {
    unsigned variant;          /* 32 (ELFCLASS32) or 64 */
    uint64_t entry;
    unsigned nseg;
    struct kh_segment seg[KH_ELF_MAX_SEGS];
};
/* Pure: checks a RISC-V little-endian executable and sorts its PT_LOAD segments into the
 * windows of its class's map (RV32 also the firmware DRAM range). Refuses (KH_E_INPUT, message
 * in err) anything else: not an ELF, truncated headers or segments, wrong machine or endianness,
 * an entry other than the reset PC, a segment outside every window or crossing a window's end,
 * filesz > memsz. */
int kh_elf_parse(const uint8_t *img, size_t len, struct kh_elf *out, char *err, size_t errlen);
/* Loads a parsed image through the load paths (a firmware-DRAM segment through the memory
 * WRITE to its unit-global address): the core must be held and be the image's variant, so all
 * of it is in place before the core is released. Instruction-window bytes go in whole 32-bit
 * words (zero padded); memsz beyond filesz is written as zeros, as QEMU's own loader does. */
int kh_load_elf(struct kh_node *n, const struct kh_elf *e);
/* One line naming what goes where: "0x4c0 bytes at 0x0 (instruction window), 0x4a0 bytes at
 * 0x10000200 (scratchpad), 0x1400 bytes at 0x80400000 (firmware DRAM, unit-global 0x400000)". */
void kh_elf_describe(const struct kh_elf *e, char *buf, size_t len);

/* ---- Boot block (include/kohaku/bootblock.h) ---- */

/* Fills a valid block: queue at queue_ug, wait_cycles, and units (count 0 = enumerate). */
void kh_bootblock_make(struct kx_bootblock *bb, uint64_t queue_ug, uint32_t wait_cycles,
                       const struct kx_unit_entry *units, unsigned count);
size_t kh_bootblock_bytes(const struct kx_bootblock *bb);
/* Writes the block at the start of the scratchpad (core held). */
int kh_bootblock_write(struct kh_node *n, const struct kx_bootblock *bb);
/* Reads it back (any time): how a later kactl finds the queue. */
int kh_bootblock_read(struct kh_node *n, struct kx_bootblock *bb);

/* ---- Command queue (include/kohaku/queue.h) ---- */

/* Where kactl puts things by default (docs/host-interface.md "Host defaults"): DRAM at
 * unit-global 8 MB, reachable by both variants (RV32's window, RV64's uncached alias) and
 * clear of the example data at 1 MB. */
#define KH_DEF_QUEUE_UG     UINT64_C(0x00800000)
#define KH_DEF_ENTRIES      256u
#define KH_DEF_DATA_UG      UINT64_C(0x00900000)   /* kactl's command data area */
#define KH_DEF_DATA_BYTES   UINT64_C(0x00100000)
#define KH_DEF_WAIT_CYCLES  1000000u
#define KH_DEF_TIMEOUT_MS   10000u

struct kh_queue {
    uint64_t addr;             /* header, unit-global */
    uint64_t sq_addr, cq_addr;
    uint32_t sq_entries, cq_entries;
    uint64_t sq_tail;          /* host's: submissions written, ever */
    uint64_t cq_head;          /* host's: completions consumed, ever */
    uint32_t next_tag;
    unsigned timeout_ms;       /* every wait's bound (wall clock); KH_DEF_TIMEOUT_MS */
};

/* Ring arithmetic, pure (an index counts "ever"; the slot is index % entries). */
static inline uint32_t kh_ring_slot(uint64_t idx, uint32_t entries) { return (uint32_t)(idx & (entries - 1u)); }
static inline uint64_t kh_ring_used(uint64_t tail, uint64_t head) { return tail - head; }
static inline uint64_t kh_ring_free(uint64_t tail, uint64_t head, uint32_t entries)
{
    uint64_t used = tail - head;
    return used >= entries ? 0 : entries - used;
}
/* Are producer and consumer indices consistent (head <= tail <= head + entries)? */
static inline bool kh_ring_sane(uint64_t tail, uint64_t head, uint32_t entries)
{
    return tail >= head && tail - head <= entries;
}
static inline bool kh_pow2(uint32_t v) { return v != 0 && (v & (v - 1u)) == 0; }
/* Checks a setup line as the firmware will: magic, version, flags, power-of-two sizes up to
 * KQ_MAX_ENTRIES, 32-byte aligned rings not overlapping the header or each other. */
int kh_setup_check(const struct kq_setup *s, uint64_t hdr_ug, char *err, size_t errlen);

/* Lays out a queue at hdr_ug (rings right after the header, 4 KB aligned), zeroes the header
 * and both rings, writes the setup line. Indices start at 0. */
int kh_queue_create(struct kh_node *n, struct kh_queue *q, uint64_t hdr_ug, uint32_t sq_entries,
                    uint32_t cq_entries);
/* Recovers a queue from the node: its setup line and the host's two index lines, so a new
 * process resumes where the last one stopped. */
int kh_queue_attach(struct kh_node *n, struct kh_queue *q, uint64_t hdr_ug);
/* Reads the firmware's lines (sq_head, cq_tail, state, line 6, units) in one request. */
struct kh_queue_view {
    uint64_t sq_tail, sq_head, cq_tail, cq_head;
    uint64_t progress;                      /* line 6 word 0: the last RUN SIGNAL value */
    uint64_t ready_instret, ready_cycles;   /* line 6 words 1, 2: release to READY (0: not reported) */
    struct kq_fw_state fw;
    struct kq_units units;
};
int kh_queue_view(struct kh_node *n, const struct kh_queue *q, struct kh_queue_view *v);
const char *kh_fw_state_name(unsigned state);
/* Waits (bounded by q->timeout_ms) until the firmware state is READY; a core that stops or a
 * firmware that goes FATAL/STOPPED ends the wait early with its explanation. */
int kh_wait_ready(struct kh_node *n, struct kh_queue *q);

/* Writes k submissions (their tags set by the caller, or by kh_tag_next) into the ring,
 * waiting for room (bounded), then publishes sq_tail once per ring-full. */
int kh_submit(struct kh_node *n, struct kh_queue *q, const struct kq_sub *subs, unsigned k);
uint32_t kh_tag_next(struct kh_queue *q);
/* Waits until cq_tail reaches want (bounded); `what` names the wait in the timeout message. */
int kh_wait_cq(struct kh_node *n, struct kh_queue *q, uint64_t want, const char *what);
/* Reads up to max posted completions from cq_head, and publishes the new cq_head. *got may be
 * 0 when none is posted. */
int kh_reap(struct kh_node *n, struct kh_queue *q, struct kq_cpl *out, unsigned max, unsigned *got);
/* One command: submit, wait for its completion, reap it (a completion with another tag is a
 * KH_E_PROTO failure: kactl is the queue's only user). */
int kh_command(struct kh_node *n, struct kh_queue *q, struct kq_sub *sub, struct kq_cpl *cpl);

/* ---- Records (docs/host-interface.md "Records"): each runs one command and returns its
 * completion in *c (the firmware's status in c->status; the return value is the transport's). */
/* RECORD: count descriptor records (steps 0) or RUN steps (steps 1) at ug in node memory,
 * checked as REPLAY / RUN check them and kept by the firmware; the handle in c->value. */
int kh_record(struct kh_node *n, struct kh_queue *q, uint64_t ug, uint32_t count, int steps,
              struct kq_cpl *c);
/* REPLAY (op KQ_OP_REPLAY) or RUN (KQ_OP_RUN) of the record `handle`. */
int kh_run_handle(struct kh_node *n, struct kh_queue *q, unsigned op, uint32_t handle,
                  struct kq_cpl *c);
int kh_forget(struct kh_node *n, struct kh_queue *q, uint32_t handle, struct kq_cpl *c);
/* RECORDS: the firmware writes up to max (1..KQ_REC_MAX_HANDLES) lines at ug (32-byte aligned,
 * node memory the host may use), read back into out; *got lines, c->value records held,
 * c->detail record-area bytes free. */
int kh_records(struct kh_node *n, struct kh_queue *q, uint64_t ug, struct kq_rec_info *out,
               unsigned max, unsigned *got, struct kq_cpl *c);

/* ---- Host-driven dispatch (the bench's host-driven baseline: the same work without the firmware) ---- */

/* Dispatches a program of count payloads to the unit yx the way the firmware would, but from
 * the host through the host port alone: each flit staged as five agent-register writes
 * (docs/hardware.md §2) from slot 0, PROG_BASE/LEN/DST/CRED, PROG_KICK, then NODE_STATUS[yx] polled
 * until every instruction has signalled (its count, modulo 2^16, from a snapshot). Programs
 * longer than the staging RAM go in chunks of KH_HD_CHUNK, each completed before the next.
 * credit: seeded per kick, at most the chunk (0 = 16, the NPU's inst_depth). The firmware must
 * not be using the agent meanwhile (core held or stopped). Returns KH_OK with r->status KS_OK,
 * KS_UNIT_FAULT (r->value = the FAULT's arg, exec_result) or KS_TIMEOUT (wall clock,
 * timeout_ms), and r->ns the model's virtual time from the first write to the last signal. */
#define KH_HD_CHUNK 128u
struct kh_hd_result { unsigned status; uint64_t value, ns, requests; };
int kh_hd_dispatch(struct kh_node *n, uint8_t yx, uint8_t txn, const uint64_t (*p)[4], uint32_t count,
                   uint16_t credit, unsigned timeout_ms, struct kh_hd_result *r);

/* ---- Status codes (include/kohaku/status.h) ---- */

struct kh_status_info { unsigned code; const char *name; const char *text; };
extern const struct kh_status_info kh_status_table[];
extern const unsigned kh_status_count;
const char *kh_status_name(unsigned code);        /* "NO_REACH"; "UNKNOWN_0x.." never NULL */
const char *kh_status_text(unsigned code);        /* the header's comment, or "" */
const char *kh_status_range(unsigned code);       /* "ok", "input", "fault", "timeout", "other", "unassigned" */
/* Detail in words where the status defines it (timeout "what", mover fault code, {y,x}). */
void kh_explain_cpl(const struct kq_cpl *c, char *buf, size_t len);

/* ---- Text forms (docs/host-interface.md "Text forms") ---- */

/* The whole file at path, malloc'd, with a NUL after its last byte so the parsers below can read
 * it as text; *len is its size. The caller frees it. NULL with errno set when it cannot be read
 * (ENOMEM included). */
char *kh_read_file(const char *path, size_t *len);

struct kh_text_err { unsigned line, col; char why[128]; };

/* A unit coordinate "X,Y" (decimal or 0x, each 0..15) into {y[3:0], x[3:0]}. */
int kh_parse_target(const char *s, uint8_t *yx);
/* A program: one 256-bit payload per line, either four 64-bit hex words "w0 w1 w2 w3" (payload
 * word 0 = bits [63:0] first) or one 64-hex-digit number (most significant digit first);
 * `#` comments and blank lines. */
int kh_parse_program(const char *text, size_t len, uint64_t (*out)[4], uint32_t max, uint32_t *n,
                     struct kh_text_err *e);
/* Hex bytes for `kactl write`: each argument an even number of hex digits, optional 0x. */
int kh_parse_hex_bytes(const char *s, uint8_t *out, size_t max, size_t *n);
/* A number in C syntax (0x.., decimal) into *v, the whole string; -1 when not one. */
int kh_parse_u64(const char *s, uint64_t *v);

/* A step list: one step per line (docs/host-interface.md):
 *   dispatch X,Y FILE [txn N] [credit N]   replay FILE   replay @H   wait X,Y N   barrier
 *   signal VALUE
 * (`replay @H`: a REPLAY_H step naming a recorded descriptor list by its handle H.)
 * FILE is a program or descriptor-list text file, relative to the step file's directory. The
 * parser reports each file as a blob the caller loads (kh_steps_load). */
#define KH_STEPS_MAX  256u
struct kh_step_src {
    struct kq_step step;       /* addr filled in by kh_steps_place */
    char file[256];            /* DISPATCH/REPLAY: the data file, resolved */
    unsigned line;             /* its line in the step file */
};
int kh_parse_steps(const char *text, size_t len, const char *dir, struct kh_step_src *out,
                   uint32_t max, uint32_t *n, struct kh_text_err *e);

#endif
