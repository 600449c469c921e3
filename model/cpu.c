/* cpu.c — the processor's side of the node (docs/hardware.md §4 RV32, §5 RV64; docs/hardware.md §10.1 item 6):
 * address decode of every non-RAM region, local control / control region, EXIT, CONSOLE,
 * halts, CYCLE/INSTRET, the agent window's access rules and the write-back data caches. */
#include <stdlib.h>
#include <string.h>

#include "km_internal.h"
#include "mover.h"
#include "kohaku/agent_regs.h"
#include "kohaku/cpu_map.h"
#include "kohaku/hostport.h"
#include "kohaku/mover_regs.h"

#define KM_LINE_BYTES      32u
#define KM_STDIN_BYTES     256u
/* RV32 local control decodes addr[7:2] of this 256-byte block. */
#define RV32_LCTL_BYTES    0x100u
/* RV64 control region: the 4 KB page at 0x2_0000 (highest register DCACHE at 0x1C8). */
#define RV64_CTL_BYTES     0x1000u
#define RV32_MVGO_BYTES    4u
#define RV32_OCC_BYTES     0x10000u
#define RV64_UG_LIMIT      (UINT64_C(1) << 40)
#define RV64_STAGING_BIT   KBF_BIT(39)

struct km_line {
    uint64_t tag;             /* line address (unit-global >> 5) */
    bool valid, dirty;
    uint8_t data[KM_LINE_BYTES];
};

struct km_cpu {
    enum km_variant variant;
    uint8_t *imem, *spad;
    size_t imem_bytes, spad_bytes;
    unsigned state;           /* enum khp_cpu_state */
    unsigned cause;
    uint64_t word, halt_pc;
    uint64_t release_ns, stop_ns;
    struct km_line *lines;
    unsigned nlines;
    uint8_t in[KM_STDIN_BYTES];
    unsigned in_head, in_count;
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        abort();
    return p;
}

struct km_cpu *km_cpu_new(struct km_model *m)
{
    struct km_cpu *c = xcalloc(1, sizeof(*c));
    c->variant = m->cfg.variant;
    bool rv32 = c->variant == KM_VARIANT_RV32;
    c->imem_bytes = rv32 ? RV32_IMEM_BYTES : RV64_IMEM_BYTES;
    c->spad_bytes = rv32 ? RV32_SPAD_BYTES : RV64_SPAD_BYTES;
    c->nlines = rv32 ? RV32_CACHE_LINES : RV64_CACHE_LINES;
    c->imem = xcalloc(1, c->imem_bytes);
    c->spad = xcalloc(1, c->spad_bytes);
    c->lines = xcalloc(c->nlines, sizeof(*c->lines));
    return c;
}

void km_cpu_free(struct km_cpu *c)
{
    if (!c)
        return;
    free(c->imem);
    free(c->spad);
    free(c->lines);
    free(c);
}

static void cache_drop(struct km_cpu *c)
{
    for (unsigned i = 0; i < c->nlines; i++)
        c->lines[i].valid = c->lines[i].dirty = false;
}

void km_cpu_reset(struct km_model *m)
{
    struct km_cpu *c = m->cpu;
    /* A core out of reset has an empty cache: dirty lines are lost, as on silicon. */
    cache_drop(c);
    c->state = m->cfg.start_held ? KHP_CPU_HELD : KHP_CPU_RUNNING;
    c->cause = 0;
    c->word = c->halt_pc = 0;
    c->release_ns = c->stop_ns = m->now;
    c->in_head = c->in_count = 0;
}

uint8_t *km_imem(struct km_model *m, size_t *bytes)
{
    if (bytes)
        *bytes = m->cpu->imem_bytes;
    return m->cpu->imem;
}

uint8_t *km_spad(struct km_model *m, size_t *bytes)
{
    if (bytes)
        *bytes = m->cpu->spad_bytes;
    return m->cpu->spad;
}

/* ---- run state ---- */

static void cpu_stop(struct km_model *m, unsigned state, unsigned cause, uint64_t word, uint64_t pc)
{
    struct km_cpu *c = m->cpu;
    /* The first stop wins: QEMU may finish the instruction that stopped the core and a
     * runner parses exactly one stop line. */
    if (c->state != KHP_CPU_RUNNING)
        return;
    c->state = state;
    c->cause = cause;
    c->word = word;
    c->halt_pc = pc;
    c->stop_ns = m->now;
    if (m->plat.stopped)
        m->plat.stopped(m->plat.opaque, state, cause, word, pc);
}

