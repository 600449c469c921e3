"""Mover descriptor lists from tensor-level calls (docs/mover.md, docs/python.md §4).

A :class:`TensorRef` names a tensor in node memory: unit-global address, numpy shape, dtype and
byte strides. :class:`MoveList` turns copy, transpose, pad, gather, fill and generate over such
tensors into mover walks and hands them to libkohaku's builder (mover/build.c), which emits the
register writes; the list then goes to :meth:`kohaku.Node.replay`.

The mover moves whole 32-byte words (docs/hardware.md §3): every tensor's last axis must be contiguous
and a whole number of words long, and that axis stays innermost (a transpose reorders the
other axes). The hardware's GATHER erratum (docs/hardware.md §3.1: a row that starts a new index word
reads the previous word's first index) is avoided by construction: :meth:`MoveList.gather`
emits one move per eight indices, each starting on its own index word.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from .errors import BuildError, InputError, StatusError

WORD = 32                       # bytes the mover moves at once (KMV_WORD_BYTES)
MAX_DIMS = _lib.CONST["KMV_MAX_DIMS"]
MAX_COUNT = 0xFFFF              # a walker dimension's count field (16 bits)
GATHER_MAX_INDICES = 8          # per move: the erratum's limit
INT32 = (-(1 << 31), (1 << 31) - 1)
INT16 = (-(1 << 15), (1 << 15) - 1)

# enum kmv_width
_WIDTH = {1: 0, 2: 1, 4: 2}


@dataclass(frozen=True)
class TensorRef:
    """A tensor in node memory: ``addr`` (unit-global), ``shape``, ``dtype``, ``strides`` in
    bytes (C order when not given), as numpy describes an array."""

    addr: int
    shape: Tuple[int, ...]
    dtype: np.dtype
    strides: Tuple[int, ...] = ()

    def __init__(self, addr: int, shape: Union[int, Sequence[int]], dtype=np.uint8,
                 strides: Optional[Sequence[int]] = None):
        shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
        dt = np.dtype(dtype)
        if strides is None:
            st, acc = [], dt.itemsize
            for s in reversed(shape):
                st.append(acc)
                acc *= s
            strides = tuple(reversed(st))
        strides = tuple(int(s) for s in strides)
        if len(strides) != len(shape):
            raise InputError(f"shape {shape} and strides {strides} differ in length")
        if not shape or any(s <= 0 for s in shape):
            raise InputError(f"shape {shape}: every dimension must be at least 1")
        if addr < 0:
            raise InputError(f"address {addr:#x} is negative")
        object.__setattr__(self, "addr", int(addr))
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "dtype", dt)
        object.__setattr__(self, "strides", strides)

    @classmethod
    def like(cls, addr: int, array: np.ndarray) -> "TensorRef":
        """A C-ordered tensor at addr with array's shape and dtype."""
        return cls(addr, np.shape(array), np.asarray(array).dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape)) * self.dtype.itemsize

    @property
    def contiguous(self) -> bool:
        return self.strides == TensorRef(self.addr, self.shape, self.dtype).strides

    def transpose(self, *axes: int) -> "TensorRef":
        """The same memory with axes permuted, as ``numpy.transpose``."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        if sorted(axes) != list(range(self.ndim)):
            raise InputError(f"axes {axes} are not a permutation of 0..{self.ndim - 1}")
        return TensorRef(self.addr, [self.shape[a] for a in axes], self.dtype, [self.strides[a] for a in axes])

    def row_words(self) -> int:
        """Words of the last axis; :class:`InputError` unless it is contiguous and whole words."""
        last = self.shape[-1] * self.dtype.itemsize
        if self.strides[-1] != self.dtype.itemsize:
            raise InputError(f"the last axis has stride {self.strides[-1]}, not the element size "
                             f"{self.dtype.itemsize}: the mover moves whole 32-byte words, so the "
                             "innermost axis must be contiguous")
        if last % WORD:
            raise InputError(f"the last axis is {last} bytes, not a whole number of 32-byte words "
                             "(the mover moves whole words)")
        return last // WORD


# A walker dimension: count, source stride, destination stride, source axis code.
_Dim = Tuple[int, int, int, int]


def _merge(dims: List[_Dim]) -> List[_Dim]:
    """Drops dimensions of count 1 and merges neighbours that walk memory as one (same on both
    walkers, no bound axis), so a tensor takes as few of the mover's six dimensions as it can."""
    out: List[_Dim] = [d for d in dims if d[0] != 1 or d[3]]
    if not out:
        out = [dims[-1]]
    merged: List[_Dim] = [out[0]]
    for c, s, d, ax in out[1:]:
        pc, ps, pd, pax = merged[-1]
        if not ax and not pax and ps == c * s and pd == c * d and pc * c <= MAX_COUNT:
            merged[-1] = (pc * c, s, d, 0)
        else:
            merged.append((c, s, d, ax))
    return merged


