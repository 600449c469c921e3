"""The ctypes binding of libkohaku.so: loading, struct mirrors, prototypes.

Everything here is a thin declaration of what host/libkohaku.h, mover/kmv.h and host/kh_bind.h
export. The mirrors are checked field by field against the library's own layout table
(``kh_bind_layouts``) when the module loads, so a package built against one libkohaku and run
against another refuses to load instead of reading the wrong bytes.
"""
from __future__ import annotations

import ctypes
import os
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_int, c_int16, c_int32,
                    c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)
from pathlib import Path
from typing import Dict, Tuple

# ---- loading ----


def _find_library() -> str:
    """KOHAKU_LIBKOHAKU names the library explicitly; else the copy installed with the package."""
    env = os.environ.get("KOHAKU_LIBKOHAKU")
    if env:
        return env
    here = Path(__file__).resolve().parent / "libkohaku.so"
    if here.exists():
        return str(here)
    raise ImportError(
        "kohaku: libkohaku.so is not installed with this package and KOHAKU_LIBKOHAKU is not set "
        "(build it with `make host-so`, then reinstall the package: docs/python.md)")


LIB_PATH = _find_library()
lib = ctypes.CDLL(LIB_PATH)

# ---- mirrors of the library's structs ----


class KdWrite(Structure):
    _fields_ = [("off", c_uint32), ("lo", c_uint32), ("hi", c_uint32)]


class KqSub(Structure):
    _fields_ = [("op", c_uint16), ("flags", c_uint16), ("tag", c_uint32), ("addr", c_uint64),
                ("count", c_uint32), ("txn", c_uint8), ("ntargets", c_uint8), ("credit_cap", c_uint16),
                ("targets", c_uint8 * 8), ("rsvd", c_uint64 * 4)]


class KqCpl(Structure):
    _fields_ = [("tag", c_uint32), ("status", c_uint16), ("rsvd0", c_uint16), ("detail", c_uint32),
                ("mover_cycles", c_uint32), ("value", c_uint64), ("cycles", c_uint64)]


class KqStep(Structure):
    _fields_ = [("op", c_uint8), ("target", c_uint8), ("txn", c_uint8), ("rsvd0", c_uint8),
                ("credit_cap", c_uint16), ("rsvd1", c_uint16), ("n", c_uint32), ("rsvd2", c_uint32),
                ("addr", c_uint64), ("rsvd3", c_uint64)]


class KxUnitEntry(Structure):
    _fields_ = [("yx", c_uint8), ("version", c_uint8), ("buffers", c_uint8), ("rsvd", c_uint8),
                ("type", c_uint16), ("inst_depth", c_uint16)]


class KxBootblock(Structure):
    _fields_ = [("magic", c_uint32), ("version", c_uint16), ("size", c_uint16), ("flags", c_uint32),
                ("wait_cycles", c_uint32), ("queue_addr", c_uint64), ("unit_count", c_uint16),
                ("rec_handles", c_uint16), ("rec_bytes", c_uint32), ("units", KxUnitEntry * 32)]


class KqFwState(Structure):
    _fields_ = [("state", c_uint32), ("code", c_uint32), ("cause", c_uint64), ("pc", c_uint64),
                ("tval", c_uint64)]


class KqUnits(Structure):
    _fields_ = [("count", c_uint32), ("rsvd", c_uint32 * 7), ("entries", (c_uint8 * 8) * 32)]


class KhQueue(Structure):
    _fields_ = [("addr", c_uint64), ("sq_addr", c_uint64), ("cq_addr", c_uint64),
                ("sq_entries", c_uint32), ("cq_entries", c_uint32), ("sq_tail", c_uint64),
                ("cq_head", c_uint64), ("next_tag", c_uint32), ("timeout_ms", c_uint)]


