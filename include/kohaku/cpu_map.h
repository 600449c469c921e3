/* cpu_map.h — the control processor's address maps, docs/hardware.md §4 (RV32) and §5 (RV64),
 * plus the registers marked "ours" there. Shared by the board headers, the device model and
 * the tests. */
#ifndef KOHAKU_CPU_MAP_H
#define KOHAKU_CPU_MAP_H

#include "bits.h"

/* ---- RV32 (docs/hardware.md §4) ---- */
#define RV32_IMEM_BASE       0x00000000u
#define RV32_IMEM_BYTES      0x2000u           /* 8 KB, fetch only */
#define RV32_SPAD_BASE       0x10000000u
#define RV32_SPAD_BYTES      0x2000u           /* 8 KB */
#define RV32_LCTL_BASE       0x20000000u       /* local control, decoded on addr[7:2] */
#define RV32_LCTL_STATUS     0x00u             /* [0] flush busy, [1] writes outstanding */
#define RV32_LCTL_FLUSH      0x04u
#define RV32_LCTL_INVAL      0x08u
#define RV32_LCTL_CAUSE      0x0Cu
#define RV32_LCTL_COREID     0x10u
#define RV32_LCTL_ARG        0x14u
#define RV32_LCTL_CYCLE      0x18u
#define RV32_LCTL_INSTRET    0x1Cu
#define RV32_LCTL_WROUT      0x20u
#define RV32_LCTL_CONSOLE    0x40u             /* ours: store one byte out */
#define RV32_LCTL_EXIT       0x44u             /* ours: store halts with this word, cause 0 */
#define RV32_DRAM_BASE       0x80000000u       /* local offsets 0..0x6FFF_FFFF, cached */
#define RV32_DRAM_LIMIT      0xF0000000u
#define RV32_MVGO            0xF0000000u
#define RV32_MVGO_BUSY       KBF_BIT(0)
#define RV32_MVGO_FAULT      KBF_GENMASK(7, 4)
#define RV32_MVGO_OCC_FAULT  KBF_GENMASK(11, 8)
#define RV32_OCC_BASE        0xF0010000u       /* | id << 8 | reg */
/* Ours: the control agent window, 32-bit halves. 0x7 is a region the core leaves unmapped;
 * until 2026-12-01 it was 0xF100_0000, inside the node range, where the real core starts the
 * mover on a store with address bits [15:0] zero and drops every other store (docs/hardware.md §4). */
#define RV32_AGENT_BASE      0x70000000u
#define RV32_NODE_BASE       0xF0000000u       /* the node range: MVGO, occupants, the rest */
#define RV32_CACHE_LINES     128u
#define RV32_CACHE_LINE      32u

/* Ours: the firmware-owned DRAM range (docs/host-interface.md "Firmware DRAM"). The RV32 image
 * would not fit its 8 KB instruction window all native, and the scratchpad cannot hold the cold code that
 * the kvm interpreter runs as data, so an RV32 image may carry ONE extra PT_LOAD segment here;
 * the loaders (QEMU's -kernel, libkohaku's flasher) write it to DRAM before the core runs, and
 * the firmware reads it through its cached window at KX_FW_DRAM_RV32. RV64 images never have
 * it. Why 4 MB: clear of everything the host places by default (kactl: data at 1 MB, queue at
 * 8 MB, command data at 9 MB) and of the tests' reach-end probes (0x6FFF_FFE0), and below the
 * queue so a ring can never grow into it. The firmware refuses command data overlapping it
 * (service/kq_check.c kq_range, KS_BAD_ADDR). */
#define KX_FW_DRAM_OFFSET    0x00400000u       /* DRAM local offset = unit-global address (mesh 0) */
#define KX_FW_DRAM_BYTES     0x00010000u       /* 64 KB */
#define KX_FW_DRAM_RV32      (RV32_DRAM_BASE + KX_FW_DRAM_OFFSET)   /* 0x8040_0000, cached */
/* Ours: the firmware's copy buffer, the top 48 KB of that range on both variants (RV64 owns
 * the range too, docs/host-interface.md §2.1): a descriptor list is copied here whole
 * (KD_MAX_WRITES x 12 = 48 KB) and checked and replayed from the copy, so a host that rewrites
 * command data mid-command cannot make the firmware run what it did not check. RV32 cold code
 * lives below it (linker/rv32.ld.S asserts it stays there). */
#define KX_FW_COPY_OFFSET    0x00404000u
#define KX_FW_COPY_BYTES     0x0000C000u
/* Ours: the record area (docs/host-interface.md "Records"), on both variants: right after the
 * firmware DRAM range, as many bytes as the boot block's rec_bytes (default 256 KB, at most
 * 1 MB: up to 0x0051_0000, still below kactl's data at 8 MB and 9 MB). The firmware owns it
 * like the range before it: command data overlapping it is refused (KS_BAD_ADDR) and so is any
 * mover walk reaching it (KS_MV_OWNED). */
#define KX_FW_REC_OFFSET     (KX_FW_DRAM_OFFSET + KX_FW_DRAM_BYTES)   /* 0x0041_0000 */

/* RV32 halt causes (docs/hardware.md §4). Cause 0 is the EXIT register. */
#define RV32_HALT_EXIT       0u
#define RV32_HALT_ECALL      1u                /* halt word = a0 */
#define RV32_HALT_EBREAK     2u                /* halt word = a0 */
#define RV32_HALT_FAULT      3u                /* halt word = the faulting PC */

/* ---- RV64 (docs/hardware.md §5) ---- */
#define RV64_IMEM_BASE       0x00000000u
#define RV64_IMEM_BYTES      0x8000u           /* 32 KB, fetch only */
#define RV64_SPAD_BASE       0x00010000u
#define RV64_SPAD_BYTES      0x8000u           /* 32 KB */
#define RV64_CTL_BASE        0x00020000u
#define RV64_CTL_EXIT        0x00u             /* store: halt with this 64-bit word */
#define RV64_CTL_CONSOLE     0x08u
#define RV64_CTL_MVSTAT      0x20u
#define RV64_CTL_STDIN       0x30u
#define RV64_CTL_MOVER       0x80u             /* + mover offset 0x00..0x38 */
#define RV64_CTL_DCACHE      0x1C8u
#define RV64_MVSTAT_BUSY     KBF_BIT(32)
#define RV64_MVSTAT_FAULT    KBF_GENMASK(31, 28)
#define RV64_MVSTAT_MOVES    KBF_GENMASK(27, 0)
#define RV64_STDIN_VALID     KBF_BIT(8)
#define RV64_STDIN_BYTE      KBF_GENMASK(7, 0)
#define RV64_DCACHE_FLUSH    KBF_BIT(0)
#define RV64_DCACHE_INVAL    KBF_BIT(1)
#define RV64_DCACHE_BUSY     KBF_BIT(0)
#define RV64_AGENT_BASE      0x01000000u       /* ours: agent window, 64-bit */
#define RV64_UG_BASE         0x10000000u       /* unit-global addresses from here up */
#define RV64_UNCACHED        KBF_BIT(38)        /* uncached alias of DRAM */
#define RV64_CACHE_LINES     64u
#define RV64_CACHE_LINE      32u

#endif
