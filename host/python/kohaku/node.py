"""A system node driven through libkohaku: link, boot, command queue, memory.

:class:`Node` is the Python face of what ``kactl`` does with the same library calls
(docs/host-interface.md): it opens a link (the QEMU host port's Unix socket), flashes and boots
the firmware, and runs commands through the firmware's queue. Every wait is libkohaku's, bounded
by ``timeout_ms``; every failure raises a :class:`~kohaku.errors.KohakuError`.
"""
from __future__ import annotations

import ctypes
import os
import struct
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from .errors import (InputError, KohakuError, LibraryError, PortError, StateError, StatusError,
                     library_error, status_name)
from .moves import MoveList, TensorRef
from .npu import Program, as_payloads

C = _lib.CONST
L = _lib.lib

DEFAULT_LINK = "/tmp/kohaku-hostport.sock"
#: Unit types of the default map (CU_CAPS[63:48]).
UNIT_TYPES = {0x4E50: "NP", 0x5455: "TU"}

Target = Union[Tuple[int, int], str]


def parse_target(t: Target) -> int:
    """(x, y) or "X,Y" into {y[3:0], x[3:0]}."""
    if isinstance(t, str):
        yx = ctypes.c_uint8()
        if L.kh_parse_target(t.encode(), ctypes.byref(yx)):
            raise InputError(f"target {t!r} is not X,Y with 0 <= X, Y <= 15")
        return yx.value
    try:
        x, y = (int(v) for v in t)
    except (TypeError, ValueError):
        raise InputError(f"target {t!r} is not (x, y)") from None
    if not (0 <= x <= 15 and 0 <= y <= 15):
        raise InputError(f"target ({x}, {y}): 0 <= x, y <= 15")
    return y << 4 | x


@dataclass(frozen=True)
class Completion:
    """One completion of the firmware's queue (include/kohaku/queue.h struct kq_cpl)."""
    tag: int
    status: int
    name: str
    detail: int
    value: int
    cycles: int
    explanation: str
    # processor cycles the command spent waiting for the mover (struct kq_cpl mover_cycles)
    mover_cycles: int = 0

    @property
    def ok(self) -> bool:
        return self.status == 0

    @classmethod
    def from_c(cls, c: _lib.KqCpl) -> "Completion":
        buf = ctypes.create_string_buffer(256)
        L.kh_explain_cpl(ctypes.byref(c), buf, len(buf))
        return cls(int(c.tag), int(c.status), status_name(c.status), int(c.detail), int(c.value),
                   int(c.cycles), buf.value.decode(), int(c.mover_cycles))


@dataclass(frozen=True)
class CoreStatus:
    """The processor's host registers, with libkohaku's explanation in words."""
    state: str              # held, running, halted, exited
    cause: int
    word: int
    pc: int
    cycles: int
    instret: int
    variant: int
    now_ns: int
    explanation: str

    @property
    def clean_exit(self) -> bool:
        return self.state == "exited" and self.word == C["KX_EXIT_OK"]


@dataclass(frozen=True)
class Unit:
    """One entry of the firmware's unit table."""
    x: int
    y: int
    type: int
    type_name: str
    version: int
    buffers: int
    depth: int


@dataclass(frozen=True)
class QueueState:
    """The queue's lines as the firmware left them (kh_queue_view)."""
    addr: int
    entries: int
    sq_tail: int
    sq_head: int
    cq_tail: int
    cq_head: int
    firmware: str           # BOOTING, READY, STOPPED, FATAL
    fatal_code: int
    progress: int           # the last RUN SIGNAL value
    units: int


@dataclass(frozen=True)
class NodeStatus:
    core: CoreStatus
    queue: Optional[QueueState]     # None when no firmware was booted by a host


@dataclass(frozen=True)
class BootReport:
    variant: int
    flashed: str            # what went where (kh_elf_describe)
    units: int
    queue_addr: int
    entries: int
    cycles: int
    instret: int
    ready_instret: int      # release to READY, the firmware's own count (0: not reported)
    ready_cycles: int
    posted: List[Completion] = field(default_factory=list)   # completions found at boot (ABORTED)


@dataclass(frozen=True)
class ReplayResult:
    completion: Completion
    moves: List[str]        # per move: "OK", a status name, or "not run"


