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
#include "kohaku/desc_list.h"
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

/* ---- Links: the node's address window (docs/host.md) ----
 *
 * Everything below (boot, queue, replay, dispatch, status) reaches the node through one
 * abstraction: reads and writes of byte blocks and of 32/64-bit registers at outside addresses
 * (docs/hardware.md §6), run in batches. A link says what it can do in one access and in one round trip
 * (struct kh_link_limits); the node layer (node.c) splits, aligns and batches accordingly, gives
 * every round trip a deadline and counts accesses, round trips and bytes. Links:
 *   qemu:PATH            the QEMU host port on a Unix socket (hostport.h); a bare PATH too
 *   jtag:HOST:PORT[,..]  our Tcl server (host/kohaku-jtag.tcl) in a Vivado hardware-manager
 *                        session, driving the JTAG-to-AXI master (link_jtag.c)
 *   xdma:/dev/xdmaN[,..] the Linux XDMA driver's character devices (link_xdma.c)
 * Outside addresses are AXI addresses on the JTAG and XDMA links (docs/host.md "Address map"). */

enum kh_acc_op { KH_ACC_READ = 1, KH_ACC_WRITE = 2, KH_ACC_HELLO = 3 };
/* One access. width 0: a block of len bytes; 4 or 8: one register of that width (len = width,
 * the value little-endian in the buffer). A link may refuse what its limits exclude. */
struct kh_access {
    uint8_t op;                /* enum kh_acc_op */
    uint8_t width;             /* 0, 4 or 8 */
    uint32_t len;
    uint64_t addr;             /* outside address */
    const void *wdata;         /* WRITE: len bytes */
    void *rdata;               /* READ: len bytes land here; HELLO: 8 bytes (magic | version << 32) */
};
struct kh_link_limits {
    uint32_t align;            /* a block's address and length: multiples of this (1: any) */
    uint32_t max_block;        /* bytes in one block access */
    uint32_t max_batch;        /* accesses in one round trip */
    uint32_t max_batch_bytes;  /* data bytes (both ways) in one round trip */
};
struct kh_link_stats {
    uint64_t accesses;         /* accesses run (after splitting) */
    uint64_t round_trips;      /* exchanges with the far end (a request/reply; a syscall on xdma) */
    uint64_t bytes_out, bytes_in;   /* data bytes written / read (not protocol overhead) */
};
/* A byte stream carrying the host-port protocol (the qemu link runs over one). read/write move
 * exactly n bytes before deadline_ms: 0, -1 failed or closed, -2 the deadline passed. */
struct kh_transport {
    void *ctx;
    int (*write)(void *ctx, const void *buf, size_t n, uint64_t deadline_ms);
    int (*read)(void *ctx, void *buf, size_t n, uint64_t deadline_ms);
    void (*close)(void *ctx);
};

struct kh_link;
struct kh_link_ops {
    /* Runs n accesses in order before deadline_ms (kh_ms_now() clock), as few round trips as
     * the link can (it adds them to *st). An access after a failed one does not run; the
     * message in err names the failed access, what went wrong and what to do. Returns KH_OK,
     * KH_E_IO (link lost), KH_E_TIMEOUT (deadline passed, err says what was awaited),
     * KH_E_PORT (the far end refused the access), KH_E_PROTO. */
    int (*run)(struct kh_link *l, const struct kh_access *a, unsigned n, uint64_t deadline_ms,
               struct kh_link_stats *st, char *err, size_t errlen);
    void (*close)(struct kh_link *l);
};
struct kh_link {
    const struct kh_link_ops *ops;
    void *ctx;
    struct kh_link_limits lim;
    uint8_t port_status;       /* qemu link: the last refused request's enum khp_status */
    struct kh_transport t;     /* qemu link: its stream (held here: a link is copied by value) */
    uint16_t tag;              /* qemu link: the next request tag */
    struct kh_link_stats opened;   /* what opening it cost (handshake, checks) */
    unsigned timeout_ms;       /* the bound of the round trips being run (for messages) */
    char name[160];            /* the spec it was opened with, for messages */
};

