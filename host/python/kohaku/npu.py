"""NPU programs (docs/npu.md): a list of 64-bit NP instructions built through libkohaku's
encoder (``kh_np_encode`` over include/kohaku/npu_isa.h), sent as 256-bit CU_INST payloads
whose word 3 is the instruction (words 0-2 zero).
"""
from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Iterable, List, Sequence, Union

import numpy as np

from . import _lib
from .errors import InputError

# enum kh_np_kind (host/kh_bind.h)
_GEMV, _GEMM, _MEMCPY, _MEMCPY_IN, _MEMCPY_OUT, _MEMSET, _SHAPE, _XFER, _WEIGHT, _HOST_BASE, _CVO = range(11)

#: CVO functions (npu_isa.h NP_CVO_*), by name.
CVO_FUNCS = {"exp": 0, "sqrt": 1, "gelu": 2, "sin": 3, "cos": 4, "reduce_sum": 5, "scale": 6, "recip": 7}
#: GEMV/GEMM flags (NP_GF_*).
GF_FINDEMAX, GF_ACCM, GF_W_SCALE = 0x20, 0x10, 0x08
#: CVO flags (NP_CF_*).
CF_SUB_EMAX, CF_RECIP_SCALE, CF_ACCM = 0x10, 0x08, 0x04
#: MEMSET banks (NP_CACHE_*) and scalar registers (NP_SCALAR_*).
CACHE_FMAP, CACHE_WEIGHT, CACHE_SCALAR = 0, 1, 2
SCALAR_HOST_BASE, SCALAR_S, SCALAR_EMAX = 0, 1, 2


def encode(kind: int, *args: int) -> int:
    """One instruction through ``kh_np_encode``; :class:`InputError` when an argument does not
    fit its field (the C encoders would truncate it)."""
    for a in args:
        if not isinstance(a, (int, np.integer)) or a < 0 or a >= 1 << 64:
            raise InputError(f"NPU instruction argument {a!r} is not an unsigned 64-bit integer")
    arr = (ctypes.c_uint64 * max(1, len(args)))(*[int(a) for a in args])
    out = ctypes.c_uint64()
    err = _lib.errbuf()
    rc = _lib.lib.kh_np_encode(kind, arr, len(args), ctypes.byref(out), err, len(err))
    if rc:
        raise InputError(err.value.decode(), rc)
    return out.value


def fp16_bits(x: float) -> int:
    """The FP16 bit pattern of x (round to nearest even), for MEMSET scale and e_max."""
    return int(np.array(x, dtype=np.float16).view(np.uint16))