def _fill_walk(w: _lib.KmvWalk, base: int, counts: Sequence[int], strides: Sequence[int],
               axes: Sequence[int] = (), what: str = "walk") -> None:
    if len(counts) > MAX_DIMS:
        raise InputError(f"the {what} needs {len(counts)} dimensions after merging; the mover walks at most {MAX_DIMS}")
    w.base = base
    w.ndim = len(counts)
    for i, (c, s) in enumerate(zip(counts, strides)):
        if not 1 <= c <= MAX_COUNT:
            raise InputError(f"the {what}'s dimension {i} counts {c} words or rows; a mover dimension counts 1..{MAX_COUNT}")
        if not INT32[0] <= s <= INT32[1]:
            raise InputError(f"the {what}'s dimension {i} has stride {s} bytes; the mover's strides are 32-bit signed")
        w.count[i] = c
        w.stride[i] = s
        if axes:
            w.axis[i] = axes[i]
            w.astep[i] = 1 if axes[i] else 0


def _width_imm(dtype: np.dtype, value) -> Tuple[int, int]:
    """CTRL element width and IMM for a fill or pad value of dtype (IMM is repeated at the
    element width: docs/hardware.md §3.1)."""
    bits = np.array([value], dtype=dtype).view(np.uint8)
    if dtype.itemsize in _WIDTH:
        return _WIDTH[dtype.itemsize], int.from_bytes(bits.tobytes(), "little")
    if not bits.any():
        return _WIDTH[4], 0
    raise InputError(f"a fill or pad value of {dtype} ({dtype.itemsize} bytes) other than 0: the mover repeats "
                     "an 8-, 16- or 32-bit immediate")


@dataclass
class Move:
    """One move of a list: its first and last write indices."""
    first: int
    last: int


