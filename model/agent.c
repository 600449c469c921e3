/* agent.c — the control agent ("orchestrator") of the device model: every register of
 * docs/hardware.md §1 with the behaviour of §1.1 (staging RAM, dispatcher and credit, shared TX FIFO,
 * RX FIFO with sticky overflow, NODE_STATUS mirror, SIG_DONE, CAPS) and the referee counts of
 * docs/hardware.md §10.3. Timing: one agent cycle per KM_DEFAULT_CYCLE_NS (docs/model-mesh.md). */
#include <stdlib.h>
#include <string.h>

#include "km_internal.h"
#include "mover.h"
#include "kohaku/agent_regs.h"

/* STAGE runs from 0x2000 to the end of the 64 KB decode: at most this many 40-byte slots. */
#define AG_STAGE_MAX    ((KA_DECODE_MASK + 1u - KA_STAGE_BASE) / KF_BYTES)
#define AG_NODES        256u               /* NODE_STATUS[{y,x}], POS_WIDTH 4 */
#define AG_FLIT_WIDTH   288u
#define AG_POS_WIDTH    4u

struct ag_ring {
    struct kf_flit f[KA_FIFO_DEPTH];
    unsigned head, count;
};

struct km_agent {
    struct km_model *m;
    unsigned stage_flits;
    struct kf_flit *stage;

    uint64_t ctrl, irq_en;
    uint64_t prog_dst, prog_len, prog_base;  /* as written, masked to their fields */

    /* Dispatcher: a flit every KM_DISPATCH_CYCLES cycles; each flit is read at its start
     * (word 0: credit spent), counted at word 4 (flits left, run) and pushed into TX
     * KM_DISPATCH_PUSH cycles after its start. */
    bool run;
    uint16_t left;                 /* PROG_STAT "flits left" */
    uint32_t slot;                 /* next staging slot to push */
    uint64_t disp_next_t;          /* earliest start of the next flit */
    bool w4_pending;               /* the started flit's fifth word is still to be read ... */
    uint64_t w4_t;                 /* ... at this time */
    struct {                       /* flits read, not yet in TX (at most two overlap) */
        struct kf_flit f;
        uint64_t t;
        bool send;                 /* false: a slot past the RAM, nothing to push */
    } pend[2];
    unsigned n_pend;
    uint64_t gap_from;             /* run fell at this time with pushes pending: a TX_KICK */
    uint64_t gap_to;               /* from then up to the last push is lost (§1.1) */
    uint16_t credit;               /* 16-bit, no clamp: wraps both ways */
    bool cred_written;             /* a PROG_CRED write happened at cred_wr_t ... */
    uint64_t cred_wr_t;            /* ... and wins that cycle over completions */

    /* TX: a 16-deep FIFO plus the output stage (17 flits), shared by dispatcher and mailbox. */
    struct kf_flit tx_flit;        /* TX_FLIT[0..4], kept across kicks */
    struct ag_ring txq;
    struct kf_flit out;
    bool out_valid;

    struct ag_ring rxq;
    bool rx_overflow;              /* sticky until reset */

    uint16_t sig_done;
    bool sig_cleared;              /* a SIG_DONE write happened at sig_clr_t ... */
    uint64_t sig_clr_t;            /* ... and wins that cycle over signals */
    uint64_t node_status[AG_NODES];  /* no reset, no clear (docs/hardware.md §1.1) */

    bool tick_pending;
    uint32_t gen;                  /* bumped by reset: ticks of an earlier life are ignored */
};

static void schedule_tick(struct km_agent *a);

static void ring_push(struct ag_ring *r, const struct kf_flit *f)
{
    r->f[(r->head + r->count) % KA_FIFO_DEPTH] = *f;
    r->count++;
}

static struct kf_flit ring_pop(struct ag_ring *r)
{
    struct kf_flit f = r->f[r->head];
    r->head = (r->head + 1) % KA_FIFO_DEPTH;
    r->count--;
    return f;
}

static void agent_xy(const struct km_agent *a, unsigned *x, unsigned *y)
{
    km_mesh_agent_xy(a->m->mesh, x, y);
}

static bool tx_full(const struct km_agent *a)
{
    return a->txq.count == KA_FIFO_DEPTH && a->out_valid;
}

