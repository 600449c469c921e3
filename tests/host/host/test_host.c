/* test_host.c — host unit tests of libkohaku (suite host-lib, docs/design.md §7 layer 1): the ELF
 * loader, the boot block and queue layout, ring arithmetic, submit/reap against a stand-in
 * firmware, the text forms, the status table's agreement with include/kohaku/status.h, and
 * the words kactl prints. The node is the real device model in-process (model_transport.c).
 * Expected values are literals from the specs (docs/hardware.md, queue.h, bootblock.h, docs/npu.md). */
#define _POSIX_C_SOURCE 200809L     /* mkstemp, unlink */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kohaku/desc_list.h"
#include "kohaku/status.h"
#include "kmv.h"
#include "model_transport.h"

#define HT_SUITE "host-lib"
#include "ht.h"

/* ---- a node on the model ---- */

static struct mt *open_node(struct kh_node *n, unsigned variant)
{
    struct mt *t = mt_new(variant);
    struct kh_transport tr;
    mt_transport(t, &tr);
    int rc = kh_open(n, &tr);
    CHECK_EQ(rc, KH_OK);
    return t;
}

/* ---- ELF images built by hand (ELF spec field offsets) ---- */

struct seg { uint32_t type; uint64_t paddr, filesz, memsz; uint8_t fill; };

static void put(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static size_t mk_elf(uint8_t *b, int is64, uint16_t machine, uint64_t entry, const struct seg *s, unsigned ns)
{
    size_t eh = is64 ? 64 : 52, ph = is64 ? 56 : 32, off = eh + ph * ns;
    memset(b, 0, off);
    memcpy(b, "\177ELF", 4);
    b[4] = is64 ? 2 : 1;
    b[5] = 1;
    b[6] = 1;
    put(b + 16, 2, 2);            /* ET_EXEC */
    put(b + 18, 2, machine);
    put(b + 20, 4, 1);
    if (is64) {
        put(b + 24, 8, entry);
        put(b + 32, 8, eh);
        put(b + 52, 2, eh);
        put(b + 54, 2, ph);
        put(b + 56, 2, ns);
    } else {
        put(b + 24, 4, entry);
        put(b + 28, 4, eh);
        put(b + 40, 2, eh);
        put(b + 42, 2, ph);
        put(b + 44, 2, ns);
    }
    for (unsigned i = 0; i < ns; i++) {
        uint8_t *p = b + eh + ph * i;
        if (is64) {
            put(p, 4, s[i].type);
            put(p + 8, 8, off);
            put(p + 16, 8, s[i].paddr);
            put(p + 24, 8, s[i].paddr);
            put(p + 32, 8, s[i].filesz);
            put(p + 40, 8, s[i].memsz);
        } else {
            put(p, 4, s[i].type);
            put(p + 4, 4, off);
            put(p + 8, 4, s[i].paddr);
            put(p + 12, 4, s[i].paddr);
            put(p + 16, 4, s[i].filesz);
            put(p + 20, 4, s[i].memsz);
        }
        for (uint64_t k = 0; k < s[i].filesz; k++)
            b[off + k] = (uint8_t)(s[i].fill + k);
        off += s[i].filesz;
    }
    return off;
}

static uint8_t img[1 << 17];

static void elf_parse_rv32(void)
{
    /* docs/hardware.md §4: instruction window 0x0, 8 KB; scratchpad 0x1000_0000, 8 KB. */
    struct seg s[] = {
        { 0x70000003, 0, 0x2a, 0, 0 },                  /* RISCV_ATTRIBUTES: not loaded */
        { 1, 0x0, 0x4c0, 0x4c0, 0x10 },
        { 1, 0x10000200, 0x98, 0x4a0, 0x80 },
    };
    size_t len = mk_elf(img, 0, 243, 0, s, 3);
    struct kh_elf e;
    char err[256];
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(e.variant, 32);
    CHECK_EQ(e.nseg, 2);
    CHECK_EQ(e.seg[0].addr, 0);
    CHECK_EQ(e.seg[0].window, 0);
    CHECK_EQ(e.seg[1].addr, 0x10000200);
    CHECK_EQ(e.seg[1].window, 1);
    CHECK_EQ(e.seg[1].filesz, 0x98);
    CHECK_EQ(e.seg[1].memsz, 0x4a0);
    CHECK_EQ(e.seg[1].data[0], 0x80);
}

static void elf_parse_rv64(void)
{
    /* docs/hardware.md §5: instruction window 0x0, 32 KB; scratchpad 0x1_0000, 32 KB. */
    struct seg s[] = { { 1, 0x0, 0x3ec, 0x3ec, 1 }, { 1, 0x10200, 0xad, 0x12c0, 2 } };
    size_t len = mk_elf(img, 1, 243, 0, s, 2);
    struct kh_elf e;
    char err[256];
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(e.variant, 64);
    CHECK_EQ(e.nseg, 2);
    CHECK_EQ(e.seg[1].addr, 0x10200);
    CHECK_EQ(e.seg[1].window, 1);
    /* The RV32 scratchpad address is no scratchpad on RV64. */
    struct seg bad[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x10000200, 4, 4, 2 } };
    len = mk_elf(img, 1, 243, 0, bad, 2);
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "neither the instruction window");
}

static void expect_refused(int is64, uint16_t mach, uint64_t entry, const struct seg *s, unsigned ns,
                           void (*mutate)(uint8_t *, size_t *), const char *why)
{
    size_t len = mk_elf(img, is64, mach, entry, s, ns);
    if (mutate)
        mutate(img, &len);
    struct kh_elf e;
    char err[256] = "";
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, why);
}

static void m_magic(uint8_t *b, size_t *l) { (void)l; b[1] = 'X'; }
static void m_class(uint8_t *b, size_t *l) { (void)l; b[4] = 3; }
static void m_endian(uint8_t *b, size_t *l) { (void)l; b[5] = 2; }
static void m_dyn(uint8_t *b, size_t *l) { (void)l; b[16] = 3; }
static void m_trunc_hdr(uint8_t *b, size_t *l) { (void)b; *l = 40; }
static void m_trunc_seg(uint8_t *b, size_t *l) { (void)b; *l -= 1; }

static void elf_refusals(void)
{
    struct seg ok[] = { { 1, 0x0, 16, 16, 1 } };
    expect_refused(0, 243, 0, ok, 1, m_magic, "not an ELF");
    expect_refused(0, 243, 0, ok, 1, m_class, "neither ELF32 nor ELF64");
    expect_refused(0, 243, 0, ok, 1, m_endian, "little-endian");
    expect_refused(0, 243, 0, ok, 1, m_dyn, "not an executable");
    expect_refused(0, 243, 0, ok, 1, m_trunc_hdr, "truncated");
    expect_refused(0, 243, 0, ok, 1, m_trunc_seg, "run past the file");
    expect_refused(0, 62, 0, ok, 1, NULL, "not RISC-V");
    expect_refused(0, 243, 0x100, ok, 1, NULL, "not the reset PC");
    struct seg outside[] = { { 1, 0x0, 16, 16, 1 }, { 1, 0x20000000, 16, 16, 1 } };
    expect_refused(0, 243, 0, outside, 2, NULL, "neither the instruction window");
    /* 0x1F00 + 0x200 passes the 8 KB window's end at 0x2000. */
    struct seg cross[] = { { 1, 0x1F00, 0x200, 0x200, 1 } };
    expect_refused(0, 243, 0, cross, 1, NULL, "runs past the end of the instruction window");
    struct seg spadx[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x10001F00, 0x10, 0x200, 1 } };
    expect_refused(0, 243, 0, spadx, 2, NULL, "runs past the end of the scratchpad");
    struct seg fm[] = { { 1, 0x0, 32, 16, 1 } };
    expect_refused(0, 243, 0, fm, 1, NULL, "exceeds its memory size");
    struct seg ov[] = { { 1, 0x0, 32, 32, 1 }, { 1, 0x10, 32, 32, 1 } };
    expect_refused(0, 243, 0, ov, 2, NULL, "overlap");
    struct seg none[] = { { 0x70000003, 0, 4, 0, 0 } };
    expect_refused(0, 243, 0, none, 1, NULL, "no loadable segment");
}