class MoveList:
    """A descriptor list: mover register writes, every CTRL write with GO ending one move.

    Built through libkohaku's builder, which keeps track of what the list already wrote, so
    later moves repeat no unchanged bound or immediate. ``records`` is the binary form
    (include/kohaku/desc_list.h: ``{offset, value[31:0], value[63:32]}`` per write).
    """

    def __init__(self, capacity: int = _lib.CONST["KD_MAX_WRITES"]):
        self._buf = (_lib.KdWrite * capacity)()
        self._b = _lib.KmvBuilder()
        _lib.lib.kmv_build_init(ctypes.byref(self._b), self._buf, capacity)

    # ---- the list ----
    def __len__(self) -> int:
        return int(self._b.n)

    @property
    def records(self) -> np.ndarray:
        """The writes as an (n, 3) uint32 array: offset, value low, value high."""
        n = len(self)
        return np.frombuffer(bytes(memoryview(self._buf).cast("B")[: 12 * n]), dtype=np.uint32).reshape(n, 3).copy()

    def writes(self) -> List[Tuple[int, int]]:
        """The writes as (offset, 64-bit value) pairs."""
        return [(int(o), int(lo) | int(hi) << 32) for o, lo, hi in self.records]

    def moves(self) -> List[Move]:
        """Where each move starts and ends (a CTRL write with GO ends one)."""
        out, first = [], 0
        for i, (off, v) in enumerate(self.writes()):
            if off == 0 and v & (1 << 16):
                out.append(Move(first, i))
                first = i + 1
        return out

    def tobytes(self) -> bytes:
        return self.records.tobytes()

    def text(self) -> str:
        """The text form (one ``offset value`` line per write), as libkohaku formats it."""
        line = ctypes.create_string_buffer(32)
        out = []
        for i in range(len(self)):
            _lib.lib.kd_text_format(ctypes.byref(self._buf[i]), line)
            out.append(line.value.decode())
        return "".join(out)

    @classmethod
    def from_records(cls, records) -> "MoveList":
        """A list of given writes: (n, 3) uint32 records, or (offset, value) pairs."""
        ml = cls()
        a = np.asarray(records)
        pairs = [(int(o), int(lo) | int(hi) << 32) for o, lo, hi in a] if a.ndim == 2 and a.shape[1] == 3 else \
            [(int(o), int(v)) for o, v in records]
        for off, v in pairs:
            ml.raw(off, v)
        return ml

    @classmethod
    def from_text(cls, text: Union[str, bytes], where: str = "list") -> "MoveList":
        """Parse the text form with libkohaku's parser (mover/desc_text.c)."""
        data = text.encode() if isinstance(text, str) else text
        cap = _lib.CONST["KD_MAX_WRITES"] + 1
        out = (_lib.KdWrite * cap)()
        n = ctypes.c_uint32()
        e = _lib.KdTextErr()
        st = _lib.lib.kd_text_parse(data, len(data), out, cap, ctypes.byref(n), ctypes.byref(e))
        if st:
            raise InputError(f"{where}:{e.line}:{e.col}: {_lib.cstr(e.why) or 'bad descriptor list'}")
        if n.value == 0:
            raise InputError(f"{where}: the descriptor list has no write")
        ml = cls(max(cap, n.value))
        ctypes.memmove(ml._buf, out, 12 * n.value)
        ml._b.n = n.value
        ml._b.known = 0     # the builder knows nothing of what the text wrote
        if n.value > ml._b.cap:
            # One write more than the firmware takes (so it can say LIST_TOO_LONG): the builder
            # must not append past its capacity, so its sticky status says so first.
            ml._b.status = 0x12     # KS_LIST_TOO_LONG
        return ml

    @classmethod
    def load(cls, path: Union[str, Path]) -> "MoveList":
        return cls.from_text(Path(path).read_bytes(), str(path))

    def validate(self, variant: int = 32) -> int:
        """Run libkohaku's validator (the firmware's own, mover/validate.c) with the reach of
        RV32 or RV64; returns the number of moves, raises :class:`StatusError` naming the write."""
        if variant not in _lib.CAPS:
            raise InputError(f"variant {variant}: 32 or 64")
        r = _lib.KmvResult()
        st = _lib.lib.kmv_validate(self._buf, len(self), _lib.CAPS[variant], ctypes.byref(r))
        if st:
            raise StatusError(st, r.detail, r.index, command=f"validate (RV{variant}, write {r.index})")
        return int(r.moves)

    # ---- building ----
    def _done(self, st: int, what: str) -> "MoveList":
        if st:
            raise BuildError(st, 0, len(self), command=f"building {what}")
        return self

    def raw(self, offset: int, value: int) -> "MoveList":
        """One register write as given (tests and hand-made lists; a TRANSPOSE GO is refused)."""
        if not 0 <= offset < 1 << 32 or not 0 <= value < 1 << 64:
            raise InputError(f"write {offset:#x} {value:#x}: offset is 32-bit, value 64-bit")
        return self._done(_lib.lib.kmv_build_raw(ctypes.byref(self._b), offset, value), "a raw write")

    def copy(self, dst: TensorRef, src: TensorRef) -> "MoveList":
        """dst[...] = src, src broadcast to dst's shape as numpy does (a broadcast axis walks
        with stride 0). The last axes must match."""
        words = dst.row_words()
        if src.row_words() != words:
            raise InputError(f"last axes differ: dst {dst.shape[-1]} x {dst.dtype}, src {src.shape[-1]} x {src.dtype}")
        nd = dst.ndim
        if src.ndim > nd:
            raise InputError(f"src has {src.ndim} axes, dst {nd}: cannot broadcast")
        sshape = (1,) * (nd - src.ndim) + src.shape
        sstr = (0,) * (nd - src.ndim) + src.strides
        dims: List[_Dim] = []
        for i in range(nd - 1):
            if sshape[i] not in (1, dst.shape[i]):
                raise InputError(f"src shape {src.shape} does not broadcast to dst shape {dst.shape} (axis {i})")
            dims.append((dst.shape[i], sstr[i] if sshape[i] == dst.shape[i] else 0, dst.strides[i], 0))
        dims.append((words, WORD, WORD, 0))
        dims = _merge(dims)
        d, s = _lib.KmvWalk(), _lib.KmvWalk()
        _fill_walk(d, dst.addr, [c for c, *_ in dims], [x[2] for x in dims], what="destination walk")
        _fill_walk(s, src.addr, [c for c, *_ in dims], [x[1] for x in dims], what="source walk")
        # The element width matters only for padding (IMM's pattern); 32-bit is the neutral choice.
        return self._done(_lib.lib.kmv_build_copy(ctypes.byref(self._b), ctypes.byref(d), ctypes.byref(s),
                                                  _WIDTH[4], 0, 0), "a copy")

    def transpose(self, dst: TensorRef, src: TensorRef, axes: Sequence[int]) -> "MoveList":
        """dst = src.transpose(axes): a COPY with the source walker's dimensions reordered (the
        mover has no transpose mode). The last axis stays last: the mover moves whole words."""
        axes = tuple(axes)
        if len(axes) != src.ndim or axes[-1] != src.ndim - 1:
            raise InputError(f"axes {axes}: the last axis must stay last (the mover moves whole 32-byte "
                             "words, so it can reorder rows but not the elements inside a row)")
        t = src.transpose(axes)
        if t.shape != dst.shape:
            raise InputError(f"src.transpose{axes} has shape {t.shape}, dst {dst.shape}")
        return self.copy(dst, t)

    def pad(self, dst: TensorRef, src: TensorRef, pad_width: Sequence[Tuple[int, int]], value=0) -> "MoveList":
        """dst = numpy.pad(src, pad_width, constant_values=value): a COPY whose source walker
        has bound axes (out-of-bound elements take IMM, docs/hardware.md §3.1). At most two axes may be
        padded (the mover has two bound axes); last-axis padding is whole words. Needs IMM
        (offset 0x40): RV64 firmware refuses it with NO_REACH."""
        nd = src.ndim
        pw = [tuple(int(x) for x in p) for p in pad_width]
        if len(pw) != nd or any(len(p) != 2 or min(p) < 0 for p in pw):
            raise InputError(f"pad_width {pad_width}: one (before, after) pair of non-negative ints per axis")
        want = tuple(s + b + a for s, (b, a) in zip(src.shape, pw))
        if dst.shape != want:
            raise InputError(f"dst shape {dst.shape}, padding src {src.shape} by {pw} gives {want}")
        if dst.dtype.itemsize != src.dtype.itemsize:
            raise InputError("dst and src element sizes differ")
        words = src.row_words()
        dwords = dst.row_words()
        isz = src.dtype.itemsize
        padded = [i for i, p in enumerate(pw) if p != (0, 0)]
        if len(padded) > 2:
            raise InputError(f"{len(padded)} axes padded; the mover has two bound axes")
        # In walker units: rows for outer axes, words for the last.
        before, extent, count = [], [], []
        for i in range(nd):
            if i == nd - 1:
                b, a = pw[i]
                if (b * isz) % WORD or (a * isz) % WORD:
                    raise InputError(f"last-axis padding {pw[i]} is not whole 32-byte words ({WORD // isz} elements)")
                before.append(b * isz // WORD)
                extent.append(words)
                count.append(dwords)
            else:
                before.append(pw[i][0])
                extent.append(src.shape[i])
                count.append(dst.shape[i])
        sstr = list(src.strides[:-1]) + [WORD]
        dstr = list(dst.strides[:-1]) + [WORD]
        code = {ax: k + 1 for k, ax in enumerate(padded)}
        dims = _merge([(count[i], sstr[i], dstr[i], code.get(i, 0)) for i in range(nd)])
        base = src.addr - sum(before[i] * sstr[i] for i in range(nd))
        if base < 0:
            raise InputError("the padded source walk would start below address 0")
        d, s = _lib.KmvWalk(), _lib.KmvWalk()
        _fill_walk(d, dst.addr, [x[0] for x in dims], [x[2] for x in dims], what="destination walk")
        _fill_walk(s, base, [x[0] for x in dims], [x[1] for x in dims], [x[3] for x in dims], what="source walk")
        for ax, k in code.items():
            lo, hi = -before[ax], -before[ax] + count[ax] - 1
            if lo < INT16[0] or hi > INT16[1] or extent[ax] > MAX_COUNT:
                raise InputError(f"axis {ax}: positions {lo}..{hi} leave the mover's 16-bit bound axis")
            s.bound_base[k - 1] = lo
            s.bound_extent[k - 1] = extent[ax]
        width, imm = _width_imm(src.dtype, value)
        return self._done(_lib.lib.kmv_build_copy(ctypes.byref(self._b), ctypes.byref(d), ctypes.byref(s),
                                                  width, imm, 0), "a pad")

    def fill(self, dst: TensorRef, value=0) -> "MoveList":
        """dst[...] = value: a FILL from IMM at dst's element width. Needs IMM (RV64: NO_REACH)."""
        dims = _merge([(dst.shape[i], 0, dst.strides[i], 0) for i in range(dst.ndim - 1)] +
                      [(dst.row_words(), 0, WORD, 0)])
        d = _lib.KmvWalk()
        _fill_walk(d, dst.addr, [x[0] for x in dims], [x[2] for x in dims], what="destination walk")
        width, imm = _width_imm(dst.dtype, value)
        return self._done(_lib.lib.kmv_build_fill(ctypes.byref(self._b), ctypes.byref(d), width, imm, 0), "a fill")

    def generate(self, dst: TensorRef, seed: int) -> "MoveList":
        """dst filled by the mover's generator (Philox-4x32-10 keyed by ``seed``, counter from
        each word's address: docs/hardware.md §3.1), so the bytes depend only on seed and address."""
        if not 0 <= seed < 1 << 64:
            raise InputError(f"seed {seed:#x} is not 64-bit")
        dims = _merge([(dst.shape[i], 0, dst.strides[i], 0) for i in range(dst.ndim - 1)] +
                      [(dst.row_words(), 0, WORD, 0)])
        d = _lib.KmvWalk()
        _fill_walk(d, dst.addr, [x[0] for x in dims], [x[2] for x in dims], what="destination walk")
        return self._done(_lib.lib.kmv_build_generate(ctypes.byref(self._b), ctypes.byref(d), seed, 0), "a generate")

    def gather(self, dst: TensorRef, table: TensorRef, index: TensorRef) -> "MoveList":
        """dst[r] = table[index[r]]: rows of a 2-D ``table`` picked by the 32-bit indices of the
        1-D ``index`` tensor (already in node memory), into ``dst`` of shape (len(index), row).

        One GATHER move per eight indices, each reading its own 32-byte index word, so no move
        has a row that starts a new index word: the hardware erratum of docs/hardware.md §3.1 never
        applies. Needs the GATHER register (offset 0x50): RV64 firmware refuses it (NO_REACH)."""
        if table.ndim != 2 or dst.ndim != 2 or index.ndim != 1:
            raise InputError("gather: table and dst are 2-D (rows, row), index is 1-D")
        if index.dtype.itemsize != 4 or index.dtype.kind not in "iu" or index.strides != (4,):
            raise InputError(f"gather: index must be contiguous 32-bit integers, got {index.dtype} strides {index.strides}")
        n = index.shape[0]
        words = table.row_words()
        if dst.shape[0] != n or dst.row_words() != words:
            raise InputError(f"gather: dst {dst.shape} must be ({n}, a row of table {table.shape})")
        pitch = table.strides[0]
        if not 0 <= pitch < 1 << 32:
            raise InputError(f"gather: table row stride {pitch} must be 0..2^32-1 bytes")
        for c in range(0, n, GATHER_MAX_INDICES):
            k = min(GATHER_MAX_INDICES, n - c)
            dims = _merge([(k, 0, dst.strides[0], 0), (words, 0, WORD, 0)])
            d = _lib.KmvWalk()
            _fill_walk(d, dst.addr + c * dst.strides[0], [x[0] for x in dims], [x[2] for x in dims],
                       what="destination walk")
            # Indices c..c+k-1 are exactly the index word at index.addr + 4c (c is a multiple of 8).
            st = _lib.lib.kmv_build_gather(ctypes.byref(self._b), ctypes.byref(d), table.addr,
                                           index.addr + 4 * c, k, pitch, words, 0)
            self._done(st, f"gather rows {c}..{c + k - 1}")
        return self
