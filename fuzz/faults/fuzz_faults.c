/* fuzz_faults.c — libFuzzer target over the fault-injection grammar (
 * docs/model.md "Fault injection"): the model's faults= parser (model.c through km_new, and
 * mesh.c's km_mesh_inject per item) and the host library's kh_parse_fault (kactl inject), built
 * natively from the same sources. Beyond "no crash, no sanitizer report": the two parsers agree
 * — an item one accepts for a unit of the default map, the other accepts too. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "km_internal.h"
#include "mesh_inject.h"
#include "libkohaku.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void nop_hold(void *o, bool h) { (void)o; (void)h; }

/* Units of the default map (docs/model-mesh.md §1): NP 1,1..4,1, TU 1,2 and 2,2. */
static int in_default_map(uint8_t yx)
{
    unsigned x = yx & 0xFu, y = yx >> 4;
    return (y == 1 && x >= 1 && x <= 4) || (y == 2 && (x == 1 || x == 2));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct km_platform plat = { .hart_hold = nop_hold };
    static struct km_model *m;
    char spec[257];
    if (size > 256)
        return 0;
    memcpy(spec, data, size);
    spec[size] = 0;
    if (strlen(spec) != size)
        return 0;      /* a C string property cannot hold a NUL */
    if (!m) {
        struct km_config cfg = { .variant = KM_VARIANT_RV64, .dram_bytes = 1u << 20 };
        m = km_new(&cfg, &plat, NULL, 0);
        if (!m)
            abort();
    }
    /* The whole spec as the machine property, now and then (a model costs milliseconds). */
    if (size && (data[0] & 0x0Fu) == 0) {
        struct km_config cfg = { .variant = KM_VARIANT_RV32, .dram_bytes = 1u << 20, .faults = spec };
        char err[160];
        struct km_model *f = km_new(&cfg, &plat, err, sizeof err);
        if (!f && !err[0])
            __builtin_trap();  /* a refusal always says why */
        km_free(f);
    }
    /* Item by item, both parsers. */
    char *save = NULL;
    for (char *item = strtok_r(spec, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        if (strpbrk(item, " \t\n\v\f\r"))
            continue;  /* the property trims spaces, kactl's arguments have none */
        char err[160];
        struct kh_fault f;
        int host = kh_parse_fault(item, &f) == 0;
        int model = km_mesh_inject(m->mesh, item, err, sizeof err);
        if (host && f.kind != KHP_INJ_AXI && in_default_map(f.yx) && model != 1)
            __builtin_trap();
        if (model == 1 && !host)
            __builtin_trap();
        if (model < 0 && !err[0])
            __builtin_trap();
    }
    km_inject_clear(m);
    return 0;
}
