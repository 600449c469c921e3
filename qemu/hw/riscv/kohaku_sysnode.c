/*
 * kohaku_sysnode.c — the kohaku-sysnode machine: the control processor of a KohakuAccel system
 * node (docs/hardware.md §4 RV32 / §5 RV64) wrapped around the device model library (model/, docs/hardware.md §10),
 * with the host port of docs/hardware.md §6. One source for both emulators; the variant follows the
 * target's word size. docs/qemu.md describes the choices made here.
 *
 * Layout of this file: constants and state; the platform callbacks the model calls; time
 * (km_advance before every access, a virtual timer at the model's next deadline); the MMIO
 * regions forwarded to the model; the halt ROM and its private trap register; hart control
 * (reset setup with the locked PMP, hold, release, stop); the ELF and boot-block loaders; the
 * host port; machine init and properties.
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/riscv/riscv_hart.h"
#include "target/riscv/cpu.h"
#include "target/riscv/pmp.h"
#include "chardev/char.h"
#include "chardev/char-fe.h"
#include "exec/address-spaces.h"
#include "exec/exec-all.h"
#include "sysemu/cpu-timers.h"
#include "sysemu/reset.h"
#include "elf.h"

#include "kmodel.h"
#include "kohaku/cpu_map.h"
#include "kohaku/hostport.h"

#define TYPE_KOHAKU_SYSNODE_MACHINE MACHINE_TYPE_NAME("kohaku-sysnode")
OBJECT_DECLARE_SIMPLE_TYPE(KohakuSysnodeState, KOHAKU_SYSNODE_MACHINE)

#if defined(TARGET_RISCV32)
#define KS_IS32 true
#else
#define KS_IS32 false
#endif

/*
 * The machine's private page pair, outside every region of docs/hardware.md §4/§5 (below the RV64
 * unit-global space at 0x1000_0000, above the RV64 agent window, unassigned on RV32):
 * the halt ROM (fetch only) and, one page up, the trap register it reports to.
 */
#define KS_ROM_BASE        0x0FFFE000u
#define KS_ROM_BYTES       0x1000u
#define KS_TRAP_BASE       0x0FFFF000u
#define KS_TRAP_BYTES      0x1000u
/* Trap register layout: four 64-bit slots, then the commit word. */
#define KS_TRAP_MCAUSE     0x00u
#define KS_TRAP_MEPC       0x08u
#define KS_TRAP_MTVAL      0x10u
#define KS_TRAP_A0         0x18u
#define KS_TRAP_COMMIT     0x20u

/* PMP configuration bits (privileged spec, pmpcfg). */
#define KS_PMP_R           0x01u
#define KS_PMP_W           0x02u
#define KS_PMP_X           0x04u
#define KS_PMP_NAPOT       0x18u
#define KS_PMP_L           0x80u

/* Host port buffers: one request may carry KHP_MAX_DATA bytes after its 16-byte header. */
#define KS_HP_IN_CAP       (2u * KHP_MAX_DATA + 64u)
#define KS_HP_OUT_CAP      (KHP_MAX_DATA + 64u)
#define KS_HP_LATENCY_NS   1000u
#define KS_STDIN_CAP       4096u

/* One MMIO region forwarded to the model: its bus base, so the model sees physical addresses. */
typedef struct KohakuRegion {
    struct KohakuSysnodeState *s;
    MemoryRegion mr;
    hwaddr base;
} KohakuRegion;

#define KS_MAX_REGIONS 4

struct KohakuSysnodeState {
    MachineState parent_obj;

    RISCVHartArrayState harts;
    MemoryRegion imem, spad, rom, trap;
    KohakuRegion regions[KS_MAX_REGIONS];
    unsigned nregions;

    struct km_model *m;
    QEMUTimer *model_timer;

    /* Properties. */
    char *bootblock;
    char *units;
    char *faults;
    char *hostport;
    uint64_t dram;
    bool exit_on_stop;
    bool exit_on_stop_set;
    uint64_t host_latency_ns;

    /* Hart. */
    bool held;                /* the hart is held (host port) or stopped */
    int64_t instret_base;     /* raw instruction count at the last release */
    uint64_t trap_slot[4];    /* what the halt ROM stored */

    /* Host port: bytes in, one request in flight, its reply out. */
    CharBackend hp;
    bool hp_on;
    uint8_t *hp_in;
    size_t hp_in_len;
    bool hp_busy;
    size_t hp_consumed;
    struct khp_req hp_req;
    const uint8_t *hp_data;
    uint8_t *hp_out;
    QEMUTimer *hp_timer;
    uint64_t hp_ready_at;     /* virtual ns: the port is free again (km_hp_cost_ns) */

    /* RV64 STDIN: bytes from a chardev wait here until the model's queue takes them. */
    char *stdin_id;
    CharBackend in;
    bool in_on;
    uint8_t in_buf[KS_STDIN_CAP];
    size_t in_len;
};

static CPUState *ks_cpu(KohakuSysnodeState *s)
{
    return CPU(&s->harts.harts[0]);
}

/* ---- time ---- */