static void elf_load_model(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    CHECK_EQ(n.variant, 32);
    size_t sb, ib;
    uint8_t *spad = km_spad(t->m, &sb), *imem = km_imem(t->m, &ib);
    CHECK_EQ(ib, 0x2000);
    CHECK_EQ(sb, 0x2000);
    memset(spad, 0xAA, sb);
    memset(imem, 0xAA, ib);
    /* 0x4E bytes of text: the load path pads to 0x50 with zeros (32-bit words only). */
    struct seg s[] = { { 1, 0x0, 0x4E, 0x4E, 0x10 }, { 1, 0x10000200, 0x10, 0x40, 0x80 } };
    size_t len = mk_elf(img, 0, 243, 0, s, 2);
    struct kh_elf e;
    char err[256];
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(kh_load_elf(&n, &e), KH_OK);
    CHECK_EQ(imem[0], 0x10);
    CHECK_EQ(imem[0x4D], (uint8_t)(0x10 + 0x4D));
    CHECK_EQ(imem[0x4E], 0);
    CHECK_EQ(imem[0x4F], 0);
    CHECK_EQ(imem[0x50], 0xAA);
    CHECK_EQ(spad[0x1FF], 0xAA);
    CHECK_EQ(spad[0x200], 0x80);
    CHECK_EQ(spad[0x20F], 0x8F);
    CHECK_EQ(spad[0x210], 0);          /* memsz beyond filesz: zeros, as QEMU's loader */
    CHECK_EQ(spad[0x23F], 0);
    CHECK_EQ(spad[0x240], 0xAA);
    /* A running core refuses (E_STATE before the port's E_RUNNING). */
    CHECK_EQ(kh_core_hold(&n, false), KH_OK);
    CHECK_EQ(kh_load_elf(&n, &e), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "not held");
    /* The host port's own refusal, by name. */
    uint32_t w = 0;
    CHECK_EQ(kh_bytes_write(&n, KHP_IMEM_BASE, &w, 4), KH_E_PORT);
    CHECK_EQ(n.port_status, 6);            /* E_RUNNING (docs/model.md host port) */
    CHECK_HAS(kh_error(&n), "E_RUNNING");
    /* An RV64 image on an RV32 core. */
    CHECK_EQ(kh_core_hold(&n, true), KH_OK);
    struct seg s64[] = { { 1, 0x0, 8, 8, 1 } };
    len = mk_elf(img, 1, 243, 0, s64, 1);
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(kh_load_elf(&n, &e), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "RV64 but the node's core is RV32");
    mt_free(t);
}

/* The RV32 firmware-owned DRAM range (docs/host-interface.md §2.1): DRAM local offset
 * 0x40_0000, 64 KB; the RV32 core's address 0x8040_0000. Literals, not cpu_map.h. */
static void elf_fw_dram_parse(void)
{
    struct kh_elf e;
    char err[256];
    /* The whole range, and a piece at its end. */
    struct seg whole[] = { { 1, 0x0, 0x40, 0x40, 1 }, { 1, 0x80400000, 0x100, 0x10000, 0x30 } };
    size_t len = mk_elf(img, 0, 243, 0, whole, 2);
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(e.nseg, 2);
    CHECK_EQ(e.seg[1].addr, 0x80400000);
    CHECK_EQ(e.seg[1].window, 2);
    CHECK_EQ(e.seg[1].memsz, 0x10000);
    char what[256];
    kh_elf_describe(&e, what, sizeof what);
    CHECK_STR(what, "0x40 bytes at 0x0 (instruction window), "
                    "0x10000 bytes at 0x80400000 (firmware DRAM, unit-global 0x400000)");
    struct seg tail[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x8040FFF0, 0x10, 0x10, 1 } };
    len = mk_elf(img, 0, 243, 0, tail, 2);
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(e.seg[1].window, 2);
    /* Just outside: the word after the range, the word before it, one byte past its end. */
    struct seg after[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x80410000, 4, 4, 1 } };
    expect_refused(0, 243, 0, after, 2, NULL, "nor the firmware DRAM range (0x80400000, 65536 bytes)");
    struct seg before[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x803FFFFC, 8, 8, 1 } };
    expect_refused(0, 243, 0, before, 2, NULL, "is in neither the instruction window");
    struct seg past[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x80400000, 0x10, 0x10001, 1 } };
    expect_refused(0, 243, 0, past, 2, NULL, "runs past the end of the firmware DRAM (0x80410000)");
    /* RV64 images never have it: the same address is no window of RV64. */
    struct seg r64[] = { { 1, 0x0, 4, 4, 1 }, { 1, 0x80400000, 4, 4, 1 } };
    len = mk_elf(img, 1, 243, 0, r64, 2);
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "in neither the instruction window");
    CHECK_EQ(strstr(err, "firmware DRAM") == NULL, 1);
}

/* kh_mem_write (and kh_mem_zero through it) refuses the firmware's own DRAM, 0x40_0000 up to
 * the record area's largest end, 0x51_0000 (include/kohaku/cpu_map.h KX_FW_DRAM_OFFSET,
 * KX_FW_REC_OFFSET + 1 MB: docs/host-interface.md §2.1, §12), and writes nothing; the byte
 * before and the byte after are the host's; kh_mem_write_raw writes there. */
static void mem_write_fw_own_refused(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    uint8_t z[0x40] = { 0 }, fill[0x40], b[0x40];
    memset(fill, 0x5A, sizeof fill);
    CHECK_EQ(kh_mem_write_raw(&n, 0x400000, z, sizeof z), KH_OK);
    CHECK_EQ(kh_mem_write(&n, 0x400000, fill, 0x40), KH_E_INPUT);
    CHECK_HAS(kh_error(&n), "firmware's own DRAM at 0x400000-0x50ffff");
    CHECK_EQ(kh_mem_read(&n, 0x400000, b, 0x40), KH_OK);
    CHECK_EQ(memcmp(b, z, sizeof b), 0);                       /* nothing written */
    CHECK_EQ(kh_mem_write(&n, 0x3FFFC0, fill, 0x40), KH_OK);   /* ends at 0x40_0000 */
    CHECK_EQ(kh_mem_write(&n, 0x3FFFC0, fill, 0x41), KH_E_INPUT);
    CHECK_EQ(kh_mem_write(&n, 0x50FFFF, fill, 1), KH_E_INPUT);  /* the record area's last byte */
    CHECK_EQ(kh_mem_write(&n, 0x510000, fill, 0x40), KH_OK);    /* past it: the host's */
    CHECK_EQ(kh_mem_zero(&n, 0x420000, 0x20), KH_E_INPUT);
    CHECK_EQ(kh_mem_write_raw(&n, 0x400000, fill, 0x40), KH_OK);
    CHECK_EQ(kh_mem_read(&n, 0x400000, b, 0x40), KH_OK);
    CHECK_EQ(memcmp(b, fill, sizeof b), 0);
    char err[256];
    CHECK_EQ(kh_fw_own_check(0x40FFF0, 0x20, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "0x40fff0 + 32 bytes");
    CHECK_EQ(kh_fw_own_check(0x100000, 0x20, err, sizeof err), KH_OK);
    mt_free(t);
}

/* The flasher writes the segment to DRAM at its unit-global address (read back through the
 * host port's memory READ), zeros past filesz, nothing outside it, and while the core is held. */
static void elf_fw_dram_load(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    uint8_t fill[0x40];
    memset(fill, 0xAA, sizeof fill);
    CHECK_EQ(kh_mem_write(&n, 0x3FFFE0, fill, 0x20), KH_OK);
    CHECK_EQ(kh_mem_write_raw(&n, 0x400000, fill, 0x40), KH_OK);    /* the firmware's own: raw */
    CHECK_EQ(kh_mem_write_raw(&n, 0x410000, fill, 0x20), KH_OK);
    struct seg s[] = { { 1, 0x0, 8, 8, 0x13 }, { 1, 0x80400000, 0x21, 0x10000, 0x60 } };
    size_t len = mk_elf(img, 0, 243, 0, s, 2);
    struct kh_elf e;
    char err[256];
    CHECK_EQ(kh_elf_parse(img, len, &e, err, sizeof err), KH_OK);
    CHECK_EQ(kh_load_elf(&n, &e), KH_OK);
    uint8_t b[0x40];
    CHECK_EQ(kh_mem_read(&n, 0x400000, b, 0x40), KH_OK);
    CHECK_EQ(b[0], 0x60);
    CHECK_EQ(b[0x20], 0x80);
    CHECK_EQ(b[0x21], 0);              /* memsz beyond filesz: zeros */
    CHECK_EQ(b[0x3F], 0);
    CHECK_EQ(kh_mem_read(&n, 0x40FFF8, b, 0x10), KH_OK);
    CHECK_EQ(b[7], 0);                 /* the range's last byte: zero (memsz 64 KB) */
    CHECK_EQ(b[8], 0xAA);              /* 0x41_0000: not the firmware's */
    CHECK_EQ(kh_mem_read(&n, 0x3FFFE0, b, 0x20), KH_OK);
    CHECK_EQ(b[0x1F], 0xAA);           /* below the range: untouched */
    /* A running core: refused before anything is written. */
    CHECK_EQ(kh_mem_write_raw(&n, 0x400000, fill, 1), KH_OK);
    CHECK_EQ(kh_core_hold(&n, false), KH_OK);
    CHECK_EQ(kh_load_elf(&n, &e), KH_E_STATE);
    CHECK_EQ(kh_mem_read(&n, 0x400000, b, 1), KH_OK);
    CHECK_EQ(b[0], 0xAA);
    mt_free(t);
}

static void core_status_fields(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 64);
    struct kh_core_status cs;
    CHECK_EQ(kh_core_status(&n, &cs), KH_OK);
    CHECK_EQ(cs.state, 0);                  /* STATE: 0 held */
    CHECK_EQ(cs.variant, 64);
    CHECK_EQ(kh_core_hold(&n, false), KH_OK);
    CHECK_EQ(kh_core_status(&n, &cs), KH_OK);
    CHECK_EQ(cs.state, 1);                  /* 1 running */
    /* The RV64 halt of a trap with mtvec unset: cause = mcause, word = mtval, pc = mepc. */
    km_cpu_trap(t->m, 5, 0x1234, 0x30000000, 0);
    CHECK_EQ(kh_core_status(&n, &cs), KH_OK);
    CHECK_EQ(cs.state, 2);                  /* 2 halted */
    CHECK_EQ(cs.cause, 5);
    CHECK_EQ(cs.word, 0x30000000);
    CHECK_EQ(cs.pc, 0x1234);
    char ex[256];
    kh_explain_core(&cs, ex, sizeof ex);
    CHECK_HAS(ex, "load access fault (mcause 5)");
    CHECK_HAS(ex, "mtval 0x30000000");
    CHECK_HAS(ex, "pc 0x1234");
    uint64_t r[KH_REFEREE_COUNT];
    CHECK_EQ(kh_referee_read(&n, r), KH_OK);
    for (unsigned i = 0; i < KH_REFEREE_COUNT; i++)
        CHECK_EQ(r[i], 0);
    CHECK_STR(kh_referee_names[0], "credit_violations");
    CHECK_STR(kh_referee_names[7], "rx_dropped");
    mt_free(t);
}

