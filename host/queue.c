/* queue.c — libkohaku's side of the boot block and the command queue (docs/design.md §4,
 * include/kohaku/bootblock.h, include/kohaku/queue.h): the host writes line 0 (setup), line 1
 * (sq_tail), line 4 (cq_head) and the submission ring, and only reads the rest. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kh_util.h"
#include "libkohaku.h"

/* ---- Boot block ---- */

void kh_bootblock_make(struct kx_bootblock *bb, uint64_t queue_ug, uint32_t wait_cycles,
                       const struct kx_unit_entry *units, unsigned count)
{
    memset(bb, 0, sizeof *bb);
    bb->magic = KX_BOOT_MAGIC;
    bb->version = KX_BOOT_VERSION;
    bb->wait_cycles = wait_cycles;
    bb->queue_addr = queue_ug;
    if (units && count) {
        bb->flags = KX_BOOT_F_UNITS;
        bb->unit_count = (uint16_t)count;
        memcpy(bb->units, units, count * sizeof *units);
    }
    bb->size = (uint16_t)(KX_BOOT_HDR_BYTES + 8u * bb->unit_count);
}

size_t kh_bootblock_bytes(const struct kx_bootblock *bb)
{
    return KX_BOOT_HDR_BYTES + 8u * (bb->unit_count > KX_BOOT_MAX_UNITS ? KX_BOOT_MAX_UNITS : bb->unit_count);
}

int kh_bootblock_write(struct kh_node *n, const struct kx_bootblock *bb)
{
    /* The whole reservation, so a shorter block leaves no stale unit entries behind. */
    uint8_t buf[KX_BOOT_RESERVED];
    memset(buf, 0, sizeof buf);
    memcpy(buf, bb, sizeof *bb);
    int rc = kh_bytes_write(n, KHP_SPAD_BASE, buf, sizeof buf);
    return rc ? kh_context(n, rc, "writing the boot block") : KH_OK;
}

int kh_bootblock_read(struct kh_node *n, struct kx_bootblock *bb)
{
    int rc = kh_bytes_read(n, KHP_SPAD_BASE, bb, sizeof *bb);
    return rc ? kh_context(n, rc, "reading the boot block") : KH_OK;
}

int kh_waypoint_read(struct kh_node *n, struct kx_waypoint *w)
{
    int rc = kh_bytes_read(n, KHP_SPAD_BASE + KX_WAYPOINT_OFFSET, w, sizeof *w);
    return rc ? kh_context(n, rc, "reading the waypoint") : KH_OK;
}

/* ---- Setup ---- */

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return KH_E_INPUT; } while (0)

int kh_setup_check(const struct kq_setup *s, uint64_t hdr, char *err, size_t errlen)
{
    if (s->magic != KQ_MAGIC)
        ERR("queue setup magic 0x%08x, want 0x%08x", s->magic, KQ_MAGIC);
    if (s->version != KQ_VERSION)
        ERR("queue version %u, want %u", s->version, KQ_VERSION);
    if (s->flags)
        ERR("queue flags 0x%x: none are defined", s->flags);
    if (!kh_pow2(s->sq_entries) || s->sq_entries > KQ_MAX_ENTRIES)
        ERR("sq_entries %u is not a power of two in 1..%u", s->sq_entries, KQ_MAX_ENTRIES);
    if (!kh_pow2(s->cq_entries) || s->cq_entries > KQ_MAX_ENTRIES)
        ERR("cq_entries %u is not a power of two in 1..%u", s->cq_entries, KQ_MAX_ENTRIES);
    if (hdr % KQ_LINE || s->sq_addr % KQ_LINE || s->cq_addr % KQ_LINE)
        ERR("queue header and rings must be 32-byte aligned");
    uint64_t sqe = s->sq_addr + (uint64_t)s->sq_entries * sizeof(struct kq_sub);
    uint64_t cqe = s->cq_addr + (uint64_t)s->cq_entries * sizeof(struct kq_cpl);
    uint64_t he = hdr + sizeof(struct kq_header);
    if (sqe > KF_UG_MASK_HP + 1 || cqe > KF_UG_MASK_HP + 1 || he > KF_UG_MASK_HP + 1)
        ERR("a ring leaves the 40-bit unit-global space");
    if ((s->sq_addr < he && hdr < sqe) || (s->cq_addr < he && hdr < cqe) ||
        (s->sq_addr < cqe && s->cq_addr < sqe))
        ERR("the header, submission ring and completion ring overlap");
    return KH_OK;
}

