/* bind.c — libkohaku's surface for language bindings (kh_bind.h): the NPU encoder behind one
 * exported, range-checked function, and the layout table a binding checks its mirrors of the
 * library's structs against when it loads (a mismatch there would otherwise read and write the
 * wrong bytes silently). */
#include <stdio.h>

#include "kh_bind.h"
#include "kmv.h"
#include "kohaku/exitword.h"
#include "kohaku/npu_isa.h"
#include "libkohaku.h"

/* ---- NPU encoder ---- */

struct np_arg { const char *name; uint64_t max; };
struct np_form { const char *name; unsigned nargs; struct np_arg a[7]; };

#define F17 0x1FFFFu            /* an L2 line address, a MEMCPY host offset in lines */
#define BOOL_ 1u

static const struct np_form np_forms[] = {
    [KH_NP_GEMV] = { "GEMV", 6, { { "dest", F17 }, { "src", F17 }, { "flags", 0x3F }, { "size_ptr", 0x3F },
                                  { "shape_ptr", 0x3F }, { "lanes", 0x1F } } },
    [KH_NP_GEMM] = { "GEMM", 6, { { "dest", F17 }, { "src", F17 }, { "flags", 0x3F }, { "size_ptr", 0x3F },
                                  { "shape_ptr", 0x3F }, { "lanes", 0x1F } } },
    [KH_NP_MEMCPY] = { "MEMCPY", 7, { { "from_host", BOOL_ }, { "to_host", BOOL_ }, { "dest", F17 },
                                      { "src", F17 }, { "aux", F17 }, { "shape_ptr", 0x3F }, { "async", BOOL_ } } },
    [KH_NP_MEMCPY_IN] = { "MEMCPY in", 4, { { "l2_dest", F17 }, { "aux", F17 }, { "shape_ptr", 0x3F },
                                            { "async", BOOL_ } } },
    [KH_NP_MEMCPY_OUT] = { "MEMCPY out", 4, { { "aux", F17 }, { "l2_src", F17 }, { "shape_ptr", 0x3F },
                                              { "async", BOOL_ } } },
    [KH_NP_MEMSET] = { "MEMSET", 5, { { "cache", 3 }, { "index", 0x3F }, { "a", 0xFFFF }, { "b", 0xFFFF },
                                      { "c", 0xFFFF } } },
    [KH_NP_MEMSET_SHAPE] = { "MEMSET shape", 4, { { "index", 0x3F }, { "m", 0xFFFF }, { "n", 0xFFFF },
                                                  { "k", 0xFFFF } } },
    [KH_NP_MEMSET_XFER] = { "MEMSET transfer shape", 4, { { "index", 0x3F }, { "rows", 0xFFFF },
                                                          { "elems", 0xFFFF }, { "stride", 0xFFFF } } },
    /* The weight line is stored halved in a 16-bit field: lines 0..0x1FFFE, even. */
    [KH_NP_MEMSET_WEIGHT] = { "MEMSET weight", 4, { { "index", 0x3F }, { "w_line", 0x1FFFE },
                                                    { "scale_fp16", 0xFFFF }, { "stride", 0xFFFF } } },
    /* [39:0] unit-global (npu_isa.h NP_SCALAR_HOST_BASE). */
    [KH_NP_MEMSET_HOST_BASE] = { "MEMSET host base", 1, { { "ug", KF_UG_MASK_HP } } },
    [KH_NP_CVO] = { "CVO", 6, { { "func", 0xF }, { "src", F17 }, { "dst", F17 }, { "len", 0xFFFF },
                                { "flags", 0x1F }, { "async", BOOL_ } } },
};

