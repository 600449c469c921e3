"""Records through the Python binding (docs/host-interface.md §12): a descriptor list and a step
list recorded, then run by handle with the same memory and completion as the unrecorded
commands; unknown, forgotten and wrong-kind handles. Expected statuses are the contract's
(include/kohaku/status.h): KS_REC_UNKNOWN 0x28, KS_REC_STALE 0x29 (value 1: forgotten),
KS_REC_KIND 0x2A, detail the handle. Handles: [2:0] slot, [3] 0, [4] 1 for a step list."""
import numpy as np
import pytest

from kohaku import InputError, MoveList, StatusError, Steps, TensorRef

BASE = 0x300000          # this module's scratch area in node DRAM
N = 64                   # u32 words moved: 256 bytes


def _copy(dst_off: int) -> MoveList:
    return MoveList().copy(TensorRef(BASE + dst_off, (N,), np.uint32), TensorRef(BASE, (N,), np.uint32))


def _status(call) -> StatusError:
    with pytest.raises(StatusError) as e:
        call()
    return e.value


def test_replay_by_handle_same_as_unrecorded(node):
    src = np.arange(N, dtype=np.uint32) * 7 + 3
    node.write(BASE, src)
    node.zero(BASE + 0x1000, 0x200)
    plain = node.replay(_copy(0x1000)).completion
    got_plain = node.read(BASE + 0x1000, dtype=np.uint32, shape=N)
    h = node.record(_copy(0x1100))
    assert h & 0x18 == 0                            # a descriptor list's handle: [4] 0, [3] 0
    c = node.replay_handle(h)
    assert (c.status, c.detail, c.value) == (plain.status, plain.detail, plain.value) == (0, 0, 1)
    assert np.array_equal(node.read(BASE + 0x1100, dtype=np.uint32, shape=N), got_plain)
    assert np.array_equal(got_plain, src)
    # The record is the checked copy: the source changes, the list does not.
    node.write(BASE, src + 1)
    node.replay_handle(h)
    assert np.array_equal(node.read(BASE + 0x1100, dtype=np.uint32, shape=N), src + 1)
    held = {r[0]: r for r in node.records()}
    assert h in held and held[h][1] == len(_copy(0x1100))   # its writes
    assert node.forget(h) == held[h][2] > 0


def test_run_by_handle_same_as_unrecorded(node):
    src = np.arange(N, dtype=np.uint32) ^ 0x5A5A
    node.write(BASE, src)
    node.zero(BASE + 0x2000, 0x400)
    steps = Steps().replay(_copy(0x2000)).barrier().replay(_copy(0x2100))
    plain = node.run(steps)
    h = node.record(steps)
    assert h & 0x18 == 0x10                         # a step list's handle: [4] 1
    node.zero(BASE + 0x2000, 0x400)
    c = node.run_handle(h)
    assert (c.status, c.detail, c.value) == (plain.status, plain.detail, plain.value) == (0, 0, 3)
    assert np.array_equal(node.read(BASE + 0x2000, dtype=np.uint32, shape=N), src)
    assert np.array_equal(node.read(BASE + 0x2100, dtype=np.uint32, shape=N), src)
    # the wrong kind: a step list's handle given to REPLAY
    e = _status(lambda: node.replay_handle(h))
    assert (e.status, e.detail) == (0x2A, h)
    node.forget(h)


def test_unknown_and_forgotten_handles(node):
    e = _status(lambda: node.replay_handle(0x5))    # generation 0: never issued
    assert (e.status, e.detail, e.value) == (0x28, 0x5, 0)
    e = _status(lambda: node.run_handle(0x15))
    assert (e.status, e.detail) == (0x28, 0x15)
    node.write(BASE, np.zeros(N, dtype=np.uint32))
    h = node.record(_copy(0x3000))
    node.forget(h)
    e = _status(lambda: node.replay_handle(h))
    assert (e.status, e.detail, e.value) == (0x29, h, 1)
    e = _status(lambda: node.forget(h))
    assert (e.status, e.detail, e.value) == (0x29, h, 1)
    assert all(r[0] != h for r in node.records())


def test_changed_record_refused(node):
    """A host write into a record (here through the binding's own node.write) is found before
    anything runs (RV32: the record's digest; RV64: the first sealed move's own check, the word
    changed being its header): KS_REC_CHANGED 0x2B, detail the handle, value 0; the
    destination untouched; the record still held; the word put back makes it run again."""
    src = np.arange(N, dtype=np.uint32) + 11
    node.write(BASE, src)
    canary = np.full(N, 0xC0FFEE, dtype=np.uint32)
    node.write(BASE + 0x4000, canary)
    h = node.record(_copy(0x4000))
    at = {r[0]: r for r in node.records()}[h][3]    # its unit-global address
    # a list's record: two 32-byte steps, then the list; change a word of the list
    word = node.read(at + 64, dtype=np.uint32, shape=1)
    with pytest.raises(InputError):         # the library refuses the firmware's own DRAM
        node.write(at + 64, word ^ np.uint32(0x100))
    node.write(at + 64, word ^ np.uint32(0x100), raw=True)
    e = _status(lambda: node.replay_handle(h))
    assert (e.name, e.status, e.detail, e.value) == ("REC_CHANGED", 0x2B, h, 0)
    assert np.array_equal(node.read(BASE + 0x4000, dtype=np.uint32, shape=N), canary)
    assert h in {r[0] for r in node.records()}
    node.write(at + 64, word, raw=True)
    c = node.replay_handle(h)
    assert c.status == 0
    assert np.array_equal(node.read(BASE + 0x4000, dtype=np.uint32, shape=N), src)
    node.forget(h)