class KhQueueView(Structure):
    _fields_ = [("sq_tail", c_uint64), ("sq_head", c_uint64), ("cq_tail", c_uint64),
                ("cq_head", c_uint64), ("progress", c_uint64), ("ready_instret", c_uint64),
                ("ready_cycles", c_uint64), ("fw", KqFwState), ("units", KqUnits)]


class KhCoreStatus(Structure):
    _fields_ = [("state", c_uint), ("cause", c_uint), ("word", c_uint64), ("pc", c_uint64),
                ("cycles", c_uint64), ("instret", c_uint64), ("variant", c_uint), ("now_ns", c_uint64)]


class KhTextErr(Structure):
    _fields_ = [("line", c_uint), ("col", c_uint), ("why", c_char * 128)]


class KdTextErr(Structure):
    _fields_ = [("line", c_uint32), ("col", c_uint32), ("why", c_char_p)]


class KhStepSrc(Structure):
    _fields_ = [("step", KqStep), ("file", c_char * 256), ("line", c_uint)]


class KhStatusInfo(Structure):
    _fields_ = [("code", c_uint), ("name", c_char_p), ("text", c_char_p)]


class KhFault(Structure):
    _fields_ = [("kind", c_uint), ("yx", c_uint8), ("n", c_uint32), ("arg", c_uint32)]


class KmvWalk(Structure):
    _fields_ = [("base", c_uint64), ("ndim", c_uint), ("count", c_uint16 * 6), ("stride", c_int32 * 6),
                ("axis", c_uint8 * 6), ("astep", c_int16 * 6), ("bound_base", c_int16 * 2),
                ("bound_extent", c_uint16 * 2)]


class KmvBuilder(Structure):
    _fields_ = [("w", POINTER(KdWrite)), ("cap", c_uint32), ("n", c_uint32), ("status", c_uint32),
                ("known", c_uint32), ("bound_val", (c_uint64 * 2) * 2), ("imm", c_uint32)]


class KmvResult(Structure):
    _fields_ = [("status", c_uint32), ("detail", c_uint32), ("index", c_uint32), ("moves", c_uint32),
                ("value", c_uint64)]


MIRRORS = {
    "kd_write": KdWrite, "kq_sub": KqSub, "kq_cpl": KqCpl, "kq_step": KqStep,
    "kx_unit_entry": KxUnitEntry, "kx_bootblock": KxBootblock, "kq_fw_state": KqFwState,
    "kq_units": KqUnits, "kh_queue": KhQueue, "kh_queue_view": KhQueueView,
    "kh_core_status": KhCoreStatus, "kh_text_err": KhTextErr, "kd_text_err": KdTextErr,
    "kh_step_src": KhStepSrc, "kh_status_info": KhStatusInfo, "kh_fault": KhFault,
    "kmv_walk": KmvWalk, "kmv_builder": KmvBuilder, "kmv_result": KmvResult,
}


class _Layout(Structure):
    _fields_ = [("type", c_char_p), ("field", c_char_p), ("value", c_uint64)]


def _read_layouts() -> Tuple[Dict[Tuple[str, str], int], Dict[str, int]]:
    count = c_uint.in_dll(lib, "kh_bind_layout_count").value
    rows = (_Layout * count).in_dll(lib, "kh_bind_layouts")
    layout: Dict[Tuple[str, str], int] = {}
    consts: Dict[str, int] = {}
    for r in rows:
        t, f = r.type.decode(), r.field.decode()
        if t == "const":
            consts[f] = int(r.value)
        else:
            layout[(t, f)] = int(r.value)
    return layout, consts


LAYOUT, CONST = _read_layouts()