int kh_np_encode(unsigned kind, const uint64_t *a, unsigned nargs, uint64_t *insn, char *err,
                 size_t errlen)
{
    if (kind >= sizeof np_forms / sizeof np_forms[0]) {
        snprintf(err, errlen, "unknown NPU instruction kind %u", kind);
        return KH_E_INPUT;
    }
    const struct np_form *f = &np_forms[kind];
    if (nargs != f->nargs) {
        snprintf(err, errlen, "%s takes %u arguments, not %u", f->name, f->nargs, nargs);
        return KH_E_INPUT;
    }
    for (unsigned i = 0; i < nargs; i++)
        if (a[i] > f->a[i].max) {
            snprintf(err, errlen, "%s: %s = %llu (0x%llx) does not fit: 0..%llu", f->name, f->a[i].name,
                     (unsigned long long)a[i], (unsigned long long)a[i], (unsigned long long)f->a[i].max);
            return KH_E_INPUT;
        }
    if (kind == KH_NP_MEMSET_WEIGHT && (a[1] & 1u)) {
        snprintf(err, errlen, "MEMSET weight: w_line = %llu is odd (weights start on an even L2 line)",
                 (unsigned long long)a[1]);
        return KH_E_INPUT;
    }
    if (kind == KH_NP_MEMSET_HOST_BASE && (a[0] % NP_LINE_BYTES)) {
        snprintf(err, errlen, "MEMSET host base: 0x%llx is not 32-byte aligned", (unsigned long long)a[0]);
        return KH_E_INPUT;
    }
    switch (kind) {
    case KH_NP_GEMV: *insn = np_gemv((uint32_t)a[0], (uint32_t)a[1], (unsigned)a[2], (unsigned)a[3], (unsigned)a[4], (unsigned)a[5]); break;
    case KH_NP_GEMM: *insn = np_gemm((uint32_t)a[0], (uint32_t)a[1], (unsigned)a[2], (unsigned)a[3], (unsigned)a[4], (unsigned)a[5]); break;
    case KH_NP_MEMCPY: *insn = np_memcpy((unsigned)a[0], (unsigned)a[1], (uint32_t)a[2], (uint32_t)a[3], (uint32_t)a[4], (unsigned)a[5], (unsigned)a[6]); break;
    case KH_NP_MEMCPY_IN: *insn = np_memcpy_in((uint32_t)a[0], (uint32_t)a[1], (unsigned)a[2], (unsigned)a[3]); break;
    case KH_NP_MEMCPY_OUT: *insn = np_memcpy_out((uint32_t)a[0], (uint32_t)a[1], (unsigned)a[2], (unsigned)a[3]); break;
    case KH_NP_MEMSET: *insn = np_memset((unsigned)a[0], (unsigned)a[1], (uint16_t)a[2], (uint16_t)a[3], (uint16_t)a[4]); break;
    case KH_NP_MEMSET_SHAPE: *insn = np_memset_shape((unsigned)a[0], (uint16_t)a[1], (uint16_t)a[2], (uint16_t)a[3]); break;
    case KH_NP_MEMSET_XFER: *insn = np_memset_xfer((unsigned)a[0], (uint16_t)a[1], (uint16_t)a[2], (uint16_t)a[3]); break;
    case KH_NP_MEMSET_WEIGHT: *insn = np_memset_weight((unsigned)a[0], (uint32_t)a[1], (uint16_t)a[2], (uint16_t)a[3]); break;
    case KH_NP_MEMSET_HOST_BASE: *insn = np_memset_host_base(a[0]); break;
    default: *insn = np_cvo((unsigned)a[0], (uint32_t)a[1], (uint32_t)a[2], (uint16_t)a[3], (unsigned)a[4], (unsigned)a[5]); break;
    }
    return KH_OK;
}

/* ---- Layouts ---- */

#define SZ(t)    { #t, "", sizeof(struct t) }
#define OF(t, f) { #t, #f, offsetof(struct t, f) }
#define K(c)     { "const", #c, (uint64_t)(c) }

