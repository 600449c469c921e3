/* elf.c — libkohaku's ELF loader (docs/hardware.md §6 load paths): parses
 * ELF32/ELF64 program headers itself and writes PT_LOAD segments through the instruction-window
 * and scratchpad load paths of the host port, and an RV32 image's firmware-DRAM segment
 * (docs/host-interface.md §2.1) through the port's memory WRITE. The windows are those of
 * cpu_map.h. */
#include <stdio.h>
#include <string.h>

#include "kohaku/cpu_map.h"
#include "kh_util.h"
#include "libkohaku.h"

static const struct kh_map map32 = {
    32, { RV32_IMEM_BASE, RV32_IMEM_BYTES, KHP_IMEM_BASE }, { RV32_SPAD_BASE, RV32_SPAD_BYTES, KHP_SPAD_BASE },
    { KX_FW_DRAM_RV32, KX_FW_DRAM_BYTES, KHP_MEM(0, KX_FW_DRAM_OFFSET) },
};
/* RV64 images never carry a firmware-DRAM segment: an empty range matches no address. */
static const struct kh_map map64 = {
    64, { RV64_IMEM_BASE, RV64_IMEM_BYTES, KHP_IMEM_BASE }, { RV64_SPAD_BASE, RV64_SPAD_BYTES, KHP_SPAD_BASE },
    { 0, 0, 0 },
};

const struct kh_map *kh_map_for(unsigned variant)
{
    return variant == 32 ? &map32 : variant == 64 ? &map64 : NULL;
}

const struct kh_window *kh_map_window(const struct kh_map *m, unsigned window)
{
    return window == KH_WIN_SPAD ? &m->spad : window == KH_WIN_FWDRAM ? &m->fwdram : &m->imem;
}

const char *kh_window_name(unsigned window)
{
    return window == KH_WIN_SPAD ? "scratchpad" : window == KH_WIN_FWDRAM ? "firmware DRAM"
                                                                          : "instruction window";
}

#define EI_NIDENT     16
#define ELFCLASS32    1
#define ELFCLASS64    2
#define ELFDATA2LSB   1
#define ET_EXEC       2
#define EM_RISCV      243
#define PT_LOAD       1

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return KH_E_INPUT; } while (0)

int kh_elf_parse(const uint8_t *img, size_t len, struct kh_elf *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < EI_NIDENT || memcmp(img, "\177ELF", 4) != 0)
        FAIL("not an ELF file (no \\177ELF magic)");
    unsigned cls = img[4];
    if (cls != ELFCLASS32 && cls != ELFCLASS64)
        FAIL("ELF class %u is neither ELF32 nor ELF64", cls);
    if (img[5] != ELFDATA2LSB)
        FAIL("ELF is not little-endian (EI_DATA %u); the node's cores are little-endian", img[5]);
    int is64 = cls == ELFCLASS64;
    size_t ehsz = is64 ? 64 : 52;
    if (len < ehsz)
        FAIL("ELF header truncated (%zu bytes, want %zu)", len, ehsz);
    unsigned type = (unsigned)kh_le_get(img + 16, 2), mach = (unsigned)kh_le_get(img + 18, 2);
    if (type != ET_EXEC)
        FAIL("ELF type %u is not an executable (ET_EXEC); link the firmware first", type);
    if (mach != EM_RISCV)
        FAIL("ELF machine %u is not RISC-V (%u)", mach, EM_RISCV);
    uint64_t entry = is64 ? kh_le_get(img + 24, 8) : kh_le_get(img + 24, 4);
    uint64_t phoff = is64 ? kh_le_get(img + 32, 8) : kh_le_get(img + 28, 4);
    unsigned phentsize = (unsigned)kh_le_get(img + (is64 ? 54 : 42), 2);
    unsigned phnum = (unsigned)kh_le_get(img + (is64 ? 56 : 44), 2);
    size_t want_ph = is64 ? 56 : 32;
    if (phnum == 0)
        FAIL("ELF has no program headers");
    if (phentsize != want_ph)
        FAIL("ELF program header size %u, want %zu", phentsize, want_ph);
    if (phoff > len || (uint64_t)phnum * phentsize > len - phoff)
        FAIL("ELF program headers (%u at offset 0x%llx) run past the file's %zu bytes", phnum,
             (unsigned long long)phoff, len);
    out->variant = is64 ? 64 : 32;
    out->entry = entry;
    const struct kh_map *m = kh_map_for(out->variant);
    if (entry != m->imem.base)
        FAIL("entry point 0x%llx is not the reset PC 0x%llx of the instruction window",
             (unsigned long long)entry, (unsigned long long)m->imem.base);

    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = img + phoff + (size_t)i * phentsize;
        unsigned pt = (unsigned)kh_le_get(ph, 4);
        uint64_t off, paddr, filesz, memsz;
        if (is64) {
            off = kh_le_get(ph + 8, 8);
            paddr = kh_le_get(ph + 24, 8);
            filesz = kh_le_get(ph + 32, 8);
            memsz = kh_le_get(ph + 40, 8);
        } else {
            off = kh_le_get(ph + 4, 4);
            paddr = kh_le_get(ph + 12, 4);
            filesz = kh_le_get(ph + 16, 4);
            memsz = kh_le_get(ph + 20, 4);
        }
        if (pt != PT_LOAD || memsz == 0)
            continue;       /* attributes, GNU_STACK and empty segments load nothing */
        if (filesz > memsz)
            FAIL("segment %u: file size 0x%llx exceeds its memory size 0x%llx", i,
                 (unsigned long long)filesz, (unsigned long long)memsz);
        if (off > len || filesz > len - off)
            FAIL("segment %u: file bytes at 0x%llx + 0x%llx run past the file's %zu bytes", i,
                 (unsigned long long)off, (unsigned long long)filesz, len);
        const struct kh_window *w = NULL;
        unsigned wi = KH_WIN_IMEM;
        for (unsigned k = KH_WIN_IMEM; k <= KH_WIN_FWDRAM && !w; k++) {
            const struct kh_window *c = kh_map_window(m, k);
            if (paddr >= c->base && paddr - c->base < c->bytes)
                w = c, wi = k;
        }
        if (!w && m->fwdram.bytes)
            FAIL("segment %u at 0x%llx is in neither the instruction window (0x%llx, %llu bytes) nor "
                 "the scratchpad (0x%llx, %llu bytes) nor the firmware DRAM range (0x%llx, %llu bytes) "
                 "of the RV%u core", i, (unsigned long long)paddr,
                 (unsigned long long)m->imem.base, (unsigned long long)m->imem.bytes,
                 (unsigned long long)m->spad.base, (unsigned long long)m->spad.bytes,
                 (unsigned long long)m->fwdram.base, (unsigned long long)m->fwdram.bytes, out->variant);
        if (!w)
            FAIL("segment %u at 0x%llx is in neither the instruction window (0x%llx, %llu bytes) nor "
                 "the scratchpad (0x%llx, %llu bytes) of the RV%u core", i, (unsigned long long)paddr,
                 (unsigned long long)m->imem.base, (unsigned long long)m->imem.bytes,
                 (unsigned long long)m->spad.base, (unsigned long long)m->spad.bytes, out->variant);
        if (memsz > w->bytes - (paddr - w->base))
            FAIL("segment %u at 0x%llx, 0x%llx bytes, runs past the end of the %s (0x%llx)", i,
                 (unsigned long long)paddr, (unsigned long long)memsz, kh_window_name(wi),
                 (unsigned long long)(w->base + w->bytes));
        if (out->nseg == KH_ELF_MAX_SEGS)
            FAIL("more than %u loadable segments", KH_ELF_MAX_SEGS);
        struct kh_segment *s = &out->seg[out->nseg++];
        s->addr = paddr;
        s->filesz = filesz;
        s->memsz = memsz;
        s->data = img + off;
        s->window = wi;
    }
    if (out->nseg == 0)
        FAIL("ELF has no loadable segment");
    for (unsigned i = 0; i < out->nseg; i++)
        for (unsigned j = i + 1; j < out->nseg; j++) {
            const struct kh_segment *a = &out->seg[i], *b = &out->seg[j];
            if (a->addr < b->addr + b->memsz && b->addr < a->addr + a->memsz)
                FAIL("segments at 0x%llx and 0x%llx overlap", (unsigned long long)a->addr,
                     (unsigned long long)b->addr);
        }
    return KH_OK;
}

