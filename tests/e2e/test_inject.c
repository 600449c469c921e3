/* test_inject.c — libkohaku's fault injection (kh_parse_fault, kh_inject, kh_inject_clear;
 * docs/model.md §8) natively, against the real device model in-process (the host-lib tests'
 * model_transport): each item form parsed to its kind, unit, n and arg (literals: the kinds
 * 1 fault .. 7 mover AXI of docs/model.md "Host-port registers", and the item grammar),
 * malformed items refused, and the registers the library writes read back from the model, with
 * a unit fault then seen at the agent.
 * Suite reliability-unit (tests/e2e/reliability.mk); ASan + UBSan. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kohaku/agent_regs.h"
#include "kohaku/hostport.h"
#include "libkohaku.h"
#include "model_transport.h"

#define HT_SUITE "reliability-unit"
#include "ht.h"

static void parse_every_form(void)
{
    static const struct { const char *item; unsigned kind; uint8_t yx; uint32_t n, arg; } ok[] = {
        { "fault@1,2", 1 /* fault */, 0x21, 1, 0xFA17 },
        { "fault@1,2:3", 1 /* fault */, 0x21, 3, 0xFA17 },
        { "fault@4,1:0:0x77", 1 /* fault */, 0x14, 0, 0x77 },
        { "hang@2,2", 2 /* hang */, 0x22, 1, 0 },
        { "hang@2,2:5", 2 /* hang */, 0x22, 5, 0 },
        { "drop@1,1:20", 3 /* drop */, 0x11, 20, 0 },
        { "slow@3,1:50", 4 /* slow */, 0x13, 0, 50 },
        { "ctrllate@2,2:20000", 5 /* ctrl-late */, 0x22, 0, 20000 },
        { "ctrlmute@1,2", 6 /* ctrl-mute */, 0x21, 1, 0 },
        { "ctrlmute@15,15:0", 6 /* ctrl-mute */, 0xFF, 0, 0 },
        { "axi@1", 7 /* mover AXI */, 0, 1, 0 },
        { "axi@0x10", 7 /* mover AXI */, 0, 16, 0 },
    };
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct kh_fault f;
        CHECK_EQ(kh_parse_fault(ok[i].item, &f), 0);
        CHECK_EQ(f.kind, ok[i].kind);
        CHECK_EQ(f.yx, ok[i].yx);
        CHECK_EQ(f.n, ok[i].n);
        CHECK_EQ(f.arg, ok[i].arg);
    }
    static const char *const bad[] = {
        "", "fault", "fault@", "fault@1", "fault@1,", "fault@1,2:", "fault@1,2:1:2:3", "fault@16,1",
        "fault@1,2 ", "hang@1,2:1:2", "slow@1,2", "ctrllate@1,2", "axi@", "axi@1,2", "axi@-1",
        "bogus@1,2", "FAULT@1,2", "fault@1,2:0x100000000", "drop@x,y",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct kh_fault f;
        CHECK_EQ(kh_parse_fault(bad[i], &f), (uint64_t)-1);
    }
}

/* A fault-injection register at KHP_MODEL_BASE + off; offsets are docs/model.md's literals. */
static uint64_t model_reg(struct kh_node *n, uint32_t off)
{
    uint64_t v = 0xDEAD;
    CHECK_EQ(kh_reg_read(n, KHP_MODEL_BASE + off, &v), KH_OK);
    return v;
}

static void inject_writes_the_registers(void)
{
    struct kh_node n;
    struct mt *t = mt_new(64);
    struct kh_transport tr;
    mt_transport(t, &tr);
    CHECK_EQ(kh_open(&n, &tr), KH_OK);
    struct kh_fault f;
    CHECK_EQ(kh_parse_fault("fault@1,2:1:0x55", &f), 0);
    CHECK_EQ(kh_inject(&n, &f), KH_OK);
    CHECK_EQ(model_reg(&n, 0x40), 0x0201);   /* UNIT: x 1 in [7:0], y 2 in [15:8] */
    CHECK_EQ(model_reg(&n, 0x48), 1);        /* N */
    CHECK_EQ(model_reg(&n, 0x50), 0x55);     /* ARG */
    CHECK_EQ(model_reg(&n, 0x58), 1);        /* ARM: one item armed */
    /* No unit at 9,9 in the default map: refused by the port, nothing armed, the reason said. */
    CHECK_EQ(kh_parse_fault("hang@9,9", &f), 0);
    CHECK_EQ(kh_inject(&n, &f), KH_E_PORT);
    CHECK_EQ(strstr(kh_error(&n), "9,9") != NULL, 1);
    CHECK_EQ(model_reg(&n, 0x58), 1);
    /* The armed fault seen at the agent: one TU NOP, last, to 1,2 retires as FAULT 0x55
     * (NODE_STATUS code 0x04 [63:56], arg [55:24], count 1 [23:8], valid [0]). */
    uint64_t flit[5] = { 0, 0, 0, 0, 0x99990000u | (0x5u << 12) | (1u << 4) | (1u << 3) };
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ(kh_agent_write(&n, 0x2000 + 8 * i, flit[i]), KH_OK);
    CHECK_EQ(kh_agent_write(&n, KA_PROG_BASE, 0), KH_OK);
    CHECK_EQ(kh_agent_write(&n, KA_PROG_LEN, 1), KH_OK);
    CHECK_EQ(kh_agent_write(&n, KA_PROG_DST, 0x21), KH_OK);
    CHECK_EQ(kh_agent_write(&n, KA_PROG_CRED, 1), KH_OK);
    CHECK_EQ(kh_agent_write(&n, KA_PROG_KICK, 1), KH_OK);
    km_advance(t->m, km_now(t->m) + 5000);                  /* the transport does not move time */
    uint64_t ns = 0;
    CHECK_EQ(kh_agent_read(&n, KA_NODE_STATUS(0x21), &ns), KH_OK);
    CHECK_EQ(ns, (UINT64_C(0x04) << 56) | (UINT64_C(0x55) << 24) | (1u << 8) | 1u);
    CHECK_EQ(kh_inject_clear(&n), KH_OK);
    kh_close(&n);
    mt_free(t);
}

int main(void)
{
    RUN(parse_every_form);
    RUN(inject_writes_the_registers);
    return ht_failures ? 1 : 0;
}