void km_cpu_trap(struct km_model *m, uint64_t mcause, uint64_t mepc, uint64_t mtval, uint64_t a0)
{
    if (m->cpu->variant == KM_VARIANT_RV32) {
        /* docs/hardware.md §4: ECALL (from M or U mode) halts with a0, EBREAK with a0, anything else
         * is a fault whose halt word is the PC of the faulting instruction. */
        uint32_t pc = (uint32_t)mepc;
        switch (mcause) {
        case 8: case 11:
            cpu_stop(m, KHP_CPU_HALTED, RV32_HALT_ECALL, (uint32_t)a0, pc);
            break;
        case 3:
            cpu_stop(m, KHP_CPU_HALTED, RV32_HALT_EBREAK, (uint32_t)a0, pc);
            break;
        default:
            cpu_stop(m, KHP_CPU_HALTED, RV32_HALT_FAULT, pc, pc);
            break;
        }
    } else {
        /* docs/hardware.md §5: a trap with mtvec unset halts, reporting the raw trap CSRs. */
        cpu_stop(m, KHP_CPU_HALTED, (unsigned)mcause, mtval, mepc);
    }
}

static void cpu_exit(struct km_model *m, uint64_t word)
{
    uint64_t pc = m->plat.pc ? m->plat.pc(m->plat.opaque) : 0;
    cpu_stop(m, KHP_CPU_EXITED, RV32_HALT_EXIT, word, pc);
}

void km_cpu_hold(struct km_model *m, bool hold)
{
    struct km_cpu *c = m->cpu;
    if (hold) {
        if (c->state == KHP_CPU_HELD)
            return;
        c->state = KHP_CPU_HELD;
    } else {
        /* Release is a core reset: PC 0, empty caches, a fresh cycle count. */
        cache_drop(c);
        c->state = KHP_CPU_RUNNING;
        c->cause = 0;
        c->word = c->halt_pc = 0;
        c->release_ns = c->stop_ns = m->now;
    }
    if (m->plat.hart_hold)
        m->plat.hart_hold(m->plat.opaque, hold);
}

bool km_cpu_held(const struct km_model *m)
{
    return m->cpu->state == KHP_CPU_HELD;
}

static uint64_t cpu_cycles(const struct km_model *m)
{
    const struct km_cpu *c = m->cpu;
    switch (c->state) {
    case KHP_CPU_RUNNING:
        return m->now - c->release_ns;      /* one cycle per ns (docs/model.md) */
    case KHP_CPU_HELD:
        return 0;
    default:
        return c->stop_ns - c->release_ns;  /* frozen at the stop */
    }
}

static uint64_t cpu_instret(const struct km_model *m)
{
    if (m->cpu->state == KHP_CPU_HELD || !m->plat.instret)
        return 0;
    return m->plat.instret(m->plat.opaque);
}

uint64_t km_cpu_host_read(struct km_model *m, unsigned off)
{
    const struct km_cpu *c = m->cpu;
    switch (off) {
    case KHP_CPU_CTRL:
        return c->state == KHP_CPU_HELD ? KHP_CPU_CTRL_HOLD : 0;
    case KHP_CPU_STATE:
        return KBF_FIELD_PREP(KHP_CPU_STATE_STATE, c->state) |
               KBF_FIELD_PREP(KHP_CPU_STATE_CAUSE, c->cause & 0xFFu);
    case KHP_CPU_EXIT_WORD:
        return c->word;
    case KHP_CPU_HALT_PC:
        return c->halt_pc;
    case KHP_CPU_CYCLES:
        return cpu_cycles(m);
    case KHP_CPU_INSTRET:
        return cpu_instret(m);
    case KHP_CPU_VARIANT:
        return (uint64_t)c->variant;
    case KHP_CPU_NOW_NS:
        return m->now;
    default:
        return 0;
    }
}

size_t km_stdin_push(struct km_model *m, const uint8_t *bytes, size_t n)
{
    struct km_cpu *c = m->cpu;
    size_t done = 0;
    while (done < n && c->in_count < KM_STDIN_BYTES) {
        c->in[(c->in_head + c->in_count) % KM_STDIN_BYTES] = bytes[done++];
        c->in_count++;
    }
    return done;
}

/* ---- data caches: direct-mapped, write-back, write-allocate ---- */

static void line_writeback(struct km_model *m, struct km_line *l)
{
    if (l->valid && l->dirty) {
        km_mem_write(m, l->tag * KM_LINE_BYTES, l->data, KM_LINE_BYTES);
        l->dirty = false;
    }
}

