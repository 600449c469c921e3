/* tu.c — the test unit TU of the device model (docs/hardware.md §10.1 item 3): opcodes that make firmware
 * tests easy, with real memory traffic (docs/hardware.md §2.4.1–§2.4.2). Encoding and timing:
 * docs/model-mesh.md §5. The opcode is payload [255:252] = word 3 [63:60]. */
#include <string.h>

#include "km_internal.h"
#include "unit.h"
#include "tu.h"

struct tu_state {
    unsigned op;            /* executing (or last) opcode */
    uint32_t last_result;
    uint8_t tag;            /* txn of this unit's memory requests */
    bool wr_wait;           /* a WRITE waits for its MEM_WR_ACK */
    uint32_t wr_result;
    bool rd_wait;           /* a READ collects its responses */
    unsigned rd_left;
    uint32_t rd_sum;
};

static void retire(struct km_cu *cu, struct tu_state *s, uint32_t result, bool fault)
{
    s->last_result = result;
    km_cu_done(cu, result, fault);
}

static void nop_done(struct km_cu *cu, void *state, uint64_t arg)
{
    retire(cu, state, (uint32_t)arg, false);
}

static void fault_done(struct km_cu *cu, void *state, uint64_t arg)
{
    retire(cu, state, (uint32_t)arg, true);
}

static struct kf_flit mem_flit(struct km_cu *cu, unsigned type, unsigned txn, unsigned last)
{
    unsigned ax, ay;
    km_cu_mem_agent(cu, &ax, &ay);
    struct kf_flit f = { { 0, 0, 0, 0, 0 } };
    f.w[KF_HDR_WORD] = kf_hdr(ax, ay, km_cu_x(cu), km_cu_y(cu), type, txn, last);
    return f;
}

/* WRITE: one MEM_WR_REQ descriptor (addr, len; last 0) then len + 1 MEM_WR_DATA beats, the
 * final one with last set. Lane j of beat b holds seed + 4b + j. */
static void do_write(struct km_cu *cu, struct tu_state *s, const struct kf_flit *inst)
{
    uint64_t addr = KBF_FIELD_GET(TU_W3_ADDR, inst->w[3]);
    unsigned len = (unsigned)KBF_FIELD_GET(TU_W3_LEN, inst->w[3]);
    uint64_t seed = inst->w[2];
    if (len > TU_WRITE_MAX_LEN) {
        km_cu_after(cu, km_cu_cycle_ns(cu), fault_done, TU_FAULT_WRITE_LEN | len);
        return;
    }
    s->tag++;
    struct kf_flit rq = mem_flit(cu, KF_T_MEM_WR_REQ, s->tag, 0);
    rq.w[3] = KBF_FIELD_PREP(KF_W3_MEM_ADDR, addr) | KBF_FIELD_PREP(KF_W3_MEM_LEN, len);
    km_cu_send(cu, &rq);
    for (unsigned b = 0; b <= len; b++) {
        struct kf_flit d = mem_flit(cu, KF_T_MEM_WR_DATA, 0, b == len);
        for (unsigned j = 0; j < 4; j++)
            d.w[j] = seed + 4u * b + j;
        km_cu_send(cu, &d);
    }
    s->wr_wait = true;
    s->wr_result = (len + 1u) * 32u;
}

/* READ: one plain MEM_RD_REQ of len + 1 beats; the result is the sum of every 32-bit
 * little-endian word received, modulo 2^32 (order-independent, so response order is free). */
static void do_read(struct km_cu *cu, struct tu_state *s, const struct kf_flit *inst)
{
    uint64_t addr = KBF_FIELD_GET(TU_W3_ADDR, inst->w[3]);
    unsigned len = (unsigned)KBF_FIELD_GET(TU_W3_LEN, inst->w[3]);
    s->tag++;
    struct kf_flit rq = mem_flit(cu, KF_T_MEM_RD_REQ, s->tag, 1);
    rq.w[3] = KBF_FIELD_PREP(KF_W3_MEM_ADDR, addr) | KBF_FIELD_PREP(KF_W3_MEM_LEN, len);
    km_cu_send(cu, &rq);
    s->rd_wait = true;
    s->rd_left = len + 1u;
    s->rd_sum = 0;
}

static void tu_exec(struct km_cu *cu, void *state, const struct kf_flit *inst)
{
    struct tu_state *s = state;
    uint64_t w3 = inst->w[3];
    uint64_t cyc = km_cu_cycle_ns(cu);
    s->op = (unsigned)KBF_FIELD_GET(KF_W3_OPCODE, w3);
    uint32_t imm = (uint32_t)KBF_FIELD_GET(TU_W3_IMM, w3);
    switch (s->op) {
    case TU_OP_NOP:
        km_cu_after(cu, cyc, nop_done, imm);
        return;
    case TU_OP_DELAY:
        km_cu_after(cu, cyc * imm, nop_done, imm);
        return;
    case TU_OP_WRITE:
        do_write(cu, s, inst);
        return;
    case TU_OP_READ:
        do_read(cu, s, inst);
        return;
    case TU_OP_FAULT:
        km_cu_after(cu, cyc, fault_done, imm);
        return;
    case TU_OP_HANG:
        return;     /* never retires: holds its credit, for timeout tests */
    default:
        km_cu_after(cu, cyc, fault_done, TU_FAULT_OPCODE | s->op);
        return;
    }
}

static void tu_receive(struct km_cu *cu, void *state, const struct kf_flit *f)
{
    struct tu_state *s = state;
    uint32_t hdr = (uint32_t)f->w[KF_HDR_WORD];
    unsigned type = (unsigned)KBF_FIELD_GET(KF_HDR_TYPE, hdr);
    unsigned txn = (unsigned)KBF_FIELD_GET(KF_HDR_TXN, hdr);
    if (type == KF_T_MEM_WR_ACK && s->wr_wait && txn == s->tag) {
        s->wr_wait = false;
        retire(cu, s, s->wr_result, false);
    } else if (type == KF_T_MEM_RD_RESP && s->rd_wait) {
        for (unsigned j = 0; j < 4; j++)
            s->rd_sum += (uint32_t)f->w[j] + (uint32_t)(f->w[j] >> 32);
        if (--s->rd_left == 0) {
            s->rd_wait = false;
            retire(cu, s, s->rd_sum, false);
        }
    }
    /* Anything else (a stray ack, CU_DATA) is not for the test unit: dropped. */
}

static uint64_t tu_dbg(struct km_cu *cu, void *state)
{
    (void)cu;
    const struct tu_state *s = state;
    return KBF_FIELD_PREP(TU_DBG_OP, s->op) | KBF_FIELD_PREP(TU_DBG_RESULT, s->last_result);
}

const struct km_unit_class km_unit_tu = {
    .name = "TU",
    .type = TU_CAPS_TYPE,
    .version = TU_CAPS_VERSION,
    .buffers = 0,
    .inst_depth = TU_INST_DEPTH,
    .state_size = sizeof(struct tu_state),
    .init = NULL,
    .fini = NULL,
    .exec = tu_exec,
    .receive = tu_receive,
    .dbg = tu_dbg,
};
