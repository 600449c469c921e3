/* kh_bind.h — what libkohaku adds for language bindings (the Python package in host/python/,
 * docs/python.md): the NPU instruction encoder as one exported function (npu_isa.h's encoders
 * are static inline, so a binding could not call them), and a table of the layouts and
 * constants a binding mirrors, so a binding built against another libkohaku refuses to load
 * instead of reading the wrong bytes. Everything else a binding calls is libkohaku.h and
 * mover/kmv.h as they are. */
#ifndef KOHAKU_KH_BIND_H
#define KOHAKU_KH_BIND_H

#include <stddef.h>
#include <stdint.h>

/* ---- NPU instructions (include/kohaku/npu_isa.h, docs/npu.md §2) ---- */

/* Which encoder, and its arguments in the order of npu_isa.h's function of that name:
 *   KH_NP_GEMV, KH_NP_GEMM   dest, src, flags, size_ptr, shape_ptr, lanes
 *   KH_NP_MEMCPY             from_host, to_host, dest, src, aux, shape_ptr, async
 *   KH_NP_MEMCPY_IN          l2_dest, aux, shape_ptr, async
 *   KH_NP_MEMCPY_OUT         aux, l2_src, shape_ptr, async
 *   KH_NP_MEMSET             cache, index, a, b, c
 *   KH_NP_MEMSET_SHAPE       index, m, n, k
 *   KH_NP_MEMSET_XFER        index, rows, elems, stride
 *   KH_NP_MEMSET_WEIGHT      index, w_line (even), scale_fp16, stride
 *   KH_NP_MEMSET_HOST_BASE   ug (unit-global, 32-byte aligned)
 *   KH_NP_CVO                func, src, dst, len, flags, async */
enum kh_np_kind {
    KH_NP_GEMV = 0, KH_NP_GEMM = 1, KH_NP_MEMCPY = 2, KH_NP_MEMCPY_IN = 3, KH_NP_MEMCPY_OUT = 4,
    KH_NP_MEMSET = 5, KH_NP_MEMSET_SHAPE = 6, KH_NP_MEMSET_XFER = 7, KH_NP_MEMSET_WEIGHT = 8,
    KH_NP_MEMSET_HOST_BASE = 9, KH_NP_CVO = 10,
};

/* Encodes one instruction (payload word 3) into *insn. The encoders truncate to field widths;
 * this checks every argument first, so nothing is silently cut: KH_E_INPUT with a message in
 * err naming the argument and its range for a value that does not fit, a wrong argument count
 * or an unknown kind. Field values the NPU itself refuses (a reserved flag bit, a reserved CVO
 * function) fit their fields and are encoded: the unit's FAULT reports them. */
int kh_np_encode(unsigned kind, const uint64_t *arg, unsigned nargs, uint64_t *insn,
                 char *err, size_t errlen);

/* ---- Layouts and constants ---- */

/* One row: sizeof(struct type) when field is "", offsetof(struct type, field) otherwise; for
 * type "const", the value of the constant named field. */
struct kh_bind_layout { const char *type; const char *field; uint64_t value; };
extern const struct kh_bind_layout kh_bind_layouts[];
extern const unsigned kh_bind_layout_count;

#endif