/* Into TX: straight into an empty output stage, else the FIFO. */
static void tx_push(struct km_agent *a, const struct kf_flit *f)
{
    if (!a->out_valid && !a->txq.count) {
        a->out = *f;
        a->out_valid = true;
    } else {
        ring_push(&a->txq, f);
    }
    schedule_tick(a);
}

/* One staged flit starts (its first word): dst from PROG_DST read now (live), src = the
 * agent; type, txn, last, rsvd and payload pass through. A slot past the RAM (a referee
 * violation, counted at the kick) is undefined in silicon; the model spends its credit and its
 * place in the program but sends nothing, so it can never become a real request (an all-zero
 * flit would be type 0, a memory read of address 0: docs/model-mesh.md §3). */
static void dispatch_start(struct km_agent *a)
{
    struct kf_flit f = { { 0, 0, 0, 0, 0 } };
    bool past = a->slot >= a->stage_flits;
    if (!past)
        f = a->stage[a->slot];
    unsigned ax, ay;
    agent_xy(a, &ax, &ay);
    uint64_t keep = KF_HDR_TYPE | KF_HDR_TXN | KF_HDR_LAST | KF_HDR_RSVD;
    f.w[KF_HDR_WORD] = (f.w[KF_HDR_WORD] & keep) |
                       KBF_FIELD_PREP(KF_HDR_DST_X, KBF_FIELD_GET(KA_PROG_DST_X, a->prog_dst)) |
                       KBF_FIELD_PREP(KF_HDR_DST_Y, KBF_FIELD_GET(KA_PROG_DST_Y, a->prog_dst)) |
                       KBF_FIELD_PREP(KF_HDR_SRC_X, ax) | KBF_FIELD_PREP(KF_HDR_SRC_Y, ay);
    /* A PROG_CRED write wins its cycle over a flit's start (docs/hardware.md §1.1): the written value
     * stays. */
    if (!(a->cred_written && a->cred_wr_t == a->m->now))
        a->credit--;
    a->slot++;
    uint64_t now = a->m->now;
    a->pend[a->n_pend].f = f;
    a->pend[a->n_pend].t = now + KM_DISPATCH_PUSH * KM_DEFAULT_CYCLE_NS;
    a->pend[a->n_pend].send = !past;
    a->n_pend++;
    a->w4_pending = true;
    a->w4_t = now + (KM_DISPATCH_CYCLES - 1u) * KM_DEFAULT_CYCLE_NS;
    a->disp_next_t = now + KM_DISPATCH_CYCLES * KM_DEFAULT_CYCLE_NS;
}

/* The started flit's fifth word: counted. The counter is not decremented past the last flit:
 * a finished program reads 1, and run falls here, before that flit reaches TX (the STATUS.busy
 * gap, docs/hardware.md §1.1). */
static void dispatch_word4(struct km_agent *a)
{
    a->w4_pending = false;
    if (a->left <= 1) {
        a->run = false;
        a->gap_from = a->m->now;
        a->gap_to = a->pend[a->n_pend - 1].t;
    } else {
        a->left--;
    }
}

/* TX room as the dispatcher counts it: two places of margin for a push still on its way. */
static bool tx_room(const struct km_agent *a)
{
    return a->txq.count + a->n_pend <= KA_FIFO_DEPTH - 2u;
}

static bool dispatch_ready(const struct km_agent *a)
{
    return a->run && !a->w4_pending && a->credit != 0 && tx_room(a) &&
           a->m->now >= a->disp_next_t;
}

/* One agent cycle: the output stage leaves onto the mesh when the link takes it, the FIFO
 * head moves up, a read flit lands in TX, the dispatcher reads on. */
static void tick_ev(struct km_model *m, void *ctx, uint64_t arg)
{
    struct km_agent *a = ctx;
    if ((uint32_t)arg != a->gen)
        return;
    a->tick_pending = false;
    if (a->w4_pending && m->now >= a->w4_t)
        dispatch_word4(a);
    if (a->out_valid && km_mesh_can_send(m, &a->out)) {
        unsigned ax, ay;
        agent_xy(a, &ax, &ay);
        a->out_valid = false;
        km_mesh_send(m, ax, ay, &a->out);
    }
    if (a->txq.count && !a->out_valid) {
        a->out = ring_pop(&a->txq);
        a->out_valid = true;
    }
    while (a->n_pend && m->now >= a->pend[0].t && a->txq.count < KA_FIFO_DEPTH) {
        if (a->pend[0].send)
            ring_push(&a->txq, &a->pend[0].f);
        a->pend[0] = a->pend[1];
        a->n_pend--;
    }
    if (dispatch_ready(a))
        dispatch_start(a);
    schedule_tick(a);
}