static uint64_t ks_now(void)
{
    return (uint64_t)qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* Bring the model up to the virtual clock; called before every access the model sees. */
static void ks_sync(KohakuSysnodeState *s)
{
    km_advance(s->m, ks_now());
}

/* Arm the model timer at the model's next event, after every interaction that may add one. */
static void ks_rearm(KohakuSysnodeState *s)
{
    uint64_t d = km_next_deadline(s->m);

    if (d == UINT64_MAX) {
        timer_del(s->model_timer);
    } else {
        timer_mod_ns(s->model_timer, (int64_t)MIN(d, (uint64_t)INT64_MAX));
    }
}

static void ks_model_timer_cb(void *opaque)
{
    KohakuSysnodeState *s = opaque;

    ks_sync(s);
    ks_rearm(s);
}

/* ---- hart control ---- */

/*
 * After every CPU reset: the trap vector points at the halt ROM and three locked PMP entries
 * give the fetch-only instruction window (docs/design.md §8.8). Locked entries bind machine mode too;
 * the lowest matching entry wins:
 *   0: the instruction window, X only — loads and stores there take access faults;
 *   1: the halt ROM page, X only;
 *   2: everything else, R/W but not X — a fetch outside the window faults (the core fetches
 *      only from its instruction window).
 * Locked entries survive a reset and ignore later writes, so repeating this is harmless.
 */
static void ks_cpu_setup(KohakuSysnodeState *s)
{
    RISCVCPU *cpu = &s->harts.harts[0];
    CPURISCVState *env = &cpu->env;
    size_t imem_bytes;

    km_imem(s->m, &imem_bytes);
    env->mtvec = KS_ROM_BASE;
    env->pc = 0;
    pmpaddr_csr_write(env, 0, ((KS_IS32 ? RV32_IMEM_BASE : RV64_IMEM_BASE) >> 2) |
                               ((imem_bytes / 2 - 1) >> 2));
    pmpaddr_csr_write(env, 1, (KS_ROM_BASE >> 2) | ((KS_ROM_BYTES / 2 - 1) >> 2));
    pmpaddr_csr_write(env, 2, (target_ulong)-1);
    pmpcfg_csr_write(env, 0,
                     (KS_PMP_L | KS_PMP_NAPOT | KS_PMP_X) |
                     (KS_PMP_L | KS_PMP_NAPOT | KS_PMP_X) << 8 |
                     (KS_PMP_L | KS_PMP_NAPOT | KS_PMP_R | KS_PMP_W) << 16);
    tlb_flush(CPU(cpu));
}

static int64_t ks_raw_instret(void)
{
    /* Without -icount QEMU counts no instructions: virtual nanoseconds stand in (docs/qemu.md). */
    return icount_enabled() ? icount_get_raw() : qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* Runs on the vCPU thread between translation blocks. */
static void ks_hold_work(CPUState *cs, run_on_cpu_data data)
{
    KohakuSysnodeState *s = KOHAKU_SYSNODE_MACHINE(qdev_get_machine());

    if (data.host_int) {
        cs->halted = 1;
        return;
    }
    /* The host may have rewritten the instruction window behind QEMU's back. */
    tb_flush(cs);
    cpu_reset(cs);
    ks_cpu_setup(s);
    s->instret_base = ks_raw_instret();
    cs->halted = 0;
}

static void ks_hart_hold(void *opaque, bool hold)
{
    KohakuSysnodeState *s = opaque;

    s->held = hold;
    async_run_on_cpu(ks_cpu(s), ks_hold_work, RUN_ON_CPU_HOST_INT(hold));
}

/* Stop the hart now: from inside an MMIO access on the vCPU thread, end the TB loop as well. */
static void ks_halt_now(KohakuSysnodeState *s)
{
    CPUState *cs = ks_cpu(s);

    s->held = true;
    if (qemu_cpu_is_self(cs)) {
        cs->halted = 1;
        cpu_exit(cs);
    } else {
        async_run_on_cpu(cs, ks_hold_work, RUN_ON_CPU_HOST_INT(1));
    }
}

/* ---- platform callbacks ---- */

/*
 * The PC of the instruction making the current MMIO access (the model asks from inside
 * km_cpu_write, for EXIT's pc=). io_readx/io_writex record the host return address in
 * mem_io_pc; unwinding it through the translation block gives the guest PC without touching
 * the CPU state or the instruction count.
 */
static uint64_t ks_plat_pc(void *opaque)
{
    KohakuSysnodeState *s = opaque;
    CPUState *cs = ks_cpu(s);
    uint64_t data[TARGET_INSN_START_WORDS];

    if (qemu_cpu_is_self(cs) && cpu_unwind_state_data(cs, cs->mem_io_pc, data)) {
        return KS_IS32 ? (uint32_t)data[0] : data[0];
    }
    return s->harts.harts[0].env.pc;
}

static uint64_t ks_plat_instret(void *opaque)
{
    KohakuSysnodeState *s = opaque;

    return (uint64_t)(ks_raw_instret() - s->instret_base);
}

static void ks_plat_console(void *opaque, uint8_t byte)
{
    /* Unbuffered, straight to the process's stdout (the run contract). */
    if (write(STDOUT_FILENO, &byte, 1) != 1) {
        /* Nothing to do: a closed stdout must not stop the machine. */
    }
}

static void ks_put_referee(void *ctx, const char *line)
{
    (void)ctx;
    if (strncmp(line, "kohaku-referee: ", 16) == 0) {
        fprintf(stderr, "%s\n", line);
    } else {
        fprintf(stderr, "kohaku-referee: %s\n", line);
    }
}

static void ks_plat_stopped(void *opaque, unsigned state, unsigned cause, uint64_t word,
                            uint64_t pc)
{
    KohakuSysnodeState *s = opaque;
    bool exited = state == KHP_CPU_EXITED;

    fprintf(stderr, "kohaku-stop: state=%s cause=%u word=0x%" PRIx64 " pc=0x%" PRIx64 "\n",
            exited ? "exited" : "halted", cause, word, pc);
    fflush(stderr);
    if (s->exit_on_stop) {
        km_referee_print(s->m, ks_put_referee, NULL);
        fflush(stdout);
        fflush(stderr);
        exit(exited && word == 0 ? 0 : 1);
    }
    ks_halt_now(s);
}

/* ---- RV64 STDIN ---- */

/* Hand waiting input bytes to the model's queue (which holds 256); the rest keep waiting. */
static void ks_stdin_feed(KohakuSysnodeState *s)
{
    size_t n;

    if (s->in_len == 0) {
        return;
    }
    n = km_stdin_push(s->m, s->in_buf, s->in_len);
    if (n > 0) {
        memmove(s->in_buf, s->in_buf + n, s->in_len - n);
        s->in_len -= n;
        qemu_chr_fe_accept_input(&s->in);
    }
}

static int ks_stdin_can_receive(void *opaque)
{
    KohakuSysnodeState *s = opaque;

    return (int)(KS_STDIN_CAP - s->in_len);
}

static void ks_stdin_receive(void *opaque, const uint8_t *buf, int size)
{
    KohakuSysnodeState *s = opaque;
    size_t n = MIN((size_t)size, KS_STDIN_CAP - s->in_len);

    memcpy(s->in_buf + s->in_len, buf, n);
    s->in_len += n;
    ks_stdin_feed(s);
}

static void ks_stdin_init(KohakuSysnodeState *s)
{
    Chardev *chr = qemu_chr_find(s->stdin_id);

    if (chr == NULL) {
        error_report("kohaku-sysnode: stdin=%s: no chardev with that id", s->stdin_id);
        exit(1);
    }
    qemu_chr_fe_init(&s->in, chr, &error_fatal);
    qemu_chr_fe_set_handlers(&s->in, ks_stdin_can_receive, ks_stdin_receive, NULL, NULL, s,
                             NULL, true);
    s->in_on = true;
}

/* ---- MMIO regions forwarded to the model ---- */

static MemTxResult ks_mmio_read(void *opaque, hwaddr addr, uint64_t *data, unsigned size,
                                MemTxAttrs attrs)
{
    KohakuRegion *r = opaque;
    uint64_t v = 0;
    int rc;

    ks_sync(r->s);
    rc = km_cpu_read(r->s->m, r->base + addr, size, &v);
    ks_rearm(r->s);
    if (rc != 0) {
        return MEMTX_DECODE_ERROR;
    }
    *data = v;
    return MEMTX_OK;
}

static MemTxResult ks_mmio_write(void *opaque, hwaddr addr, uint64_t data, unsigned size,
                                 MemTxAttrs attrs)
{
    KohakuRegion *r = opaque;
    int rc;

    ks_sync(r->s);
    rc = km_cpu_write(r->s->m, r->base + addr, size, data);
    ks_rearm(r->s);
    if (r->s->in_on) {
        ks_stdin_feed(r->s);    /* a store may have popped STDIN */
    }
    return rc != 0 ? MEMTX_DECODE_ERROR : MEMTX_OK;
}

static const MemoryRegionOps ks_mmio_ops = {
    .read_with_attrs = ks_mmio_read,
    .write_with_attrs = ks_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = false },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static void ks_add_region(KohakuSysnodeState *s, const char *name, hwaddr base, uint64_t size)
{
    KohakuRegion *r = &s->regions[s->nregions++];

    assert(s->nregions <= KS_MAX_REGIONS);
    r->s = s;
    r->base = base;
    memory_region_init_io(&r->mr, OBJECT(s), &ks_mmio_ops, r, name, size);
    memory_region_add_subregion(get_system_memory(), base, &r->mr);
}

/* ---- the halt ROM and its trap register ---- */

#define RV_CSRR(rd, csr)          (((uint32_t)(csr) << 20) | (2u << 12) | ((rd) << 7) | 0x73u)
#define RV_LUI(rd, imm20)         (((uint32_t)(imm20) << 12) | ((rd) << 7) | 0x37u)
#define RV_STORE(f3, rs2, rs1, o) ((((uint32_t)(o) >> 5) << 25) | ((rs2) << 20) | ((rs1) << 15) | \
                                   ((f3) << 12) | (((uint32_t)(o) & 0x1Fu) << 7) | 0x23u)
#define RV_J_SELF                 0x0000006Fu   /* jal x0, 0 */
#define RV_T0 5u
#define RV_T1 6u
#define RV_T2 7u
#define RV_T3 28u
#define RV_A0 10u

/*
 * The ROM is the trap vector: it reads mcause, mepc and mtval, stores them and a0 to the trap
 * register, commits, and spins until the glue halts the hart. The firmware never touches a CSR
 * (RV32) — the core's "halt on ECALL/EBREAK/fault" is this ROM. On RV64 the firmware installs
 * its own mtvec first thing, so a trap that still arrives here is "a trap with mtvec unset".
 */
static void ks_build_rom(uint32_t *rom, bool is32)
{
    unsigned f3 = is32 ? 2u : 3u;   /* sw / sd */
    unsigned i = 0;

    rom[i++] = RV_CSRR(RV_T0, 0x342);                       /* mcause */
    rom[i++] = RV_CSRR(RV_T1, 0x341);                       /* mepc */
    rom[i++] = RV_CSRR(RV_T2, 0x343);                       /* mtval */
    rom[i++] = RV_LUI(RV_T3, KS_TRAP_BASE >> 12);
    rom[i++] = RV_STORE(f3, RV_T0, RV_T3, KS_TRAP_MCAUSE);
    rom[i++] = RV_STORE(f3, RV_T1, RV_T3, KS_TRAP_MEPC);
    rom[i++] = RV_STORE(f3, RV_T2, RV_T3, KS_TRAP_MTVAL);
    rom[i++] = RV_STORE(f3, RV_A0, RV_T3, KS_TRAP_A0);
    rom[i++] = RV_STORE(2u, 0u, RV_T3, KS_TRAP_COMMIT);
    rom[i++] = RV_J_SELF;
    for (unsigned k = 0; k < i; k++) {
        rom[k] = cpu_to_le32(rom[k]);
    }
}

static MemTxResult ks_trap_read(void *opaque, hwaddr addr, uint64_t *data, unsigned size,
                                MemTxAttrs attrs)
{
    /* Write-only, and private: a firmware load here faults like any unassigned address. */
    return MEMTX_DECODE_ERROR;
}

static MemTxResult ks_trap_write(void *opaque, hwaddr addr, uint64_t data, unsigned size,
                                 MemTxAttrs attrs)
{
    KohakuSysnodeState *s = opaque;
    CPURISCVState *env = &s->harts.harts[0].env;
    uint64_t mask = size == 8 ? UINT64_MAX : 0xFFFFFFFFu;

    if (addr < KS_TRAP_COMMIT && (addr & 7) == 0) {
        s->trap_slot[addr / 8] = data & mask;
        return MEMTX_OK;
    }
    if (addr != KS_TRAP_COMMIT) {
        return MEMTX_DECODE_ERROR;
    }
    /*
     * Only the ROM commits. env->pc holds the start of the executing translation block (this
     * target updates it at block boundaries and TCG syncs it before a store), so it lies in the
     * ROM exactly when the ROM is storing; and what the ROM stored must be the hart's own trap
     * CSRs. A firmware store here faults like any unassigned address.
     */
    if (env->pc < KS_ROM_BASE || env->pc >= KS_ROM_BASE + KS_ROM_BYTES ||
        s->trap_slot[0] != ((uint64_t)env->mcause & mask) ||
        s->trap_slot[1] != ((uint64_t)env->mepc & mask) ||
        s->trap_slot[2] != ((uint64_t)env->mtval & mask)) {
        return MEMTX_DECODE_ERROR;
    }
    ks_sync(s);
    km_cpu_trap(s->m, s->trap_slot[0], s->trap_slot[1], s->trap_slot[2], s->trap_slot[3]);
    ks_rearm(s);
    return MEMTX_OK;
}

static const MemoryRegionOps ks_trap_ops = {
    .read_with_attrs = ks_trap_read,
    .write_with_attrs = ks_trap_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8, .unaligned = false },
    .impl = { .min_access_size = 4, .max_access_size = 8 },
};

