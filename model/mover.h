/* mover.h — the memory mover model (docs/hardware.md §3, §3.1).
 * Self-contained: it reaches memory, time and the scratchpad only through km_mover_env, so it is
 * unit-tested natively without the rest of the model. */
#ifndef KM_MOVER_H
#define KM_MOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct km_mover_env {
    void *ctx;
    /* The mover's AXI master onto node memory, by unit-global address. 0, or -1 for an AXI
     * error (fault 3). Fault injection lives behind these. */
    int (*mem_read)(void *ctx, uint64_t ug, void *buf, size_t len);
    int (*mem_write)(void *ctx, uint64_t ug, const void *buf, size_t len);
    uint64_t (*now)(void *ctx);
    /* Call fn(arg) at virtual time t (ns). */
    void (*at)(void *ctx, uint64_t t, void (*fn)(void *arg), void *arg);
    /* The referee: a GO into a busy mover. */
    void (*busy_go)(void *ctx);
    /* RV32 descriptor form: the scratchpad (docs/hardware.md §4). */
    const uint8_t *spad;
    size_t spad_bytes;
    uint64_t ns_per_cycle;      /* mover cycle; 32 bytes move per cycle */
    uint64_t latency_ns;        /* fixed cost of one move (memory latency) */
    /* docs/hardware.md §3.1 erratum (both RTL revisions): a GATHER row that starts a new index word
     * takes the first index of the previous index word. Reproduced unless this is set (for
     * comparing against the contract's intent; docs/mover-model.md §3). */
    bool gather_erratum_off;
};

struct km_mover;

struct km_mover *km_mover_new(const struct km_mover_env *env);
void km_mover_free(struct km_mover *mv);
void km_mover_reset(struct km_mover *mv);

/* A register write from the host's AUX_CFG, the RV64 window or a replayed descriptor.
 * off is the mover offset 0x00..0x7F. */
void km_mover_write(struct km_mover *mv, unsigned off, uint64_t val);
bool km_mover_busy(const struct km_mover *mv);
/* AUX_STAT as docs/hardware.md §1 lays it out. */
uint64_t km_mover_aux_stat(const struct km_mover *mv);
/* RV64 MVSTAT (docs/hardware.md §5). */
uint64_t km_mover_mvstat(const struct km_mover *mv);
/* RV32 MVGO: a store starts the descriptor at scratchpad word index idx; a load returns
 * [0] busy, [7:4] mover fault, [11:8] occupant fault. */
void km_mover_mvgo(struct km_mover *mv, uint32_t idx);
uint32_t km_mover_mvgo_status(const struct km_mover *mv);
/* Transform occupant registers (RV32 0xF001_0000 | id << 8 | reg). */
uint32_t km_mover_occ_read(struct km_mover *mv, unsigned id, unsigned reg);
void km_mover_occ_write(struct km_mover *mv, unsigned id, unsigned reg, uint32_t val);

#endif