class Steps:
    """A RUN step list (docs/host-interface.md "RUN"): built here, run by :meth:`Node.run`."""

    def __init__(self) -> None:
        self.steps: List[Tuple[int, dict, Optional[bytes]]] = []

    def __len__(self) -> int:
        return len(self.steps)

    def dispatch(self, target: Target, program, *, txn: int = 0, credit: int = 0) -> "Steps":
        """Send a program to target; does not wait."""
        p = as_payloads(program)
        _check_range("txn", txn, 255)
        _check_range("credit", credit, 65535)
        self.steps.append((C["KQ_STEP_DISPATCH"], dict(target=parse_target(target), txn=txn, credit_cap=credit,
                                                       n=len(p)), p.tobytes()))
        return self

    def replay(self, moves: Union[MoveList, str, Path]) -> "Steps":
        """Run a descriptor list; waits for every move."""
        ml = _as_moves(moves)
        self.steps.append((C["KQ_STEP_REPLAY"], dict(n=len(ml)), ml.tobytes()))
        return self

    def wait(self, target: Target, n: int) -> "Steps":
        """Until n programs dispatched to target in this RUN completed."""
        _check_range("n", n, 0xFFFFFFFF, lo=1)
        self.steps.append((C["KQ_STEP_WAIT"], dict(target=parse_target(target), n=n), None))
        return self

    def barrier(self) -> "Steps":
        """Until every dispatched program completed."""
        self.steps.append((C["KQ_STEP_BARRIER"], {}, None))
        return self

    def signal(self, value: int) -> "Steps":
        """Write value to the queue's progress line, after everything before it."""
        _check_range("signal value", value, (1 << 64) - 1)
        self.steps.append((C["KQ_STEP_SIGNAL"], dict(addr=value), None))
        return self

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Steps":
        """A step file (kactl run's text form), parsed by libkohaku; files relative to it."""
        path = Path(path)
        data = path.read_bytes()
        out = (_lib.KhStepSrc * C["KH_STEPS_MAX"])()
        n = ctypes.c_uint32()
        e = _lib.KhTextErr()
        rc = L.kh_parse_steps(data, len(data), str(path.parent).encode(), out, C["KH_STEPS_MAX"],
                              ctypes.byref(n), ctypes.byref(e))
        if rc:
            raise InputError(f"{path}:{e.line}:{e.col}: {e.why.decode()}", rc)
        s = cls()
        for src in out[: n.value]:
            st = src.step
            f = src.file.decode()
            if st.op == C["KQ_STEP_DISPATCH"]:
                s.dispatch(((st.target & 15), st.target >> 4), f, txn=st.txn, credit=st.credit_cap)
            elif st.op == C["KQ_STEP_REPLAY"]:
                s.replay(f)
            elif st.op == C["KQ_STEP_WAIT"]:
                s.wait((st.target & 15, st.target >> 4), st.n)
            elif st.op == C["KQ_STEP_BARRIER"]:
                s.barrier()
            else:
                s.signal(st.addr)
        return s


def _check_range(what: str, v: int, hi: int, lo: int = 0) -> None:
    if not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise InputError(f"{what} = {v!r}: {lo}..{hi}")


def _as_moves(moves) -> MoveList:
    if isinstance(moves, MoveList):
        ml = moves
    elif isinstance(moves, (str, Path)):
        ml = MoveList.load(moves)
    else:
        ml = MoveList.from_records(moves)
    if len(ml) == 0:
        raise InputError("the descriptor list has no write")
    return ml