static struct km_line *line_get(struct km_model *m, uint64_t ug)
{
    struct km_cpu *c = m->cpu;
    uint64_t tag = ug / KM_LINE_BYTES;
    struct km_line *l = &c->lines[tag % c->nlines];
    if (!l->valid || l->tag != tag) {
        line_writeback(m, l);
        /* Cached addresses are DRAM, which the agent never drops; beyond the DRAM size the
         * fill reads zeros and a write-back vanishes (docs/hardware.md §8). */
        memset(l->data, 0, sizeof(l->data));
        km_mem_read(m, tag * KM_LINE_BYTES, l->data, KM_LINE_BYTES);
        l->tag = tag;
        l->valid = true;
        l->dirty = false;
    }
    return l;
}

static void cache_flush(struct km_model *m)
{
    struct km_cpu *c = m->cpu;
    for (unsigned i = 0; i < c->nlines; i++)
        line_writeback(m, &c->lines[i]);
}

/* Aligned accesses of at most 8 bytes never cross a 32-byte line. */
static uint64_t cached_read(struct km_model *m, uint64_t ug, unsigned size)
{
    struct km_line *l = line_get(m, ug);
    return km_le_get(&l->data[ug % KM_LINE_BYTES], size);
}

static void cached_write(struct km_model *m, uint64_t ug, unsigned size, uint64_t val)
{
    struct km_line *l = line_get(m, ug);
    km_le_put(&l->data[ug % KM_LINE_BYTES], size, val);
    l->dirty = true;
}

/* ---- helpers ---- */

static uint64_t size_mask(unsigned size)
{
    return size >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * size)) - 1;
}

/* The bytes of a wider register an access of size at byte offset lo reads. */
static uint64_t sub_read(uint64_t reg, unsigned lo, unsigned size)
{
    return (reg >> (8 * lo)) & size_mask(size);
}

static bool in_range(uint64_t a, uint64_t base, uint64_t bytes)
{
    return a >= base && a - base < bytes;
}

/* TX_FLIT and STAGE are plain byte-enabled memory (docs/hardware.md §4); everything else in the
 * agent window is a register. */
static bool agent_bytes_region(uint32_t off)
{
    return in_range(off, KA_TX_FLIT(0), KA_TX_FLIT(KF_WORDS) - KA_TX_FLIT(0)) ||
           in_range(off, KA_STAGE_BASE, KA_WINDOW_BYTES - KA_STAGE_BASE);
}

static bool agent_side_effect_reg(uint32_t reg)
{
    return reg == KA_PROG_KICK || reg == KA_TX_KICK || reg == KA_RX_POP || reg == KA_SIG_DONE;
}

static int spad_access(struct km_cpu *c, uint64_t off, unsigned size, bool write, uint64_t *val)
{
    if (write)
        km_le_put(&c->spad[off], size, *val);
    else
        *val = km_le_get(&c->spad[off], size);
    return 0;
}

/* ---- RV32 (docs/hardware.md §4) ---- */

static uint32_t rv32_lctl_read(struct km_model *m, unsigned reg)
{
    unsigned x, y;
    switch (reg) {
    case RV32_LCTL_STATUS:
        return 0;       /* FLUSH/INVAL complete inside the store; stores are never queued */
    case RV32_LCTL_CAUSE:
        return 0;       /* the core is only ever started by reset/release (docs/model.md) */
    case RV32_LCTL_COREID:
        km_mesh_agent_xy(m->mesh, &x, &y);
        return ((y & 0xFu) << 4) | (x & 0xFu);
    case RV32_LCTL_ARG:
        return 0;       /* no kick argument: reset/release carries none */
    case RV32_LCTL_CYCLE:
        return (uint32_t)cpu_cycles(m);
    case RV32_LCTL_INSTRET:
        return (uint32_t)cpu_instret(m);
    case RV32_LCTL_WROUT:
        return 0;
    default:
        return 0;       /* FLUSH, INVAL, CONSOLE, EXIT and unlisted words read 0 */
    }
}

static void rv32_lctl_write(struct km_model *m, unsigned reg, uint32_t v)
{
    switch (reg) {
    case RV32_LCTL_FLUSH:
        cache_flush(m);
        break;
    case RV32_LCTL_INVAL:
        cache_drop(m->cpu);
        break;
    case RV32_LCTL_CONSOLE:
        if (m->plat.console)
            m->plat.console(m->plat.opaque, (uint8_t)v);
        break;
    case RV32_LCTL_EXIT:
        cpu_exit(m, v);
        break;
    default:
        KM_REF_INC(m, bad_reg_writes);  /* read-only or unlisted */
        break;
    }
}

