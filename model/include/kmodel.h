/* kmodel.h — the KohakuAccel system-node device model (docs/hardware.md §10): the public API used by the
 * QEMU glue (qemu/), the native unit tests and the fuzzers. Plain C11, no QEMU headers.
 *
 * Time: the model keeps its own clock in nanoseconds of virtual time. The glue calls
 * km_advance() with QEMU's virtual clock before every access and when the deadline returned by
 * km_next_deadline() passes; the model never looks at a wall clock, so a run under -icount is
 * deterministic. */
#ifndef KMODEL_H
#define KMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum km_variant { KM_VARIANT_RV32 = 32, KM_VARIANT_RV64 = 64 };

/* Everything the model cannot do itself: the glue (QEMU) or a native test provides it. */
struct km_platform {
    void *opaque;
    /* Instructions retired by the hart since it was last released. */
    uint64_t (*instret)(void *opaque);
    /* Hold the hart (true) or release it from PC 0 (false). */
    void (*hart_hold)(void *opaque, bool hold);
    /* One console byte. */
    void (*console)(void *opaque, uint8_t byte);
    /* The core stopped: an EXIT store, an RV32 halt, or an RV64 trap with mtvec unset.
     * state is KHP_CPU_HALTED or KHP_CPU_EXITED (hostport.h). */
    void (*stopped)(void *opaque, unsigned state, unsigned cause, uint64_t word, uint64_t pc);
    /* Optional (NULL: 0): the PC of the instruction making the current km_cpu_write, so an
     * EXIT store can report pc= like a halt does. Only called from inside km_cpu_write. */
    uint64_t (*pc)(void *opaque);
};

struct km_config {
    enum km_variant variant;
    const char *units;        /* unit map (docs/model.md), NULL for the default map */
    uint64_t dram_bytes;      /* 0 for the default (4 GiB, allocated sparsely) */
    unsigned stage_flits;     /* 0 for the default 128 */
    const char *faults;       /* fault injection spec (docs/model.md), NULL for none */
    unsigned mem_ns;          /* memory latency in ns (memory agent, mover): 0 for the default
                               * 40 (docs/model.md, "Timing parameters") */
    bool start_held;          /* the core starts HELD (a host port is attached): the glue keeps
                               * the hart stopped until the host releases it through
                               * KHP_CPU_CTRL, and KHP_CPU_STATE reads KHP_CPU_HELD until then */
};

struct km_model;

/* Returns NULL and a message in err when cfg is invalid (a bad unit map, say). */
struct km_model *km_new(const struct km_config *cfg, const struct km_platform *plat,
                        char *err, size_t errlen);
void km_free(struct km_model *m);
/* Back to power-on state, memories kept (a host may reset and re-flash). */
void km_reset(struct km_model *m);

/* Run every event due at or before now_ns (monotonic; an earlier time is ignored). */
void km_advance(struct km_model *m, uint64_t now_ns);
/* The time of the next pending event, or UINT64_MAX when nothing is pending. */
uint64_t km_next_deadline(const struct km_model *m);
uint64_t km_now(const struct km_model *m);

/* The processor's accesses, by physical address on its bus (docs/hardware.md §4/§5), for every region
 * the glue does not map as plain RAM (the instruction window and scratchpad are RAM, below).
 * Returns 0, or -1 for an access fault (unmapped, wrong width, a store to a read-only region):
 * the glue turns that into a bus error so the hart takes an access fault. */
int km_cpu_read(struct km_model *m, uint64_t paddr, unsigned size, uint64_t *val);
int km_cpu_write(struct km_model *m, uint64_t paddr, unsigned size, uint64_t val);

/* The two processor windows, owned by the model so the host port, the RV32 descriptor fetch
 * and the glue's RAM mapping all see one copy. */
uint8_t *km_imem(struct km_model *m, size_t *bytes);
uint8_t *km_spad(struct km_model *m, size_t *bytes);

/* RV32 halt trampoline: the glue's ROM stores mcause, mepc, mtval and a0 here, then the
 * model stops the hart (docs/hardware.md §4 halt semantics without firmware CSRs). */
void km_cpu_trap(struct km_model *m, uint64_t mcause, uint64_t mepc, uint64_t mtval, uint64_t a0);

/* RV64 STDIN (docs/hardware.md §5): bytes queued here are what the firmware pops at control-region
 * offset 0x30. The queue holds 256 bytes; the rest are dropped. Returns the bytes queued. */
size_t km_stdin_push(struct km_model *m, const uint8_t *bytes, size_t n);

/* Host port (hostport.h). km_hp_parse is pure: it frames one request from a byte stream and
 * returns the bytes consumed (0: need more). km_hp_execute runs it and writes the reply header
 * and any data into out (capacity outcap), returning the reply length. */
struct khp_req;
size_t km_hp_parse(const uint8_t *in, size_t n, struct khp_req *req, const uint8_t **data);
size_t km_hp_execute(struct km_model *m, const struct khp_req *req, const uint8_t *data,
                     uint8_t *out, size_t outcap);
/* Virtual time one request costs (docs/model.md, "Host port"): the glue takes the next request
 * only that many ns after this one, so host-driven work pays a PCIe-like latency. */
uint64_t km_hp_cost_ns(const struct khp_req *req);

/* Referee counters (docs/hardware.md §10.3), also readable at KHP_MODEL_BASE through the host port. */
struct km_referee {
    uint64_t credit_violations;    /* a unit's instruction FIFO overfilled */
    uint64_t bad_reg_writes;       /* writes to unmapped or read-only registers */
    uint64_t busy_go;              /* GO into a busy mover */
    uint64_t cpu_aux_cfg_writes;   /* processor writes to AUX_CFG / AUX_STAT */
    uint64_t stage_oob_writes;     /* staging writes outside the window */
    uint64_t kick_while_running;   /* PROG_KICK while a program runs */
    uint64_t stage_overrun;        /* PROG_BASE + PROG_LEN past the last slot */
    uint64_t rx_dropped;           /* control flits dropped because RX was full */
};
void km_referee_get(const struct km_model *m, struct km_referee *out);
/* One line per counter, for printing on exit: "<name>=<decimal>" with no prefix and no newline
 * (the glue prefixes "kohaku-referee: "), in the order of struct km_referee. */
void km_referee_print(const struct km_model *m, void (*put)(void *ctx, const char *line), void *ctx);

#endif