static void explain_words(void)
{
    char ex[256];
    struct kh_core_status s = { .state = KHP_CPU_HALTED, .cause = 1, .word = 0xB0070005, .pc = 0x4c, .variant = 32 };
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "RV32 ECALL at pc 0x4c");
    CHECK_HAS(ex, "boot block refused: queue address or setup refused (reason 5)");
    s.cause = 2;
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "EBREAK");
    s.cause = 3;
    s.word = s.pc = 0x100;
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "RV32 fault");
    CHECK_HAS(ex, "pc 0x100");
    s.state = KHP_CPU_EXITED;
    s.word = 0;
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "clean stop");
    s.word = 0xDEAD0010;
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "assertion failed at site 0x10");
    s.word = UINT64_C(0x5452415000000002);     /* exitword.h KX_EXIT_TRAP(2) */
    kh_explain_core(&s, ex, sizeof ex);
    CHECK_HAS(ex, "illegal instruction (mcause 2)");
    CHECK_STR(kh_mcause_name(7), "store/AMO access fault");
}

/* The waypoint (docs/host-interface.md §2.2): 16 bytes at scratchpad offset 0x200 — what
 * (await code << 8 | {y,x}), since, mover_since, 0 — and the line kactl status prints. */
static void explain_waypoint(void)
{
    char ex[320];
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    size_t sb;
    uint8_t *spad = km_spad(t->m, &sb);
    /* credit (await 2) of unit x 3, y 1 since cycle 1000; the mover since 900 (older) */
    const uint8_t raw[16] = { 0x13, 0x02, 0, 0, 0xE8, 0x03, 0, 0, 0x84, 0x03, 0, 0, 0, 0, 0, 0 };
    memcpy(spad + 0x200, raw, sizeof raw);
    struct kx_waypoint w;
    CHECK_EQ(kh_waypoint_read(&n, &w), KH_OK);
    CHECK_EQ(w.what, 0x213u);
    CHECK_EQ(w.since, 1000u);
    CHECK_EQ(w.mover_since, 900u);
    kh_explain_waypoint(&w, 1500, 1000, true, ex, sizeof ex);
    CHECK_HAS(ex, "waiting for credit (room in the unit's instruction FIFO) of unit 3,1 since cycle 1000 (500 cycles ago");
    kh_explain_waypoint(&w, 2001, 1000, true, ex, sizeof ex);
    CHECK_HAS(ex, "last waited for credit (room in the unit's instruction FIFO) of unit 3,1 at cycle 1000, 1001 cycles ago: over its bound");
    w.mover_since = 1200;                       /* the mover's wait began later: it is the last */
    kh_explain_waypoint(&w, 1500, 1000, true, ex, sizeof ex);
    CHECK_HAS(ex, "waiting for a move to finish since cycle 1200 (300 cycles ago");
    w.what = 0;
    w.since = 0;
    w.mover_since = 0xFFFFFF00u;                /* across the 32-bit wrap of the cycle count */
    kh_explain_waypoint(&w, UINT64_C(0x100000010), 1000, true, ex, sizeof ex);
    CHECK_HAS(ex, "since cycle 4294967040 (272 cycles ago");
    w.mover_since = 0;
    kh_explain_waypoint(&w, 1500, 1000, true, ex, sizeof ex);
    CHECK_STR(ex, "no bounded wait yet");
    w.what = 0x100;                             /* a kick to finish (await 1), RV64: no elapsed */
    w.since = 77;
    kh_explain_waypoint(&w, 1500, 1000, false, ex, sizeof ex);
    CHECK_HAS(ex, "waiting for the dispatcher to finish a kick of unit 0,0 since cycle 77 (or last waited");
    mt_free(t);
}

/* ---- boot block and queue ---- */

static void bootblock_layout(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    struct kx_unit_entry u[2] = {
        { .yx = 0x11, .version = 1, .type = 0x4E50, .inst_depth = 16 },
        { .yx = 0x21, .version = 1, .type = 0x5455, .inst_depth = 16 },
    };
    struct kx_bootblock bb;
    kh_bootblock_make(&bb, 0x800000, 5000, u, 2);
    CHECK_EQ(kh_bootblock_bytes(&bb), 48);
    size_t sb;
    uint8_t *spad = km_spad(t->m, &sb);
    memset(spad, 0xEE, 0x300);
    CHECK_EQ(kh_bootblock_write(&n, &bb), KH_OK);
    /* bootblock.h: "KBOT" magic, version 1, size 32 + 8n, flags F_UNITS, wait, queue, count. */
    static const uint8_t want[48] = {
        0x54, 0x4F, 0x42, 0x4B, 1, 0, 48, 0, 1, 0, 0, 0, 0x88, 0x13, 0, 0,
        0, 0, 0x80, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
        0x11, 1, 0, 0, 0x50, 0x4E, 16, 0, 0x21, 1, 0, 0, 0x55, 0x54, 16, 0,
    };
    CHECK(memcmp(spad, want, sizeof want) == 0);
    CHECK_EQ(spad[48], 0);                 /* the whole 512-byte reservation is rewritten */
    CHECK_EQ(spad[0x1FF], 0);
    CHECK_EQ(spad[0x200], 0xEE);
    struct kx_bootblock rb;
    CHECK_EQ(kh_bootblock_read(&n, &rb), KH_OK);
    CHECK_EQ(rb.queue_addr, 0x800000);
    kh_bootblock_make(&bb, 0x800000, 1, NULL, 0);
    CHECK_EQ(bb.flags, 0);
    CHECK_EQ(bb.size, 32);
    mt_free(t);
}

static void queue_create_layout(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    uint8_t junk[0x6000];
    memset(junk, 0x5A, sizeof junk);
    CHECK_EQ(mt_mem_write(t, 0x800000, junk, sizeof junk), 0);
    struct kh_queue q;
    CHECK_EQ(kh_queue_create(&n, &q, 0x800000, 256, 128), KH_OK);
    /* Rings after the 512-byte header, each 4 KB aligned: 256 x 64 B = 16 KB of SQ. */
    CHECK_EQ(q.sq_addr, 0x801000);
    CHECK_EQ(q.cq_addr, 0x805000);
    uint8_t h[512];
    CHECK_EQ(mt_mem_read(t, 0x800000, h, sizeof h), 0);
    static const uint8_t setup[32] = {
        0x4E, 0x55, 0x51, 0x4B, 1, 0, 0, 0, 0, 1, 128, 0, 0, 0, 0, 0,
        0, 0x10, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x80, 0, 0, 0, 0, 0,
    };
    CHECK(memcmp(h, setup, 32) == 0);
    for (unsigned i = 32; i < 512; i++)
        if (h[i]) {
            CHECK_EQ(i, 0);               /* the rest of the header zeroed */
            break;
        }
    uint8_t r[0x4000];
    CHECK_EQ(mt_mem_read(t, 0x801000, r, sizeof r), 0);
    for (unsigned i = 0; i < sizeof r; i++)
        if (r[i]) {
            CHECK_EQ(i, 0x4000);
            break;
        }
    /* A new process finds the same queue and the host's indices. */
    uint64_t st = 7, ch = 3, sh = 7, ct = 3;
    mt_mem_write(t, 0x800000 + 32, &st, 8);
    mt_mem_write(t, 0x800000 + 64, &sh, 8);
    mt_mem_write(t, 0x800000 + 96, &ct, 8);
    mt_mem_write(t, 0x800000 + 128, &ch, 8);
    struct kh_queue q2;
    CHECK_EQ(kh_queue_attach(&n, &q2, 0x800000), KH_OK);
    CHECK_EQ(q2.sq_tail, 7);
    CHECK_EQ(q2.cq_head, 3);
    CHECK_EQ(q2.next_tag, 8);
    CHECK_EQ(q2.sq_entries, 256);
    CHECK_EQ(q2.cq_entries, 128);
    /* No queue there. */
    CHECK_EQ(kh_queue_attach(&n, &q2, 0x900000), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "magic");
    mt_free(t);
}