def check_layouts(layout: Dict[Tuple[str, str], int] = LAYOUT) -> None:
    """Raise ImportError unless every mirror matches the library: size and every named field."""
    bad = []
    for name, cls in MIRRORS.items():
        size = layout.get((name, ""))
        if size is None:
            bad.append(f"struct {name} is not in the library's layout table")
            continue
        if size != ctypes.sizeof(cls):
            bad.append(f"sizeof(struct {name}) is {size} in the library, {ctypes.sizeof(cls)} here")
        for fname, *_ in cls._fields_:
            off = layout.get((name, fname))
            if off is None:
                if not fname.startswith("rsvd"):
                    bad.append(f"struct {name} has no field {fname} in the library")
                continue
            if off != getattr(cls, fname).offset:
                bad.append(f"{name}.{fname} is at {off} in the library, {getattr(cls, fname).offset} here")
    if bad:
        raise ImportError(f"kohaku: this package does not match {LIB_PATH}: " + "; ".join(bad))


check_layouts()

# Opaque structs: sized by the library, fields read at the library's offsets.
NODE_SIZE = LAYOUT[("kh_node", "")]
NODE_VARIANT = LAYOUT[("kh_node", "variant")]
NODE_REQUESTS = LAYOUT[("kh_node", "requests")]
NODE_PORT_STATUS = LAYOUT[("kh_node", "port_status")]
TRANSPORT_SIZE = LAYOUT[("kh_transport", "")]
ELF_SIZE = LAYOUT[("kh_elf", "")]
ELF_VARIANT = LAYOUT[("kh_elf", "variant")]
ERR_LEN = CONST["KH_ERR_LEN"]


