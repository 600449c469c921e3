"""Exceptions of the kohaku package.

Every exception is a :class:`KohakuError` and carries ``name``, ``detail`` and ``value``:

* :class:`StatusError` — the node (or a C builder, for :class:`BuildError`) answered with a
  status of the shared status table (include/kohaku/status.h): ``name`` is its name there
  (``"BAD_TARGET"``), ``status`` its code, ``detail`` and ``value`` the completion's fields,
  ``explanation`` the library's words for them.
* :class:`LibraryError` and its subclasses — libkohaku refused or failed before any status
  existed (transport, host port, protocol, the caller's input, node state, a bounded wait):
  ``name`` is the library's code name (``"E_INPUT"``), ``detail`` its one-line message.
"""
from __future__ import annotations

from typing import Optional

from . import _lib


class KohakuError(Exception):
    """Base of every error the package raises."""

    name: str = "ERROR"
    detail: object = None
    value: object = None

    def __str__(self) -> str:
        return self.args[0] if self.args else self.name


class LibraryError(KohakuError):
    """A libkohaku call failed (a negative ``KH_E_*`` code); ``detail`` is kh_error()'s message."""

    code = 0

    def __init__(self, message: str, code: Optional[int] = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.name = _CODE_NAMES.get(self.code, f"E_{self.code}")
        self.detail = message
        self.value = self.code


class LinkError(LibraryError, ConnectionError):
    """The link (transport) failed or closed: ``KH_E_IO``."""
    code = -1


class PortError(LibraryError):
    """The host port refused a request: ``KH_E_PORT``; ``port_status`` names why."""
    code = -2
    port_status: int = 0
    port_status_name: str = ""


class ProtocolError(LibraryError):
    """A reply that does not match the request: ``KH_E_PROTO``."""
    code = -3


class InputError(LibraryError, ValueError):
    """The caller's input is malformed (nothing was sent): ``KH_E_INPUT``."""
    code = -4


class StateError(LibraryError):
    """The node is not in a state that allows it: ``KH_E_STATE``."""
    code = -5


class NodeTimeoutError(LibraryError, TimeoutError):
    """A bounded wait ran out; the message names what was awaited: ``KH_E_TIMEOUT``."""
    code = -6


_CODE_NAMES = {-1: "E_IO", -2: "E_PORT", -3: "E_PROTO", -4: "E_INPUT", -5: "E_STATE", -6: "E_TIMEOUT"}
_BY_CODE = {c.code: c for c in (LinkError, PortError, ProtocolError, InputError, StateError, NodeTimeoutError)}


def library_error(code: int, message: str) -> LibraryError:
    """The exception for a libkohaku return code."""
    cls = _BY_CODE.get(code, LibraryError)
    return cls(message, code)


class StatusError(KohakuError):
    """A non-OK status of the shared status table.

    Attributes: ``status`` (the code), ``name`` (its name in status.h), ``detail``, ``value``,
    ``range`` ("input", "fault", "timeout", "other"), ``text`` (the header's comment),
    ``explanation`` (libkohaku's words for this completion), ``completion`` (the
    :class:`~kohaku.node.Completion`, when the node answered), ``command`` (what was asked).
    """

    def __init__(self, status: int, detail: int = 0, value: int = 0, *, command: str = "",
                 explanation: str = "", completion=None, message: str = ""):
        self.status = status
        self.name = status_name(status)
        self.detail = detail
        self.value = value
        self.range = _lib.cstr(_lib.lib.kh_status_range(status))
        self.text = _lib.cstr(_lib.lib.kh_status_text(status))
        self.explanation = explanation or f"{self.name} (0x{status:02x}, {self.range})" + (
            f": {self.text}" if self.text else "")
        self.completion = completion
        self.command = command
        pre = f"{command}: " if command else ""
        super().__init__(message or f"{pre}status={self.name} detail=0x{detail:x} value=0x{value:x}  # "
                         f"{self.explanation}")


class BuildError(StatusError, ValueError):
    """A C builder (mover/build.c, validate.c) refused a move: nothing was built or sent."""


def status_name(code: int) -> str:
    """The status's name in include/kohaku/status.h ("NO_REACH"), "UNKNOWN_0x.." if none."""
    return _lib.cstr(_lib.lib.kh_status_name(code))