/* ---- loaders ---- */

/* Copy one PT_LOAD segment into the window that holds it; anything else is an error. */
/*
 * An RV32 image's firmware-DRAM segment (cpu_map.h KX_FW_DRAM_*: cold code the window cannot
 * hold) goes to the model's DRAM at its local offset through the model's own memory-write path,
 * the host port's WRITE to unit-global memory (behind the processor's caches, like a host's
 * flash). DRAM survives a reset like the windows do (km_reset keeps memories), so a reset
 * machine finds it again. memsz beyond filesz is written as zeros.
 */
static void ks_load_fw_dram(KohakuSysnodeState *s, const char *file, const uint8_t *src,
                            uint64_t offset, uint64_t filesz, uint64_t memsz)
{
    struct khp_req req = {
        .op = KHP_OP_WRITE, .width = 0, .len = (uint32_t)memsz, .addr = KHP_MEM(0, offset),
    };
    g_autofree uint8_t *data = g_malloc0(memsz);
    uint8_t rep[sizeof(struct khp_rep)];

    memcpy(data, src, filesz);
    if (km_hp_execute(s->m, &req, data, rep, sizeof(rep)) < sizeof(rep) ||
        rep[offsetof(struct khp_rep, status)] != KHP_OK) {
        error_report("kohaku-sysnode: %s: the model refused the DRAM segment at offset 0x%" PRIx64,
                     file, offset);
        exit(1);
    }
}

