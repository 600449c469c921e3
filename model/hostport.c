/* hostport.c — the host port (include/kohaku/hostport.h; docs/hardware.md §6; §10.1 item 7):
 * frames requests from the byte stream and executes them against the agent registers, the
 * processor host registers and load paths, the referee counters and node memory. Every
 * malformed request gets an error status; nothing a host sends can crash the model. */
#include <string.h>

#include "km_internal.h"
#include "kohaku/hostport.h"

#define KHP_HDR_BYTES      16u
#define KHP_REG_BYTES      8u
#define KHP_UG_SPAN        (UINT64_C(1) << 40)
/* The one mesh this node serves: outside addresses (0 + 1) << 40 | unit-global. */
#define KHP_MEM_PREFIX     UINT64_C(1)
/* Host-port timing (docs/model.md): a request costs a PCIe-like round trip, plus the data at
 * 32 bytes per ns. */
#define KHP_REQ_NS         1000u
#define KHP_BYTES_PER_NS   32u

_Static_assert(sizeof(struct km_referee) == 8 * 8, "eight referee registers");

size_t km_hp_parse(const uint8_t *in, size_t n, struct khp_req *req, const uint8_t **data)
{
    if (n < KHP_HDR_BYTES)
        return 0;
    req->op = in[0];
    req->width = in[1];
    req->tag = (uint16_t)km_le_get(in + 2, 2);
    req->len = (uint32_t)km_le_get(in + 4, 4);
    req->addr = km_le_get(in + 8, 8);
    *data = NULL;
    /* Only a WRITE carries data, and only up to KHP_MAX_DATA: a longer one is framed as its
     * header alone and refused with KHP_E_LEN (the host library never sends one). */
    if (req->op == KHP_OP_WRITE && req->len <= KHP_MAX_DATA) {
        if (n - KHP_HDR_BYTES < req->len)
            return 0;
        *data = in + KHP_HDR_BYTES;
        return KHP_HDR_BYTES + (size_t)req->len;
    }
    return KHP_HDR_BYTES;
}

uint64_t km_hp_cost_ns(const struct khp_req *req)
{
    uint64_t bytes = req->op == KHP_OP_READ || req->op == KHP_OP_WRITE ? req->len : 0;
    if (bytes > KHP_MAX_DATA)
        bytes = 0;
    return KHP_REQ_NS + (bytes + KHP_BYTES_PER_NS - 1) / KHP_BYTES_PER_NS;
}

struct hp_ctx {
    struct km_model *m;
    const struct khp_req *req;
    const uint8_t *data;      /* WRITE data, req->len bytes */
    uint8_t *out;             /* READ data goes to out[KHP_HDR_BYTES..] */
    size_t outcap;
    uint64_t value;           /* reply value */
    uint32_t rlen;            /* reply data bytes */
};

static bool is_write(const struct hp_ctx *c)
{
    return c->req->op == KHP_OP_WRITE;
}

/* A 64-bit register access: width 8, 8-byte aligned; READ len 0 or 8 (the value returns in
 * the reply header), WRITE exactly 8 data bytes (the value, little-endian). */
static unsigned reg_check(const struct hp_ctx *c)
{
    if (c->req->width != KHP_REG_BYTES)
        return KHP_E_WIDTH;
    if (c->req->addr % KHP_REG_BYTES)
        return KHP_E_ALIGN;
    if (is_write(c) ? c->req->len != KHP_REG_BYTES : c->req->len != 0 && c->req->len != KHP_REG_BYTES)
        return KHP_E_LEN;
    return KHP_OK;
}

static uint64_t reg_value(const struct hp_ctx *c)
{
    return km_le_get(c->data, KHP_REG_BYTES);
}

static unsigned hp_agent(struct hp_ctx *c)
{
    unsigned st = reg_check(c);
    if (st)
        return st;
    uint32_t off = (uint32_t)(c->req->addr - KHP_AGENT_BASE);
    if (is_write(c))
        km_agent_write(c->m, off, reg_value(c), KM_FROM_HOST);   /* with its side effects */
    else
        c->value = km_agent_read(c->m, off, KM_FROM_HOST);
    return KHP_OK;
}

static unsigned hp_cpu(struct hp_ctx *c)
{
    unsigned st = reg_check(c);
    if (st)
        return st;
    unsigned off = (unsigned)(c->req->addr - KHP_CPU_BASE);
    if (is_write(c)) {
        if (off != KHP_CPU_CTRL)
            return KHP_E_ADDR;      /* every other processor host register is read-only */
        km_cpu_hold(c->m, (reg_value(c) & KHP_CPU_CTRL_HOLD) != 0);
        return KHP_OK;
    }
    if (off > KHP_CPU_NOW_NS)
        return KHP_E_ADDR;
    c->value = km_cpu_host_read(c->m, off);
    return KHP_OK;
}

