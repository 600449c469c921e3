/* units.c — the unit-table rules (dispatch/kdp_flit.h kdp_units_check): kx_units_check
 * (include/kohaku/unit_rules.h), the function boot/ checks the boot block's table with. A file of
 * its own so the RV32 image can run it as cold code (mk/firmware.mk FW_COLD_rv32, docs/kvm.md):
 * it runs for an enumerated table or a kdp_units_set caller, never on the boot path, where
 * boot/ has already checked the host's table (kx_bootblock_check) and the service loads it with
 * kdp_units_load. Pure logic: the host tests build it natively. */
#include "kdp_flit.h"
#include "kohaku/status.h"
#include "kohaku/unit_rules.h"

unsigned kdp_units_check(const struct kx_unit_entry *u, unsigned n, uint8_t agent_yx)
{
    _Static_assert(KS_OK == 0, "kx_units_check's 0");
    if (n > KX_BOOT_MAX_UNITS)
        return KS_DISPATCH_BAD_UNITS;
    return kx_units_check(u, n, agent_yx, KS_DISPATCH_BAD_UNITS);
}
