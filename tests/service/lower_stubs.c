/* lower_stubs.c — stand-ins for dispatch/ and mover/ in the RV32 queue-protocol test image
 * (service/service.mk): with the real layers the RV32 image does not fit its 8 KB window yet
 * (docs/host-interface.md §9), but the queue protocol — boot, checks, take/post, flow control,
 * restart, STOP, the RV32 cache discipline against the model's write-back L1 — needs none of
 * them. Test only: every data-path entry point refuses loudly (KS_RANGE_OTHER_LAST), so a test
 * that reached one could not pass by accident. */
#include "dispatch.h"
#include "kmv.h"
#include "kq.h"

#define KQ_STUB_STATUS  KS_RANGE_OTHER_LAST

int main(void)
{
    kq_serve();
}

void kdp_init(struct kdp_ctx *c, uint8_t agent_yx, uint32_t wait_cycles, uint32_t stage_flits)
{
    c->agent_yx = agent_yx;
    c->wait_cycles = wait_cycles;
    c->stage_flits = stage_flits;
    c->n_units = 0;
}

void kdp_units_load(struct kdp_ctx *c, const struct kx_unit_entry *u, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        c->units[i].yx = u[i].yx;
        c->units[i].version = u[i].version;
        c->units[i].buffers = u[i].buffers;
        c->units[i].rsvd = 0;
        c->units[i].type = u[i].type;
        c->units[i].inst_depth = u[i].inst_depth;
    }
    c->n_units = (uint8_t)n;
}

void kdp_scan_range(uint8_t *lo_yx, uint8_t *hi_yx)
{
    *lo_yx = *hi_yx = 0;
}

unsigned kdp_enumerate(struct kdp_ctx *c, uint8_t lo_yx, uint8_t hi_yx, uint32_t coord_cycles)
{
    (void)c, (void)lo_yx, (void)hi_yx, (void)coord_cycles;
    return KS_DISPATCH_NO_UNITS;
}

unsigned kdp_run(struct kdp_ctx *c, struct kdp_job *jobs, unsigned n)
{
    (void)jobs, (void)n;
    c->detail = 0;
    c->value = 0;
    return KQ_STUB_STATUS;
}

const struct kmv_caps *kmv_caps_self(void)
{
    static const struct kmv_caps caps = { KM_REG_SPAN, 0, 0, 0 };
    return &caps;
}

unsigned kmv_validate(const struct kd_write *w, uint32_t n, const struct kmv_caps *caps,
                      struct kmv_result *res)
{
    (void)w, (void)n, (void)caps;
    res->status = KQ_STUB_STATUS;
    res->detail = res->index = res->moves = 0;
    res->value = 0;
    return KQ_STUB_STATUS;
}

unsigned kmv_replay(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                    struct kmv_result *res)
{
    (void)timeout_cycles;
    return kmv_validate(w, n, 0, res);
}

unsigned kmv_replay_validated(const struct kd_write *w, uint32_t n, uint64_t timeout_cycles,
                              struct kmv_result *res)
{
    return kmv_replay(w, n, timeout_cycles, res);
}