/* The referee counters (read-only) and the fault-injection registers (hostport.h). */
static unsigned hp_model(struct hp_ctx *c)
{
    unsigned st = reg_check(c);
    if (st)
        return st;
    unsigned off = (unsigned)(c->req->addr - KHP_MODEL_BASE);
    unsigned i = off / KHP_REG_BYTES;
    struct km_hp_inj *inj = &c->m->hp_inj;
    if (i < km_referee_count()) {
        if (is_write(c))
            return KHP_E_ADDR;      /* the referee counters are read-only */
        c->value = km_referee_value(c->m, i);
        return KHP_OK;
    }
    uint64_t v = is_write(c) ? reg_value(c) : 0;
    switch (off) {
    case KHP_MODEL_INJ_UNIT:
        if (is_write(c))
            inj->unit = (uint32_t)(v & (KHP_INJ_UNIT_X | KHP_INJ_UNIT_Y));
        c->value = inj->unit;
        return KHP_OK;
    case KHP_MODEL_INJ_N:
        if (is_write(c))
            inj->n = (uint32_t)v;
        c->value = inj->n;
        return KHP_OK;
    case KHP_MODEL_INJ_ARG:
        if (is_write(c))
            inj->arg = (uint32_t)v;
        c->value = inj->arg;
        return KHP_OK;
    case KHP_MODEL_INJ_ARM:
        if (is_write(c)) {
            if (v > 0xFF || km_inject(c->m, (unsigned)v, (unsigned)KBF_FIELD_GET(KHP_INJ_UNIT_X, inj->unit),
                                      (unsigned)KBF_FIELD_GET(KHP_INJ_UNIT_Y, inj->unit), inj->n, inj->arg))
                return KHP_E_ADDR;  /* no unit there, or no such kind: nothing armed */
            inj->armed++;
        }
        c->value = inj->armed;
        return KHP_OK;
    case KHP_MODEL_INJ_CLEAR:
        if (!is_write(c))
            return KHP_E_ADDR;      /* write-only */
        km_inject_clear(c->m);
        return KHP_OK;
    default:
        return KHP_E_ADDR;
    }
}

/* Byte ranges (load paths and memory): width 0, 1..KHP_MAX_DATA bytes. */
static unsigned bytes_check(const struct hp_ctx *c)
{
    if (c->req->width != 0)
        return KHP_E_WIDTH;
    if (c->req->len == 0 || c->req->len > KHP_MAX_DATA)
        return KHP_E_LEN;
    if (!is_write(c) && c->outcap - KHP_HDR_BYTES < c->req->len)
        return KHP_E_LEN;           /* the glue's reply buffer cannot hold it */
    return KHP_OK;
}

/* The instruction window (32-bit granular) or the scratchpad: written only while held. */
static unsigned hp_window(struct hp_ctx *c, uint8_t *win, size_t bytes, uint64_t off, unsigned gran)
{
    unsigned st = bytes_check(c);
    if (st)
        return st;
    if (off % gran || c->req->len % gran)
        return KHP_E_ALIGN;
    if (off + c->req->len > bytes)
        return KHP_E_LEN;
    if (is_write(c)) {
        if (!km_cpu_held(c->m))
            return KHP_E_RUNNING;
        memcpy(win + off, c->data, c->req->len);
    } else {
        memcpy(c->out + KHP_HDR_BYTES, win + off, c->req->len);
        c->rlen = c->req->len;
    }
    return KHP_OK;
}

static unsigned hp_memory(struct hp_ctx *c)
{
    unsigned st = bytes_check(c);
    if (st)
        return st;
    if (c->req->addr >> 40 != KHP_MEM_PREFIX)
        return KHP_E_ADDR;          /* another mesh: this node serves mesh 0 only */
    uint64_t ug = c->req->addr & (KHP_UG_SPAN - 1);
    if (ug + c->req->len > KHP_UG_SPAN)
        return KHP_E_LEN;
    /* Straight to memory, behind the processor's caches. */
    enum km_mem_outcome o;
    if (is_write(c)) {
        o = km_mem_write(c->m, ug, c->data, c->req->len);
    } else {
        o = km_mem_read(c->m, ug, c->out + KHP_HDR_BYTES, c->req->len);
        if (o != KM_MEM_DROPPED)
            c->rlen = c->req->len;
    }
    return o == KM_MEM_DROPPED ? KHP_E_ADDR : KHP_OK;
}

static unsigned hp_access(struct hp_ctx *c)
{
    uint64_t a = c->req->addr;
    size_t ib, sb;
    uint8_t *imem = km_imem(c->m, &ib);
    uint8_t *spad = km_spad(c->m, &sb);
    if (is_write(c) && !c->data)
        return KHP_E_LEN;           /* a WRITE longer than KHP_MAX_DATA */
    if (a >= KHP_UG_SPAN)
        return hp_memory(c);
    if (a - KHP_AGENT_BASE < KHP_AGENT_END - KHP_AGENT_BASE)
        return hp_agent(c);
    if (a >= KHP_CPU_BASE && a < KHP_CPU_END)
        return hp_cpu(c);
    if (a >= KHP_IMEM_BASE && a - KHP_IMEM_BASE < ib)
        return hp_window(c, imem, ib, a - KHP_IMEM_BASE, 4);
    if (a >= KHP_SPAD_BASE && a - KHP_SPAD_BASE < sb)
        return hp_window(c, spad, sb, a - KHP_SPAD_BASE, 1);
    if (a >= KHP_MODEL_BASE && a < KHP_MODEL_END)
        return hp_model(c);
    return KHP_E_ADDR;
}

size_t km_hp_execute(struct km_model *m, const struct khp_req *req, const uint8_t *data,
                     uint8_t *out, size_t outcap)
{
    if (!out || outcap < KHP_HDR_BYTES)
        return 0;
    struct hp_ctx c = { .m = m, .req = req, .data = data, .out = out, .outcap = outcap };
    unsigned st;
    switch (req->op) {
    case KHP_OP_HELLO:
        c.value = KHP_MAGIC | (uint64_t)KHP_VERSION << 32;
        st = KHP_OK;
        break;
    case KHP_OP_READ:
    case KHP_OP_WRITE:
        st = hp_access(&c);
        break;
    default:
        st = KHP_E_OP;
        break;
    }
    if (st != KHP_OK) {
        c.value = 0;
        c.rlen = 0;
    }
    out[0] = req->op;
    out[1] = (uint8_t)st;
    km_le_put(out + 2, 2, req->tag);
    km_le_put(out + 4, 4, c.rlen);
    km_le_put(out + 8, 8, c.value);
    return KHP_HDR_BYTES + c.rlen;
}
