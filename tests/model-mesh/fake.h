/* fake.h — test-only harness for tests/model-mesh: a model holding only the mesh side
 * (agent, mesh, units) over fakes of the event queue, memory agent, mover and NP. */
#ifndef MESH_FAKE_H
#define MESH_FAKE_H

#include "km_internal.h"

struct fake_mem_stats {
    unsigned by_type[16];        /* MEM_* flits received, by type code */
    uint32_t last_hdr[16];       /* the last header of each type */
    unsigned wr_data_last;       /* MEM_WR_DATA flits with last set */
};
extern struct fake_mem_stats fake_mem;

struct fake_mover_log {
    unsigned writes;
    unsigned last_off;
    uint64_t last_val;
    uint64_t aux_stat;           /* what km_mover_aux_stat returns */
};
extern struct fake_mover_log fake_mover;

struct km_model *fake_model(const char *units, unsigned stage_flits, char *err, size_t errlen);
void fake_free(struct km_model *m);
void fake_run_until(struct km_model *m, uint64_t t);
void fake_run_for(struct km_model *m, uint64_t dt);
bool fake_idle(const struct km_model *m);
uint8_t *fake_dram(struct km_model *m);

#endif