/* ---- Queue ---- */

#define OFF(field) ((uint64_t)offsetof(struct kq_header, field))

static int write_index(struct kh_node *n, const struct kh_queue *q, uint64_t off, uint64_t v)
{
    struct kq_index_line l = { .value = v };
    return kh_mem_write(n, q->addr + off, &l, sizeof l);
}

int kh_queue_create(struct kh_node *n, struct kh_queue *q, uint64_t hdr, uint32_t sqe, uint32_t cqe)
{
    memset(q, 0, sizeof *q);
    q->addr = hdr;
    q->sq_entries = sqe;
    q->cq_entries = cqe;
    q->sq_addr = (hdr + sizeof(struct kq_header) + 0xFFF) & ~UINT64_C(0xFFF);
    q->cq_addr = (q->sq_addr + (uint64_t)sqe * sizeof(struct kq_sub) + 0xFFF) & ~UINT64_C(0xFFF);
    q->timeout_ms = KH_DEF_TIMEOUT_MS;
    q->next_tag = 1;
    struct kq_setup s = {
        .magic = KQ_MAGIC, .version = KQ_VERSION, .sq_entries = (uint16_t)sqe,
        .cq_entries = (uint16_t)cqe, .sq_addr = q->sq_addr, .cq_addr = q->cq_addr,
    };
    if (sqe > KQ_MAX_ENTRIES || cqe > KQ_MAX_ENTRIES)
        return kh_fail(n, KH_E_INPUT, "ring entries %u/%u: at most %u", sqe, cqe, KQ_MAX_ENTRIES);
    int rc = kh_setup_check(&s, hdr, n->err, sizeof n->err);
    if (rc)
        return rc;
    /* Zero first, setup line last: the firmware never sees a valid magic over stale lines. */
    if ((rc = kh_mem_zero(n, hdr, sizeof(struct kq_header))) ||
        (rc = kh_mem_zero(n, q->sq_addr, (size_t)sqe * sizeof(struct kq_sub))) ||
        (rc = kh_mem_zero(n, q->cq_addr, (size_t)cqe * sizeof(struct kq_cpl))) ||
        (rc = kh_mem_write(n, hdr, &s, sizeof s)))
        return kh_context(n, rc, "creating the queue at 0x%llx", (unsigned long long)hdr);
    return KH_OK;
}

int kh_queue_attach(struct kh_node *n, struct kh_queue *q, uint64_t hdr)
{
    struct kq_header h;
    memset(q, 0, sizeof *q);
    int rc = kh_mem_read(n, hdr, &h, sizeof h);
    if (rc)
        return kh_context(n, rc, "reading the queue header at 0x%llx", (unsigned long long)hdr);
    rc = kh_setup_check(&h.setup, hdr, n->err, sizeof n->err);
    if (rc)
        return kh_context(n, KH_E_STATE, "no usable queue at 0x%llx (run `kactl boot` first)",
                          (unsigned long long)hdr);
    q->addr = hdr;
    q->sq_addr = h.setup.sq_addr;
    q->cq_addr = h.setup.cq_addr;
    q->sq_entries = h.setup.sq_entries;
    q->cq_entries = h.setup.cq_entries;
    q->sq_tail = h.sq_tail.value;
    q->cq_head = h.cq_head.value;
    q->timeout_ms = KH_DEF_TIMEOUT_MS;
    /* Tags continue from the submission count, so they stay unique across kactl runs. */
    q->next_tag = (uint32_t)q->sq_tail + 1u;
    if (!kh_ring_sane(q->sq_tail, h.sq_head.value, q->sq_entries) ||
        !kh_ring_sane(h.cq_tail.value, q->cq_head, q->cq_entries))
        return kh_fail(n, KH_E_STATE, "queue indices inconsistent: sq tail %llu head %llu, cq tail %llu head %llu",
                       (unsigned long long)q->sq_tail, (unsigned long long)h.sq_head.value,
                       (unsigned long long)h.cq_tail.value, (unsigned long long)q->cq_head);
    return KH_OK;
}

