"""Runs last (pytest takes files in name order): every QEMU the earlier modules started — their
module fixtures are finished by now — has exited and its socket is gone."""
import os

import kohaku.qemu
from test_lifecycle import alive


def test_every_qemu_of_this_session_stopped():
    assert kohaku.qemu.started, "no QEMU was started: the node tests did not run"
    left = [(q.pid, q.socket) for q in kohaku.qemu.started if alive(q.pid) or os.path.exists(q.socket)]
    assert not left, f"still running or with a socket: {left}"
