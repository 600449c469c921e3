"""Stop, restart, and nothing left running: QEMU's process ends and its socket goes."""
import os

import pytest

import kohaku
from kohaku import Node, Qemu, StateError


def alive(pid: int) -> bool:
    """Is pid a live process (a zombie counts as gone: it is reaped by Qemu.stop)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_stop_then_qemu_gone(board, out, firmware, tmp_path):
    q = Qemu(board, out, workdir=tmp_path)
    pid, sock = q.pid, q.socket
    assert alive(pid) and os.path.exists(sock)
    with Node(q.link) as n:
        n.boot(firmware)
        cs = n.stop()
        assert cs.state == "exited" and cs.word == 0 and cs.clean_exit
        assert "clean stop" in cs.explanation
        assert n.status().queue.firmware == "STOPPED"
        # Nothing serves the queue now: nothing is submitted to a firmware that is not READY.
        with pytest.raises(StateError, match="STOPPED, not READY"):
            n.nop()
    q.stop()
    assert not q.running and not alive(pid) and not os.path.exists(sock)


def test_context_manager_stops_qemu(board, out, tmp_path):
    with Qemu(board, out, workdir=tmp_path) as q:
        pid = q.pid
        with Node(q.link) as n:
            assert n.core().state == "held"      # nothing booted: the core waits for a host
    assert not alive(pid) and not os.path.exists(q.socket)


def test_restart_resumes_the_queue(fresh_node):
    n = fresh_node
    n.nop(3)
    before = n.status().queue
    assert n.restart() == []                     # nothing was in flight
    after = n.status().queue
    assert after.firmware == "READY" and after.sq_tail == before.sq_tail and after.cq_head == before.cq_head
    c = n.nop()[0]
    assert c.ok and c.tag == before.sq_tail + 1  # tags continue from the submission count


def test_boot_with_a_unit_table(fresh_node, firmware):
    n = fresh_node
    r = n.boot(firmware, units=[(1, 1, "NP", 16), (2, 2, "TU", 8, 1, 0)])
    assert r.units == 2
    assert [(u.x, u.y, u.type_name, u.depth) for u in n.units()] == [(1, 1, "NP", 16), (2, 2, "TU", 8)]