static void schedule_tick(struct km_agent *a)
{
    if (a->tick_pending)
        return;
    bool disp = a->run && !a->w4_pending && a->credit != 0 && tx_room(a);
    if (!a->out_valid && !a->txq.count && !a->n_pend && !a->w4_pending && !disp)
        return;     /* idle, or stalled at zero credit: a credit arrival restarts it */
    a->tick_pending = true;
    km_at(a->m, a->m->now + KM_DEFAULT_CYCLE_NS, tick_ev, a, a->gen);
}

/* ---- registers ---- */

static bool in_stage(const struct km_agent *a, uint32_t off)
{
    return off >= KA_STAGE_BASE && off < KA_STAGE_BASE + a->stage_flits * KF_BYTES;
}

static uint64_t *stage_word(struct km_agent *a, uint32_t off)
{
    uint32_t rel = off - KA_STAGE_BASE;
    return &a->stage[rel / KF_BYTES].w[(rel % KF_BYTES) / 8u];
}

static uint64_t prog_stat(const struct km_agent *a)
{
    return (a->run ? KA_PROG_STAT_RUN : 0) | KBF_FIELD_PREP(KA_PROG_STAT_LEFT, a->left) |
           KBF_FIELD_PREP(KA_PROG_STAT_CRED, a->credit);
}

static uint64_t caps(const struct km_agent *a)
{
    return KBF_FIELD_PREP(KA_CAPS_FLIT_WIDTH, AG_FLIT_WIDTH) |
           KBF_FIELD_PREP(KA_CAPS_POS_WIDTH, AG_POS_WIDTH) |
           KBF_FIELD_PREP(KA_CAPS_GRID_LO, km_mesh_grid_lo(a->m->mesh)) |
           KBF_FIELD_PREP(KA_CAPS_GRID_HI, km_mesh_grid_hi(a->m->mesh));
}

uint64_t km_agent_read(struct km_model *m, uint32_t off, enum km_initiator who)
{
    struct km_agent *a = m->agent;
    off &= KA_DECODE_MASK & ~7u;
    if (off >= KA_NODE_STATUS_BASE && off < KA_STAGE_BASE)
        return a->node_status[(off >> 3) & 0xFFu];   /* decodes [10:3]: 0x1800 mirrors */
    if (off >= KA_RX_FLIT(0) && off < KA_RX_FLIT(KF_WORDS)) {
        if (!a->rxq.count)
            return 0;
        return a->rxq.f[a->rxq.head].w[(off - KA_RX_FLIT(0)) / 8u];
    }
    switch (off) {
    case KA_CTRL:
        return a->ctrl;
    case KA_STATUS:
        return (a->txq.count || a->run ? KA_STATUS_BUSY : 0) | KA_STATUS_MESH_READY;
    case KA_CAPS:
        return caps(a);
    case KA_IRQ_EN:
        return a->irq_en;
    case KA_PROG_DST:
        return a->prog_dst;
    case KA_PROG_LEN:
        return a->prog_len;
    case KA_PROG_STAT:
        return prog_stat(a);
    case KA_PROG_CRED:
        return a->credit;
    case KA_PROG_BASE:
        return a->prog_base;
    case KA_SIG_DONE:
        return a->sig_done;
    case KA_AUX_STAT:
        /* The processor's window does not reach the aux client (docs/hardware.md §3, ours). */
        return who == KM_FROM_HOST && m->mover ? km_mover_aux_stat(m->mover) : 0;
    case KA_TX_STATUS:
        return tx_full(a) ? KA_TX_STATUS_FULL : 0;
    case KA_RX_STATUS:
        return (a->rxq.count ? 0 : KA_RX_STATUS_EMPTY) |
               (a->rx_overflow ? KA_RX_STATUS_OVERFLOW : 0);
    default:
        /* IRQ_STAT, AUX_STATW (no aux client), write-only registers, STAGE, unlisted: 0. */
        return 0;
    }
}

