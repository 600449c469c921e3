/* unit.h — the contract between the compute-unit framework (cu.c: the model of noc_cu_base,
 * docs/hardware.md §10.1 item 3) and a unit type (tu.c, np.c). The framework owns the instruction FIFO, credit
 * checks, CU_CTRL answers and completion signals; a unit type owns only what an instruction
 * does. */
#ifndef KM_UNIT_H
#define KM_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kohaku/flit.h"

struct km_cu;

struct km_unit_class {
    const char *name;          /* "TU", "NP": the name used in unit maps */
    uint16_t type;             /* CU_CAPS[63:48] */
    uint8_t version;           /* CU_CAPS[47:40] */
    uint8_t buffers;           /* CU_CAPS[39:36] */
    uint16_t inst_depth;       /* CU_CAPS[35:20], the instruction FIFO depth */
    size_t state_size;         /* bytes of per-unit state the framework allocates (zeroed) */
    void (*init)(struct km_cu *cu, void *state);
    void (*fini)(struct km_cu *cu, void *state);            /* may be NULL */
    /* Start one instruction. The unit later calls km_cu_done() exactly once for it, possibly
     * from an event scheduled with km_cu_after() or from receive(). Never called while the
     * previous instruction is still executing. */
    void (*exec)(struct km_cu *cu, void *state, const struct kf_flit *inst);
    /* A flit addressed to the unit that the framework does not consume itself:
     * MEM_RD_RESP, MEM_WR_ACK, CU_DATA. May be NULL (such flits are then dropped). */
    void (*receive)(struct km_cu *cu, void *state, const struct kf_flit *f);
    /* CU_DBG (CU_CTRL index 3). May be NULL (reads 0). */
    uint64_t (*dbg)(struct km_cu *cu, void *state);
};

/* Retire the executing instruction: INST_COMPLETE (arg = exec_result), or BATCH_COMPLETE
 * ({24'd0, txn}) when it had last set, or FAULT (arg = exec_result) when fault is true. */
void km_cu_done(struct km_cu *cu, uint32_t exec_result, bool fault);
/* Send a flit into the mesh from this unit: src is stamped with the unit's own coordinate. */
void km_cu_send(struct km_cu *cu, struct kf_flit *f);
/* Run fn(cu, state, arg) after delay_ns of virtual time. */
void km_cu_after(struct km_cu *cu, uint64_t delay_ns,
                 void (*fn)(struct km_cu *cu, void *state, uint64_t arg), uint64_t arg);
uint64_t km_cu_now(const struct km_cu *cu);
unsigned km_cu_x(const struct km_cu *cu);
unsigned km_cu_y(const struct km_cu *cu);
/* The memory agent's coordinate: where MEM_RD_REQ / MEM_WR_REQ / MEM_WR_DATA go. */
void km_cu_mem_agent(const struct km_cu *cu, unsigned *x, unsigned *y);
/* Timing knobs the unit may read (docs/model.md): ns per unit cycle. */
uint64_t km_cu_cycle_ns(const struct km_cu *cu);

extern const struct km_unit_class km_unit_tu;
extern const struct km_unit_class km_unit_np;

#endif
