"""Start and stop our QEMU machine with a host port, as scripts/qemu-hostport.sh does.

:class:`Qemu` runs ``qemu-system-riscv{32,64} -M kohaku-sysnode,hostport=...`` with the core
held until a host releases it, the host port on a fresh Unix socket under /tmp, and
``-icount`` so runs are deterministic. It waits (bounded) until the socket accepts, and on
:meth:`Qemu.stop` (or leaving the ``with`` block) terminates QEMU — SIGTERM, then SIGKILL after
5 s — and removes the socket, so nothing is left running.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Union

from .errors import InputError, LinkError, NodeTimeoutError

BOARDS = {"qemu-rv32": ("qemu-system-riscv32", "rv32,c=false"),
          "qemu-rv64": ("qemu-system-riscv64", "rv64,c=false")}

#: Every Qemu started by this process (tests check none is left running).
started: List["Qemu"] = []


def firmware_path(board: str, out: Union[str, Path] = "build") -> Path:
    """The firmware image `make BOARD=board firmware` builds."""
    return Path(out) / board / "fw.elf"


class Qemu:
    """One QEMU machine with a host port.

    ``out`` is the build directory holding ``qemu/bin/`` (``make qemu``); ``props`` extra
    machine properties (``"faults=hang@1,1"``); ``workdir`` keeps QEMU's console and log
    (a temporary directory by default).
    """

    def __init__(self, board: str = "qemu-rv32", out: Union[str, Path] = "build", *,
                 props: str = "", workdir: Optional[Union[str, Path]] = None, start_timeout_s: float = 10.0):
        if board not in BOARDS:
            raise InputError(f"board {board!r}: one of {', '.join(BOARDS)}")
        exe, cpu = BOARDS[board]
        self.board = board
        self.binary = Path(out) / "qemu" / "bin" / exe
        if not os.access(self.binary, os.X_OK):
            raise InputError(f"{self.binary} is missing (make qemu builds it)")
        # A workdir of our own goes with QEMU at stop(); a given one is the caller's to keep.
        self._own_workdir = workdir is None
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="kohaku-qemu-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        # A Unix socket path must stay under 108 bytes whatever the build directory is: /tmp.
        fd, sock = tempfile.mkstemp(prefix="kohaku-hp.", suffix=".sock", dir="/tmp")
        os.close(fd)
        os.unlink(sock)
        self.socket = sock
        self.link = f"qemu:{sock}"
        mprops = "kohaku-sysnode,hostport=hp" + (f",{props}" if props else "")
        # No -kernel: the host flashes the image through the load paths, as on silicon.
        cmd = [str(self.binary), "-M", mprops, "-cpu", cpu, "-bios", "none", "-display", "none",
               "-monitor", "none", "-serial", "none", "-nodefaults",
               "-icount", "shift=0,align=off,sleep=off",
               "-chardev", f"socket,id=hp,path={sock},server=on,wait=off"]
        self.log = self.workdir / "qemu.log"
        with open(self.workdir / "console.txt", "wb") as con, open(self.log, "wb") as log:
            self.proc: Optional[subprocess.Popen] = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=con,
                                                                     stderr=log)
        self.pid = self.proc.pid
        started.append(self)
        try:
            self._wait_listening(start_timeout_s)
        except BaseException:
            self.stop()
            raise

    def _wait_listening(self, timeout_s: float) -> None:
        # The path appears at bind(), a connect succeeds only after listen(): wait for one
        # accepted connection (QEMU takes the next client after this one closes).
        t0 = time.monotonic()
        while True:
            if self.proc.poll() is not None:
                raise LinkError(f"QEMU exited with status {self.proc.returncode} before its host port "
                                f"listened: {self.log.read_text(errors='replace')[:400]}")
            if os.path.exists(self.socket):
                s = socket.socket(socket.AF_UNIX)
                try:
                    s.connect(self.socket)
                    return
                except OSError:
                    pass
                finally:
                    s.close()
            if time.monotonic() - t0 > timeout_s:
                raise NodeTimeoutError(f"timed out after {timeout_s:g} s waiting for QEMU's host port "
                                       f"socket {self.socket} to accept a connection")
            time.sleep(0.05)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace_s: float = 5.0) -> int:
        """Terminate QEMU (SIGTERM, SIGKILL after grace_s), reap it, remove the socket.
        Returns its exit status; safe to call twice."""
        rc = 0
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(grace_s)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(grace_s)
            rc = self.proc.returncode
            self.proc = None
        try:
            os.unlink(self.socket)
        except FileNotFoundError:
            pass
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self._own_workdir = False
        return rc

    def __enter__(self) -> "Qemu":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def console(self) -> str:
        """What the firmware printed on its console."""
        return (self.workdir / "console.txt").read_text(errors="replace")