static void ks_load_segment(KohakuSysnodeState *s, const char *file, const uint8_t *img,
                            size_t img_len, uint64_t paddr, uint64_t off, uint64_t filesz,
                            uint64_t memsz)
{
    size_t ib, sb;
    uint8_t *imem = km_imem(s->m, &ib);
    uint8_t *spad = km_spad(s->m, &sb);
    hwaddr spad_base = KS_IS32 ? RV32_SPAD_BASE : RV64_SPAD_BASE;
    uint8_t *dst = NULL;

    if (filesz > memsz || off > img_len || filesz > img_len - off) {
        error_report("kohaku-sysnode: %s: malformed program header", file);
        exit(1);
    }
    if (paddr < ib && memsz <= ib - paddr) {
        dst = imem + paddr;
    } else if (paddr >= spad_base && paddr - spad_base < sb && memsz <= sb - (paddr - spad_base)) {
        dst = spad + (paddr - spad_base);
    } else if (KS_IS32 && paddr >= KX_FW_DRAM_RV32 && paddr - KX_FW_DRAM_RV32 < KX_FW_DRAM_BYTES &&
               memsz <= KX_FW_DRAM_BYTES - (paddr - KX_FW_DRAM_RV32)) {
        ks_load_fw_dram(s, file, img + off, paddr - RV32_DRAM_BASE, filesz, memsz);
        return;
    } else {
        error_report("kohaku-sysnode: %s: segment at 0x%" PRIx64 " (+0x%" PRIx64 ") is not inside "
                     "the instruction window or the scratchpad", file, paddr, memsz);
        exit(1);
    }
    memcpy(dst, img + off, filesz);
    memset(dst + filesz, 0, memsz - filesz);
}

