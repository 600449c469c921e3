/* explain.c — status names and words for people (docs/design.md §4 "one table shared by firmware and
 * host tools"; kactl explains traps and halts in words). The status table is
 * generated from include/kohaku/status.h at build time (host/status-table.awk), so the host can
 * never disagree with the firmware on a code or a name. */
#include <stdio.h>
#include <string.h>

#include "kohaku/exitword.h"
#include "kohaku/mover_regs.h"
#include "kohaku/status.h"
#include "kdp_flit.h"
#include "libkohaku.h"

const struct kh_status_info kh_status_table[] = {
#include "status_table.inc"
};
const unsigned kh_status_count = sizeof kh_status_table / sizeof kh_status_table[0];

static const struct kh_status_info *find(unsigned code)
{
    for (unsigned i = 0; i < kh_status_count; i++)
        if (kh_status_table[i].code == code)
            return &kh_status_table[i];
    return NULL;
}

const char *kh_status_name(unsigned code)
{
    static char buf[32];
    const struct kh_status_info *s = find(code);
    if (s)
        return s->name;
    snprintf(buf, sizeof buf, "UNKNOWN_0x%02x", code);
    return buf;
}

const char *kh_status_text(unsigned code)
{
    const struct kh_status_info *s = find(code);
    return s ? s->text : "";
}

const char *kh_status_range(unsigned code)
{
    if (code == KS_OK)
        return "ok";
    if (KS_IS_INPUT(code))
        return "input";
    if (KS_IS_FAULT(code))
        return "fault";
    if (KS_IS_TIMEOUT(code))
        return "timeout";
    if (KS_IS_OTHER(code))
        return "other";
    return "unassigned";
}

static const char *await_name(unsigned what)
{
    switch (what) {
    case KDP_AWAIT_RUN: return "the dispatcher to finish a kick";
    case KDP_AWAIT_CREDIT: return "credit (room in the unit's instruction FIFO)";
    case KDP_AWAIT_COMPLETION: return "the program's last completion";
    case KDP_AWAIT_MAILBOX_TX: return "the mailbox TX FIFO to drain";
    case KDP_AWAIT_MAILBOX_RX: return "the mailbox RX FIFO to empty";
    case KS_AWAIT_MOVER: return "a move to finish";
    case KS_AWAIT_MOVER_IDLE: return "the mover to be idle before a list";
    default: return "something unnamed";
    }
}

static const char *mover_fault_name(unsigned code)
{
    switch (code) {
    case KMV_FAULT_INDEX_LEN: return "INDEX_LEN";
    case KMV_FAULT_RANGE: return "RANGE";
    case KMV_FAULT_AXI: return "AXI (memory error)";
    case KMV_FAULT_MODE: return "MODE";
    case KMV_FAULT_WIDTH: return "WIDTH";
    case KMV_FAULT_ALIGN: return "ALIGN";
    case KMV_FAULT_XFORM_BOUND: return "XFORM_BOUND";
    default: return "unknown";
    }
}