int kh_queue_view(struct kh_node *n, const struct kh_queue *q, struct kh_queue_view *v)
{
    struct kq_header h;
    int rc = kh_mem_read(n, q->addr, &h, sizeof h);
    if (rc)
        return kh_context(n, rc, "reading the queue header");
    v->sq_tail = h.sq_tail.value;
    v->sq_head = h.sq_head.value;
    v->cq_tail = h.cq_tail.value;
    v->cq_head = h.cq_head.value;
    /* Line 6 read by position: its first word is the RUN progress value, then (firmware with
     * the boot figures) instructions and cycles from release to READY; 0 where not written. */
    uint64_t l6[4];
    memcpy(l6, (const uint8_t *)&h + 6u * KQ_LINE, sizeof l6);
    v->progress = l6[0];
    v->ready_instret = l6[1];
    v->ready_cycles = l6[2];
    v->fw = h.fw;
    v->units = h.units;
    return KH_OK;
}

const char *kh_fw_state_name(unsigned state)
{
    switch (state) {
    case KQ_STATE_BOOTING: return "BOOTING";
    case KQ_STATE_READY: return "READY";
    case KQ_STATE_STOPPED: return "STOPPED";
    case KQ_STATE_FATAL: return "FATAL";
    default: return "UNKNOWN";
    }
}

uint64_t kh_ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The process's wait hook (kh_set_wait_hook): told about every long wait's progress. */
static void (*wait_hook)(void *arg, const char *what, uint64_t elapsed_ms);
static void *wait_hook_arg;

void kh_set_wait_hook(void (*fn)(void *arg, const char *what, uint64_t elapsed_ms), void *arg)
{
    wait_hook = fn;
    wait_hook_arg = arg;
}

static void wait_note(const char *what, uint64_t elapsed_ms)
{
    if (wait_hook)
        wait_hook(wait_hook_arg, what, elapsed_ms);
}

/* Each poll is one host-port round trip, which also lets the node's virtual time advance;
 * after the first few hundred, back off a little so a long wait does not spin a host core. */
static void backoff(unsigned polls)
{
    if (polls > 200) {
        struct timespec ts = { 0, 200000 };
        nanosleep(&ts, NULL);
    }
}

/* A stopped core ends any wait early: nothing will ever be posted. */
static int core_stopped(struct kh_node *n, const char *what)
{
    struct kh_core_status cs;
    int rc = kh_core_status(n, &cs);
    if (rc)
        return rc;
    if (cs.state == KHP_CPU_RUNNING)
        return KH_OK;
    char ex[256];
    kh_explain_core(&cs, ex, sizeof ex);
    return kh_fail(n, KH_E_STATE, "while waiting for %s the core stopped: %s", what, ex);
}