static int rv32_agent_write(struct km_model *m, uint32_t off, unsigned size, uint32_t v)
{
    uint32_t reg = off & ~7u;
    unsigned lo = off & 7u;
    if (agent_bytes_region(off)) {
        km_agent_write_bytes(m, reg, lo, size, (uint64_t)v << (8 * lo));
        return 0;
    }
    if (size != 4)
        return -1;      /* registers take 32-bit stores only */
    if (lo == 0) {
        /* Low half: writes [31:0], clears [63:32], fires the register's side effect. */
        km_agent_write(m, reg, v, KM_FROM_CPU);
    } else if (!agent_side_effect_reg(reg)) {
        /* High half: writes [63:32] and keeps [31:0]. */
        uint64_t cur = km_agent_read(m, reg, KM_FROM_CPU);
        km_agent_write(m, reg, ((uint64_t)v << 32) | (cur & 0xFFFFFFFFu), KM_FROM_CPU);
    }
    /* A high-half store to a side-effect register does nothing: the effect fires on the
     * low half only and those registers hold no value. */
    return 0;
}

static int rv32_access(struct km_model *m, uint64_t a, unsigned size, bool write, uint64_t *val)
{
    struct km_cpu *c = m->cpu;
    if (size != 1 && size != 2 && size != 4)
        return -1;
    if (in_range(a, RV32_SPAD_BASE, c->spad_bytes))
        return spad_access(c, a - RV32_SPAD_BASE, size, write, val);
    if (in_range(a, RV32_LCTL_BASE, RV32_LCTL_BYTES)) {
        unsigned reg = (unsigned)(a - RV32_LCTL_BASE) & 0xFCu;    /* addr[7:2] */
        unsigned lo = (unsigned)a & 3u;
        if (write)
            rv32_lctl_write(m, reg, (uint32_t)(*val << (8 * lo)));
        else
            *val = sub_read(rv32_lctl_read(m, reg), lo, size);
        return 0;
    }
    if (a >= RV32_DRAM_BASE && a < RV32_DRAM_LIMIT) {
        uint64_t ug = a - RV32_DRAM_BASE;   /* this mesh's DRAM, local offset */
        if (write)
            cached_write(m, ug, size, *val);
        else
            *val = cached_read(m, ug, size);
        return 0;
    }
    if (in_range(a, RV32_MVGO, RV32_MVGO_BYTES)) {
        if (size != 4)
            return -1;
        if (write)
            km_mover_mvgo(m->mover, (uint32_t)*val);
        else
            *val = km_mover_mvgo_status(m->mover);
        return 0;
    }
    if (in_range(a, RV32_OCC_BASE, RV32_OCC_BYTES)) {
        unsigned id = (unsigned)(a >> 8) & 0xFFu, reg = (unsigned)a & 0xFFu;
        if (size != 4)
            return -1;
        if (write)
            km_mover_occ_write(m->mover, id, reg, (uint32_t)*val);
        else
            *val = km_mover_occ_read(m->mover, id, reg);
        return 0;
    }
    if (in_range(a, RV32_AGENT_BASE, KA_WINDOW_BYTES)) {
        uint32_t off = (uint32_t)(a - RV32_AGENT_BASE);
        if (write)
            return rv32_agent_write(m, off, size, (uint32_t)*val);
        *val = sub_read(km_agent_read(m, off & ~7u, KM_FROM_CPU), off & 7u, size);
        return 0;
    }
    /* The instruction window (fetch only), everything unassigned, and the rest of the node
     * range 0xF (the old agent window 0xF100_0000 included): a fault, cause 3. Deliberately
     * stricter than silicon, which starts the mover on a store there whose address bits [15:0]
     * are zero and drops every other store (docs/hardware.md §4): a stray store halts here, loudly,
     * instead of moving data or vanishing (docs/model.md "RV32 node range"). */
    return -1;
}

/* ---- RV64 (docs/hardware.md §5) ---- */

static uint64_t rv64_ctl_read(struct km_model *m, unsigned reg)
{
    struct km_cpu *c = m->cpu;
    switch (reg) {
    case RV64_CTL_MVSTAT:
        return km_mover_mvstat(m->mover);
    case RV64_CTL_STDIN:
        return c->in_count ? RV64_STDIN_VALID | c->in[c->in_head] : 0;
    case RV64_CTL_DCACHE:
        return 0;       /* flush and invalidate complete inside the store */
    default:
        return 0;       /* EXIT, CONSOLE, the mover window (write-only) and unlisted */
    }
}

