/* weak_fallbacks.c — TEMPORARY. Lets libkmodel link while agent.c, mesh.c and mover.c are
 * being written in parallel (km_internal.h / mover.h declare them). Each block is compiled
 * only while its real file is missing (model.mk passes -DKM_HAVE_<part>), and every symbol is
 * weak so a build that compiles all sources directly still takes the real one. None of this
 * is model behaviour: a fallback mesh delivers nothing, a fallback agent reads 0, a fallback
 * mover never moves. Delete this file once the four parts exist. */
#include "km_internal.h"
#include "mover.h"

#define KM_WEAK __attribute__((weak))

#ifndef KM_HAVE_mesh
static int km_fallback_mesh;

KM_WEAK struct km_mesh *km_mesh_new(struct km_model *m, const char *units, char *err, size_t errlen)
{
    (void)m; (void)units; (void)err; (void)errlen;
    return (struct km_mesh *)&km_fallback_mesh;
}
KM_WEAK void km_mesh_free(struct km_mesh *mesh) { (void)mesh; }
KM_WEAK void km_mesh_reset(struct km_mesh *mesh) { (void)mesh; }
KM_WEAK void km_mesh_send(struct km_model *m, unsigned src_x, unsigned src_y, const struct kf_flit *f)
{
    (void)m; (void)src_x; (void)src_y; (void)f;
}
KM_WEAK void km_mesh_agent_xy(const struct km_mesh *mesh, unsigned *x, unsigned *y)
{
    (void)mesh;
    *x = 0;
    *y = 1;
}
KM_WEAK unsigned km_mesh_grid_lo(const struct km_mesh *mesh) { (void)mesh; return 0x11; }
KM_WEAK unsigned km_mesh_grid_hi(const struct km_mesh *mesh) { (void)mesh; return 0x11; }
KM_WEAK struct km_cu *km_mesh_unit_at(struct km_mesh *mesh, unsigned x, unsigned y)
{
    (void)mesh; (void)x; (void)y;
    return NULL;
}
#endif

#ifndef KM_HAVE_agent
static int km_fallback_agent;

KM_WEAK struct km_agent *km_agent_new(struct km_model *m) { (void)m; return (struct km_agent *)&km_fallback_agent; }
KM_WEAK void km_agent_free(struct km_agent *a) { (void)a; }
KM_WEAK void km_agent_reset(struct km_agent *a) { (void)a; }
KM_WEAK uint64_t km_agent_read(struct km_model *m, uint32_t off, enum km_initiator who)
{
    (void)m; (void)off; (void)who;
    return 0;
}
KM_WEAK void km_agent_write(struct km_model *m, uint32_t off, uint64_t val, enum km_initiator who)
{
    (void)m; (void)off; (void)val; (void)who;
}
KM_WEAK void km_agent_write_bytes(struct km_model *m, uint32_t off, unsigned lo, unsigned len, uint64_t val)
{
    (void)m; (void)off; (void)lo; (void)len; (void)val;
}
KM_WEAK void km_agent_receive(struct km_model *m, const struct kf_flit *f) { (void)m; (void)f; }
#endif

#ifndef KM_HAVE_mover
static int km_fallback_mover;

KM_WEAK struct km_mover *km_mover_new(const struct km_mover_env *env) { (void)env; return (struct km_mover *)&km_fallback_mover; }
KM_WEAK void km_mover_free(struct km_mover *mv) { (void)mv; }
KM_WEAK void km_mover_reset(struct km_mover *mv) { (void)mv; }
KM_WEAK void km_mover_write(struct km_mover *mv, unsigned off, uint64_t val) { (void)mv; (void)off; (void)val; }
KM_WEAK bool km_mover_busy(const struct km_mover *mv) { (void)mv; return false; }
KM_WEAK uint64_t km_mover_aux_stat(const struct km_mover *mv) { (void)mv; return 0; }
KM_WEAK uint64_t km_mover_mvstat(const struct km_mover *mv) { (void)mv; return 0; }
KM_WEAK void km_mover_mvgo(struct km_mover *mv, uint32_t idx) { (void)mv; (void)idx; }
KM_WEAK uint32_t km_mover_mvgo_status(const struct km_mover *mv) { (void)mv; return 0; }
KM_WEAK uint32_t km_mover_occ_read(struct km_mover *mv, unsigned id, unsigned reg)
{
    (void)mv; (void)id; (void)reg;
    return 0;
}
KM_WEAK void km_mover_occ_write(struct km_mover *mv, unsigned id, unsigned reg, uint32_t val)
{
    (void)mv; (void)id; (void)reg; (void)val;
}
#endif
