/* fake_cu.h — a test-only stand-in for the compute-unit framework (model/unit.h) and the memory
 * agent (docs/hardware.md §2.4.1–§2.4.2), so the NPU can be tested alone. Not the real model:
 * it only has what np.c calls, plus checks on every flit the unit sends. */
#ifndef FAKE_CU_H
#define FAKE_CU_H

#include <stdbool.h>
#include <stdint.h>
#include "unit.h"

#define FAKE_DRAM_BYTES   (1u << 22)   /* unit-global 0 .. 4 MB is served */
#define FAKE_MEM_NS       40u          /* memory latency per request */
#define FAKE_NP_X         2u
#define FAKE_NP_Y         3u
#define FAKE_MEM_X        0u
#define FAKE_MEM_Y        1u

struct fake_stats {
    unsigned rd_reqs, stream_reqs, wr_reqs, wr_data, rd_resps, wr_acks;
    unsigned max_rd_beats, max_wr_beats;
    unsigned outstanding, max_outstanding;   /* descriptors sent and not yet answered */
    unsigned proto_errors;         /* any malformed flit the unit sent */
    unsigned dropped;              /* requests the fake memory did not answer */
    char last_error[160];
};

struct fake_done {
    bool done;
    uint32_t result;
    bool fault;
    uint64_t at;                   /* ns */
};

extern uint8_t fake_dram[FAKE_DRAM_BYTES];
extern struct fake_stats fake_stats;
/* Deliver the words of each read entry last-first (the mesh keeps order per pair; this
 * checks the unit places words by rsvd[1:0], not by arrival). */
extern bool fake_reorder;

/* A fresh unit (state zeroed, init called) at time 0 with cycle_ns ns per unit cycle. */
struct km_cu *fake_new(const struct km_unit_class *cls, uint64_t cycle_ns);
void fake_free(struct km_cu *cu);
void *fake_state(struct km_cu *cu);
/* Hand the unit one instruction word (payload word 3) and run events until it retires or
 * limit_ns of virtual time pass; later events stay queued. */
struct fake_done fake_run(struct km_cu *cu, uint64_t insn, bool last, uint64_t limit_ns);
/* Start an instruction without running anything. */
void fake_exec(struct km_cu *cu, uint64_t insn, bool last);
/* Run events up to time t (or all of them with UINT64_MAX). */
void fake_advance(struct km_cu *cu, uint64_t t);
uint64_t fake_now(struct km_cu *cu);
struct fake_done fake_last_done(struct km_cu *cu);
unsigned fake_done_count(struct km_cu *cu);

#endif