void kh_explain_cpl(const struct kq_cpl *c, char *buf, size_t len)
{
    unsigned st = c->status;
    size_t k = (size_t)snprintf(buf, len, "%s (0x%02x, %s)", kh_status_name(st), st, kh_status_range(st));
    if (k >= len)
        return;
    buf += k;
    len -= k;
    if (st == KS_TIMEOUT) {
        unsigned what = KDP_DETAIL_WHAT(c->detail), yx = KDP_DETAIL_YX(c->detail);
        if (what >= 0x10)
            snprintf(buf, len, ": waited for %s", await_name(what));
        else
            snprintf(buf, len, ": waited for %s of unit %u,%u", await_name(what), KDP_X(yx), KDP_Y(yx));
    } else if (st == KS_MOVER_FAULT) {
        snprintf(buf, len, ": mover fault %u %s", c->detail, mover_fault_name(c->detail));
    } else if (st == KS_UNIT_FAULT && (c->detail & KDP_FAULT_UNPLACED)) {
        /* docs/dispatch.md "Faults NODE_STATUS hides": credit is one counter for all units */
        snprintf(buf, len, ": %u FAULT(s) seen only as credit not returned, in one of the "
                 "targets 0x%02x (bit = target index; unit %u,%u first): NODE_STATUS showed a later "
                 "signal, so neither the unit nor the instruction can be named",
                 (unsigned)(c->value & 0xFFFFu), (unsigned)((c->value >> 16) & 0xFFu),
                 KDP_X(c->detail), KDP_Y(c->detail));
    } else if (st == KS_UNIT_FAULT && (c->detail & KDP_FAULT_HIDDEN)) {
        snprintf(buf, len, ": unit %u,%u faulted %u time(s), seen only as credit not returned: "
                 "NODE_STATUS showed a later signal, so the instruction and its exec_result "
                 "cannot be named", KDP_X(c->detail), KDP_Y(c->detail),
                 (unsigned)(c->value & 0xFFFFu));
    } else if (st == KS_UNIT_FAULT) {
        snprintf(buf, len, ": unit %u,%u reported exec_result 0x%llx", KDP_X(c->detail),
                 KDP_Y(c->detail), (unsigned long long)c->value);
    } else if (st == KS_BAD_TARGET || st == KS_DUP_TARGET || st == KS_DISPATCH_BAD_TARGET) {
        snprintf(buf, len, ": unit %u,%u", KDP_X(c->detail), KDP_Y(c->detail));
    } else if (st == KS_BAD_OFFSET) {
        /* The offset word itself is the detail: say which of the three ways it is wrong. */
        unsigned off = c->detail;
        if (off & 7u)
            snprintf(buf, len, ": offset 0x%02x is not a multiple of 8 (mover registers are 8-byte words)", off);
        else if (off >= KMV_REG_SPAN)
            snprintf(buf, len, ": offset 0x%x is past the mover's registers (0x00-0x7f)", off);
        else
            snprintf(buf, len, ": there is no mover register at offset 0x%02x (the registers: CTRL 0x00, HDR "
                     "0x10, DIM 0x18, AXIS 0x20, BOUND 0x28, INDEX 0x30, SEED 0x38, IMM 0x40, GATHER 0x50)", off);
    } else if (st == KS_NO_REACH) {
        snprintf(buf, len, ": mover register 0x%02x is outside this core's window", c->detail);
    } else if (st != KS_OK) {
        const char *t = kh_status_text(st);
        if (*t)
            snprintf(buf, len, ": %s", t);
    }
}

/* ---- Core stops ---- */

const char *kh_mcause_name(uint64_t mcause)
{
    if (mcause >> 63 || (mcause & 0x80000000u))
        return "interrupt";
    switch (mcause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store/AMO address misaligned";
    case 7: return "store/AMO access fault";
    case 8: return "environment call from U-mode";
    case 9: return "environment call from S-mode";
    case 11: return "environment call from M-mode";
    case 12: return "instruction page fault";
    case 13: return "load page fault";
    case 15: return "store/AMO page fault";
    default: return "reserved cause";
    }
}

const char *kh_boot_reason_name(unsigned r)
{
    switch (r) {
    case KX_BOOT_BAD_MAGIC: return "bad magic";
    case KX_BOOT_BAD_VERSION: return "bad version";
    case KX_BOOT_BAD_SIZE: return "bad size or unit count";
    case KX_BOOT_BAD_FLAGS: return "unknown flag bits";
    case KX_BOOT_BAD_QUEUE: return "queue address or setup refused";
    case KX_BOOT_BAD_TIMEOUT: return "wait_cycles is 0";
    case KX_BOOT_BAD_UNITS: return "unit table refused: a unit with depth 0, at 0,0, at the control "
                                   "agent's coordinate 0,1, or listed twice, or the flag and the count disagree";
    case KX_BOOT_BAD_WAIT: return "wait_cycles above 0x7fffffff (no wait could end)";
    case KX_BOOT_BAD_COLD: return "RV32 cold segment absent or not the one linked";
    case KX_BOOT_BAD_RECORDS: return "record limits refused (rec_handles, rec_bytes)";
    default: return "unknown reason";
    }
}