int kh_wait_ready(struct kh_node *n, struct kh_queue *q)
{
    uint64_t t0 = kh_ms_now();
    for (unsigned polls = 0;; polls++) {
        struct kq_fw_state fw;
        int rc = kh_mem_read(n, q->addr + OFF(fw), &fw, sizeof fw);
        if (rc)
            return rc;
        if (fw.state == KQ_STATE_READY)
            return KH_OK;
        if (fw.state == KQ_STATE_FATAL)
            return kh_fail(n, KH_E_STATE, "firmware is FATAL (code %u, cause 0x%llx, pc 0x%llx, tval 0x%llx)",
                           fw.code, (unsigned long long)fw.cause, (unsigned long long)fw.pc,
                           (unsigned long long)fw.tval);
        if ((polls & 15) == 15 && (rc = core_stopped(n, "the firmware to report READY")))
            return rc;
        if (kh_ms_now() - t0 > q->timeout_ms) {
            if ((rc = core_stopped(n, "the firmware to report READY")))
                return rc;
            return kh_fail(n, KH_E_TIMEOUT, "timed out after %u ms waiting for the firmware to report "
                           "READY in the queue at 0x%llx (state %s)", q->timeout_ms,
                           (unsigned long long)q->addr, kh_fw_state_name(fw.state));
        }
        wait_note("the firmware to report READY", kh_ms_now() - t0);
        backoff(polls);
    }
}

uint32_t kh_tag_next(struct kh_queue *q)
{
    return q->next_tag++;
}

static int read_index(struct kh_node *n, const struct kh_queue *q, uint64_t off, uint64_t *v)
{
    return kh_mem_read(n, q->addr + off, v, sizeof *v);
}

/* Copy count ring entries of esz bytes starting at free-running index first, one request per
 * contiguous run (at most two: the ring wraps once). rbuf for a read, wbuf for a write. */
static int ring_copy(struct kh_node *n, uint64_t base, uint32_t entries, size_t esz,
                     uint64_t first, unsigned count, void *rbuf, const void *wbuf)
{
    unsigned done = 0;
    while (done < count) {
        uint32_t slot = kh_ring_slot(first + done, entries);
        unsigned run = entries - slot;
        if (run > count - done)
            run = count - done;
        uint64_t at = base + (uint64_t)slot * esz;
        int rc = rbuf ? kh_mem_read(n, at, (uint8_t *)rbuf + done * esz, run * esz)
                      : kh_mem_write(n, at, (const uint8_t *)wbuf + done * esz, run * esz);
        if (rc)
            return rc;
        done += run;
    }
    return KH_OK;
}

/* sq_head and the state line in the one request a read of sq_head alone would be (lines 2-5). */
static int read_head_state(struct kh_node *n, const struct kh_queue *q, uint64_t *head, unsigned *state)
{
    uint8_t l[4 * KQ_LINE];
    int rc = kh_mem_read(n, q->addr + OFF(sq_head), l, sizeof l);
    if (rc)
        return rc;
    struct kq_fw_state fw;
    memcpy(head, l, sizeof *head);
    memcpy(&fw, l + 3 * KQ_LINE, sizeof fw);
    *state = fw.state;
    return KH_OK;
}

int kh_submit(struct kh_node *n, struct kh_queue *q, const struct kq_sub *subs, unsigned k)
{
    while (k) {
        uint64_t head;
        unsigned state;
        int rc = read_head_state(n, q, &head, &state);
        if (rc)
            return rc;
        /* Only a READY firmware takes submissions; anything written now would wait in the ring
         * and run after the next restart unasked. */
        if (state != KQ_STATE_READY)
            return kh_fail(n, KH_E_STATE, "nothing submitted: the firmware is %s, not READY (%u submission%s "
                           "not written)", kh_fw_state_name(state), k, k == 1 ? "" : "s");
        uint64_t t0 = kh_ms_now();
        for (unsigned polls = 0; kh_ring_free(q->sq_tail, head, q->sq_entries) == 0; polls++) {
            if ((polls & 15) == 15 && (rc = core_stopped(n, "room in the submission ring")))
                return rc;
            if (kh_ms_now() - t0 > q->timeout_ms)
                return kh_fail(n, KH_E_TIMEOUT, "timed out after %u ms waiting for room in the submission "
                               "ring (tail %llu, firmware head %llu, %u entries)", q->timeout_ms,
                               (unsigned long long)q->sq_tail, (unsigned long long)head, q->sq_entries);
            backoff(polls);
            if ((rc = read_index(n, q, OFF(sq_head), &head)))
                return rc;
        }
        if (!kh_ring_sane(q->sq_tail, head, q->sq_entries))
            return kh_fail(n, KH_E_STATE, "firmware sq_head %llu is ahead of the host's sq_tail %llu",
                           (unsigned long long)head, (unsigned long long)q->sq_tail);
        uint64_t room = kh_ring_free(q->sq_tail, head, q->sq_entries);
        unsigned batch = room < k ? (unsigned)room : k;
        /* Write the entries, then publish the tail. */
        if ((rc = ring_copy(n, q->sq_addr, q->sq_entries, sizeof *subs, q->sq_tail, batch, NULL, subs)))
            return kh_context(n, rc, "writing submissions");
        q->sq_tail += batch;
        if ((rc = write_index(n, q, OFF(sq_tail), q->sq_tail)))
            return kh_context(n, rc, "publishing sq_tail");
        subs += batch;
        k -= batch;
    }
    return KH_OK;
}

