/* kq_targets.c — a DISPATCH command's target list (docs/host-interface.md §5): every target in
 * the unit table, none twice. Only that command has a list (a RUN step names one target, which
 * kq_check.c checks itself on every step), and no issue 8 figure submits it, so this check is
 * written to be cold code on RV32 (docs/service.md "Cold code"; the entry rules of kq_cold.c)
 * and kept out of kq_check.c's rule interpreter. Pure logic like kq_check.c: no hal, built
 * natively for tests/host/service and fuzzing. */
#include "kq.h"

unsigned kq_targets_check(const uint8_t *t, uint32_t n, const struct kq_env *env,
                          struct kq_err *e)
{
    for (uint32_t i = 0; i < n; i++) {
        unsigned st = KS_BAD_TARGET;
        if (kq_unit_index(env, t[i]) >= 0) {
            st = KS_OK;
            for (uint32_t k = 0; k < i; k++)
                if (t[k] == t[i])
                    st = KS_DUP_TARGET;
        }
        if (st != KS_OK) {
            e->status = (uint16_t)st;
            e->detail = t[i];
            e->value = 0;
            return st;
        }
    }
    return KS_OK;
}
