/* units.c — the unit-table rules (dispatch/kdp_flit.h kdp_units_check). A file of its own so
 * the RV32 image can run it as cold code (mk/firmware.mk FW_COLD_rv32, docs/kvm.md): it runs for
 * an enumerated table or a kdp_units_set caller, never on the boot path, where boot/ has already
 * checked the host's table by the same rules (kx_bootblock_check) and the service loads it with
 * kdp_units_load. Pure logic: the host tests build it natively. */
#include "kdp_flit.h"
#include "kohaku/status.h"

unsigned kdp_units_check(const struct kx_unit_entry *u, unsigned n, uint8_t agent_yx)
{
    if (n > KX_BOOT_MAX_UNITS)
        return KS_DISPATCH_BAD_UNITS;
    for (unsigned i = 0; i < n; i++) {
        if (u[i].inst_depth == 0 || u[i].yx == agent_yx || u[i].yx == 0)
            return KS_DISPATCH_BAD_UNITS;
        for (unsigned k = 0; k < i; k++)
            if (u[k].yx == u[i].yx)
                return KS_DISPATCH_BAD_UNITS;
    }
    return KS_OK;
}
