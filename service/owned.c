/* owned.c — the ranges no mover walk may reach while the service checks or replays a list
 * (kq.h enum kq_own, docs/host-interface.md §5 KS_MV_OWNED) and the caps that carry them to the
 * validator and the replay: kq_cold_owned fills both (kq_owned, kq_caps: queue.c). Its own
 * file because two cold files use it and the index copy below, kq_cold.c (a REPLAY's copy, a
 * RUN's REPLAY step) and record.c (RECORD's validation and its lists' index words), and
 * kq_cold.c calls record.c: here, neither calls the other back (docs/firmware.md "Reading
 * paths"). Cold code on RV32 (mk/firmware.mk
 * FW_COLD_rv32; the entry rules of kq_cold.c): the two call it cold-to-cold, kq_check_cold.c
 * through kq_env.prepare (the native stub). */
#include "kq_svc.h"

/* kq_svc.h. record.c calls it cold-to-cold, with no second native entry into the interpreter
 * (docs/kvm.md "Stack"); a RUN's list check through kq_env.prepare (its native stub). */
void kq_cold_owned(void)
{
    const struct kq_setup *q = &kq.m.setup;
    uint64_t qa = kx_bootblock()->queue_addr;
    const struct kmv_caps *self = kmv_caps_use;     /* still this variant's own */
    /* field by field: a struct copy would pull libc's memcpy into the window */
    kq_caps.reach_end = self->reach_end;
    kq_caps.xf_ids = self->xf_ids;
    kq_caps.xf_in_words = self->xf_in_words;
    kq_caps.xf_out_words = self->xf_out_words;
    kq_caps.owned = kq_owned;
    kq_caps.n_owned = KQ_OWN_N;
    kq_caps.map = kq_env.map;
    kq_caps.map_end = HAL_UG_DRAM_END;
    kq_caps.idx_lo = kq_caps.idx_hi = 0;
    kq_owned[KQ_OWN_FW].lo = KQ_FW_OWN_LO;
    kq_owned[KQ_OWN_FW].hi = KQ_FW_OWN_HI;
    kq_owned[KQ_OWN_HEADER].lo = qa;
    kq_owned[KQ_OWN_HEADER].hi = qa + sizeof(struct kq_header);
    kq_owned[KQ_OWN_SQ].lo = q->sq_addr;
    kq_owned[KQ_OWN_SQ].hi = q->sq_addr + (uint64_t)q->sq_entries * KQ_SUB_BYTES;
    kq_owned[KQ_OWN_CQ].lo = q->cq_addr;
    kq_owned[KQ_OWN_CQ].hi = q->cq_addr + (uint64_t)q->cq_entries * KQ_CPL_BYTES;
    kmv_caps_use = &kq_caps;
}

/* kq_svc.h. A gather's index words are read by the mover itself when its move runs: the
 * firmware copies the first index word (8 indices: KS_MV_GATHER_ROWS lets a move reach no
 * more) of every INDEX write of a list that gathers into memory it owns, from slot_ug on
 * (before end_ug), and points the INDEX write of the list's copy there (count at most 8), so
 * the mover reads the indices that were checked: REPLAY's copy buffer (kq_cold.c), a record
 * (record.c). Returns the slots used, or -1 when there is no room for them. Index words the
 * processor cannot read are left as they are: a gather using them was refused
 * (KMV_ADDR_UNREAD). */
int kq_copy_indices(struct kd_write *w, uint32_t n, uint64_t slot_ug, uint64_t end_ug)
{
    uint32_t gathers = 0, slots = 0;
    for (uint32_t i = 0; i < n; i++)
        gathers |= kd_is_go(&w[i]) && KBF_FIELD_GET(KMV_CTRL_MODE, w[i].lo) == KMV_MODE_GATHER;
    if (!gathers)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (w[i].off != KMV_REG_INDEX)
            continue;
        uint64_t v = kd_value(&w[i]);
        uint64_t base = KBF_FIELD_GET(KMV_INDEX_BASE, v), count = KBF_FIELD_GET(KMV_INDEX_COUNT, v);
        struct kq_err e;
        if (kq_range(&kq_env.reach, base, KMV_WORD_BYTES, KMV_WORD_BYTES, &e) != KS_OK)
            continue;
        uint64_t slot = slot_ug + (uint64_t)slots * KMV_WORD_BYTES;
        if (slot + KMV_WORD_BYTES > end_ug)
            return -1;
        volatile kq_word *d = (volatile kq_word *)hal_ug_ptr(slot);
        const volatile kq_word *src = (const volatile kq_word *)hal_ug_ptr(base);
        for (unsigned k = 0; k < KMV_WORD_BYTES / 4; k++)
            d[k] = src[k];
        w[i] = kd_make(KMV_REG_INDEX, KBF_FIELD_PREP(KMV_INDEX_BASE, slot) |
                                     KBF_FIELD_PREP(KMV_INDEX_COUNT, count < 8 ? count : 8));
        slots++;
    }
    return (int)slots;
}