static void setup_refusals(void)
{
    char err[256];
    struct kq_setup s = { KQ_MAGIC, 1, 0, 64, 64, 0, 0x801000, 0x802000 };
    CHECK_EQ(kh_setup_check(&s, 0x800000, err, sizeof err), KH_OK);
    struct kq_setup b = s;
    b.magic = 0;
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    b = s, b.sq_entries = 48;
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "power of two");
    b = s, b.cq_entries = 8192;
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    b = s, b.sq_addr = 0x801010;
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    b = s, b.sq_addr = 0x800100;            /* inside the 512-byte header */
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "overlap");
    b = s, b.cq_addr = 0x801800;            /* inside the 4 KB submission ring */
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
    b = s, b.flags = 1;
    CHECK_EQ(kh_setup_check(&b, 0x800000, err, sizeof err), KH_E_INPUT);
}

static void ring_arithmetic(void)
{
    CHECK_EQ(kh_ring_slot(5, 4), 1);
    CHECK_EQ(kh_ring_slot(4096, 4096), 0);
    CHECK_EQ(kh_ring_slot(4097, 4096), 1);
    CHECK_EQ(kh_ring_free(10, 6, 4), 0);
    CHECK_EQ(kh_ring_free(7, 6, 4), 3);
    CHECK_EQ(kh_ring_free(6, 6, 4), 4);
    CHECK_EQ(kh_ring_used(9, 6), 3);
    CHECK(kh_ring_sane(10, 6, 4));
    CHECK(!kh_ring_sane(11, 6, 4));        /* more than a ring ahead */
    CHECK(!kh_ring_sane(5, 6, 4));         /* producer behind consumer */
    /* Indices count "ever": the arithmetic holds near 2^64 too. */
    CHECK_EQ(kh_ring_used(UINT64_MAX - 1, UINT64_MAX - 3), 2);
    CHECK_EQ(kh_ring_slot(UINT64_MAX, 8), 7);
    CHECK(kh_pow2(1) && kh_pow2(4096) && !kh_pow2(0) && !kh_pow2(48));
    CHECK_EQ(sizeof(struct kq_sub), 64);
    CHECK_EQ(sizeof(struct kq_cpl), 32);
}

/* A stand-in firmware between host requests: takes at most one submission per request and
 * posts its completion (status = op * 0x10 so the host can tell them apart; tag echoed). */
struct fakefw { uint64_t sq_head, cq_tail; unsigned taken; int stall; };

static void fake_fw(struct mt *t, void *ctx)
{
    struct fakefw *f = ctx;
    struct kq_header h;
    if (mt_mem_read(t, 0x800000, &h, sizeof h))
        return;
    if (h.setup.magic == KQ_MAGIC && h.fw.state != KQ_STATE_READY) {
        struct kq_fw_state ready = { .state = KQ_STATE_READY };   /* a firmware past boot */
        mt_mem_write(t, 0x800000 + 5 * 32, &ready, sizeof ready);
    }
    if (f->stall)
        return;
    if (h.setup.magic != KQ_MAGIC || h.sq_tail.value == f->sq_head)
        return;
    if (f->cq_tail - h.cq_head.value >= h.setup.cq_entries)
        return;                                 /* completion ring full: wait for the host */
    struct kq_sub s;
    mt_mem_read(t, h.setup.sq_addr + 64u * (f->sq_head & (h.setup.sq_entries - 1u)), &s, sizeof s);
    f->sq_head++;
    mt_mem_write(t, 0x800000 + 64, &f->sq_head, 8);
    struct kq_cpl c = { .tag = s.tag, .status = (uint16_t)(s.op * 0x10), .detail = s.count,
                        .value = s.addr, .cycles = 100 + f->taken };
    mt_mem_write(t, h.setup.cq_addr + 32u * (f->cq_tail & (h.setup.cq_entries - 1u)), &c, sizeof c);
    f->cq_tail++;
    mt_mem_write(t, 0x800000 + 96, &f->cq_tail, 8);
    f->taken++;
}

static void submit_wrap_reap(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 64);
    struct kh_queue q;
    CHECK_EQ(kh_queue_create(&n, &q, 0x800000, 4, 8), KH_OK);
    struct fakefw f = { 0 };
    t->hook = fake_fw;
    t->hook_ctx = &f;
    fake_fw(t, &f);                                /* past boot: READY before the first submission */
    /* 11 submissions into a 4-entry ring: kh_submit waits for room three times and wraps. */
    struct kq_sub s[11];
    memset(s, 0, sizeof s);
    for (unsigned i = 0; i < 11; i++) {
        s[i].op = KQ_OP_NOP;
        s[i].tag = kh_tag_next(&q);
        s[i].count = i;
    }
    f.stall = 0;
    CHECK_EQ(kh_submit(&n, &q, s, 8), KH_OK);      /* cq (8) takes them all */
    CHECK_EQ(q.sq_tail, 8);
    CHECK_EQ(kh_wait_cq(&n, &q, 8, "eight completions"), KH_OK);
    struct kq_cpl c[16];
    unsigned got;
    CHECK_EQ(kh_reap(&n, &q, c, 16, &got), KH_OK);
    CHECK_EQ(got, 8);
    for (unsigned i = 0; i < got; i++) {
        CHECK_EQ(c[i].tag, i + 1);
        CHECK_EQ(c[i].detail, i);
    }
    CHECK_EQ(q.cq_head, 8);
    uint64_t ch;
    mt_mem_read(t, 0x800000 + 128, &ch, 8);
    CHECK_EQ(ch, 8);                               /* published for the firmware */
    CHECK_EQ(kh_submit(&n, &q, s + 8, 3), KH_OK);
    CHECK_EQ(kh_wait_cq(&n, &q, 11, "three more"), KH_OK);
    CHECK_EQ(kh_reap(&n, &q, c, 2, &got), KH_OK);  /* a partial reap, across the cq wrap */
    CHECK_EQ(got, 2);
    CHECK_EQ(c[0].tag, 9);
    CHECK_EQ(c[1].tag, 10);
    CHECK_EQ(kh_reap(&n, &q, c, 16, &got), KH_OK);
    CHECK_EQ(got, 1);
    CHECK_EQ(c[0].tag, 11);
    /* One command: status and fields come back through kh_command. */
    struct kq_sub one = { .op = KQ_OP_UNITS, .addr = 0x1234 };
    struct kq_cpl cc;
    CHECK_EQ(kh_command(&n, &q, &one, &cc), KH_OK);
    CHECK_EQ(cc.tag, 12);
    CHECK_EQ(cc.status, 0x40);
    CHECK_EQ(cc.value, 0x1234);
    /* A firmware that never completes: the wait is bounded and says what it waited for. */
    f.stall = 1;
    q.timeout_ms = 50;
    CHECK_EQ(kh_core_hold(&n, false), KH_OK);      /* a running core, so only the clock ends it */
    one.tag = 0;
    CHECK_EQ(kh_command(&n, &q, &one, &cc), KH_E_TIMEOUT);
    CHECK_HAS(kh_error(&n), "timed out after 50 ms waiting for the completion of command tag 13");
    CHECK_HAS(kh_error(&n), "cq_tail 12, want 13");
    /* A core that stopped ends the wait at once, explained. */
    km_cpu_trap(t->m, 2, 0x88, 0, 0);
    CHECK_EQ(kh_wait_cq(&n, &q, 13, "tag 13"), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "illegal instruction");
    mt_free(t);
}

static void transport_closed(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 32);
    t->closed = 1;
    uint64_t v;
    CHECK_EQ(kh_reg_read(&n, KHP_CPU_BASE + KHP_CPU_STATE, &v), KH_E_IO);
    CHECK_HAS(kh_error(&n), "QEMU gone");
    t->closed = 0;
    /* A dropped address (staging aperture 1, docs/hardware.md §8) is refused by the library before
     * anything is sent (the port would refuse it too, KHP_E_ADDR). */
    uint8_t b[32];
    uint64_t r0 = n.requests;
    CHECK_EQ(kh_mem_read(&n, (UINT64_C(1) << 39) | (UINT64_C(1) << 32), b, 32), KH_E_INPUT);
    CHECK_HAS(kh_error(&n), "aperture 1");
    CHECK_EQ(n.requests, r0);
    CHECK_EQ(kh_mem_read(&n, UINT64_C(0xFFFFFFFFF0), b, 32), KH_E_INPUT);
    CHECK_HAS(kh_error(&n), "40-bit");
    mt_free(t);
}