/*
 * A small ELF loader of our own: segments go straight into the model's windows (they are the
 * model's buffers, not QEMU ROM blobs), so the boot block copied afterwards always wins and a
 * host reset keeps both; an RV32 image's firmware-DRAM segment goes to the model's DRAM, which
 * a reset keeps too. Reset PC is 0 whatever e_entry says.
 */
static void ks_load_elf(KohakuSysnodeState *s, const char *file)
{
    g_autofree gchar *img = NULL;
    gsize len = 0;
    g_autoptr(GError) gerr = NULL;
    const uint8_t *b;

    if (!g_file_get_contents(file, &img, &len, &gerr)) {
        error_report("kohaku-sysnode: cannot read %s: %s", file, gerr->message);
        exit(1);
    }
    b = (const uint8_t *)img;
    if (len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG) != 0 || b[EI_DATA] != ELFDATA2LSB ||
        b[EI_CLASS] != (KS_IS32 ? ELFCLASS32 : ELFCLASS64)) {
        error_report("kohaku-sysnode: %s is not a little-endian %s ELF file", file,
                     KS_IS32 ? "32-bit" : "64-bit");
        exit(1);
    }
    if (KS_IS32) {
        Elf32_Ehdr eh;
        if (len < sizeof(eh)) {
            goto bad;
        }
        memcpy(&eh, b, sizeof(eh));
        if (le16_to_cpu(eh.e_machine) != EM_RISCV || le16_to_cpu(eh.e_phentsize) != sizeof(Elf32_Phdr)) {
            goto bad;
        }
        for (unsigned i = 0; i < le16_to_cpu(eh.e_phnum); i++) {
            Elf32_Phdr ph;
            uint64_t at = (uint64_t)le32_to_cpu(eh.e_phoff) + (uint64_t)i * sizeof(ph);
            if (at + sizeof(ph) > len) {
                goto bad;
            }
            memcpy(&ph, b + at, sizeof(ph));
            if (le32_to_cpu(ph.p_type) == PT_LOAD && le32_to_cpu(ph.p_memsz) != 0) {
                ks_load_segment(s, file, b, len, le32_to_cpu(ph.p_paddr), le32_to_cpu(ph.p_offset),
                                le32_to_cpu(ph.p_filesz), le32_to_cpu(ph.p_memsz));
            }
        }
    } else {
        Elf64_Ehdr eh;
        if (len < sizeof(eh)) {
            goto bad;
        }
        memcpy(&eh, b, sizeof(eh));
        if (le16_to_cpu(eh.e_machine) != EM_RISCV || le16_to_cpu(eh.e_phentsize) != sizeof(Elf64_Phdr)) {
            goto bad;
        }
        for (unsigned i = 0; i < le16_to_cpu(eh.e_phnum); i++) {
            Elf64_Phdr ph;
            uint64_t at = le64_to_cpu(eh.e_phoff) + (uint64_t)i * sizeof(ph);
            if (at + sizeof(ph) > len) {
                goto bad;
            }
            memcpy(&ph, b + at, sizeof(ph));
            if (le32_to_cpu(ph.p_type) == PT_LOAD && le64_to_cpu(ph.p_memsz) != 0) {
                ks_load_segment(s, file, b, len, le64_to_cpu(ph.p_paddr), le64_to_cpu(ph.p_offset),
                                le64_to_cpu(ph.p_filesz), le64_to_cpu(ph.p_memsz));
            }
        }
    }
    return;