static void prog_kick(struct km_agent *a)
{
    if (a->run) {
        KM_REF_INC(a->m, kick_while_running);
        return;
    }
    uint16_t len = (uint16_t)a->prog_len;
    if (!len)
        return;     /* ignored, and harmless: nothing would be sent */
    uint32_t base = (uint32_t)a->prog_base;
    if (base + len > a->stage_flits)
        KM_REF_INC(a->m, stage_overrun);
    a->slot = base;
    a->left = len;
    a->run = true;  /* also at zero credit: accepted and stalled until PROG_CRED moves */
    if (a->disp_next_t < a->m->now)
        a->disp_next_t = a->m->now;
    schedule_tick(a);
}

static void tx_kick(struct km_agent *a)
{
    if (a->run || tx_full(a))
        return;     /* dropped, not deferred; TX_FLIT keeps its content */
    /* The upstream revision that loses a TX_KICK landing right after run fell (its push and
     * the dispatcher's last one write TX in one cycle): the model loses every TX_KICK between
     * run falling and the last flit's push, so that firmware meets it (docs/model-mesh.md §3). */
    if (a->n_pend && a->m->now >= a->gap_from && a->m->now <= a->gap_to)
        return;
    tx_push(a, &a->tx_flit);
}

static void rx_pop(struct km_agent *a)
{
    if (a->rxq.count)
        (void)ring_pop(&a->rxq);
}

void km_agent_write(struct km_model *m, uint32_t off, uint64_t val, enum km_initiator who)
{
    struct km_agent *a = m->agent;
    off &= KA_DECODE_MASK & ~7u;
    if (off >= KA_STAGE_BASE) {
        if (in_stage(a, off))
            *stage_word(a, off) = val;
        else
            KM_REF_INC(m, stage_oob_writes);
        return;
    }
    if (off >= KA_TX_FLIT(0) && off < KA_TX_FLIT(KF_WORDS)) {
        a->tx_flit.w[(off - KA_TX_FLIT(0)) / 8u] = val;
        return;
    }
    if (off >= KA_AUX_CFG_BASE && off < KA_AUX_CFG_END) {
        unsigned moff = off - KA_AUX_CFG_BASE;
        if (who == KM_FROM_CPU)
            KM_REF_INC(m, cpu_aux_cfg_writes);      /* host only: dropped */
        else if (moff > 0x7Fu)
            KM_REF_INC(m, bad_reg_writes);          /* past the mover's 0x00-0x7F */
        else if (m->mover)
            km_mover_write(m->mover, moff, val);
        return;
    }
    switch (off) {
    case KA_CTRL:
        a->ctrl = val;
        return;
    case KA_IRQ_EN:
        a->irq_en = val;
        return;
    case KA_PROG_DST:
        a->prog_dst = val & (KA_PROG_DST_X | KA_PROG_DST_Y);
        return;
    case KA_PROG_LEN:
        a->prog_len = val & KA_PROG_LEN_N;
        return;
    case KA_PROG_KICK:
        prog_kick(a);
        return;
    case KA_PROG_CRED:
        a->credit = (uint16_t)(val & KA_PROG_CRED_N);
        a->cred_written = true;
        a->cred_wr_t = m->now;
        schedule_tick(a);   /* releases a program stalled at zero */
        return;
    case KA_PROG_BASE:
        a->prog_base = val & KA_PROG_BASE_SLOT;
        return;
    case KA_SIG_DONE:
        a->sig_done = 0;
        a->sig_cleared = true;
        a->sig_clr_t = m->now;
        return;
    case KA_TX_KICK:
        tx_kick(a);
        return;
    case KA_RX_POP:
        rx_pop(a);
        return;
    case KA_AUX_STAT:
        /* kmodel.h: a processor write to AUX_STAT counts with the AUX_CFG writes. */
        if (who == KM_FROM_CPU)
            KM_REF_INC(m, cpu_aux_cfg_writes);
        else
            KM_REF_INC(m, bad_reg_writes);
        return;
    default:
        /* STATUS, CAPS, IRQ_STAT, PROG_STAT, AUX_STATW, TX_STATUS, RX_FLIT, RX_STATUS,
         * NODE_STATUS and every unlisted offset: read-only or nothing there. */
        KM_REF_INC(m, bad_reg_writes);
        return;
    }
}

/* val is the register image with the written bytes in place (bytes [lo, lo+len) of val are
 * stored; the rest of val is ignored), as cpu.c passes a narrow store. STAGE and TX_FLIT
 * merge the bytes into the stored word; any other register takes them as a whole write with
 * the other bytes zero. */