/* ---- status table: the generated host table against status.h, parsed here independently ---- */

static void status_table_agrees(void)
{
    FILE *f = fopen(KH_TOP "/include/kohaku/status.h", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned seen = 0, codes[256] = { 0 };
    while (fgets(line, sizeof line, f)) {
        char name[64];
        unsigned code;
        if (sscanf(line, "#define KS_%63[A-Z0-9_] 0x%xu", name, &code) != 2)
            continue;
        if (!strncmp(name, "RANGE_", 6) || !strncmp(name, "IS_", 3) || !strncmp(name, "AWAIT_", 6))
            continue;
        seen++;
        CHECK(code < 256);
        if (code >= 256)
            continue;
        CHECK_EQ(codes[code]++, 0);                 /* every code once */
        CHECK_STR(kh_status_name(code), name);      /* the host calls it what the firmware does */
        CHECK(code == KS_OK || strcmp(kh_status_range(code), "unassigned") != 0);
    }
    fclose(f);
    CHECK_EQ(kh_status_count, seen);
    for (unsigned i = 0; i < kh_status_count; i++)
        for (unsigned j = i + 1; j < kh_status_count; j++)
            CHECK(strcmp(kh_status_table[i].name, kh_status_table[j].name) != 0);
    /* Literals of status.h. */
    CHECK_STR(kh_status_name(0x00), "OK");
    CHECK_STR(kh_status_name(0x13), "NO_REACH");
    CHECK_STR(kh_status_name(0x60), "TIMEOUT");
    CHECK_STR(kh_status_name(0x50), "UNIT_FAULT");
    CHECK_STR(kh_status_range(0x13), "input");
    CHECK_STR(kh_status_range(0x40), "fault");
    CHECK_STR(kh_status_range(0x60), "timeout");
    CHECK_STR(kh_status_range(0x70), "other");
    CHECK_STR(kh_status_range(0x80), "unassigned");
    CHECK_STR(kh_status_name(0xEE), "UNKNOWN_0xee");
    struct kq_cpl c = { .status = 0x60, .detail = 0x0312 };
    char ex[256];
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "TIMEOUT (0x60, timeout): waited for the program's last completion of unit 2,1");
    c.status = 0x40, c.detail = 3;
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "mover fault 3 AXI");
    /* docs/dispatch.md: UNIT_FAULT detail 0x100 | {y,x}, value jobs << 16 | count */
    c.status = 0x50, c.detail = 0x121, c.value = 0x10001;
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "unit 1,2 faulted 1 time(s), seen only as credit not returned");
    c.detail = 0x322, c.value = 0x30001;
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "1 FAULT(s) seen only as credit not returned, in one of the targets 0x03 "
                  "(bit = target index; unit 2,2 first)");
    c.detail = 0x21, c.value = 0x77;
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "unit 1,2 reported exec_result 0x77");
}

/* ---- text forms ---- */

static void read_file_whole(void)
{
    /* 200,000 bytes (past the reader's first 64 KB buffer and its first doubling), byte i =
     * i * 7 + 3: read back whole, NUL after the last byte. A missing file: NULL, ENOENT. */
    char path[] = "/tmp/kh-read-file-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    for (unsigned i = 0; i < 200000; i++)
        fputc((uint8_t)(i * 7 + 3), f);
    fclose(f);
    size_t len = 0;
    char *b = kh_read_file(path, &len);
    unlink(path);
    CHECK(b != NULL);
    if (!b)
        return;
    CHECK_EQ(len, 200000);
    unsigned bad = 0;
    for (unsigned i = 0; i < 200000 && i < len; i++)
        bad += (uint8_t)b[i] != (uint8_t)(i * 7 + 3);
    CHECK_EQ(bad, 0);
    CHECK_EQ(b[200000], 0);
    CHECK_EQ(b[0], 3);
    CHECK_EQ((uint8_t)b[199999], 0xBC);      /* 199,999 * 7 + 3 = 1,399,996 = 0x155CBC */
    free(b);
    errno = 0;
    CHECK(kh_read_file("/nonexistent/kh-read-file", &len) == NULL);
    CHECK_EQ(errno, ENOENT);
}

static void text_targets_numbers(void)
{
    uint8_t yx;
    CHECK_EQ(kh_parse_target("1,1", &yx), 0);
    CHECK_EQ(yx, 0x11);                     /* {y[3:0], x[3:0]} */
    CHECK_EQ(kh_parse_target("4,1", &yx), 0);
    CHECK_EQ(yx, 0x14);
    CHECK_EQ(kh_parse_target("2,0x3", &yx), 0);
    CHECK_EQ(yx, 0x32);
    CHECK_EQ(kh_parse_target("16,1", &yx), -1);
    CHECK_EQ(kh_parse_target("1", &yx), -1);
    CHECK_EQ(kh_parse_target("1,1,1", &yx), -1);
    CHECK_EQ(kh_parse_target("", &yx), -1);
    uint64_t v;
    CHECK_EQ(kh_parse_u64("0x800000", &v), 0);
    CHECK_EQ(v, 0x800000);
    CHECK_EQ(kh_parse_u64("18446744073709551615", &v), 0);
    CHECK_EQ(v, UINT64_MAX);
    CHECK_EQ(kh_parse_u64("18446744073709551616", &v), -1);
    CHECK_EQ(kh_parse_u64("12x", &v), -1);
    uint8_t b[8];
    size_t nb = 0;
    CHECK_EQ(kh_parse_hex_bytes("0xdeadBEEF", b, 8, &nb), 0);
    CHECK_EQ(nb, 4);
    CHECK_EQ(b[0], 0xde);
    CHECK_EQ(b[3], 0xef);
    CHECK_EQ(kh_parse_hex_bytes("abc", b, 8, &nb), -1);
    CHECK_EQ(kh_parse_hex_bytes("zz", b, 8, &nb), -1);
}