static void rv64_ctl_write(struct km_model *m, unsigned reg, uint64_t v)
{
    struct km_cpu *c = m->cpu;
    if (reg >= RV64_CTL_MOVER && reg < RV64_CTL_MOVER + KMV_RV64_REACH_END) {
        km_mover_write(m->mover, reg - RV64_CTL_MOVER, v);
        return;
    }
    switch (reg) {
    case RV64_CTL_EXIT:
        cpu_exit(m, v);
        break;
    case RV64_CTL_CONSOLE:
        if (m->plat.console)
            m->plat.console(m->plat.opaque, (uint8_t)v);
        break;
    case RV64_CTL_STDIN:
        if (c->in_count) {
            c->in_head = (c->in_head + 1) % KM_STDIN_BYTES;
            c->in_count--;
        }
        break;
    case RV64_CTL_DCACHE:
        if (v & RV64_DCACHE_FLUSH)
            cache_flush(m);
        if (v & RV64_DCACHE_INVAL)
            cache_drop(c);
        break;
    default:
        /* Read-only, unlisted, and mover offsets 0x40.. (IMM, GATHER) the window lacks. */
        KM_REF_INC(m, bad_reg_writes);
        break;
    }
}

static int rv64_access(struct km_model *m, uint64_t a, unsigned size, bool write, uint64_t *val)
{
    struct km_cpu *c = m->cpu;
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return -1;
    if (in_range(a, RV64_SPAD_BASE, c->spad_bytes))
        return spad_access(c, a - RV64_SPAD_BASE, size, write, val);
    if (in_range(a, RV64_CTL_BASE, RV64_CTL_BYTES)) {
        unsigned off = (unsigned)(a - RV64_CTL_BASE);
        unsigned reg = off & ~7u, lo = off & 7u;
        /* A narrower store would write half a mover register (the rest zero): fault it. */
        if (write && size != 8 && reg >= RV64_CTL_MOVER && reg < RV64_CTL_MOVER + KMV_RV64_REACH_END)
            return -1;
        if (write)
            rv64_ctl_write(m, reg, (*val & size_mask(size)) << (8 * lo));
        else
            *val = sub_read(rv64_ctl_read(m, reg), lo, size);
        return 0;
    }
    if (in_range(a, RV64_AGENT_BASE, KA_WINDOW_BYTES)) {
        uint32_t off = (uint32_t)(a - RV64_AGENT_BASE);
        uint32_t reg = off & ~7u;
        unsigned lo = off & 7u;
        if (!write) {
            *val = sub_read(km_agent_read(m, reg, KM_FROM_CPU), lo, size);
        } else if (agent_bytes_region(off)) {
            km_agent_write_bytes(m, reg, lo, size, (*val & size_mask(size)) << (8 * lo));
        } else if (size == 8) {
            km_agent_write(m, reg, *val, KM_FROM_CPU);
        } else {
            return -1;  /* registers take 64-bit stores only */
        }
        return 0;
    }
    if (a >= RV64_UG_BASE && a < RV64_UG_LIMIT) {
        bool uncached = (a & (RV64_STAGING_BIT | RV64_UNCACHED)) != 0;
        uint64_t ug = a & ~RV64_UNCACHED;   /* bit 38 is cleared on the way out */
        if (!uncached) {
            if (write)
                cached_write(m, ug, size, *val);
            else
                *val = cached_read(m, ug, size);
            return 0;
        }
        uint8_t buf[8] = { 0 };
        enum km_mem_outcome o;
        if (write) {
            km_le_put(buf, size, *val);
            o = km_mem_write(m, ug, buf, size);
        } else {
            o = km_mem_read(m, ug, buf, size);
            *val = km_le_get(buf, size);
        }
        /* The memory agent drops an unserved aperture: silicon would hang the core on it;
         * the model faults the access instead so the firmware's bug is visible. */
        return o == KM_MEM_DROPPED ? -1 : 0;
    }
    return -1;
}

int km_cpu_read(struct km_model *m, uint64_t paddr, unsigned size, uint64_t *val)
{
    uint64_t v = 0;
    if (!size || (paddr & (size - 1)))
        return -1;      /* misaligned: the hart's own check normally catches it first */
    int r = m->cpu->variant == KM_VARIANT_RV32 ? rv32_access(m, paddr, size, false, &v)
                                               : rv64_access(m, paddr, size, false, &v);
    *val = r ? 0 : v;
    return r;
}

int km_cpu_write(struct km_model *m, uint64_t paddr, unsigned size, uint64_t val)
{
    if (!size || (paddr & (size - 1)))
        return -1;
    val &= size_mask(size);
    return m->cpu->variant == KM_VARIANT_RV32 ? rv32_access(m, paddr, size, true, &val)
                                              : rv64_access(m, paddr, size, true, &val);
}