bad:
    error_report("kohaku-sysnode: %s: not a RISC-V executable this loader understands", file);
    exit(1);
}

static void ks_load_bootblock(KohakuSysnodeState *s, const char *file)
{
    g_autofree gchar *data = NULL;
    gsize len = 0;
    g_autoptr(GError) gerr = NULL;
    size_t sb;
    uint8_t *spad = km_spad(s->m, &sb);

    if (!g_file_get_contents(file, &data, &len, &gerr)) {
        error_report("kohaku-sysnode: cannot read boot block %s: %s", file, gerr->message);
        exit(1);
    }
    if (len > sb) {
        error_report("kohaku-sysnode: boot block %s (%zu bytes) is larger than the scratchpad",
                     file, (size_t)len);
        exit(1);
    }
    memcpy(spad, data, len);
}

/* ---- host port ---- */

static void ks_hp_pump(KohakuSysnodeState *s)
{
    size_t n;

    if (s->hp_busy || s->hp_in_len == 0) {
        return;
    }
    n = km_hp_parse(s->hp_in, s->hp_in_len, &s->hp_req, &s->hp_data);
    if (n == 0) {
        if (s->hp_in_len == KS_HP_IN_CAP) {
            /* Cannot happen with a parser that frames at most one maximal request; never wedge. */
            error_report("kohaku-sysnode: host port input unframeable, dropped");
            s->hp_in_len = 0;
            qemu_chr_fe_accept_input(&s->hp);
        }
        return;
    }
    s->hp_busy = true;
    s->hp_consumed = n;
    /*
     * The request reaches the node host-latency-ns after it arrived, and no earlier than the
     * previous request's cost (km_hp_cost_ns: the port's occupancy, data included) after that
     * one ran. Both in virtual time.
     */
    timer_mod_ns(s->hp_timer, (int64_t)MAX(ks_now() + s->host_latency_ns, s->hp_ready_at));
}

static void ks_hp_timer_cb(void *opaque)
{
    KohakuSysnodeState *s = opaque;
    size_t n;

    ks_sync(s);
    n = km_hp_execute(s->m, &s->hp_req, s->hp_data, s->hp_out, KS_HP_OUT_CAP);
    s->hp_ready_at = ks_now() + km_hp_cost_ns(&s->hp_req);
    ks_rearm(s);
    if (n > 0 && qemu_chr_fe_backend_open(&s->hp)) {
        qemu_chr_fe_write_all(&s->hp, s->hp_out, (int)n);
    }
    memmove(s->hp_in, s->hp_in + s->hp_consumed, s->hp_in_len - s->hp_consumed);
    s->hp_in_len -= s->hp_consumed;
    s->hp_busy = false;
    s->hp_data = NULL;
    ks_hp_pump(s);
    qemu_chr_fe_accept_input(&s->hp);
}

static int ks_hp_can_receive(void *opaque)
{
    KohakuSysnodeState *s = opaque;

    return (int)MIN(KS_HP_IN_CAP - s->hp_in_len, 65536u);
}

static void ks_hp_receive(void *opaque, const uint8_t *buf, int size)
{
    KohakuSysnodeState *s = opaque;
    size_t n = MIN((size_t)size, KS_HP_IN_CAP - s->hp_in_len);

    memcpy(s->hp_in + s->hp_in_len, buf, n);
    s->hp_in_len += n;
    ks_hp_pump(s);
}

static void ks_hp_event(void *opaque, QEMUChrEvent event)
{
    KohakuSysnodeState *s = opaque;

    if (event == CHR_EVENT_CLOSED) {
        /* A new client starts a new byte stream; a request already in flight still runs. */
        s->hp_in_len = s->hp_busy ? s->hp_consumed : 0;
    }
}

static void ks_hp_init(KohakuSysnodeState *s)
{
    Chardev *chr = qemu_chr_find(s->hostport);

    if (chr == NULL) {
        error_report("kohaku-sysnode: hostport=%s: no chardev with that id", s->hostport);
        exit(1);
    }
    s->hp_in = g_malloc(KS_HP_IN_CAP);
    s->hp_out = g_malloc(KS_HP_OUT_CAP);
    s->hp_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, ks_hp_timer_cb, s);
    qemu_chr_fe_init(&s->hp, chr, &error_fatal);
    qemu_chr_fe_set_handlers(&s->hp, ks_hp_can_receive, ks_hp_receive, ks_hp_event, NULL, s,
                             NULL, true);
    s->hp_on = true;
}

/* ---- machine ---- */

static void ks_reset(void *opaque)
{
    KohakuSysnodeState *s = opaque;
    CPUState *cs = ks_cpu(s);

    /* Runs after the hart array's own reset handler (registered earlier). */
    ks_cpu_setup(s);
    s->instret_base = ks_raw_instret();
    if (s->held) {
        cs->halted = 1;
    }
}