/* The QEMU host port: connects to the Unix socket of `-chardev socket,...,server=on`. */
int kh_transport_unix(const char *path, struct kh_transport *t, char *err, size_t errlen);
/* The qemu link over a transport (taken: the link closes it). */
void kh_link_qemu(struct kh_link *l, const struct kh_transport *t, const char *name);

/* Opens the link a spec names (above); NULL: $KACTL_LINK, else $KACTL_SOCKET as a qemu path,
 * else KH_DEF_LINK. timeout_ms bounds the connection itself. */
#define KH_DEF_LINK "qemu:/tmp/kohaku-hostport.sock"
const char *kh_link_spec(const char *spec);
int kh_link_open(const char *spec, unsigned timeout_ms, struct kh_link *l, char *err, size_t errlen);

/* ---- A node ---- */

#define KH_ERR_LEN 512

/* Accesses wait in the node's batch until a read, kh_flush, or a full batch; posted writes'
 * data is copied (heap, freed by kh_close), other accesses point at the caller's buffers. */
#define KH_BATCH_MAX 256u
struct kh_batch {
    struct kh_access acc[KH_BATCH_MAX];
    unsigned n;
    uint8_t *data;             /* posted write data */
    size_t used, data_cap;
    size_t bytes;              /* data bytes in the batch, both ways */
};

struct kh_node {
    struct kh_link link;
    uint16_t tag;              /* next host-port request tag (qemu link) */
    unsigned variant;          /* 32 or 64, KHP_CPU_VARIANT at open */
    uint8_t port_status;       /* last refused request's enum khp_status (qemu link) */
    uint64_t requests;         /* accesses made (for the bench and tests) */
    unsigned timeout_ms;       /* every round trip's bound; KH_DEF_TIMEOUT_MS at open */
    bool post;                 /* writes are posted (kh_post_writes) */
    struct kh_link_stats stats;
    struct kh_batch b;
    char err[KH_ERR_LEN];
};

/* Opens a node over a link (taken): HELLO (magic and version checked), then the core's variant. */
int kh_open_on(struct kh_node *n, const struct kh_link *l);
/* The one call: kh_link_open(spec) then kh_open_on; timeout_ms 0 = KH_DEF_TIMEOUT_MS. */
int kh_open_link(struct kh_node *n, const char *spec, unsigned timeout_ms);
/* Every later round trip's bound (wall clock). */
void kh_set_timeout(struct kh_node *n, unsigned timeout_ms);
/* Posting: writes are queued and sent with the next read, a full batch or kh_flush (one round
 * trip for many accesses: what makes the JTAG link usable). A failure of a posted write is
 * reported by the call that sends it, naming the write. Off by default. */