int kh_load_elf(struct kh_node *n, const struct kh_elf *e)
{
    if (e->variant != n->variant)
        return kh_fail(n, KH_E_STATE, "the image is RV%u but the node's core is RV%u", e->variant,
                       n->variant);
    struct kh_core_status cs;
    int rc = kh_core_status(n, &cs);
    if (rc)
        return rc;
    if (cs.state != KHP_CPU_HELD)
        return kh_fail(n, KH_E_STATE, "the core is %s, not held: hold it before loading",
                       kh_core_state_name(cs.state));
    const struct kh_map *m = kh_map_for(e->variant);
    static uint8_t buf[0x10000];
    for (unsigned i = 0; i < e->nseg; i++) {
        const struct kh_segment *s = &e->seg[i];
        const struct kh_window *w = kh_map_window(m, s->window);
        uint64_t off = s->addr - w->base, end = off + s->memsz;
        if (s->window == KH_WIN_IMEM) {
            /* The instruction-window path takes whole words: pad the segment to them. */
            off &= ~UINT64_C(3);
            end = (end + 3) & ~UINT64_C(3);
        }
        if (end - off > sizeof buf)
            return kh_fail(n, KH_E_INPUT, "segment at 0x%llx is larger than any window",
                           (unsigned long long)s->addr);
        memset(buf, 0, (size_t)(end - off));
        memcpy(buf + (s->addr - w->base - off), s->data, (size_t)s->filesz);
        /* khp: the window's load path, or for firmware DRAM the memory WRITE at its unit-global
         * address (behind the caches; the core is held and starts with them empty). */
        rc = kh_bytes_write(n, w->khp + off, buf, (size_t)(end - off));
        if (rc)
            return kh_context(n, rc, "loading the segment at 0x%llx", (unsigned long long)s->addr);
    }
    /* Posted or not, the image has landed when this returns (kactl says "flashed" next). */
    rc = kh_flush(n);
    return rc ? kh_context(n, rc, "loading the image") : KH_OK;
}

void kh_elf_describe(const struct kh_elf *e, char *buf, size_t len)
{
    const struct kh_map *m = kh_map_for(e->variant);
    size_t at = 0;
    if (len)
        buf[0] = 0;
    for (unsigned i = 0; i < e->nseg && m; i++) {
        const struct kh_segment *s = &e->seg[i];
        char ug[48] = "";
        if (s->window == KH_WIN_FWDRAM)
            snprintf(ug, sizeof ug, ", unit-global 0x%llx",
                     (unsigned long long)(s->addr - m->fwdram.base + KX_FW_DRAM_OFFSET));
        int k = snprintf(buf + at, len - at, "%s0x%llx bytes at 0x%llx (%s%s)", i ? ", " : "",
                         (unsigned long long)s->memsz, (unsigned long long)s->addr,
                         kh_window_name(s->window), ug);
        if (k < 0 || (size_t)k >= len - at)
            return;             /* truncated: snprintf has terminated it */
        at += (size_t)k;
    }
}