const struct kh_bind_layout kh_bind_layouts[] = {
    /* Opaque to a binding: only allocated, and read through these offsets. */
    SZ(kh_transport),
    SZ(kh_node), OF(kh_node, variant), OF(kh_node, requests), OF(kh_node, port_status),
    SZ(kh_elf), OF(kh_elf, variant), OF(kh_elf, entry), OF(kh_elf, nseg),
    /* Mirrored by a binding field for field. */
    SZ(kh_queue), OF(kh_queue, addr), OF(kh_queue, sq_addr), OF(kh_queue, cq_addr),
    OF(kh_queue, sq_entries), OF(kh_queue, cq_entries), OF(kh_queue, sq_tail), OF(kh_queue, cq_head),
    OF(kh_queue, next_tag), OF(kh_queue, timeout_ms),
    SZ(kh_core_status), OF(kh_core_status, state), OF(kh_core_status, cause), OF(kh_core_status, word),
    OF(kh_core_status, pc), OF(kh_core_status, cycles), OF(kh_core_status, instret),
    OF(kh_core_status, variant), OF(kh_core_status, now_ns),
    SZ(kh_queue_view), OF(kh_queue_view, sq_tail), OF(kh_queue_view, sq_head), OF(kh_queue_view, cq_tail),
    OF(kh_queue_view, cq_head), OF(kh_queue_view, progress), OF(kh_queue_view, ready_instret),
    OF(kh_queue_view, ready_cycles), OF(kh_queue_view, fw), OF(kh_queue_view, units),
    SZ(kq_fw_state), OF(kq_fw_state, state), OF(kq_fw_state, code), OF(kq_fw_state, cause),
    OF(kq_fw_state, pc), OF(kq_fw_state, tval),
    SZ(kq_units), OF(kq_units, count), OF(kq_units, entries),
    SZ(kq_sub), OF(kq_sub, op), OF(kq_sub, flags), OF(kq_sub, tag), OF(kq_sub, addr), OF(kq_sub, count),
    OF(kq_sub, txn), OF(kq_sub, ntargets), OF(kq_sub, credit_cap), OF(kq_sub, targets), OF(kq_sub, rsvd),
    SZ(kq_cpl), OF(kq_cpl, tag), OF(kq_cpl, status), OF(kq_cpl, detail), OF(kq_cpl, mover_cycles),
    OF(kq_cpl, value), OF(kq_cpl, cycles),
    SZ(kq_step), OF(kq_step, op), OF(kq_step, target), OF(kq_step, txn), OF(kq_step, credit_cap),
    OF(kq_step, n), OF(kq_step, addr),
    SZ(kx_unit_entry), OF(kx_unit_entry, yx), OF(kx_unit_entry, version), OF(kx_unit_entry, buffers),
    OF(kx_unit_entry, type), OF(kx_unit_entry, inst_depth),
    SZ(kx_bootblock), OF(kx_bootblock, magic), OF(kx_bootblock, version), OF(kx_bootblock, size),
    OF(kx_bootblock, flags), OF(kx_bootblock, wait_cycles), OF(kx_bootblock, queue_addr), OF(kx_bootblock, unit_count),
    OF(kx_bootblock, rec_handles), OF(kx_bootblock, rec_bytes), OF(kx_bootblock, units),
    SZ(kh_text_err), OF(kh_text_err, line), OF(kh_text_err, col), OF(kh_text_err, why),
    SZ(kd_text_err), OF(kd_text_err, line), OF(kd_text_err, col), OF(kd_text_err, why),
    SZ(kh_step_src), OF(kh_step_src, step), OF(kh_step_src, file), OF(kh_step_src, line),
    SZ(kh_status_info), OF(kh_status_info, code), OF(kh_status_info, name), OF(kh_status_info, text),
    SZ(kh_fault), OF(kh_fault, kind), OF(kh_fault, yx), OF(kh_fault, n), OF(kh_fault, arg),
    SZ(kd_write), OF(kd_write, off), OF(kd_write, lo), OF(kd_write, hi),
    SZ(kmv_walk), OF(kmv_walk, base), OF(kmv_walk, ndim), OF(kmv_walk, count), OF(kmv_walk, stride),
    OF(kmv_walk, axis), OF(kmv_walk, astep), OF(kmv_walk, bound_base), OF(kmv_walk, bound_extent),
    SZ(kmv_builder), OF(kmv_builder, w), OF(kmv_builder, cap), OF(kmv_builder, n), OF(kmv_builder, status),
    OF(kmv_builder, known), OF(kmv_builder, bound_val), OF(kmv_builder, imm),
    SZ(kmv_result), OF(kmv_result, status), OF(kmv_result, detail), OF(kmv_result, index),
    OF(kmv_result, moves), OF(kmv_result, value),
    /* Constants a binding uses. */
    K(KH_ERR_LEN), K(KH_DEF_QUEUE_UG), K(KH_DEF_ENTRIES), K(KH_DEF_DATA_UG), K(KH_DEF_DATA_BYTES),
    K(KH_DEF_WAIT_CYCLES), K(KH_DEF_TIMEOUT_MS), K(KH_STEPS_MAX), K(KH_REFEREE_COUNT),
    K(KD_MAX_WRITES), K(KQ_MAX_PROG), K(KQ_MAX_STEPS), K(KQ_MAX_TARGETS), K(KQ_MAX_UNITS),
    K(KQ_MAX_ENTRIES), K(KQ_PAYLOAD_BYTES), K(KX_BOOT_MAX_UNITS), K(KX_BOOT_MAGIC), K(KX_EXIT_OK),
    K(KMV_MAX_DIMS), K(KMV_MAX_INDICES), K(KMV_WORD_BYTES), K(KF_UG_MASK_HP),
    K(KHP_CPU_HELD), K(KHP_CPU_RUNNING), K(KHP_CPU_HALTED), K(KHP_CPU_EXITED),
    K(KQ_STATE_BOOTING), K(KQ_STATE_READY), K(KQ_STATE_STOPPED), K(KQ_STATE_FATAL),
    K(KQ_OP_NOP), K(KQ_OP_REPLAY), K(KQ_OP_DISPATCH), K(KQ_OP_RUN), K(KQ_OP_UNITS), K(KQ_OP_STOP),
    K(KQ_STEP_DISPATCH), K(KQ_STEP_REPLAY), K(KQ_STEP_WAIT), K(KQ_STEP_BARRIER), K(KQ_STEP_SIGNAL),
    /* records (docs/host-interface.md §12) */
    K(KQ_OP_RECORD), K(KQ_OP_FORGET), K(KQ_OP_RECORDS), K(KQ_SUB_F_HANDLE), K(KQ_SUB_F_STEPS),
    K(KQ_STEP_REPLAY_H), K(KQ_REC_MAX_HANDLES),
    SZ(kq_rec_info), OF(kq_rec_info, handle), OF(kq_rec_info, count), OF(kq_rec_info, bytes),
    OF(kq_rec_info, offset),
};
const unsigned kh_bind_layout_count = sizeof kh_bind_layouts / sizeof kh_bind_layouts[0];
