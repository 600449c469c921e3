/* mesh_inject.h — fault injection into compute units (docs/hardware.md §10.1 item 8: a unit that faults or
 * hangs, a dropped completion, a slow unit), for model.c's `faults=` parser and the host port.
 * Item syntax and semantics: docs/model-mesh.md §6. */
#ifndef KM_MESH_INJECT_H
#define KM_MESH_INJECT_H

#include <stddef.h>
#include <stdint.h>

struct km_cu;
struct km_mesh;

enum km_cu_inject_kind {
    KM_CU_INJ_FAULT,   /* the n-th instruction retires as FAULT with arg, without executing */
    KM_CU_INJ_HANG,    /* the n-th instruction never retires */
    KM_CU_INJ_DROP,    /* the n-th completion is never sent */
    KM_CU_INJ_SLOW,    /* every unit cycle lasts arg cycles (arg 0 or 1: normal speed) */
    KM_CU_INJ_CTRL_LATE, /* every CU_CTRL reply is queued arg unit cycles late (0: on time) */
    KM_CU_INJ_CTRL_MUTE, /* the n-th CU_CTRL request is never answered */
};

/* Arm one injection; n counts from arming (1 = the next), 0 means every one. Armed
 * injections survive km_reset; their counts restart from the reset. */
void km_cu_inject(struct km_cu *cu, enum km_cu_inject_kind kind, uint32_t n, uint32_t arg);
/* Disarm every injection of the unit (the host port's clear). */
void km_cu_inject_clear(struct km_cu *cu);
/* Arm one item on the unit at x,y; -1 when no unit is there. */
int km_mesh_inject_at(struct km_mesh *mesh, unsigned x, unsigned y, enum km_cu_inject_kind kind,
                      uint32_t n, uint32_t arg);
/* Disarm every unit's injections. */
void km_mesh_inject_clear(struct km_mesh *mesh);

/* One item of a faults spec: fault@x,y[:n[:code]], hang@x,y[:n], drop@x,y[:n], slow@x,y:k,
 * ctrllate@x,y:k, ctrlmute@x,y[:n].
 * Returns 1 when the item is a unit item and is armed, 0 when it is not a unit item (another
 * part's, e.g. the mover's), -1 with a message in err when it is a malformed unit item or
 * names a coordinate holding no unit. */
int km_mesh_inject(struct km_mesh *mesh, const char *item, char *err, size_t errlen);

#endif