/* A completion wait past the queue's timeout: a stopped core says so first; otherwise what the
 * queue shows now (completions, the firmware's state, submissions taken). */
static int cq_timeout(struct kh_node *n, struct kh_queue *q, const char *what, uint64_t want)
{
    struct kh_queue_view v;
    int rc;
    if ((rc = core_stopped(n, what)) || (rc = kh_queue_view(n, q, &v)))
        return rc;
    return kh_fail(n, KH_E_TIMEOUT, "timed out after %u ms waiting for %s: cq_tail %llu, want %llu "
                   "(firmware %s, took %llu of %llu submissions)", q->timeout_ms, what,
                   (unsigned long long)v.cq_tail, (unsigned long long)want,
                   kh_fw_state_name(v.fw.state), (unsigned long long)v.sq_head,
                   (unsigned long long)v.sq_tail);
}

/* One turn of a completion wait that has not seen `want` yet (kh_wait_cq, kh_command): every
 * 16 polls whether the core stopped, then the deadline, the progress note and the backoff.
 * 0: poll again; else the wait's error. */
static int cq_wait_turn(struct kh_node *n, struct kh_queue *q, const char *what, uint64_t want,
                        uint64_t t0, unsigned polls)
{
    int rc;
    if ((polls & 15) == 15 && (rc = core_stopped(n, what)))
        return rc;
    uint64_t el = kh_ms_now() - t0;
    if (el > q->timeout_ms)
        return cq_timeout(n, q, what, want);
    wait_note(what, el);
    backoff(polls);
    return 0;
}

int kh_wait_cq(struct kh_node *n, struct kh_queue *q, uint64_t want, const char *what)
{
    uint64_t t0 = kh_ms_now(), tail;
    for (unsigned polls = 0;; polls++) {
        int rc = read_index(n, q, OFF(cq_tail), &tail);
        if (rc)
            return rc;
        if (tail >= want)
            return KH_OK;
        if ((rc = cq_wait_turn(n, q, what, want, t0, polls)))
            return rc;
    }
}

int kh_reap(struct kh_node *n, struct kh_queue *q, struct kq_cpl *out, unsigned max, unsigned *got)
{
    uint64_t tail;
    *got = 0;
    int rc = read_index(n, q, OFF(cq_tail), &tail);
    if (rc)
        return rc;
    if (!kh_ring_sane(tail, q->cq_head, q->cq_entries))
        return kh_fail(n, KH_E_STATE, "firmware cq_tail %llu is inconsistent with the host's cq_head %llu (%u entries)",
                       (unsigned long long)tail, (unsigned long long)q->cq_head, q->cq_entries);
    uint64_t avail = tail - q->cq_head;
    unsigned k = avail < max ? (unsigned)avail : max;
    if ((rc = ring_copy(n, q->cq_addr, q->cq_entries, sizeof *out, q->cq_head, k, out, NULL)))
        return kh_context(n, rc, "reading completions");
    if (k) {
        q->cq_head += k;
        if ((rc = write_index(n, q, OFF(cq_head), q->cq_head)))
            return kh_context(n, rc, "publishing cq_head");
    }
    *got = k;
    return KH_OK;
}