/* What an exit (or RV32 halt) word means (include/kohaku/exitword.h). */
static void explain_word(uint64_t w, char *buf, size_t len)
{
    if (w == KX_EXIT_OK)
        snprintf(buf, len, "clean stop");
    else if (KX_EXIT_IS_BOOT(w & 0xFFFFFFFFu) && (w >> 32) == 0)
        snprintf(buf, len, "boot block refused: %s (reason %u)", kh_boot_reason_name((unsigned)(w & 0xFF)),
                 (unsigned)(w & 0xFF));
    else if ((w & 0xFFFFFF00u) == KX_EXIT_ASSERT_BASE && (w >> 32) == 0)
        snprintf(buf, len, "firmware assertion failed at site 0x%02x", (unsigned)(w & 0xFF));
    else if ((w & 0xFFFF0000u) == KX_EXIT_TEST_BASE && (w >> 32) == 0)
        snprintf(buf, len, "test image finished with %u failures", (unsigned)(w & 0xFFFF));
    else if (KX_EXIT_IS_TRAP(w))
        snprintf(buf, len, "RV64 trap reported by the firmware: %s (mcause %u)",
                 kh_mcause_name(w & 0x7FFFFFFFu), (unsigned)(w & 0x7FFFFFFFu));
    else
        snprintf(buf, len, "unrecognised word");
}

void kh_explain_core(const struct kh_core_status *s, char *buf, size_t len)
{
    char w[160];
    switch (s->state) {
    case KHP_CPU_HELD:
        snprintf(buf, len, "held (not started, or held by the host)");
        return;
    case KHP_CPU_RUNNING:
        snprintf(buf, len, "running");
        return;
    case KHP_CPU_EXITED:
        explain_word(s->word, w, sizeof w);
        snprintf(buf, len, "exited with word 0x%llx (%s) at pc 0x%llx", (unsigned long long)s->word, w,
                 (unsigned long long)s->pc);
        return;
    case KHP_CPU_HALTED:
        break;
    default:
        snprintf(buf, len, "in unknown state %u", s->state);
        return;
    }
    if (s->variant == 32) {
        /* RV32 halt semantics (docs/hardware.md §4): the core has no traps. */
        switch (s->cause) {
        case 1:
            explain_word(s->word, w, sizeof w);
            snprintf(buf, len, "halted: RV32 ECALL at pc 0x%llx with a0 = 0x%llx (%s)",
                     (unsigned long long)s->pc, (unsigned long long)s->word, w);
            return;
        case 2:
            snprintf(buf, len, "halted: RV32 EBREAK at pc 0x%llx with a0 = 0x%llx",
                     (unsigned long long)s->pc, (unsigned long long)s->word);
            return;
        case 3:
            snprintf(buf, len, "halted: RV32 fault (illegal instruction, misaligned or unmapped "
                     "access or fetch) at pc 0x%llx", (unsigned long long)s->pc);
            return;
        default:
            snprintf(buf, len, "halted: RV32 cause %u, word 0x%llx at pc 0x%llx", s->cause,
                     (unsigned long long)s->word, (unsigned long long)s->pc);
            return;
        }
    }
    /* RV64 with mtvec unset: cause = mcause, word = mtval (docs/hardware.md §5). */
    snprintf(buf, len, "halted: RV64 trap with no handler: %s (mcause %u), mtval 0x%llx, at pc 0x%llx",
             kh_mcause_name(s->cause), s->cause, (unsigned long long)s->word, (unsigned long long)s->pc);
}

void kh_explain_waypoint(const struct kx_waypoint *w, uint64_t now, uint32_t bound, bool elapsed_known,
                         char *buf, size_t len)
{
    /* The later of the two (a cycle count's difference modulo 2^32: both began less than 2^31
     * cycles apart, or the older one no longer matters); a word never written reads 0. */
    bool mover = w->mover_since && (!w->what || (int32_t)(w->mover_since - w->since) > 0);
    uint32_t what = mover ? KS_AWAIT_MOVER : w->what >> 8, since = mover ? w->mover_since : w->since;
    char unit[24] = "";
    if (!mover && !w->what) {
        snprintf(buf, len, "no bounded wait yet");
        return;
    }
    if (what < 0x10)
        snprintf(unit, sizeof unit, " of unit %u,%u", KDP_X(w->what & 0xFFu), KDP_Y(w->what & 0xFFu));
    if (!elapsed_known) {
        snprintf(buf, len, "waiting for %s%s since cycle %u (or last waited: this core's cycle "
                 "count is not the host's)", await_name(what), unit, since);
        return;
    }
    uint32_t ago = (uint32_t)now - since;
    if (ago <= bound)
        snprintf(buf, len, "waiting for %s%s since cycle %u (%u cycles ago, within its bound of %u: "
                 "unless it ended since)", await_name(what), unit, since, ago, bound);
    else
        snprintf(buf, len, "last waited for %s%s at cycle %u, %u cycles ago: over its bound (%u), "
                 "so not waiting now", await_name(what), unit, since, ago, bound);
}