class Node:
    """A system node reached through a link.

    ``link`` is a link spec as kactl's ``--link`` takes it (docs/host.md "Links"):
    ``"qemu:PATH"`` or a plain PATH (the Unix socket of QEMU's host port), ``"jtag:HOST:PORT"``
    (our Tcl server in a Vivado hardware-manager session), ``"xdma:/dev/xdma0"`` (PCIe); by default
    $KACTL_LINK, else $KACTL_SOCKET, else /tmp/kohaku-hostport.sock, as kactl. ``timeout_ms`` bounds every wait.

    Use it as a context manager so the link is closed::

        with Node("qemu:/tmp/hp.sock") as node:
            node.boot("build/qemu-rv32/fw.elf")
            print(node.units())
    """

    def __init__(self, link: Optional[str] = None, *, timeout_ms: int = C["KH_DEF_TIMEOUT_MS"]):
        self.link = link or os.environ.get("KACTL_LINK") or os.environ.get("KACTL_SOCKET") or DEFAULT_LINK
        self.timeout_ms = timeout_ms
        self._n = None
        self._q = _lib.KhQueue()
        self._queue_addr: Optional[int] = None
        self._cursor = C["KH_DEF_DATA_UG"]
        n = _lib.opaque(_lib.NODE_SIZE)
        rc = L.kh_open_link(n, self.link.encode(), timeout_ms)
        if rc:
            msg = _lib.cstr(L.kh_error(n))
            L.kh_close(n)
            raise library_error(rc, f"opening {self.link}: {msg}")
        self._n = n

    # ---- plumbing ----
    def __enter__(self) -> "Node":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def close(self) -> None:
        """Close the link (the node keeps running)."""
        if self._n is not None:
            L.kh_close(self._n)
            self._n = None

    @property
    def closed(self) -> bool:
        return self._n is None

    def _node(self):
        if self._n is None:
            raise StateError("the link is closed")
        return self._n

    def _check(self, rc: int, doing: str) -> None:
        if rc:
            msg = f"{doing}: {_lib.cstr(L.kh_error(self._n))}"
            e = library_error(rc, msg)
            if isinstance(e, PortError):
                e.port_status = _lib.read_field(self._n, _lib.NODE_PORT_STATUS, ctypes.c_uint8)
                e.port_status_name = _lib.cstr(L.kh_port_status_name(e.port_status))
            raise e

    @property
    def variant(self) -> int:
        """32 or 64: the core this node has."""
        return _lib.read_field(self._node(), _lib.NODE_VARIANT, ctypes.c_uint)

    @property
    def requests(self) -> int:
        """Host-port requests made on this link so far."""
        return _lib.read_field(self._node(), _lib.NODE_REQUESTS, ctypes.c_uint64)

    # ---- memory ----
    def read(self, addr: Union[int, TensorRef], length: Optional[int] = None, *, dtype=None,
             shape=None) -> Union[bytes, np.ndarray]:
        """Node memory at unit-global ``addr``: ``read(addr, n)`` gives n bytes;
        ``read(addr, dtype=..., shape=...)`` a numpy array; ``read(tensor_ref)`` the tensor
        (any strides) as a C-ordered array."""
        if isinstance(addr, TensorRef):
            return self._read_tensor(addr)
        if dtype is not None or shape is not None:
            dt = np.dtype(dtype or np.uint8)
            shp = tuple(np.atleast_1d(shape if shape is not None else (length or 0) // dt.itemsize))
            count = int(np.prod(shp))
            return np.frombuffer(self.read(addr, count * dt.itemsize), dtype=dt).reshape(shp).copy()
        if length is None or length < 0:
            raise InputError("read: give a length in bytes, or dtype and shape")
        buf = ctypes.create_string_buffer(max(1, length))
        if length:
            self._check(L.kh_mem_read(self._node(), addr, buf, length), f"reading {length} bytes at {addr:#x}")
        return buf.raw[:length]

    def _read_tensor(self, t: TensorRef) -> np.ndarray:
        lo = t.addr + sum(min(0, (s - 1) * st) for s, st in zip(t.shape, t.strides))
        hi = t.addr + sum(max(0, (s - 1) * st) for s, st in zip(t.shape, t.strides)) + t.dtype.itemsize
        raw = np.frombuffer(self.read(lo, hi - lo), dtype=np.uint8)
        # The tensor's elements picked from the bytes read by numpy's own stride arithmetic,
        # each element as its itemsize bytes.
        arr = np.lib.stride_tricks.as_strided(raw[t.addr - lo:], shape=t.shape + (t.dtype.itemsize,),
                                              strides=t.strides + (1,), writeable=False)
        return np.ascontiguousarray(arr).view(t.dtype).reshape(t.shape)

    def write(self, addr: Union[int, TensorRef], data, raw: bool = False) -> int:
        """Write bytes-like data or a numpy array (its C-ordered bytes) at unit-global addr, or
        into a contiguous :class:`TensorRef` of the same size. Returns the bytes written. The
        firmware's own DRAM (0x40_0000-0x50_FFFF: its cold code, copy buffer and records) is
        refused with :class:`InputError` unless ``raw`` (tests that play a stray write, repairs)."""
        if isinstance(addr, TensorRef):
            if not addr.contiguous:
                raise InputError("write: a strided TensorRef cannot be written directly (copy it with a MoveList)")
            arr = np.ascontiguousarray(np.asarray(data, dtype=addr.dtype))
            if arr.size * arr.itemsize != addr.nbytes:
                raise InputError(f"write: {arr.nbytes} bytes for a tensor of {addr.nbytes}")
            addr = addr.addr
            data = arr
        if isinstance(data, np.ndarray):
            b = np.ascontiguousarray(data).tobytes()
        elif isinstance(data, (bytes, bytearray, memoryview)):
            b = bytes(data)
        else:
            raise InputError(f"write: bytes or a numpy array, not {type(data).__name__}")
        if b:
            fn = L.kh_mem_write_raw if raw else L.kh_mem_write
            self._check(fn(self._node(), addr, b, len(b)), f"writing {len(b)} bytes at {addr:#x}")
        return len(b)

    def zero(self, addr: int, length: int) -> None:
        """Zero length bytes of node memory."""
        self._check(L.kh_mem_zero(self._node(), addr, length), f"zeroing {length} bytes at {addr:#x}")

    def agent_read(self, off: int) -> int:
        """One 64-bit control-agent register (docs/hardware.md §1 offset)."""
        v = ctypes.c_uint64()
        self._check(L.kh_agent_read(self._node(), off, ctypes.byref(v)), f"reading agent register {off:#x}")
        return v.value

    def agent_write(self, off: int, value: int) -> None:
        self._check(L.kh_agent_write(self._node(), off, value), f"writing agent register {off:#x}")

    # ---- core ----
    def core(self) -> CoreStatus:
        """The core's state from the processor host registers, explained."""
        cs = _lib.KhCoreStatus()
        self._check(L.kh_core_status(self._node(), ctypes.byref(cs)), "reading the core")
        return _core_status(cs)

    def referee(self) -> Dict[str, int]:
        """The model's referee counters by name (all 0 when no hardware rule was broken)."""
        r = (ctypes.c_uint64 * len(_lib.REFEREE_NAMES))()
        self._check(L.kh_referee_read(self._node(), r), "reading the referee")
        return dict(zip(_lib.REFEREE_NAMES, (int(v) for v in r)))

    def inject(self, item: str) -> None:
        """Arm a model fault now (kactl inject's syntax: ``hang@X,Y``, ``axi@N``, ...)."""
        f = _lib.KhFault()
        if L.kh_parse_fault(item.encode(), ctypes.byref(f)):
            raise InputError(f"{item!r} is not a fault item (hang@X,Y[:N], fault@X,Y[:N[:CODE]], axi@N, ...)")
        self._check(L.kh_inject(self._node(), ctypes.byref(f)), f"arming {item}")

    def clear_faults(self) -> None:
        self._check(L.kh_inject_clear(self._node()), "clearing the faults")

    # ---- boot ----
    def boot(self, firmware: Union[str, Path, bytes], *, units: Optional[Sequence] = None,
             wait_cycles: int = C["KH_DEF_WAIT_CYCLES"], entries: int = C["KH_DEF_ENTRIES"],
             queue_addr: int = C["KH_DEF_QUEUE_UG"], resume: bool = False) -> BootReport:
        """Flash and boot, as ``kactl boot``: hold the core, load the ELF through the load paths,
        write the boot block and a fresh queue (``resume`` keeps the queue and its indices),
        release the core and wait until the firmware reports READY.

        ``units``: a unit table instead of enumeration, entries ``(x, y, type, depth[, version[,
        buffers]])`` with type a number or "NP"/"TU"."""
        img = firmware if isinstance(firmware, (bytes, bytearray)) else Path(firmware).read_bytes()
        where = "image" if isinstance(firmware, (bytes, bytearray)) else str(firmware)
        cimg = (ctypes.c_uint8 * max(1, len(img))).from_buffer_copy(bytes(img) or b"\0")
        elf = _lib.opaque(_lib.ELF_SIZE)
        err = _lib.errbuf()
        rc = L.kh_elf_parse(cimg, len(img), elf, err, len(err))
        if rc:
            raise library_error(rc, f"{where}: {err.value.decode()}")
        ev = _lib.read_field(elf, _lib.ELF_VARIANT, ctypes.c_uint)
        if ev != self.variant:
            raise InputError(f"{where} is an RV{ev} image but the node's core is RV{self.variant}")
        _check_range("wait_cycles", wait_cycles, 0xFFFFFFFF)
        _check_range("entries", entries, C["KQ_MAX_ENTRIES"], lo=1)
        ut = (_lib.KxUnitEntry * C["KX_BOOT_MAX_UNITS"])()
        nu = 0
        if units:
            if len(units) > C["KX_BOOT_MAX_UNITS"]:
                raise InputError(f"{len(units)} units; at most {C['KX_BOOT_MAX_UNITS']}")
            for i, u in enumerate(units):
                x, y, typ, depth, *rest = u
                e = ut[i]
                e.yx = parse_target((x, y))
                names = {v: k for k, v in UNIT_TYPES.items()}
                e.type = names[typ.upper()] if isinstance(typ, str) and typ.upper() in names else int(typ)
                e.inst_depth = int(depth)
                e.version = int(rest[0]) if rest else 1
                e.buffers = int(rest[1]) if len(rest) > 1 else 0
            nu = len(units)
        n = self._node()
        self._check(L.kh_core_hold(n, True), "holding the core")
        self._check(L.kh_load_elf(n, elf), "flashing")
        desc = ctypes.create_string_buffer(512)
        L.kh_elf_describe(elf, desc, len(desc))
        bb = _lib.KxBootblock()
        L.kh_bootblock_make(ctypes.byref(bb), queue_addr, wait_cycles, ut if nu else None, nu)
        self._check(L.kh_bootblock_write(n, ctypes.byref(bb)), "boot block")
        if resume:
            self._check(L.kh_queue_attach(n, ctypes.byref(self._q), queue_addr), "resume")
            self._reset_state_line(queue_addr)
        else:
            self._check(L.kh_queue_create(n, ctypes.byref(self._q), queue_addr, entries, entries), "creating the queue")
        self._queue_addr = queue_addr
        self._q.timeout_ms = self.timeout_ms
        self._check(L.kh_core_hold(n, False), "releasing the core")
        self._check(L.kh_wait_ready(n, ctypes.byref(self._q)), "booting")
        cs = self.core()
        v = self._view()
        return BootReport(self.variant, desc.value.decode(), int(v.units.count), queue_addr,
                          int(self._q.sq_entries), cs.cycles, cs.instret, int(v.ready_instret),
                          int(v.ready_cycles), self._drain())

    def _reset_state_line(self, qaddr: int) -> None:
        # The core is held, so the state line has no other writer: BOOTING makes the READY
        # awaited next this boot's own.
        fw = _lib.KqFwState()
        # Line 5 of the queue header (include/kohaku/queue.h pins it there).
        self._check(L.kh_mem_write(self._node(), qaddr + 5 * 32, ctypes.byref(fw), ctypes.sizeof(fw)),
                    "resetting the state line")

    def restart(self) -> List[Completion]:
        """Restart the firmware in place on the same queue, as ``kactl restart``; returns the
        completions posted at boot (a command taken and not finished comes back ABORTED)."""
        self._attach()
        n = self._node()
        self._check(L.kh_core_hold(n, True), "holding the core")
        self._reset_state_line(self._q.addr)
        self._check(L.kh_core_hold(n, False), "releasing the core")
        self._check(L.kh_wait_ready(n, ctypes.byref(self._q)), "restarting")
        return self._drain()

    def _drain(self) -> List[Completion]:
        out: List[Completion] = []
        cpl = (_lib.KqCpl * 16)()
        got = ctypes.c_uint()
        while True:
            self._check(L.kh_reap(self._node(), ctypes.byref(self._q), cpl, 16, ctypes.byref(got)),
                        "reading completions posted at boot")
            out += [Completion.from_c(cpl[i]) for i in range(got.value)]
            if not got.value:
                return out

    # ---- queue ----
    def _attach(self) -> None:
        """The queue of the running firmware, re-read each command so this process and kactl
        can share it: the address from the boot block unless this Node booted it."""
        n = self._node()
        addr = self._queue_addr
        if addr is None:
            bb = _lib.KxBootblock()
            self._check(L.kh_bootblock_read(n, ctypes.byref(bb)), "finding the queue")
            if bb.magic != C["KX_BOOT_MAGIC"]:
                raise StateError(f"no boot block in the scratchpad (magic {bb.magic:#010x}): boot the node first")
            addr = int(bb.queue_addr)
        self._check(L.kh_queue_attach(n, ctypes.byref(self._q), addr), "attaching to the queue")
        self._q.timeout_ms = self.timeout_ms
        self._cursor = C["KH_DEF_DATA_UG"]

    def _view(self) -> _lib.KhQueueView:
        v = _lib.KhQueueView()
        self._check(L.kh_queue_view(self._node(), ctypes.byref(self._q), ctypes.byref(v)), "reading the queue")
        return v

    def _put(self, data: bytes) -> int:
        """Command data into the data area (KH_DEF_DATA_UG, KH_DEF_DATA_BYTES, as kactl), 32-byte aligned."""
        a = self._cursor
        room = C["KH_DEF_DATA_BYTES"] - (a - C["KH_DEF_DATA_UG"])
        if len(data) > room:
            raise InputError(f"command data ({len(data)} bytes more) does not fit the "
                             f"{C['KH_DEF_DATA_BYTES'] >> 20} MB data area at "
                             f"{C['KH_DEF_DATA_UG']:#x}")
        self.write(a, data)
        self._cursor = (a + len(data) + 31) & ~31
        return a

    def submit(self, op: int, *, addr: int = 0, count: int = 0, txn: int = 0,
               targets: Iterable[Target] = (), credit: int = 0, flags: int = 0,
               ntargets: Optional[int] = None, tag: int = 0) -> Completion:
        """One raw submission, fields as given, no data written; returns the completion whatever
        its status (for diagnosis and tests; :meth:`command` raises on a non-OK status)."""
        self._attach()
        s = _lib.KqSub()
        s.op, s.flags, s.tag, s.addr, s.count, s.txn, s.credit_cap = op, flags, tag, addr, count, txn, credit
        ts = [parse_target(t) for t in targets]
        if len(ts) > C["KQ_MAX_TARGETS"]:
            raise InputError(f"{len(ts)} targets; at most {C['KQ_MAX_TARGETS']}")
        for i, t in enumerate(ts):
            s.targets[i] = t
        s.ntargets = len(ts) if ntargets is None else ntargets
        c = _lib.KqCpl()
        self._check(L.kh_command(self._node(), ctypes.byref(self._q), ctypes.byref(s), ctypes.byref(c)),
                    f"command op {op}")
        return Completion.from_c(c)

    def _command(self, what: str, s: _lib.KqSub, check: bool) -> Completion:
        c = _lib.KqCpl()
        self._check(L.kh_command(self._node(), ctypes.byref(self._q), ctypes.byref(s), ctypes.byref(c)), what)
        comp = Completion.from_c(c)
        if check and not comp.ok:
            raise StatusError(comp.status, comp.detail, comp.value, command=what,
                              explanation=comp.explanation, completion=comp)
        return comp

    def nop(self, count: int = 1) -> List[Completion]:
        """count NOP commands, one after the other."""
        out = []
        for _ in range(count):
            self._attach()
            out.append(self._command("nop", _lib.KqSub(op=C["KQ_OP_NOP"]), True))
        return out

    def units(self) -> List[Unit]:
        """The firmware's unit table (UNITS command)."""
        self._attach()
        self._command("units", _lib.KqSub(op=C["KQ_OP_UNITS"]), True)
        v = self._view()
        out = []
        for i in range(min(int(v.units.count), C["KQ_MAX_UNITS"])):
            e = _lib.KxUnitEntry.from_buffer_copy(bytes(v.units.entries[i]))
            out.append(Unit(e.yx & 15, e.yx >> 4, int(e.type), UNIT_TYPES.get(e.type, "?"), int(e.version),
                            int(e.buffers), int(e.inst_depth)))
        return out

    def status(self) -> NodeStatus:
        """Core state and, when a host booted the firmware, its queue's state."""
        core = self.core()
        n = self._node()
        addr = self._queue_addr
        if addr is None:
            bb = _lib.KxBootblock()
            self._check(L.kh_bootblock_read(n, ctypes.byref(bb)), "reading the boot block")
            addr = int(bb.queue_addr) if bb.magic == C["KX_BOOT_MAGIC"] else None
        if addr is None or L.kh_queue_attach(n, ctypes.byref(self._q), addr):
            return NodeStatus(core, None)
        v = self._view()
        return NodeStatus(core, QueueState(addr, int(self._q.sq_entries), int(v.sq_tail), int(v.sq_head),
                                           int(v.cq_tail), int(v.cq_head),
                                           _lib.cstr(L.kh_fw_state_name(v.fw.state)), int(v.fw.code),
                                           int(v.progress), int(v.units.count)))

    def replay(self, moves: Union[MoveList, str, Path, Sequence], *, check: bool = True) -> ReplayResult:
        """Run a descriptor list with one REPLAY command; the firmware validates it first.
        Raises :class:`StatusError` on a non-OK status unless check is False."""
        ml = _as_moves(moves)
        self._attach()
        s = _lib.KqSub(op=C["KQ_OP_REPLAY"], addr=self._put(ml.tobytes()), count=len(ml))
        comp = self._command("replay", s, False)
        # Per move, as kactl: the failing write is value[63:32] for the mover's statuses; the
        # queue's own input statuses (below 0x10) concern the whole list.
        st = comp.status
        indexed = st != 0 and not (1 <= st < 0x10)
        at = comp.value >> 32 if indexed else len(ml)
        outcome = []
        for m in ml.moves():
            if st == 0:
                outcome.append("OK")
            elif indexed and m.first <= at <= m.last:
                outcome.append(comp.name)
            elif (1 <= st <= 0x3F) or at < m.first:
                outcome.append("not run")
            else:
                outcome.append("OK")
        if check and not comp.ok:
            raise StatusError(comp.status, comp.detail, comp.value, command="replay",
                              explanation=comp.explanation, completion=comp)
        return ReplayResult(comp, outcome)

    def dispatch(self, program: Union[Program, np.ndarray, Sequence[int], str, Path],
                 targets: Union[Target, Sequence[Target]] = (1, 1), *, txn: int = 0, credit: int = 0,
                 check: bool = True) -> Completion:
        """Send a program to one or more units (at most 8) through the firmware, as ``kactl
        dispatch``; the firmware sets ``last`` on the final instruction. A UNIT_FAULT's value
        is the unit's exec_result."""
        p = as_payloads(program)
        if isinstance(targets, str) or (isinstance(targets, tuple) and len(targets) == 2 and
                                        all(isinstance(v, (int, np.integer)) for v in targets)):
            targets = [targets]
        ts = [parse_target(t) for t in targets]
        if not 1 <= len(ts) <= C["KQ_MAX_TARGETS"]:
            raise InputError(f"{len(ts)} targets; 1..{C['KQ_MAX_TARGETS']}")
        _check_range("txn", txn, 255)
        _check_range("credit", credit, 65535)
        if len(p) > C["KQ_MAX_PROG"]:
            raise InputError(f"{len(p)} instructions; a program has at most {C['KQ_MAX_PROG']}")
        self._attach()
        s = _lib.KqSub(op=C["KQ_OP_DISPATCH"], count=len(p), txn=txn, credit_cap=credit, ntargets=len(ts))
        for i, t in enumerate(ts):
            s.targets[i] = t
        s.addr = self._put(p.tobytes())
        return self._command("dispatch", s, check)

    def _steps_put(self, steps: Union[Steps, str, Path]) -> Tuple[int, int]:
        """A step list and its programs and lists into the data area: (address, steps)."""
        if isinstance(steps, (str, Path)):
            steps = Steps.load(steps)
        if not len(steps):
            raise InputError("the step list is empty")
        if len(steps) > C["KQ_MAX_STEPS"]:
            raise InputError(f"{len(steps)} steps; at most {C['KQ_MAX_STEPS']}")
        arr = (_lib.KqStep * len(steps))()
        for i, (op, fields, blob) in enumerate(steps.steps):
            arr[i].op = op
            for k, v in fields.items():
                setattr(arr[i], k, v)
            if blob is not None:
                arr[i].addr = self._put(blob)
        return self._put(bytes(arr)), len(steps)

    def _run_done(self, comp: Completion, check: bool) -> Completion:
        if check and not comp.ok:
            e = StatusError(comp.status, comp.detail, comp.value, command="run",
                            explanation=comp.explanation, completion=comp)
            e.step = comp.value >> 48
            e.inner_value = comp.value & ((1 << 48) - 1)
            raise e
        return comp

    def run(self, steps: Union[Steps, str, Path], *, check: bool = True) -> Completion:
        """Run a step list with one RUN command; a failure's StatusError has ``step`` (the failing
        step's index) and ``inner_value``."""
        self._attach()
        addr, n = self._steps_put(steps)
        s = _lib.KqSub(op=C["KQ_OP_RUN"], addr=addr, count=n)
        return self._run_done(self._command("run", s, False), check)

    # ---- Records (docs/host-interface.md §12): checked once, run by handle ----

    def record(self, work: Union[MoveList, Steps, str, Path], *, check: bool = True) -> int:
        """RECORD a descriptor list (a MoveList, its text or a file of it) or a step list (a
        :class:`Steps`): the firmware checks it as REPLAY or RUN would and keeps the checked
        bytes in memory it owns. Returns the handle (``replay_handle``, ``run_handle``,
        ``forget``, a step list's ``replay @H``); with check False, the completion's value."""
        self._attach()
        if isinstance(work, Steps):
            addr, n = self._steps_put(work)
            s = _lib.KqSub(op=C["KQ_OP_RECORD"], flags=C["KQ_SUB_F_STEPS"], addr=addr, count=n)
        else:
            ml = _as_moves(work)
            s = _lib.KqSub(op=C["KQ_OP_RECORD"], addr=self._put(ml.tobytes()), count=len(ml))
        return int(self._command("record", s, check).value)

    def _handle(self, h: int) -> int:
        _check_range("handle", h, 0xFFFFFFFF)
        return h

    def replay_handle(self, handle: int, *, check: bool = True) -> Completion:
        """REPLAY the recorded descriptor list `handle`: no check, nothing read from host
        memory; the completion is the unrecorded REPLAY's (value = moves)."""
        self._attach()
        s = _lib.KqSub(op=C["KQ_OP_REPLAY"], flags=C["KQ_SUB_F_HANDLE"], addr=self._handle(handle))
        return self._command("replay", s, check)

    def run_handle(self, handle: int, *, check: bool = True) -> Completion:
        """RUN the recorded step list `handle`, as ``run`` (value = steps)."""
        self._attach()
        s = _lib.KqSub(op=C["KQ_OP_RUN"], flags=C["KQ_SUB_F_HANDLE"], addr=self._handle(handle))
        return self._run_done(self._command("run", s, False), check)

    def forget(self, handle: int, *, check: bool = True) -> int:
        """FORGET a record; returns the bytes it freed."""
        self._attach()
        s = _lib.KqSub(op=C["KQ_OP_FORGET"], addr=self._handle(handle))
        return int(self._command("forget", s, check).value)

    def records(self) -> List[Tuple[int, int, int, int]]:
        """RECORDS: (handle, writes or steps, bytes, unit-global address) per record held."""
        self._attach()
        n = C["KQ_REC_MAX_HANDLES"]
        line = _lib.LAYOUT[("kq_rec_info", "")]
        a = self._put(bytes(n * line))
        comp = self._command("records", _lib.KqSub(op=C["KQ_OP_RECORDS"], addr=a, count=n), True)
        raw = self.read(a, min(int(comp.value), n) * line)
        out = []
        for i in range(min(int(comp.value), n)):
            h, cnt, b, off = struct.unpack_from("<IIII", raw, i * line)
            out.append((h, cnt, b, off))
        return out

    def stop(self) -> CoreStatus:
        """STOP the firmware and wait (bounded by timeout_ms) for the core to stop. Raises
        :class:`StateError` unless it exited cleanly."""
        self._attach()
        self._command("stop", _lib.KqSub(op=C["KQ_OP_STOP"]), True)
        t0 = time.monotonic()
        while True:
            cs = self.core()
            if cs.state != "running":
                break
            if (time.monotonic() - t0) * 1000 > self.timeout_ms:
                raise _timeout(f"stop: timed out after {self.timeout_ms} ms waiting for the core to stop "
                               "after the STOP completion")
            time.sleep(0.001)
        if not cs.clean_exit:
            raise StateError(f"stop: the core stopped but not cleanly: {cs.explanation}")
        return cs


def _timeout(msg: str) -> LibraryError:
    return library_error(-6, msg)


def _core_status(cs: _lib.KhCoreStatus) -> CoreStatus:
    buf = ctypes.create_string_buffer(256)
    L.kh_explain_core(ctypes.byref(cs), buf, len(buf))
    return CoreStatus(_lib.cstr(L.kh_core_state_name(cs.state)), int(cs.cause), int(cs.word), int(cs.pc),
                      int(cs.cycles), int(cs.instret), int(cs.variant), int(cs.now_ns), buf.value.decode())


__all__ = ["Node", "Steps", "Completion", "CoreStatus", "Unit", "QueueState", "NodeStatus", "BootReport",
           "ReplayResult", "parse_target", "KohakuError"]