int kh_queue_pending(struct kh_node *n, struct kh_queue *q, struct kq_sub *out, unsigned max, unsigned *got,
                     uint64_t *sq_head)
{
    uint64_t head;
    *got = 0;
    int rc = read_index(n, q, OFF(sq_head), &head);
    if (rc)
        return kh_context(n, rc, "reading sq_head");
    if (!kh_ring_sane(q->sq_tail, head, q->sq_entries))
        return kh_fail(n, KH_E_STATE, "firmware sq_head %llu is inconsistent with the host's sq_tail %llu",
                       (unsigned long long)head, (unsigned long long)q->sq_tail);
    uint64_t k = q->sq_tail - head;
    if (k > max)
        k = max;
    if ((rc = ring_copy(n, q->sq_addr, q->sq_entries, sizeof *out, head, (unsigned)k, out, NULL)))
        return kh_context(n, rc, "reading pending submissions");
    *got = (unsigned)k;
    if (sq_head)
        *sq_head = head;
    return KH_OK;
}

int kh_queue_withdraw(struct kh_node *n, struct kh_queue *q, uint64_t *withdrawn)
{
    /* Only while no firmware runs: a running one might be taking them right now, and lowering
     * sq_tail under it breaks the index rule (KQ_FATAL_QUEUE). */
    struct kh_core_status cs;
    uint64_t head;
    int rc = kh_core_status(n, &cs);
    if (rc)
        return rc;
    if (cs.state == KHP_CPU_RUNNING)
        return kh_fail(n, KH_E_STATE, "withdrawing submissions needs the core held or stopped (it is running)");
    if ((rc = read_index(n, q, OFF(sq_head), &head)))
        return rc;
    if (!kh_ring_sane(q->sq_tail, head, q->sq_entries))
        return kh_fail(n, KH_E_STATE, "firmware sq_head %llu is inconsistent with the host's sq_tail %llu",
                       (unsigned long long)head, (unsigned long long)q->sq_tail);
    if (withdrawn)
        *withdrawn = q->sq_tail - head;
    if (q->sq_tail != head) {
        if ((rc = write_index(n, q, OFF(sq_tail), head)))
            return kh_context(n, rc, "withdrawing submissions (sq_tail)");
        q->sq_tail = head;
    }
    return KH_OK;
}

/* One poll of the next completion: the cq_tail line and the completion slot it would fill, both
 * in one batch (one round trip on a link that batches; whatever writes are posted ride with it).
 * The firmware writes the entry before it publishes cq_tail, and the batch reads the tail first,
 * so a tail past the slot means the slot read is the finished entry. */
static int poll_cpl(struct kh_node *n, const struct kh_queue *q, uint64_t *tail, struct kq_cpl *c, bool slot_too)
{
    if (!slot_too)
        return read_index(n, q, OFF(cq_tail), tail);
    uint32_t slot = kh_ring_slot(q->cq_head, q->cq_entries);
    struct kh_access a[2] = {
        { .op = KH_ACC_READ, .len = sizeof *tail, .addr = KHP_MEM(0, q->addr + OFF(cq_tail)), .rdata = tail },
        { .op = KH_ACC_READ, .len = sizeof *c, .addr = KHP_MEM(0, q->cq_addr + (uint64_t)slot * sizeof *c),
          .rdata = c },
    };
    return kh_access_run(n, a, 2);
}

/* Polls that read the slot with the tail: the first few, where a short command's completion is
 * found (on a link where a round trip is one access, qemu and xdma, each costs one more access;
 * a long wait then polls the tail alone and reads the slot once at the end). */
#define KH_POLLS_WITH_SLOT 8u