/* Make the CPU the node's core whatever -cpu said (docs/hardware.md §4/§5): no C/F/D, machine mode only,
 * and on RV32 multiply without divide, no atomics, and misaligned accesses that fault. */
static void ks_force_cpu_props(const char *cpu_type)
{
    static const char *const off[] = {
        "c", "f", "d", "v", "h", "s", "u", "zba", "zbb", "zbc", "zbs", "sstc",
    };

    for (size_t i = 0; i < ARRAY_SIZE(off); i++) {
        object_register_sugar_prop(cpu_type, off[i], "false", false);
    }
    if (KS_IS32) {
        object_register_sugar_prop(cpu_type, "m", "false", false);
        object_register_sugar_prop(cpu_type, "zmmul", "true", false);
        object_register_sugar_prop(cpu_type, "a", "false", false);
        object_register_sugar_prop(cpu_type, "x-strict-align", "true", false);
    } else {
        object_register_sugar_prop(cpu_type, "m", "true", false);
        object_register_sugar_prop(cpu_type, "a", "true", false);
    }
}

static void ks_machine_init(MachineState *ms)
{
    KohakuSysnodeState *s = KOHAKU_SYSNODE_MACHINE(ms);
    MemoryRegion *sys = get_system_memory();
    struct km_config cfg = {
        .variant = KS_IS32 ? KM_VARIANT_RV32 : KM_VARIANT_RV64,
        .units = s->units,
        .dram_bytes = s->dram,
        .faults = s->faults,
        .start_held = s->hostport != NULL,
    };
    struct km_platform plat = {
        .opaque = s,
        .instret = ks_plat_instret,
        .hart_hold = ks_hart_hold,
        .console = ks_plat_console,
        .stopped = ks_plat_stopped,
        .pc = ks_plat_pc,
    };
    char err[256] = "";
    size_t ib, sb;
    uint8_t *imem, *spad;
    uint32_t *rom;

    if (!s->exit_on_stop_set) {
        s->exit_on_stop = s->hostport == NULL;
    }
    s->m = km_new(&cfg, &plat, err, sizeof(err));
    if (s->m == NULL) {
        error_report("kohaku-sysnode: %s", err[0] ? err : "the device model refused its configuration");
        exit(1);
    }
    s->model_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, ks_model_timer_cb, s);

    ks_force_cpu_props(ms->cpu_type);
    object_initialize_child(OBJECT(ms), "harts", &s->harts, TYPE_RISCV_HART_ARRAY);
    object_property_set_str(OBJECT(&s->harts), "cpu-type", ms->cpu_type, &error_abort);
    object_property_set_int(OBJECT(&s->harts), "num-harts", 1, &error_abort);
    object_property_set_int(OBJECT(&s->harts), "resetvec", 0, &error_abort);
    sysbus_realize(SYS_BUS_DEVICE(&s->harts), &error_fatal);

    /* The two windows are the model's own buffers, mapped as RAM (fast path for the hart). */
    imem = km_imem(s->m, &ib);
    spad = km_spad(s->m, &sb);
    memory_region_init_ram_ptr(&s->imem, OBJECT(s), "kohaku.imem", ib, imem);
    memory_region_add_subregion(sys, KS_IS32 ? RV32_IMEM_BASE : RV64_IMEM_BASE, &s->imem);
    memory_region_init_ram_ptr(&s->spad, OBJECT(s), "kohaku.spad", sb, spad);
    memory_region_add_subregion(sys, KS_IS32 ? RV32_SPAD_BASE : RV64_SPAD_BASE, &s->spad);

    /* The halt ROM and its trap register. */
    memory_region_init_rom(&s->rom, NULL, "kohaku.haltrom", KS_ROM_BYTES, &error_fatal);
    rom = memory_region_get_ram_ptr(&s->rom);
    memset(rom, 0, KS_ROM_BYTES);
    ks_build_rom(rom, KS_IS32);
    memory_region_add_subregion(sys, KS_ROM_BASE, &s->rom);
    memory_region_init_io(&s->trap, OBJECT(s), &ks_trap_ops, s, "kohaku.trapreg", KS_TRAP_BYTES);
    memory_region_add_subregion(sys, KS_TRAP_BASE, &s->trap);

    /* Every other region of docs/hardware.md §4/§5 is decoded by the model; the rest is unassigned. */
    if (KS_IS32) {
        ks_add_region(s, "kohaku.lctl", RV32_LCTL_BASE, 0x10000000u);
        ks_add_region(s, "kohaku.dram", RV32_DRAM_BASE, RV32_DRAM_LIMIT - RV32_DRAM_BASE);
        ks_add_region(s, "kohaku.mvgo", RV32_MVGO, RV32_AGENT_BASE - RV32_MVGO);
        ks_add_region(s, "kohaku.agent", RV32_AGENT_BASE, 0x4000u);
    } else {
        ks_add_region(s, "kohaku.ctl", RV64_CTL_BASE, 0x10000u);
        ks_add_region(s, "kohaku.agent", RV64_AGENT_BASE, 0x4000u);
        ks_add_region(s, "kohaku.unit-global", RV64_UG_BASE, (UINT64_C(1) << 40) - RV64_UG_BASE);
    }

    if (ms->kernel_filename) {
        ks_load_elf(s, ms->kernel_filename);
    }
    if (s->bootblock) {
        ks_load_bootblock(s, s->bootblock);
    }

    s->held = s->hostport != NULL;
    if (s->hostport) {
        ks_hp_init(s);
    }
    if (s->stdin_id) {
        if (KS_IS32) {
            error_report("kohaku-sysnode: stdin= needs the RV64 control region (docs/hardware.md §5)");
            exit(1);
        }
        ks_stdin_init(s);
    }
    qemu_register_reset(ks_reset, s);
}