class Program:
    """An NPU program under construction. Each method appends one instruction and returns the
    program, so calls chain; ``payloads()`` gives what :meth:`kohaku.Node.dispatch` sends.

    >>> p = Program().memset_host_base(0x100000).memset_xfer(0, rows=4, elems=32)
    """

    def __init__(self, words: Iterable[int] = ()):
        self.words: List[int] = []
        for w in words:
            if not 0 <= int(w) < 1 << 64:
                raise InputError(f"instruction word {w!r} is not 64-bit")
            self.words.append(int(w))

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self):
        return iter(self.words)

    def _add(self, kind: int, *args: int) -> "Program":
        self.words.append(encode(kind, *args))
        return self

    # ---- GEMV / GEMM (seed §1) ----
    def gemv(self, dest: int, src: int, *, shape: int, weights: int = 0, lanes: int = 0,
             findemax: bool = False, accm: bool = False, w_scale: bool = False, flags: int = 0) -> "Program":
        """GEMV: activation at L2 line ``src``, result to ``dest``; fmap entry ``shape`` (M, N, K),
        weight entry ``weights``; ``lanes`` 0 = all 32."""
        f = flags | (GF_FINDEMAX if findemax else 0) | (GF_ACCM if accm else 0) | (GF_W_SCALE if w_scale else 0)
        return self._add(_GEMV, dest, src, f, weights, shape, lanes)

    def gemm(self, dest: int, src: int, *, shape: int, weights: int = 0, lanes: int = 0,
             findemax: bool = False, accm: bool = False, w_scale: bool = False, flags: int = 0) -> "Program":
        """GEMM: as :meth:`gemv` over M rows."""
        f = flags | (GF_FINDEMAX if findemax else 0) | (GF_ACCM if accm else 0) | (GF_W_SCALE if w_scale else 0)
        return self._add(_GEMM, dest, src, f, weights, shape, lanes)

    # ---- MEMCPY (seed §2) ----
    def memcpy(self, *, from_host: bool, to_host: bool, dest: int, src: int, aux: int, shape: int,
               async_: bool = False) -> "Program":
        """MEMCPY with every field given (host to host is encoded; the NPU faults it)."""
        return self._add(_MEMCPY, int(from_host), int(to_host), dest, src, aux, shape, int(async_))

    def memcpy_in(self, l2_dest: int, aux: int, *, shape: int, async_: bool = False) -> "Program":
        """Node DRAM at host base + ``aux`` lines into L2 from line ``l2_dest``; fmap entry ``shape``."""
        return self._add(_MEMCPY_IN, l2_dest, aux, shape, int(async_))

    def memcpy_out(self, aux: int, l2_src: int, *, shape: int, async_: bool = False) -> "Program":
        """L2 from line ``l2_src`` to node DRAM at host base + ``aux`` lines."""
        return self._add(_MEMCPY_OUT, aux, l2_src, shape, int(async_))

    # ---- MEMSET (seed §3) ----
    def memset(self, cache: int, index: int, a: int = 0, b: int = 0, c: int = 0) -> "Program":
        """MEMSET with raw fields."""
        return self._add(_MEMSET, cache, index, a, b, c)

    def memset_shape(self, index: int, m: int, n: int, k: int) -> "Program":
        """fmap entry for GEMV/GEMM: (M, N, K)."""
        return self._add(_SHAPE, index, m, n, k)

    def memset_xfer(self, index: int, rows: int, elems: int, stride: int = 0) -> "Program":
        """fmap entry for MEMCPY: ``rows`` of ``elems`` FP16 elements, ``stride`` lines (0 packed)."""
        return self._add(_XFER, index, rows, elems, stride)

    def memset_weight(self, index: int, line: int, scale: float = 1.0, stride: int = 0) -> "Program":
        """weight entry: weights at even L2 ``line``, FP16 ``scale`` (used with w_scale)."""
        return self._add(_WEIGHT, index, line, fp16_bits(scale), stride)

    def memset_host_base(self, addr: int) -> "Program":
        """The host base register: unit-global byte address, 32-byte aligned."""
        return self._add(_HOST_BASE, addr)

    def memset_scale(self, s: float) -> "Program":
        """Scalar S (FP16), used by CVO SCALE."""
        return self._add(_MEMSET, CACHE_SCALAR, SCALAR_S, fp16_bits(s), 0, 0)

    def memset_emax(self, e_max: float) -> "Program":
        """Scalar e_max (FP16), e.g. ``float('-inf')`` before a findemax GEMM."""
        return self._add(_MEMSET, CACHE_SCALAR, SCALAR_EMAX, fp16_bits(e_max), 0, 0)

    # ---- CVO (seed §4) ----
    def cvo(self, func: Union[str, int], src: int, dst: int, length: int, *, sub_emax: bool = False,
            recip_scale: bool = False, accm: bool = False, flags: int = 0, async_: bool = False) -> "Program":
        """Vector op ``func`` (a name of :data:`CVO_FUNCS` or its number) over ``length``
        elements from L2 line ``src`` to ``dst``."""
        if isinstance(func, str):
            if func.lower() not in CVO_FUNCS:
                raise InputError(f"CVO function {func!r} is not one of {', '.join(CVO_FUNCS)}")
            func = CVO_FUNCS[func.lower()]
        f = flags | (CF_SUB_EMAX if sub_emax else 0) | (CF_RECIP_SCALE if recip_scale else 0) | (CF_ACCM if accm else 0)
        return self._add(_CVO, func, src, dst, length, f, int(async_))

    # ---- output ----
    def payloads(self) -> np.ndarray:
        """The CU_INST payloads, shape (n, 4) uint64: word 3 is the instruction."""
        p = np.zeros((len(self.words), 4), dtype=np.uint64)
        p[:, 3] = np.array(self.words, dtype=np.uint64)
        return p

    def text(self) -> str:
        """kactl's program text form (one payload per line, four 64-bit words)."""
        return "".join(f"0 0 0 0x{w:016x}\n" for w in self.words)

    @classmethod
    def from_text(cls, text: str) -> np.ndarray:
        """Parse kactl's program text form with libkohaku's parser; returns payloads (n, 4)."""
        return parse_program(text.encode())

    @classmethod
    def load(cls, path: Union[str, Path]) -> np.ndarray:
        """Payloads of a program file (kactl's text form)."""
        return parse_program(Path(path).read_bytes(), str(path))


def parse_program(data: bytes, where: str = "program") -> np.ndarray:
    """kh_parse_program over data; :class:`InputError` names line and column."""
    cap = _lib.CONST["KQ_MAX_PROG"] + 1
    out = (ctypes.c_uint64 * 4 * cap)()
    n = ctypes.c_uint32()
    e = _lib.KhTextErr()
    rc = _lib.lib.kh_parse_program(data, len(data), out, cap, ctypes.byref(n), ctypes.byref(e))
    if rc:
        raise InputError(f"{where}:{e.line}:{e.col}: {e.why.decode()}", rc)
    return np.ctypeslib.as_array(out)[: n.value].reshape(n.value, 4).copy()


def as_payloads(program: Union[Program, np.ndarray, Sequence[int], str, Path]) -> np.ndarray:
    """What dispatch sends for any accepted program form: a :class:`Program`, payloads (n, 4),
    a sequence of NP instruction words, or a program file's path."""
    if isinstance(program, Program):
        p = program.payloads()
    elif isinstance(program, (str, Path)):
        p = Program.load(program)
    else:
        a = np.asarray(program)
        if a.ndim == 1:
            p = Program(a.tolist()).payloads()
        elif a.ndim == 2 and a.shape[1] == 4:
            p = a.astype(np.uint64)
        else:
            raise InputError(f"a program is a Program, payloads of shape (n, 4) or instruction words; got shape {a.shape}")
    if len(p) == 0:
        raise InputError("the program has no instruction")
    return np.ascontiguousarray(p, dtype=np.uint64)
