/* kdp_flit.c — pure logic of the dispatch layer (kdp_flit.h): header and five-word flit form of
 * docs/hardware.md §2, §2.1, §2.4.4, §2.4.6, CU_CAPS and NODE_STATUS decode, table
 * checks, kick and chunk plans. Built for the firmware and natively for host tests. */
#include "kdp_flit.h"
#include "kohaku/status.h"

uint32_t kdp_hdr_pack(const struct kdp_hdr *h)
{
    return (uint32_t)(KBF_FIELD_PREP(KF_HDR_DST_X, h->dst_x & 0xFu) |
                      KBF_FIELD_PREP(KF_HDR_DST_Y, h->dst_y & 0xFu) |
                      KBF_FIELD_PREP(KF_HDR_SRC_X, h->src_x & 0xFu) |
                      KBF_FIELD_PREP(KF_HDR_SRC_Y, h->src_y & 0xFu) |
                      KBF_FIELD_PREP(KF_HDR_TYPE, h->type & 0xFu) |
                      KBF_FIELD_PREP(KF_HDR_TXN, h->txn) |
                      KBF_FIELD_PREP(KF_HDR_LAST, h->last & 1u) |
                      KBF_FIELD_PREP(KF_HDR_RSVD, h->rsvd & 7u));
}

void kdp_hdr_unpack(uint32_t w, struct kdp_hdr *h)
{
    h->dst_x = (uint8_t)KBF_FIELD_GET(KF_HDR_DST_X, w);
    h->dst_y = (uint8_t)KBF_FIELD_GET(KF_HDR_DST_Y, w);
    h->src_x = (uint8_t)KBF_FIELD_GET(KF_HDR_SRC_X, w);
    h->src_y = (uint8_t)KBF_FIELD_GET(KF_HDR_SRC_Y, w);
    h->type = (uint8_t)KBF_FIELD_GET(KF_HDR_TYPE, w);
    h->txn = (uint8_t)KBF_FIELD_GET(KF_HDR_TXN, w);
    h->last = (uint8_t)KBF_FIELD_GET(KF_HDR_LAST, w);
    h->rsvd = (uint8_t)KBF_FIELD_GET(KF_HDR_RSVD, w);
}

void kdp_flit_inst(struct kf_flit *f, const uint64_t payload[4], uint8_t txn, bool last)
{
    for (unsigned i = 0; i < 4; i++)
        f->w[i] = payload[i];
    f->w[KF_HDR_WORD] = kdp_inst_hdr(txn, last);
}

void kdp_flit_ctrl_read(struct kf_flit *f, uint8_t dst_yx, uint8_t agent_yx, uint8_t index,
                       uint8_t txn)
{
    f->w[0] = f->w[1] = f->w[2] = 0;
    f->w[3] = KBF_FIELD_PREP(KF_W3_CTRL_OP, KF_CTRL_OP_READ) | KBF_FIELD_PREP(KF_W3_CTRL_INDEX, index);
    f->w[KF_HDR_WORD] = kdp_ctrl_hdr(dst_yx, agent_yx, txn);
}

bool kdp_ctrl_reply_match(const struct kf_flit *f, uint8_t want_yx, uint8_t index, uint8_t txn,
                         uint64_t *value)
{
    if ((((uint32_t)f->w[KF_HDR_WORD] ^ kdp_ctrl_hdr(0, want_yx, txn)) & KDP_REPLY_MASK) != 0 ||
        (f->w[3] >> 48) != KDP_REPLY_OP_INDEX(index))
        return false;
    *value = kf_ctrl_value_get(f);
    return true;
}

void kdp_ns_unpack(uint64_t w, struct kdp_ns *ns)
{
    ns->code = (uint8_t)KBF_FIELD_GET(KA_NS_CODE, w);
    ns->arg = (uint32_t)KBF_FIELD_GET(KA_NS_ARG, w);
    ns->count = (uint16_t)KBF_FIELD_GET(KA_NS_COUNT, w);
    ns->valid = KBF_FIELD_GET(KA_NS_VALID, w) != 0;
}

bool kdp_plan_kick(uint32_t staged, uint32_t room, uint32_t others, struct kdp_kick *k)
{
    uint32_t len = staged, credit = staged;
    if (staged > room) {
        credit = room;
        if (others)
            len = room;
    }
    if (len > KA_PROG_LEN_N)      /* PROG_LEN and PROG_CRED are 16-bit */
        len = KA_PROG_LEN_N;
    if (credit > len)
        credit = len;
    k->len = (uint16_t)len;
    k->credit = (uint16_t)credit;
    return len != 0 && credit != 0;
}

uint32_t kdp_plan_chunk(uint32_t n, uint32_t cursor, uint32_t base, uint32_t region_slots,
                       uint32_t stage_slots)
{
    if (cursor >= n || base >= stage_slots)
        return 0;
    uint32_t len = n - cursor;
    if (len > region_slots)
        len = region_slots;
    if (len > stage_slots - base)
        len = stage_slots - base;
    return len;
}
