/* fuzz_hostport.c — libFuzzer target for the host port (model/hostport.c): whatever bytes a
 * host sends, km_hp_parse frames them and km_hp_execute answers each request with a reply
 * header and an error status at worst — never a crash, a leak or undefined behaviour.
 * docs/design.md §7 layer 4; run by `make fuzz` (bounded) and smoke-run by the model-core suite. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"
#include "kohaku/hostport.h"

static void nop_hold(void *o, bool h) { (void)o; (void)h; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t out[16 + KHP_MAX_DATA];
    /* Building a model costs milliseconds (the units' local memories), so one model per
     * (variant, held) pair is kept and km_reset between inputs. Its DRAM is 16 MiB so the
     * pages random writes leave behind stay bounded; memory contents do not steer the port. */
    static struct km_model *models[4];
    unsigned pick = size ? data[0] & 3u : 0;
    if (!models[pick]) {
        static const struct km_platform plat = { .hart_hold = nop_hold };
        struct km_config cfg = {
            .variant = pick & 1 ? KM_VARIANT_RV64 : KM_VARIANT_RV32,
            .start_held = (pick & 2) != 0,
            .dram_bytes = 16u << 20,
        };
        models[pick] = km_new(&cfg, &plat, NULL, 0);
        if (!models[pick])
            abort();
    }
    struct km_model *m = models[pick];
    km_reset(m);
    /* Injected faults survive a reset by design (docs/model.md §8): disarm them through the
     * port's CLEAR register so every input starts from the same model. */
    static const uint8_t clear[24] = { KHP_OP_WRITE, 8, 0, 0, 8, 0, 0, 0,
                                       0x60, 0, 0x30, 0, 0, 0, 0, 0, 1 };
    struct khp_req creq;
    const uint8_t *cd;
    if (!km_hp_parse(clear, sizeof clear, &creq, &cd) || km_hp_execute(m, &creq, cd, out, sizeof(out)) < 16 ||
        out[1] != KHP_OK)
        abort();
    size_t off = size ? 1 : 0;
    while (off < size) {
        struct khp_req req;
        const uint8_t *d;
        size_t used = km_hp_parse(data + off, size - off, &req, &d);
        if (!used)
            break;
        size_t n = km_hp_execute(m, &req, d, out, sizeof(out));
        if (n < 16 || out[0] != req.op)
            abort();
        km_advance(m, km_now(m) + km_hp_cost_ns(&req));
        off += used;
    }
    return 0;
}
