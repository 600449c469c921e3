/* record.c — libkohaku's records (docs/host-interface.md "Records", include/kohaku/queue.h):
 * RECORD a descriptor list or a RUN step list already in node memory, run a record by its
 * handle, FORGET one, list them (RECORDS). Each is one command (kh_command); the completion is
 * returned as the firmware posted it, so a refusal's status, detail and value reach the caller
 * unchanged. */
#include <string.h>

#include "kohaku/status.h"
#include "kh_util.h"
#include "libkohaku.h"

int kh_record(struct kh_node *n, struct kh_queue *q, uint64_t ug, uint32_t count, int steps,
              struct kq_cpl *c)
{
    struct kq_sub s = { .op = KQ_OP_RECORD, .flags = steps ? KQ_SUB_F_STEPS : 0, .addr = ug,
                        .count = count };
    return kh_command(n, q, &s, c);
}

int kh_run_handle(struct kh_node *n, struct kh_queue *q, unsigned op, uint32_t handle,
                  struct kq_cpl *c)
{
    if (op != KQ_OP_REPLAY && op != KQ_OP_RUN)
        return kh_fail(n, KH_E_INPUT, "only REPLAY and RUN run by handle (op %u)", op);
    struct kq_sub s = { .op = (uint16_t)op, .flags = KQ_SUB_F_HANDLE, .addr = handle };
    return kh_command(n, q, &s, c);
}

int kh_forget(struct kh_node *n, struct kh_queue *q, uint32_t handle, struct kq_cpl *c)
{
    struct kq_sub s = { .op = KQ_OP_FORGET, .addr = handle };
    return kh_command(n, q, &s, c);
}

int kh_records(struct kh_node *n, struct kh_queue *q, uint64_t ug, struct kq_rec_info *out,
               unsigned max, unsigned *got, struct kq_cpl *c)
{
    *got = 0;
    if (max == 0 || max > KQ_REC_MAX_HANDLES)
        return kh_fail(n, KH_E_INPUT, "RECORDS answers 1..%u lines (%u asked)", KQ_REC_MAX_HANDLES, max);
    struct kq_sub s = { .op = KQ_OP_RECORDS, .addr = ug, .count = max };
    int rc = kh_command(n, q, &s, c);
    if (rc || c->status != KS_OK)
        return rc;
    unsigned k = c->value < max ? (unsigned)c->value : max;
    if (k && (rc = kh_mem_read(n, ug, out, k * sizeof *out)))
        return kh_context(n, rc, "reading the RECORDS answer");
    *got = k;
    return KH_OK;
}