def opaque(size: int) -> ctypes.Array:
    """Zeroed, 8-byte aligned storage for a struct the package does not mirror."""
    return (c_uint64 * ((size + 7) // 8))()


def read_field(buf: ctypes.Array, offset: int, ctype) -> int:
    return ctype.from_buffer(buf, offset).value


# ---- prototypes ----

_node = c_void_p
_u8p = POINTER(c_uint8)


def _proto(name: str, restype, *argtypes) -> None:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_proto("kh_transport_unix", c_int, c_char_p, c_void_p, c_char_p, c_size_t)
_proto("kh_open", c_int, _node, c_void_p)
_proto("kh_open_link", c_int, _node, c_char_p, ctypes.c_uint)
_proto("kh_close", None, _node)
_proto("kh_error", c_char_p, _node)
_proto("kh_port_status_name", c_char_p, c_uint)
_proto("kh_mem_read", c_int, _node, c_uint64, c_void_p, c_size_t)
_proto("kh_mem_write", c_int, _node, c_uint64, c_void_p, c_size_t)
_proto("kh_mem_write_raw", c_int, _node, c_uint64, c_void_p, c_size_t)
_proto("kh_mem_zero", c_int, _node, c_uint64, c_size_t)
_proto("kh_agent_read", c_int, _node, c_uint32, POINTER(c_uint64))
_proto("kh_agent_write", c_int, _node, c_uint32, c_uint64)
_proto("kh_core_hold", c_int, _node, c_bool)
_proto("kh_core_status", c_int, _node, POINTER(KhCoreStatus))
_proto("kh_core_state_name", c_char_p, c_uint)
_proto("kh_explain_core", None, POINTER(KhCoreStatus), c_char_p, c_size_t)
_proto("kh_referee_read", c_int, _node, POINTER(c_uint64))
_proto("kh_parse_fault", c_int, c_char_p, POINTER(KhFault))
_proto("kh_inject", c_int, _node, POINTER(KhFault))
_proto("kh_inject_clear", c_int, _node)
_proto("kh_elf_parse", c_int, _u8p, c_size_t, c_void_p, c_char_p, c_size_t)
_proto("kh_load_elf", c_int, _node, c_void_p)
_proto("kh_elf_describe", None, c_void_p, c_char_p, c_size_t)
_proto("kh_bootblock_make", None, POINTER(KxBootblock), c_uint64, c_uint32, POINTER(KxUnitEntry), c_uint)
_proto("kh_bootblock_write", c_int, _node, POINTER(KxBootblock))
_proto("kh_bootblock_read", c_int, _node, POINTER(KxBootblock))
_proto("kh_queue_create", c_int, _node, POINTER(KhQueue), c_uint64, c_uint32, c_uint32)
_proto("kh_queue_attach", c_int, _node, POINTER(KhQueue), c_uint64)
_proto("kh_queue_view", c_int, _node, POINTER(KhQueue), POINTER(KhQueueView))
_proto("kh_fw_state_name", c_char_p, c_uint)
_proto("kh_wait_ready", c_int, _node, POINTER(KhQueue))
_proto("kh_reap", c_int, _node, POINTER(KhQueue), POINTER(KqCpl), c_uint, POINTER(c_uint))
_proto("kh_command", c_int, _node, POINTER(KhQueue), POINTER(KqSub), POINTER(KqCpl))
_proto("kh_status_name", c_char_p, c_uint)
_proto("kh_status_text", c_char_p, c_uint)
_proto("kh_status_range", c_char_p, c_uint)
_proto("kh_explain_cpl", None, POINTER(KqCpl), c_char_p, c_size_t)
_proto("kh_parse_program", c_int, c_char_p, c_size_t, POINTER(c_uint64 * 4), c_uint32, POINTER(c_uint32),
       POINTER(KhTextErr))
_proto("kh_parse_steps", c_int, c_char_p, c_size_t, c_char_p, POINTER(KhStepSrc), c_uint32,
       POINTER(c_uint32), POINTER(KhTextErr))
_proto("kh_parse_target", c_int, c_char_p, POINTER(c_uint8))
_proto("kd_text_parse", c_uint, c_char_p, c_size_t, POINTER(KdWrite), c_uint32, POINTER(c_uint32),
       POINTER(KdTextErr))
_proto("kd_text_format", c_size_t, POINTER(KdWrite), c_char_p)
_proto("kmv_build_init", None, POINTER(KmvBuilder), POINTER(KdWrite), c_uint32)
_proto("kmv_build_copy", c_uint, POINTER(KmvBuilder), POINTER(KmvWalk), POINTER(KmvWalk), c_uint, c_uint32, c_uint)
_proto("kmv_build_fill", c_uint, POINTER(KmvBuilder), POINTER(KmvWalk), c_uint, c_uint32, c_uint)
_proto("kmv_build_generate", c_uint, POINTER(KmvBuilder), POINTER(KmvWalk), c_uint64, c_uint)
_proto("kmv_build_gather", c_uint, POINTER(KmvBuilder), POINTER(KmvWalk), c_uint64, c_uint64, c_uint32,
       c_uint32, c_uint32, c_uint)
_proto("kmv_build_raw", c_uint, POINTER(KmvBuilder), c_uint32, c_uint64)
_proto("kmv_validate", c_uint, POINTER(KdWrite), c_uint32, c_void_p, POINTER(KmvResult))
_proto("kmv_status_text", c_char_p, c_uint)
_proto("kh_np_encode", c_int, c_uint, POINTER(c_uint64), c_uint, POINTER(c_uint64), c_char_p, c_size_t)

CAPS = {32: ctypes.addressof(c_uint8.in_dll(lib, "kmv_caps_rv32")),
        64: ctypes.addressof(c_uint8.in_dll(lib, "kmv_caps_rv64"))}
REFEREE_NAMES = tuple(n.decode() for n in (c_char_p * CONST["KH_REFEREE_COUNT"]).in_dll(lib, "kh_referee_names"))


def status_table() -> Dict[int, Tuple[str, str]]:
    """The shared status table (include/kohaku/status.h, generated into the library)."""
    count = c_uint.in_dll(lib, "kh_status_count").value
    rows = (KhStatusInfo * count).in_dll(lib, "kh_status_table")
    return {int(r.code): (r.name.decode(), r.text.decode()) for r in rows}


def cstr(p: bytes | None) -> str:
    return p.decode(errors="replace") if p else ""


def errbuf() -> ctypes.Array:
    return ctypes.create_string_buffer(ERR_LEN)
