"""kohaku — drive a KohakuAccel system node from Python through libkohaku.

A binding of the C host library (host/libkohaku.h, built as libkohaku.so), not a second
implementation: every host-port request, queue operation, parser, descriptor builder and NPU
encoder is the library's. docs/python.md is the manual.

>>> from kohaku import Node, Qemu, MoveList, Program, TensorRef
>>> with Qemu("qemu-rv32", "build") as q, Node(q.link) as node:
...     node.boot("build/qemu-rv32/fw.elf")
...     node.units()
"""
from .errors import (BuildError, InputError, KohakuError, LibraryError, LinkError, NodeTimeoutError,
                     PortError, ProtocolError, StateError, StatusError, status_name)
from .moves import MoveList, TensorRef
from .node import (BootReport, Completion, CoreStatus, Node, NodeStatus, QueueState, ReplayResult,
                   Steps, Unit, parse_target)
from .npu import Program
from .qemu import Qemu, firmware_path
from . import _lib

__version__ = "0.1.0"


def status_table() -> dict:
    """The shared status table: code -> (name, text), as include/kohaku/status.h defines it."""
    return _lib.status_table()


__all__ = ["Node", "Qemu", "MoveList", "TensorRef", "Program", "Steps", "Completion", "CoreStatus",
           "NodeStatus", "QueueState", "BootReport", "ReplayResult", "Unit", "KohakuError", "StatusError",
           "BuildError", "LibraryError", "LinkError", "PortError", "ProtocolError", "InputError",
           "StateError", "NodeTimeoutError", "status_name", "status_table", "firmware_path", "parse_target"]