static void text_program(void)
{
    /* docs/npu.md §8 words #0 and #19, as payload word 3. */
    static const char text[] =
        "# the NPU example's first and last instruction\n"
        "0 0 0 0x3800000001000000\n"
        "\n"
        "  0x0000000000000000 0 0x0 0x24000000a0008006   # last\n"
        "24000000a0008006000000000000000000000000000000000000000000000000\n"
        "0x0000000000000001000000000000000200000000000000030000000000000004\n";
    uint64_t p[8][4];
    uint32_t n;
    struct kh_text_err e;
    CHECK_EQ(kh_parse_program(text, sizeof text - 1, p, 8, &n, &e), KH_OK);
    CHECK_EQ(n, 4);
    CHECK_EQ(p[0][3], 0x3800000001000000);
    CHECK_EQ(p[0][0], 0);
    CHECK_EQ(p[1][3], 0x24000000a0008006);
    /* 64 digits, most significant first: the first 16 are word 3. */
    CHECK_EQ(p[2][3], 0x24000000a0008006);
    CHECK_EQ(p[2][0], 0);
    CHECK_EQ(p[3][3], 1);
    CHECK_EQ(p[3][2], 2);
    CHECK_EQ(p[3][1], 3);
    CHECK_EQ(p[3][0], 4);
    static const char three[] = "1 2 3\n";
    CHECK_EQ(kh_parse_program(three, sizeof three - 1, p, 8, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 1);
    CHECK_HAS(e.why, "four 64-bit words");
    static const char short64[] = "# x\n24000000a000800600000000000000000000000000000000000000000000000\n";
    CHECK_EQ(kh_parse_program(short64, sizeof short64 - 1, p, 8, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 2);
    CHECK_HAS(e.why, "exactly 64 hex digits");
    static const char big[] = "0 0 0 0x10000000000000000\n";
    CHECK_EQ(kh_parse_program(big, sizeof big - 1, p, 8, &n, &e), KH_E_INPUT);
    static const char empty[] = "# nothing\n\n";
    CHECK_EQ(kh_parse_program(empty, sizeof empty - 1, p, 8, &n, &e), KH_E_INPUT);
    CHECK_HAS(e.why, "no payload");
    static const char two[] = "0 0 0 1\n0 0 0 2\n0 0 0 3\n";
    CHECK_EQ(kh_parse_program(two, sizeof two - 1, p, 2, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 3);
}

static void text_steps(void)
{
    static const char text[] =
        "# a RUN\n"
        "replay moves.txt\n"
        "dispatch 1,1 prog.txt txn 7 credit 4\n"
        "dispatch 2,1 /abs/prog.txt\n"
        "wait 1,1 1\n"
        "barrier\n"
        "signal 0x5A\n";
    struct kh_step_src s[8];
    uint32_t n;
    struct kh_text_err e;
    CHECK_EQ(kh_parse_steps(text, sizeof text - 1, "/dir", s, 8, &n, &e), KH_OK);
    CHECK_EQ(n, 6);
    CHECK_EQ(s[0].step.op, 2);                     /* REPLAY (host-interface.md §6) */
    CHECK_STR(s[0].file, "/dir/moves.txt");
    CHECK_EQ(s[1].step.op, 1);                     /* DISPATCH */
    CHECK_EQ(s[1].step.target, 0x11);
    CHECK_EQ(s[1].step.txn, 7);
    CHECK_EQ(s[1].step.credit_cap, 4);
    CHECK_STR(s[2].file, "/abs/prog.txt");
    CHECK_EQ(s[2].step.target, 0x12);
    CHECK_EQ(s[3].step.op, 3);                     /* WAIT */
    CHECK_EQ(s[3].step.n, 1);
    CHECK_EQ(s[4].step.op, 4);                     /* BARRIER */
    CHECK_EQ(s[5].step.op, 5);                     /* SIGNAL */
    CHECK_EQ(s[5].step.addr, 0x5A);
    CHECK_EQ(s[0].line, 2);                /* the comment is line 1 */
    CHECK_EQ(s[5].line, 7);
    static const char *const bad[] = {
        "jump 1,1\n", "dispatch 1 p.txt\n", "wait 1,1\n", "wait 1,1 0\n", "barrier now\n",
        "replay a.txt txn 3\n", "dispatch 1,1 p.txt txn 256\n", "signal\n", "",
    };
    static const char *const why[] = {
        "unknown step", "expected a target", "count of programs", "count of programs",
        "unexpected text", "unexpected text after the file name", "txn: expected 0..255",
        "signal: expected a value", "empty",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(kh_parse_steps(bad[i], strlen(bad[i]), ".", s, 8, &n, &e), KH_E_INPUT);
        CHECK_HAS(e.why, why[i]);
    }
}

static void text_desc_list_reused(void)
{
    /* kactl's replay goes through mover/'s parser unchanged (desc_list.h text form). */
    static const char text[] = "# fill\n0x18 0x100021   # CTRL\n\n0x00 4096\n";
    struct kd_write w[4];
    uint32_t n;
    struct kd_text_err e;
    CHECK_EQ(kd_text_parse(text, sizeof text - 1, w, 4, &n, &e), KS_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(w[0].off, 0x18);
    CHECK_EQ(w[0].lo, 0x100021);
    CHECK_EQ(w[1].lo, 4096);
    static const char bad[] = "0x18\n";
    CHECK_EQ(kd_text_parse(bad, sizeof bad - 1, w, 4, &n, &e), KS_TEXT_SYNTAX);
    CHECK_EQ(e.line, 1);
}

/* ---- the demo's committed text files (make run, e2e) ---- */

static char *slurp(const char *rel, size_t *len)
{
    static char buf[1 << 16];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", KH_TOP, rel);
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f)
        return NULL;
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

static void demo_program_is_npu_example(void)
{
    /* docs/npu.md §8 table, word for word (payload word 3; words 0-2 zero). */
    static const uint64_t want[20] = {
        0x3800000001000000, 0x3000004002000000, 0x3010020001000000, 0x3020004001000200,
        0x34000203c0000000, 0x382fc00000000000, 0x2800000000000000, 0x2800800000004002,
        0x1004000002000200, 0x4000400028001020, 0x4500500030000400, 0x4600500028000410,
        0x4500508030400400, 0x4600508028400410, 0x4500510030800400, 0x4600510028800410,
        0x4500518030c00400, 0x4600518028c00410, 0x3030004001000000, 0x24000000a0008006,
    };
    size_t len;
    char *t = slurp("host/demo/softmax.prog", &len);
    CHECK(t != NULL);
    if (!t)
        return;
    uint64_t p[32][4];
    uint32_t n;
    struct kh_text_err e;
    CHECK_EQ(kh_parse_program(t, len, p, 32, &n, &e), KH_OK);
    CHECK_EQ(n, 20);
    for (unsigned i = 0; i < 20 && i < n; i++) {
        CHECK_EQ(p[i][3], want[i]);
        CHECK_EQ(p[i][0] | p[i][1] | p[i][2], 0);
    }
}

static void demo_lists_reach(void)
{
    /* copy.txt: two moves both variants reach; fill.txt needs IMM (0x40), gather.txt needs
     * GATHER (0x50): valid for RV32 (reach 0x80), NO_REACH naming the register on RV64. */
    static const struct { const char *file; unsigned moves, st64, det64; } c[] = {
        { "host/demo/copy.txt", 2, KS_OK, 0 },
        { "host/demo/fill.txt", 1, KS_NO_REACH, 0x40 },
        { "host/demo/gather.txt", 1, KS_NO_REACH, 0x50 },
    };
    for (unsigned i = 0; i < 3; i++) {
        size_t len;
        char *t = slurp(c[i].file, &len);
        CHECK(t != NULL);
        if (!t)
            continue;
        struct kd_write w[64];
        uint32_t n;
        struct kd_text_err e;
        CHECK_EQ(kd_text_parse(t, len, w, 64, &n, &e), KS_OK);
        struct kmv_result r;
        CHECK_EQ(kmv_validate(w, n, &kmv_caps_rv32, &r), KS_OK);
        CHECK_EQ(r.moves, c[i].moves);
        CHECK_EQ(kmv_validate(w, n, &kmv_caps_rv64, &r), c[i].st64);
        CHECK_EQ(r.detail, c[i].det64);
    }
}


/* ---- no alias, no wrap, nothing that reaches no memory ---- */

/* Expected words are docs/hardware.md's: the 40-bit format (preamble), 4 GB DRAM and 2 MB staging
 * (§7), what the memory agent does with the rest (§8). */
static void ug_ranges(void)
{
    static const struct { uint64_t ug, len; const char *has; } bad[] = {
        { UINT64_C(0x100000000), 4, "DRAM offset 0x100000000, past the 4 GB of DRAM" },
        { UINT64_C(0xFFFFFFFE), 4, "runs past the end of the 4 GB of DRAM at 0x100000000: its last 2 bytes" },
        { UINT64_C(0x1000200000), 4, "names mesh 1 (bits 37:36)" },
        { UINT64_C(0x1000200000), 4, "local DRAM offset 0x200000 (aliased)" },
        { UINT64_C(0x3000200000), 4, "names mesh 3" },
        { UINT64_C(0x4000200000), 4, "reserved bit 38 set" },
        { UINT64_C(0x4000200000), 4, "DRAM offset 0x200000" },
        { UINT64_C(0x8100000000), 32, "aperture 1 (bits 35:32)" },
        { UINT64_C(0x9000000000), 32, "mesh 1's staging" },
        { UINT64_C(0xC000000000), 32, "reserved bit 38 set: the memory agent drops it" },
        { UINT64_C(0x8000200000), 32, "staging offset 0x200000, past the 2 MB staging store" },
        { UINT64_C(0x80001FFFF0), 32, "runs past the end of the 2 MB staging store at 0x8000200000: its last 16 bytes" },
        { UINT64_C(0x10000000000), 1, "40-bit" },
        { UINT64_C(0x10000200000), 4, "an outside address (the host port's (mesh + 1) << 40 | unit-global form) "
                                      "for mesh 0's unit-global 0x200000" },
        { UINT64_C(0x100000000000), 4, "leaves the 40-bit" },
        { UINT64_C(0xFFFFFFFFF0), 32, "40-bit" },
        { UINT64_C(0xFFFFFFFFFFFFFFF8), 16, "40-bit" },
    };
    char err[512];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK_EQ(kh_ug_check(bad[i].ug, bad[i].len, err, sizeof err), KH_E_INPUT);
        CHECK_HAS(err, bad[i].has);
    }
    static const struct { uint64_t ug, len; } good[] = {
        { 0, 1 }, { 0x200000, 4 }, { UINT64_C(0xFFFFFFE0), 32 }, { 0, UINT64_C(0x100000000) },
        { UINT64_C(0x8000000000), UINT64_C(0x200000) }, { UINT64_C(0x80001FFFE0), 32 },
        { UINT64_C(0x100000000), 0 },
    };
    for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK_EQ(kh_ug_check(good[i].ug, good[i].len, err, sizeof err), KH_OK);
}

/* The library refuses such a range itself, before any request: the model (which aliases and
 * drops as the hardware does) never sees it, and the aliased DRAM keeps its bytes. */
static void mem_refuses_aliases(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 64);
    uint8_t four[4] = { 0x11, 0x22, 0x33, 0x44 }, back[4];
    uint64_t r0 = n.requests;
    CHECK_EQ(kh_mem_write(&n, UINT64_C(0x1000200000), four, 4), KH_E_INPUT);
    CHECK_HAS(kh_error(&n), "mesh 1");
    CHECK_EQ(kh_mem_write(&n, UINT64_C(0x4000200000), four, 4), KH_E_INPUT);
    CHECK_EQ(kh_mem_write(&n, UINT64_C(0x100000000), four, 4), KH_E_INPUT);
    CHECK_EQ(kh_mem_write(&n, UINT64_C(0xFFFFFFFE), four, 4), KH_E_INPUT);
    CHECK_HAS(kh_error(&n), "last 2 bytes");
    CHECK_EQ(kh_mem_zero(&n, UINT64_C(0xFFFFFFE0), 64), KH_E_INPUT);
    CHECK_EQ(kh_mem_read(&n, UINT64_C(0x100000000), back, 4), KH_E_INPUT);
    CHECK_EQ(n.requests, r0);                      /* nothing reached the port */
    CHECK(mt_mem_read(t, 0x200000, back, 4) == 0);
    CHECK_EQ(back[0] | back[1] | back[2] | back[3], 0);   /* local 0x200000 untouched */
    CHECK_EQ(kh_mem_write(&n, UINT64_C(0xFFFFFFFC), four, 4), KH_OK);   /* the last word is fine */
    CHECK_EQ(kh_mem_read(&n, UINT64_C(0xFFFFFFFC), back, 4), KH_OK);
    CHECK_EQ(memcmp(back, four, 4), 0);
    mt_free(t);
}

static uint32_t put_rec(struct kd_write *w, uint32_t i, uint32_t off, uint64_t v)
{
    w[i] = kd_make(off, v);
    return i + 1;
}

/* One FILL of `count` words from base (docs/hardware.md §3 field positions). */
static uint32_t fill_move(struct kd_write *w, uint32_t i, uint64_t base, unsigned count, int32_t stride)
{
    i = put_rec(w, i, 0x10, 1u | base << 4 | UINT64_C(1) << 44);                    /* HDR dst, 1 dim */
    i = put_rec(w, i, 0x18, 1u | (uint64_t)count << 4 | (uint64_t)(uint32_t)stride << 20);   /* DIM 0 */
    i = put_rec(w, i, 0x20, 0);                                                   /* AXIS commits */
    return put_rec(w, i, 0x00, 4u | 2u << 3 | UINT64_C(1) << 16);                 /* FILL, 32-bit, GO */
}

static void list_extents(void)
{
    struct kd_write w[32];
    uint32_t bad = 99, n;
    char err[512];
    /* A FILL of two words across 4 GB: its second word would hit nothing. */
    n = fill_move(w, 0, UINT64_C(0xFFFFFFE0), 2, 32);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(bad, 3);
    CHECK_HAS(err, "move 0 (FILL, GO at write 3): the destination walk (0xffffffe0 + 64 bytes)");
    CHECK_HAS(err, "its last 32 bytes");
    /* The same FILL one word long is fine; a second move to mesh 1 is refused as move 1. */
    n = fill_move(w, 0, UINT64_C(0xFFFFFFE0), 1, 32);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_OK);
    n = fill_move(w, n, UINT64_C(0x1000200000), 1, 32);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(bad, 7);
    CHECK_HAS(err, "move 1 (FILL, GO at write 7)");
    CHECK_HAS(err, "names mesh 1");
    /* Bit 38, and a negative stride walking below 0. */
    n = fill_move(w, 0, UINT64_C(0x4000200000), 1, 32);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "reserved bit 38");
    n = fill_move(w, 0, 0x20, 3, -32);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "starts 32 bytes below address 0");
    /* A COPY reading from aperture 1: the source walk is named. */
    n = put_rec(w, 0, 0x10, 1u | UINT64_C(0x100000) << 4 | UINT64_C(1) << 44);
    n = put_rec(w, n, 0x18, 1u | 1u << 4 | 32u << 20);
    n = put_rec(w, n, 0x20, 0);
    n = put_rec(w, n, 0x10, 0u | UINT64_C(0x8100000000) << 4 | UINT64_C(1) << 44);
    n = put_rec(w, n, 0x18, 0u | 1u << 4 | 32u << 20);
    n = put_rec(w, n, 0x20, 0);
    n = put_rec(w, n, 0x00, 0u | 2u << 3 | UINT64_C(1) << 16);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "move 0 (COPY, GO at write 6): the source walk");
    CHECK_HAS(err, "aperture 1");
    /* A GATHER whose index buffer lies past 4 GB (16 indices: two words). */
    n = fill_move(w, 0, 0x100000, 1, 32);
    n = put_rec(w, n, 0x30, UINT64_C(0xFFFFFFE0) | UINT64_C(16) << 40);
    n = put_rec(w, n, 0x00, 2u | 2u << 3 | UINT64_C(1) << 16);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "move 1 (GATHER, GO at write 5): the index buffer (0xffffffe0 + 64 bytes)");
    /* Offsets beyond the mover's signed 32 bits wrap: 65535 words of 64 KB stride. */
    n = fill_move(w, 0, 0, 65535, 65536);
    CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "wrap");
}