void km_agent_write_bytes(struct km_model *m, uint32_t off, unsigned lo, unsigned len, uint64_t val)
{
    struct km_agent *a = m->agent;
    if (lo >= 8u || len == 0)
        return;
    if (len > 8u - lo)
        len = 8u - lo;
    uint64_t mask = (len == 8u ? ~UINT64_C(0) : (UINT64_C(1) << (8u * len)) - 1u) << (8u * lo);
    uint64_t v = val & mask;
    off &= KA_DECODE_MASK & ~7u;
    uint64_t *w = NULL;
    if (in_stage(a, off))
        w = stage_word(a, off);
    else if (off >= KA_TX_FLIT(0) && off < KA_TX_FLIT(KF_WORDS))
        w = &a->tx_flit.w[(off - KA_TX_FLIT(0)) / 8u];
    if (w)
        *w = (*w & ~mask) | v;
    else
        km_agent_write(m, off, v, KM_FROM_CPU);
}

/* ---- control flits from the mesh ---- */

void km_agent_receive(struct km_model *m, const struct kf_flit *f)
{
    struct km_agent *a = m->agent;
    uint32_t hdr = (uint32_t)f->w[KF_HDR_WORD];
    bool rx_full = a->rxq.count == KA_FIFO_DEPTH;
    if (rx_full)
        a->rx_overflow = true;     /* offered while full, a signal included */

    if (KBF_FIELD_GET(KF_HDR_TYPE, hdr) != KF_T_CU_SIGNAL) {
        if (rx_full)
            KM_REF_INC(m, rx_dropped);   /* accepted and dropped: memory is never blocked */
        else
            ring_push(&a->rxq, f);
        return;
    }

    /* A signal is summarised, never queued. */
    unsigned code = (unsigned)KBF_FIELD_GET(KF_W3_SIG_CODE, f->w[3]);
    uint64_t arg = KBF_FIELD_GET(KF_W3_SIG_ARG, f->w[3]);
    unsigned yx = (unsigned)((KBF_FIELD_GET(KF_HDR_SRC_Y, hdr) << 4) |
                             KBF_FIELD_GET(KF_HDR_SRC_X, hdr));
    uint64_t count = (KBF_FIELD_GET(KA_NS_COUNT, a->node_status[yx]) + 1u) & 0xFFFFu;
    a->node_status[yx] = KBF_FIELD_PREP(KA_NS_CODE, code) | KBF_FIELD_PREP(KA_NS_ARG, arg) |
                         KBF_FIELD_PREP(KA_NS_COUNT, count) | KA_NS_VALID;
    if (!(a->sig_cleared && a->sig_clr_t == m->now))
        a->sig_done++;
    if (code == KF_SIG_INST_COMPLETE && !(a->cred_written && a->cred_wr_t == m->now)) {
        a->credit++;
        schedule_tick(a);
    }
}

/* ---- lifetime ---- */

struct km_agent *km_agent_new(struct km_model *m)
{
    struct km_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->m = m;
    a->stage_flits = m->cfg.stage_flits ? m->cfg.stage_flits : KA_STAGE_FLITS_DEFAULT;
    if (a->stage_flits > AG_STAGE_MAX)
        a->stage_flits = AG_STAGE_MAX;
    a->stage = calloc(a->stage_flits, sizeof *a->stage);
    if (!a->stage) {
        free(a);
        return NULL;
    }
    return a;
}

void km_agent_free(struct km_agent *a)
{
    if (!a)
        return;
    free(a->stage);
    free(a);
}

/* Power-on registers and FIFOs. The staging RAM is memory and NODE_STATUS has no reset in
 * silicon: both keep their contents. */
void km_agent_reset(struct km_agent *a)
{
    a->gen++;
    a->ctrl = a->irq_en = 0;
    a->prog_dst = a->prog_len = a->prog_base = 0;
    a->run = false;
    a->left = 0;
    a->slot = 0;
    a->disp_next_t = 0;
    a->w4_pending = false;
    a->n_pend = 0;
    a->gap_from = a->gap_to = 0;
    a->credit = 0;
    a->cred_written = false;
    /* TX_FLIT has no reset (docs/hardware.md §1.1): a TX_KICK after a reset resends what it held. */
    a->txq.head = a->txq.count = 0;
    a->out_valid = false;
    a->rxq.head = a->rxq.count = 0;
    a->rx_overflow = false;
    a->sig_done = 0;
    a->sig_cleared = false;
    a->tick_pending = false;
}