int kh_command(struct kh_node *n, struct kh_queue *q, struct kq_sub *sub, struct kq_cpl *cpl)
{
    /* Lines 3-5 (cq_tail, cq_head, state) in one request: the firmware must be READY and every
     * earlier submission completed and consumed, so the next completion can only be this
     * command's and the host never gets out of step with the rings. It also means the ring is
     * empty (sq_head lies between cq_tail and sq_tail), so no read of sq_head is needed for room:
     * the submission and sq_tail are written (posted) and ride with the first completion poll.
     * A command costs three round trips on a batching link when it finishes within one poll:
     * this check, one poll, and the cq_head write whenever the caller flushes (links bench). */
    uint8_t l[3 * KQ_LINE];
    int rc = kh_mem_read(n, q->addr + OFF(cq_tail), l, sizeof l);
    if (rc)
        return rc;
    uint64_t tail, head;
    struct kq_fw_state fw;
    memcpy(&tail, l, sizeof tail);
    memcpy(&head, l + KQ_LINE, sizeof head);
    memcpy(&fw, l + 2 * KQ_LINE, sizeof fw);
    if (fw.state != KQ_STATE_READY)
        return kh_fail(n, KH_E_STATE, "nothing submitted: the firmware is %s, not READY",
                       kh_fw_state_name(fw.state));
    if (tail != q->cq_head || head != q->cq_head)
        return kh_fail(n, KH_E_STATE, "nothing submitted: %llu completions are posted and not consumed (cq_tail %llu, "
                       "cq_head %llu, the host's %llu): another host is using this queue, or a command of an "
                       "earlier run completed late", (unsigned long long)(tail - q->cq_head),
                       (unsigned long long)tail, (unsigned long long)head, (unsigned long long)q->cq_head);
    if (tail != q->sq_tail)
        return kh_fail(n, KH_E_STATE, "nothing submitted: %llu earlier submissions have not completed (sq_tail %llu, "
                       "cq_tail %llu)", (unsigned long long)(q->sq_tail - tail), (unsigned long long)q->sq_tail,
                       (unsigned long long)tail);
    if (sub->tag == 0)
        sub->tag = kh_tag_next(q);
    if ((rc = ring_copy(n, q->sq_addr, q->sq_entries, sizeof *sub, q->sq_tail, 1, NULL, sub)))
        return kh_context(n, rc, "writing the submission");
    q->sq_tail++;
    if ((rc = write_index(n, q, OFF(sq_tail), q->sq_tail)))
        return kh_context(n, rc, "publishing sq_tail");
    char what[96];
    snprintf(what, sizeof what, "the completion of command tag %u (op %u)", sub->tag, sub->op);
    uint64_t t0 = kh_ms_now(), want = q->cq_head + 1;
    bool have = false;
    for (unsigned polls = 0;; polls++) {
        have = polls < KH_POLLS_WITH_SLOT;
        if ((rc = poll_cpl(n, q, &tail, cpl, have)))
            return rc;
        if (tail >= want)
            break;
        if ((rc = cq_wait_turn(n, q, what, want, t0, polls)))
            return rc;
    }
    if (!kh_ring_sane(tail, q->cq_head, q->cq_entries) || tail != want)
        return kh_fail(n, KH_E_PROTO, "cq_tail %llu after one submission, the host's cq_head %llu: another host "
                       "is using this queue", (unsigned long long)tail, (unsigned long long)q->cq_head);
    if (!have && (rc = ring_copy(n, q->cq_addr, q->cq_entries, sizeof *cpl, q->cq_head, 1, cpl, NULL)))
        return kh_context(n, rc, "reading the completion");
    q->cq_head++;
    if ((rc = write_index(n, q, OFF(cq_head), q->cq_head)))
        return kh_context(n, rc, "publishing cq_head");
    if (cpl->tag != sub->tag)
        return kh_fail(n, KH_E_PROTO, "completion tag %u, expected %u", cpl->tag, sub->tag);
    return KH_OK;
}