/* ---- properties ---- */

#define KS_STR_PROP(field)                                                        \
    static char *ks_get_##field(Object *obj, Error **errp)                         \
    {                                                                            \
        return g_strdup(KOHAKU_SYSNODE_MACHINE(obj)->field);                      \
    }                                                                            \
    static void ks_set_##field(Object *obj, const char *v, Error **errp)           \
    {                                                                            \
        KohakuSysnodeState *s = KOHAKU_SYSNODE_MACHINE(obj);                      \
        g_free(s->field);                                                        \
        s->field = g_strdup(v);                                                  \
    }
KS_STR_PROP(bootblock)
KS_STR_PROP(units)
KS_STR_PROP(faults)
KS_STR_PROP(hostport)
KS_STR_PROP(stdin_id)

static bool ks_get_exit_on_stop(Object *obj, Error **errp)
{
    return KOHAKU_SYSNODE_MACHINE(obj)->exit_on_stop;
}

static void ks_set_exit_on_stop(Object *obj, bool v, Error **errp)
{
    KohakuSysnodeState *s = KOHAKU_SYSNODE_MACHINE(obj);

    s->exit_on_stop = v;
    s->exit_on_stop_set = true;
}

static void ks_get_dram(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    visit_type_size(v, name, &KOHAKU_SYSNODE_MACHINE(obj)->dram, errp);
}

static void ks_set_dram(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    visit_type_size(v, name, &KOHAKU_SYSNODE_MACHINE(obj)->dram, errp);
}

static void ks_get_latency(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &KOHAKU_SYSNODE_MACHINE(obj)->host_latency_ns, errp);
}

static void ks_set_latency(Object *obj, Visitor *v, const char *name, void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &KOHAKU_SYSNODE_MACHINE(obj)->host_latency_ns, errp);
}

static void ks_instance_init(Object *obj)
{
    KohakuSysnodeState *s = KOHAKU_SYSNODE_MACHINE(obj);

    s->host_latency_ns = KS_HP_LATENCY_NS;
}

static void ks_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "KohakuAccel system node control processor (kohaku-sysnode)";
    mc->init = ks_machine_init;
    mc->max_cpus = 1;
    mc->default_cpu_type = TYPE_RISCV_CPU_BASE;

    object_class_property_add_str(oc, "bootblock", ks_get_bootblock, ks_set_bootblock);
    object_class_property_set_description(oc, "bootblock",
        "file copied to the start of the scratchpad after the image is loaded");
    object_class_property_add_str(oc, "units", ks_get_units, ks_set_units);
    object_class_property_set_description(oc, "units", "unit map (docs/model.md)");
    object_class_property_add_str(oc, "faults", ks_get_faults, ks_set_faults);
    object_class_property_set_description(oc, "faults", "fault injection spec (docs/model.md)");
    object_class_property_add_str(oc, "hostport", ks_get_hostport, ks_set_hostport);
    object_class_property_set_description(oc, "hostport",
        "chardev id of the host port (the core then starts held)");
    object_class_property_add_str(oc, "stdin", ks_get_stdin_id, ks_set_stdin_id);
    object_class_property_set_description(oc, "stdin",
        "RV64: chardev id whose bytes the firmware reads at STDIN (control region 0x30)");
    object_class_property_add(oc, "dram", "size", ks_get_dram, ks_set_dram, NULL, NULL);
    object_class_property_set_description(oc, "dram", "DRAM bytes per mesh (0: the model's default)");
    object_class_property_add_bool(oc, "exit-on-stop", ks_get_exit_on_stop, ks_set_exit_on_stop);
    object_class_property_set_description(oc, "exit-on-stop",
        "exit when the core stops (default: on without hostport, off with it)");
    object_class_property_add(oc, "host-latency-ns", "uint64", ks_get_latency, ks_set_latency,
                              NULL, NULL);
    object_class_property_set_description(oc, "host-latency-ns",
        "virtual-time latency of one host-port request (default 1000)");
}

static const TypeInfo ks_machine_type = {
    .name = TYPE_KOHAKU_SYSNODE_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(KohakuSysnodeState),
    .instance_init = ks_instance_init,
    .class_init = ks_class_init,
};

static void ks_register_types(void)
{
    type_register_static(&ks_machine_type);
}

type_init(ks_register_types)