void kh_post_writes(struct kh_node *n, bool on);
int kh_flush(struct kh_node *n);
/* Runs (or posts) a caller's accesses in order: the raw window. */
int kh_access_run(struct kh_node *n, const struct kh_access *a, unsigned count);
/* kh_open_on over the qemu link on a transport (taken): the in-process model of the tests. */
int kh_open(struct kh_node *n, const struct kh_transport *t);
void kh_close(struct kh_node *n);
const char *kh_error(const struct kh_node *n);
/* Sets the message (printf-style) and returns code, for callers building on the library. */
int kh_fail(struct kh_node *n, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefixes the current message with "<context>: " and returns code. */
int kh_context(struct kh_node *n, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Raw window access. A register is 8 bytes at an 8-aligned outside address. Byte ranges of any
 * length are split, aligned and batched as the link needs. */
int kh_reg_read(struct kh_node *n, uint64_t addr, uint64_t *v);
int kh_reg_write(struct kh_node *n, uint64_t addr, uint64_t v);
int kh_bytes_read(struct kh_node *n, uint64_t addr, void *buf, size_t len);
int kh_bytes_write(struct kh_node *n, uint64_t addr, const void *buf, size_t len);
const char *kh_port_status_name(unsigned st);

/* Node memory (DRAM, staging) at unit-global addresses, behind the processor's caches. */
int kh_mem_read(struct kh_node *n, uint64_t ug, void *buf, size_t len);
/* kh_mem_write refuses (KH_E_INPUT, nothing written) a range touching the firmware's own DRAM,
 * KH_FW_OWN_LO..KH_FW_OWN_HI (docs/host-interface.md §2.1, §12: the RV32 image's cold code, the
 * copy buffer REPLAY checks lists in, the record area): a write there while the firmware runs
 * changes what it runs, and the firmware can only find it afterwards (a record's check, the
 * cold segment's) or not at all (the copy buffer mid-command). kh_mem_write_raw writes there
 * too: for tests that play a stray write and for repairs, not for data (kactl write --raw). */
int kh_mem_write(struct kh_node *n, uint64_t ug, const void *buf, size_t len);
int kh_mem_write_raw(struct kh_node *n, uint64_t ug, const void *buf, size_t len);
#define KH_FW_OWN_LO  KX_FW_DRAM_OFFSET
#define KH_FW_OWN_HI  (KX_FW_REC_OFFSET + KQ_REC_MAX_BYTES)
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
/* The firmware's waypoint (docs/host-interface.md §2.2, struct kx_waypoint at scratchpad offset
 * KX_WAYPOINT_OFFSET), and what it says in one line: the later of its two waits, as
 * "waiting for <what> of unit X,Y since cycle N (M cycles ago)" while M is within `bound` (the
 * boot block's wait_cycles: every wait is bounded by it) and as "last waited for <what> ... at
 * cycle N, M cycles ago: over its bound, so not waiting now" after; "no bounded wait yet" when
 * neither was written. now = the core's cycle count (kh_core_status). elapsed_known false (RV64,
 * whose mcycle also counts the time the core was held): "since cycle N" only. */
int kh_waypoint_read(struct kh_node *n, struct kx_waypoint *w);
void kh_explain_waypoint(const struct kx_waypoint *w, uint64_t now, uint32_t bound, bool elapsed_known,
                         char *buf, size_t len);

/* ---- Command queue (include/kohaku/queue.h) ---- */

/* Where kactl puts things by default (docs/host-interface.md "Host defaults"): DRAM at
 * unit-global 8 MB, reachable by both variants (RV32's window, RV64's uncached alias) and
 * clear of the example data at 1 MB. */
#define KH_DEF_QUEUE_UG     UINT64_C(0x00800000)
#define KH_DEF_ENTRIES      256u
#define KH_DEF_DATA_UG      UINT64_C(0x00900000)   /* kactl's command data area */
/* 16 MB: the largest single command (a 65,536-payload DISPATCH, 2 MB) with room to spare; a RUN
 * whose steps and files together exceed it is refused before anything is sent. */
#define KH_DEF_DATA_BYTES   UINT64_C(0x01000000)
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
 * waiting for room (bounded), then publishes sq_tail once per ring-full. Refuses (KH_E_STATE)
 * to write any while the firmware's state line does not read READY. */
int kh_submit(struct kh_node *n, struct kh_queue *q, const struct kq_sub *subs, unsigned k);
uint32_t kh_tag_next(struct kh_queue *q);
/* Waits until cq_tail reaches want (bounded); `what` names the wait in the timeout message. */
int kh_wait_cq(struct kh_node *n, struct kh_queue *q, uint64_t want, const char *what);
/* Reads up to max posted completions from cq_head, and publishes the new cq_head. *got may be
 * 0 when none is posted. */
int kh_reap(struct kh_node *n, struct kh_queue *q, struct kq_cpl *out, unsigned max, unsigned *got);
/* The submissions written and not yet taken, [sq_head, sq_tail): up to max of them into out
 * (*sq_head gets the firmware's take index when not NULL). Reads only. */
int kh_queue_pending(struct kh_node *n, struct kh_queue *q, struct kq_sub *out, unsigned max, unsigned *got,
                     uint64_t *sq_head);
/* Withdraws them before a restart, so nothing submitted before it runs after it: sq_tail back to
 * sq_head (*withdrawn = how many). Only with the core held or stopped (KH_E_STATE otherwise):
 * the firmware reads the indices afresh when released, and index rule 10 holds. */
int kh_queue_withdraw(struct kh_node *n, struct kh_queue *q, uint64_t *withdrawn);
/* One command: submit, wait for its completion, reap it (a completion with another tag is a
 * KH_E_PROTO failure: kactl is the queue's only user). Refuses (KH_E_STATE, nothing written)
 * unless the firmware is READY with every earlier submission completed and consumed. */
int kh_command(struct kh_node *n, struct kh_queue *q, struct kq_sub *sub, struct kq_cpl *cpl);

/* A process-wide hook every bounded wait above calls on each poll (kh_wait_ready, kh_wait_cq,
 * kh_command): what it waits for and the milliseconds spent so far. kactl shows progress with it;
 * NULL (the default) removes it. It must not call the library. */
void kh_set_wait_hook(void (*fn)(void *arg, const char *what, uint64_t elapsed_ms), void *arg);

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

/* ---- Checks before anything is sent (host/check.c; docs/host-interface.md §11.6) ---- */

/* The memory a unit-global address can reach from this node (docs/hardware.md §0, §7, §8): the
 * 4 GB of mesh 0's DRAM at 0, and the 2 MB staging store (aperture 0) at bit 39. */
#define KH_DRAM_BYTES       (UINT64_C(4) << 30)
#define KH_STAGING_UG       (UINT64_C(1) << 39)
#define KH_STAGING_BYTES    (UINT64_C(2) << 20)
/* Is [ug, ug + len) wholly inside one of them? KH_E_INPUT otherwise, err saying what the first
 * byte that is not decodes to: past 40 bits, a foreign mesh or bit 38 (aliased onto local DRAM),
 * an unserved aperture (dropped), DRAM past 4 GB or staging past 2 MB (hits nothing), or the
 * range running past a region's end. kh_mem_read/write/zero refuse such a range the same way. */
int kh_ug_check(uint64_t ug, uint64_t len, char *err, size_t errlen);
/* KH_OK unless [ug, ug + len) touches the firmware's own DRAM (KH_FW_OWN_LO..HI, kh_mem_write):
 * KH_E_INPUT and the message in err. */
int kh_fw_own_check(uint64_t ug, uint64_t len, char *err, size_t errlen);
/* One phrase: what ug decodes to ("0x1000200000 names mesh 1 (bits 37:36): ..."). */
void kh_ug_describe(uint64_t ug, char *buf, size_t len);
/* Every move of a descriptor list: the walks it reads and writes (destination and source walks
 * after their dimensions, a gather's index buffer, an XFORM's output bursts; bounds ignored, so
 * the extent is an upper bound) must each lie in one memory region (kh_ug_check) and not wrap.
 * KH_E_INPUT with *bad = the GO write's index and err naming the move and the walk. */
int kh_list_check(const struct kd_write *w, uint32_t n, uint32_t *bad, char *err, size_t errlen);
/* A list, program, step or unit file must be text: printable ASCII, tab, CR, LF, VT, FF, and
 * UTF-8 sequences; anything else (a NUL first of all) is KH_E_INPUT at its line and column. */
struct kh_text_err;
int kh_text_check(const char *text, size_t len, struct kh_text_err *e);
/* kactl boot's queue for a core of this variant: entries a power of two up to KQ_MAX_ENTRIES,
 * header 32-byte aligned, header and both rings (kh_queue_create's layout) in memory the core
 * reaches, clear of the RV32 firmware's DRAM and of kactl's command data area. */
int kh_queue_place_check(unsigned variant, uint64_t hdr_ug, uint32_t entries, char *err, size_t errlen);

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
#define KH_STEPS_MAX  KQ_MAX_STEPS      /* the firmware's own limit, include/kohaku/queue.h */
struct kh_step_src {
    struct kq_step step;       /* addr filled in by kh_steps_place */
    char file[256];            /* DISPATCH/REPLAY: the data file, resolved */
    unsigned line;             /* its line in the step file */
};
int kh_parse_steps(const char *text, size_t len, const char *dir, struct kh_step_src *out,
                   uint32_t max, uint32_t *n, struct kh_text_err *e);

#endif
