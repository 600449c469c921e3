/* hostdrive.c — host-driven dispatch through the host port (the bench's host-driven path; docs/hardware.md §1 "Rules
 * the firmware lives by", §1.1, §2): what a host without the control processor would do, so
 * `make bench` can compare it with the firmware doing the same work. Every access is a
 * host-port request the model charges its latency for. */
#include "kdp_flit.h"
#include "kohaku/agent_regs.h"
#include "kohaku/flit.h"
#include "kohaku/status.h"
#include "kh_util.h"
#include "libkohaku.h"

int kh_hd_dispatch(struct kh_node *n, uint8_t yx, uint8_t txn, const uint64_t (*p)[4], uint32_t count,
                   uint16_t credit, unsigned timeout_ms, struct kh_hd_result *r)
{
    uint64_t req0 = n->requests, t0, t1, ns;
    int rc;
    r->status = KS_OK;
    r->value = 0;
    if (count == 0)
        return kh_fail(n, KH_E_INPUT, "host-driven dispatch of an empty program");
    if ((rc = kh_reg_read(n, KHP_CPU_BASE + KHP_CPU_NOW_NS, &t0)) ||
        (rc = kh_agent_read(n, KA_NODE_STATUS(yx), &ns)))
        return rc;
    /* Completions are counted as differences modulo 2^16 from this snapshot (docs/hardware.md §1.1). */
    uint16_t snap = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, ns);
    uint64_t deadline = kh_ms_now() + timeout_ms;
    for (uint32_t start = 0; start < count; start += KH_HD_CHUNK) {
        uint32_t k = count - start < KH_HD_CHUNK ? count - start : KH_HD_CHUNK;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t slot = KA_STAGE_SLOT(j);
            for (unsigned w = 0; w < 4; w++)
                if ((rc = kh_agent_write(n, slot + 8u * w, p[start + j][w])))
                    return kh_context(n, rc, "staging flit %u", start + j);
            /* dst/src are stamped by the dispatcher; type CU_INST, txn, last on the final one. */
            if ((rc = kh_agent_write(n, slot + 32u, kdp_inst_hdr(txn, start + j + 1 == count))))
                return kh_context(n, rc, "staging flit %u", start + j);
        }
        uint32_t c = credit ? credit : 16u;
        if (c > k)
            c = k;
        if ((rc = kh_agent_write(n, KA_PROG_BASE, 0)) || (rc = kh_agent_write(n, KA_PROG_LEN, k)) ||
            (rc = kh_agent_write(n, KA_PROG_DST, yx)) || (rc = kh_agent_write(n, KA_PROG_CRED, c)) ||
            (rc = kh_agent_write(n, KA_PROG_KICK, 1)))
            return kh_context(n, rc, "kicking the dispatcher");
        /* Each instruction signals once (INST_COMPLETE, BATCH_COMPLETE on the last, or FAULT). */
        for (;;) {
            if ((rc = kh_agent_read(n, KA_NODE_STATUS(yx), &ns)))
                return rc;
            /* Signals of this chunk, modulo 2^16: every earlier chunk signalled exactly its
             * size, so the chunk's count is the difference past snap + start (k <= 128, no
             * ambiguity; a 16-bit "seen" compared with a 32-bit start broke past 65,535). */
            uint16_t done = (uint16_t)(KBF_FIELD_GET(KA_NS_COUNT, ns) - snap - start);
            if (KBF_FIELD_GET(KA_NS_CODE, ns) == KF_SIG_FAULT && done > 0) {
                r->status = KS_UNIT_FAULT;
                r->value = KBF_FIELD_GET(KA_NS_ARG, ns);
                goto out;
            }
            if (done >= k)
                break;
            if (kh_ms_now() > deadline) {
                r->status = KS_TIMEOUT;
                r->value = start + done;
                goto out;
            }
        }
    }
out:
    if ((rc = kh_reg_read(n, KHP_CPU_BASE + KHP_CPU_NOW_NS, &t1)))
        return rc;
    r->ns = t1 - t0;
    r->requests = n->requests - req0;
    return KH_OK;
}