/* Every demo list passes the host's check (they are what make run sends). */
static void demo_lists_pass_check(void)
{
    static const char *const f[] = { "copy.txt", "fill.txt", "gather.txt" };
    for (unsigned i = 0; i < 3; i++) {
        char path[512];
        snprintf(path, sizeof path, KH_TOP "/host/demo/%s", f[i]);
        size_t len;
        char *t = kh_read_file(path, &len);
        CHECK(t != NULL);
        if (!t)
            continue;
        struct kd_write w[64];
        uint32_t n, bad;
        struct kd_text_err e;
        char err[512];
        CHECK_EQ(kd_text_parse(t, len, w, 64, &n, &e), KS_OK);
        CHECK_EQ(kh_list_check(w, n, &bad, err, sizeof err), KH_OK);
        free(t);
    }
}

/* ---- text files are text; the firmware's limits; boot arguments ---- */

static void text_not_text(void)
{
    struct kh_text_err e;
    static const char nul[] = "0 0 0 0x1\n0 0 \0 0x2\n0 0 0 0x3\n";
    CHECK_EQ(kh_text_check(nul, sizeof nul - 1, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 2);
    CHECK_EQ(e.col, 5);
    CHECK_HAS(e.why, "NUL");
    uint64_t p[4][4];
    uint32_t n = 0;
    CHECK_EQ(kh_parse_program(nul, sizeof nul - 1, p, 4, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 2);
    CHECK_EQ(e.col, 5);
    /* A NUL inside a comment, at the very start, a control byte, a lone 0xFF: all refused. */
    static const char cmt[] = "barrier # a\0b\n";
    struct kh_step_src st[2];
    CHECK_EQ(kh_parse_steps(cmt, sizeof cmt - 1, NULL, st, 2, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 1);
    CHECK_EQ(e.col, 12);
    CHECK_EQ(kh_text_check("\0barrier\n", 9, &e), KH_E_INPUT);
    CHECK_EQ(e.col, 1);
    CHECK_EQ(kh_text_check("barrier\x1b\n", 9, &e), KH_E_INPUT);
    CHECK_HAS(e.why, "control byte 0x1b");
    CHECK_EQ(kh_text_check("# \xff\n", 4, &e), KH_E_INPUT);
    CHECK_HAS(e.why, "0xff");
    CHECK_EQ(kh_text_check("# caf\xc3\xa9 \xe2\x80\x94 ok\r\n\tbarrier\n", 22, &e), KH_OK);   /* UTF-8, CR, tab */
    CHECK_EQ(kh_text_check("# \xc3\n", 4, &e), KH_E_INPUT);        /* a cut UTF-8 sequence */
}

static void text_limits_are_firmware(void)
{
    /* KQ_MAX_PROG payloads parse; one more is refused, naming the limit (queue.h: 65536). */
    size_t cap = 65537u * 12u + 1;
    char *t = malloc(cap);
    uint64_t (*p)[4] = malloc(65536 * sizeof *p);
    CHECK(t && p);
    if (!t || !p) {
        free(t);
        free(p);
        return;
    }
    size_t len = 0;
    for (unsigned i = 0; i < 65536; i++)
        len += (size_t)sprintf(t + len, "0 0 0 0x%x\n", i & 0xF);
    uint32_t n = 0;
    struct kh_text_err e;
    CHECK_EQ(kh_parse_program(t, len, p, KQ_MAX_PROG, &n, &e), KH_OK);
    CHECK_EQ(n, 65536);
    len += (size_t)sprintf(t + len, "0 0 0 1\n");
    CHECK_EQ(kh_parse_program(t, len, p, KQ_MAX_PROG, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 65537);
    CHECK_HAS(e.why, "at most 65536");
    free(p);
    /* Steps: 4096 (queue.h KQ_MAX_STEPS) parse, 4097 do not. */
    CHECK_EQ(KH_STEPS_MAX, 4096);
    struct kh_step_src *st = calloc(4096, sizeof *st);
    len = 0;
    for (unsigned i = 0; i < 4097; i++)
        len += (size_t)sprintf(t + len, "barrier\n");
    CHECK_EQ(kh_parse_steps(t, len - 8, NULL, st, KH_STEPS_MAX, &n, &e), KH_OK);
    CHECK_EQ(n, 4096);
    CHECK_EQ(kh_parse_steps(t, len, NULL, st, KH_STEPS_MAX, &n, &e), KH_E_INPUT);
    CHECK_EQ(e.line, 4097);
    CHECK_HAS(e.why, "at most 4096");
    free(st);
    free(t);
}

static void boot_placement(void)
{
    char err[512];
    CHECK_EQ(kh_queue_place_check(32, 0x800000, 256, err, sizeof err), KH_OK);
    CHECK_EQ(kh_queue_place_check(64, 0x800000, 4096, err, sizeof err), KH_OK);
    CHECK_EQ(kh_queue_place_check(32, 0x800000, 3, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "--entries 3 is not a power of two in 1..4096");
    CHECK_EQ(kh_queue_place_check(32, 0x800000, 8192, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_queue_place_check(64, 0x800010, 256, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "not 32-byte aligned");
    /* The firmware's DRAM 0x40_0000-0x40_FFFF (host-interface.md §2.1): owned on both variants. */
    CHECK_EQ(kh_queue_place_check(32, 0x400000, 256, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "overlaps the firmware's own DRAM [0x400000, 0x410000)");
    CHECK_EQ(kh_queue_place_check(32, 0x3FF000, 16, err, sizeof err), KH_E_INPUT);   /* rings run into it */
    CHECK_EQ(kh_queue_place_check(64, 0x400000, 256, err, sizeof err), KH_E_INPUT);  /* owned on RV64 too */
    /* kactl's data area [0x90_0000, 0x190_0000). */
    CHECK_EQ(kh_queue_place_check(64, 0x900000, 16, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "kactl's command data area");
    CHECK_EQ(kh_queue_place_check(64, 0x18FFFE0, 1, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_queue_place_check(64, 0x1900000, 256, err, sizeof err), KH_OK);
    /* RV32 reaches DRAM below 0x7000_0000 only; RV64 also the staging store. */
    CHECK_EQ(kh_queue_place_check(32, 0x6FFFF000, 256, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "past the DRAM the RV32 core reaches");
    CHECK_EQ(kh_queue_place_check(64, 0x6FFFF000, 256, err, sizeof err), KH_OK);
    CHECK_EQ(kh_queue_place_check(64, UINT64_C(0x8000000000), 256, err, sizeof err), KH_OK);
    CHECK_EQ(kh_queue_place_check(32, UINT64_C(0x8000000000), 256, err, sizeof err), KH_E_INPUT);
    CHECK_EQ(kh_queue_place_check(64, UINT64_C(0x1000800000), 256, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "mesh 1");
    CHECK_EQ(kh_queue_place_check(64, UINT64_C(0xFFFFF000), 256, err, sizeof err), KH_E_INPUT);
    CHECK_HAS(err, "4 GB");
}

/* ---- the host never gets out of step with the rings ---- */

static void queue_state_gates(void)
{
    struct kh_node n;
    struct mt *t = open_node(&n, 64);
    struct kh_queue q;
    CHECK_EQ(kh_queue_create(&n, &q, 0x800000, 4, 4), KH_OK);
    struct kq_sub one = { .op = KQ_OP_NOP };
    struct kq_cpl c;
    uint64_t tail;
    /* A firmware not READY (BOOTING here: nobody serves the queue): nothing is written. */
    q.timeout_ms = 50;
    CHECK_EQ(kh_command(&n, &q, &one, &c), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "nothing submitted: the firmware is BOOTING, not READY");
    mt_mem_read(t, 0x800000 + 32, &tail, 8);
    CHECK_EQ(tail, 0);
    struct kq_sub early = { .op = KQ_OP_NOP, .tag = 1 };
    CHECK_EQ(kh_submit(&n, &q, &early, 1), KH_E_STATE);     /* kh_submit refuses too */
    CHECK_HAS(kh_error(&n), "nothing submitted: the firmware is BOOTING, not READY (1 submission not written)");
    CHECK_EQ(q.sq_tail, 0);
    mt_mem_read(t, 0x800000 + 32, &tail, 8);
    CHECK_EQ(tail, 0);
    /* READY, with two submissions written and not taken (an earlier kactl that gave up):
     * kh_command refuses rather than mistake their completions for its own. */
    struct kq_fw_state ready = { .state = KQ_STATE_READY };
    mt_mem_write(t, 0x800000 + 5 * 32, &ready, sizeof ready);
    struct kq_sub two[2] = { { .op = KQ_OP_REPLAY, .tag = 7 }, { .op = KQ_OP_STOP, .tag = 8 } };
    CHECK_EQ(kh_submit(&n, &q, two, 2), KH_OK);
    CHECK_EQ(kh_command(&n, &q, &one, &c), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "2 earlier submissions have not completed");
    mt_mem_read(t, 0x800000 + 32, &tail, 8);
    CHECK_EQ(tail, 2);
    /* They can be listed, and withdrawn only while the core does not run. */
    struct kq_sub p[4];
    unsigned got;
    uint64_t head = 99, w = 99;
    CHECK_EQ(kh_queue_pending(&n, &q, p, 4, &got, &head), KH_OK);
    CHECK_EQ(got, 2);
    CHECK_EQ(head, 0);
    CHECK_EQ(p[0].tag, 7);
    CHECK_EQ(p[1].op, KQ_OP_STOP);
    CHECK_EQ(kh_core_hold(&n, false), KH_OK);
    CHECK_EQ(kh_queue_withdraw(&n, &q, &w), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "core held or stopped");
    CHECK_EQ(kh_core_hold(&n, true), KH_OK);
    CHECK_EQ(kh_queue_withdraw(&n, &q, &w), KH_OK);
    CHECK_EQ(w, 2);
    CHECK_EQ(q.sq_tail, 0);
    mt_mem_read(t, 0x800000 + 32, &tail, 8);
    CHECK_EQ(tail, 0);                             /* published: the firmware sees none */
    CHECK_EQ(kh_queue_pending(&n, &q, p, 4, &got, NULL), KH_OK);
    CHECK_EQ(got, 0);
    /* A completion posted and not consumed: refused too. */
    struct kq_cpl late = { .tag = 5 };
    uint64_t one_idx = 1;
    mt_mem_write(t, q.cq_addr, &late, sizeof late);
    mt_mem_write(t, 0x800000 + 3 * 32, &one_idx, 8);
    CHECK_EQ(kh_command(&n, &q, &one, &c), KH_E_STATE);
    CHECK_HAS(kh_error(&n), "1 completions are posted and not consumed");
    mt_free(t);
}

static void status_text_whole(void)
{
    /* status.h's comments that continue on a second line come through whole. */
    CHECK_HAS(kh_status_text(0x05), "naming another mesh / aperture / bit 38, or overlapping the firmware's "
              "own DRAM code (RV32); detail = bytes, value = address");
    CHECK_HAS(kh_status_text(0x0A), "before it; detail = {y,x}, value[47:0] = n");
    CHECK_HAS(kh_status_text(0x71), "it may have run partly; detail = 0, value = 0");
    struct kq_cpl c = { .status = 0x05 };
    char ex[512];
    kh_explain_cpl(&c, ex, sizeof ex);
    CHECK_HAS(ex, "detail = bytes, value = address");
}

int main(void)
{
    RUN(elf_parse_rv32);
    RUN(elf_parse_rv64);
    RUN(elf_refusals);
    RUN(elf_load_model);
    RUN(elf_fw_dram_parse);
    RUN(elf_fw_dram_load);
    RUN(mem_write_fw_own_refused);
    RUN(core_status_fields);
    RUN(explain_words);
    RUN(explain_waypoint);
    RUN(bootblock_layout);
    RUN(queue_create_layout);
    RUN(setup_refusals);
    RUN(ring_arithmetic);
    RUN(submit_wrap_reap);
    RUN(transport_closed);
    RUN(status_table_agrees);
    RUN(read_file_whole);
    RUN(text_targets_numbers);
    RUN(text_program);
    RUN(text_steps);
    RUN(text_desc_list_reused);
    RUN(demo_program_is_npu_example);
    RUN(demo_lists_reach);
    RUN(ug_ranges);
    RUN(mem_refuses_aliases);
    RUN(list_extents);
    RUN(demo_lists_pass_check);
    RUN(text_not_text);
    RUN(text_limits_are_firmware);
    RUN(boot_placement);
    RUN(queue_state_gates);
    RUN(status_text_whole);
    return ht_failures ? 1 : 0;
}
