"""Bad input raises the right exception with the right status name (include/kohaku/status.h,
docs/host-interface.md "Statuses"), changes nothing, and the node keeps serving."""
import numpy as np
import pytest

import kohaku
from kohaku import (InputError, LinkError, MoveList, Node, Program, StateError, StatusError,
                    TensorRef)

SCRATCH = 0x300000


@pytest.fixture(autouse=True)
def still_serves(node):
    """After every test here: the node answers a NOP and is READY."""
    yield
    assert node.nop()[0].ok
    assert node.status().queue.firmware == "READY"


def test_dispatch_to_a_unit_not_in_the_table(node):
    with pytest.raises(StatusError) as e:
        node.dispatch(Program().memset_xfer(0, 1, 16), (9, 9))
    assert e.value.name == "BAD_TARGET" and e.value.status == 0x06
    assert e.value.detail == 0x99 and e.value.value == 0          # detail = {y,x}
    assert e.value.range == "input" and "unit 9,9" in e.value.explanation
    assert e.value.completion is not None and not e.value.completion.ok


def test_unit_fault_carries_exec_result(node):
    # Opcode 0x5 is reserved: the NPU retires it as FAULT with exec_result 'N''P', opcode, code 1
    # (docs/npu.md §6), and the firmware completes the dispatch UNIT_FAULT, detail = {y,x}.
    with pytest.raises(StatusError) as e:
        node.dispatch([0x5 << 60], (2, 1))
    assert e.value.name == "UNIT_FAULT" and e.value.range == "fault"
    assert e.value.detail == 0x12 and e.value.value == 0x4E500501


def test_injected_unit_fault(node):
    # docs/model.md "Fault injection": fault@X,Y makes the unit's next instruction retire as
    # FAULT with code 0xFA17 by default.
    node.inject("fault@1,1")
    try:
        with pytest.raises(StatusError) as e:
            node.dispatch(Program().memset_xfer(0, 1, 16), (1, 1))
        assert e.value.name == "UNIT_FAULT" and e.value.detail == 0x11 and e.value.value == 0xFA17
    finally:
        node.clear_faults()
    assert node.dispatch(Program().memset_xfer(0, 1, 16), (1, 1)).ok
    with pytest.raises(InputError, match="not a fault item"):
        node.inject("melt@1,1")


def test_check_false_returns_the_completion(node):
    c = node.dispatch([0x5 << 60], (1, 1), check=False)
    assert not c.ok and c.name == "UNIT_FAULT" and c.value == 0x4E500501


def test_replay_bad_offset(node):
    # 0x08 is a free offset, not a register: refused before anything is written.
    ml = MoveList().raw(0x08, 0).raw(0x00, 1 << 16)
    with pytest.raises(StatusError) as e:
        node.replay(ml)
    assert e.value.name == "BAD_OFFSET" and e.value.detail == 0x08


def test_replay_misaligned_walk_changes_nothing(node):
    node.write(SCRATCH, bytes(range(64)))
    node.write(SCRATCH + 0x100, bytes(64))
    good = MoveList().copy(TensorRef(SCRATCH + 0x100, 64, np.uint8), TensorRef(SCRATCH, 64, np.uint8))
    w = good.writes()
    # The same list with the destination base moved off its 32-byte word.
    bad = MoveList.from_records([(o, v + (0x10 << 4) if o == 0x10 and v & 1 else v) for o, v in w])
    with pytest.raises(StatusError) as e:
        node.replay(bad)
    assert e.value.name == "MV_ALIGN"
    assert node.read(SCRATCH + 0x100, 64) == bytes(64)


def test_unknown_op(node):
    c = node.submit(99)
    assert c.name == "BAD_OP" and c.detail == 99


def test_dispatch_too_many_or_no_targets(node):
    c = node.submit(2, addr=0x900000, count=1, ntargets=0)
    assert c.name == "BAD_NTARGETS" and c.detail == 0
    with pytest.raises(InputError, match="1..8"):
        node.dispatch([0], [(1, 1)] * 9)


def test_host_side_refusals_send_nothing(node, firmware):
    before = node.status().queue.sq_tail
    with pytest.raises(InputError, match="no instruction"):
        node.dispatch(Program(), (1, 1))
    with pytest.raises(InputError, match="40-bit"):
        node.read(1 << 40, 16)
    with pytest.raises(InputError, match="not X,Y"):
        node.dispatch([0], "1;1")
    with pytest.raises(InputError, match="not an ELF"):
        node.boot(b"this is not an image")
    with pytest.raises(InputError, match="a program has at most 65536"):
        node.dispatch(np.zeros((65537, 4), np.uint64), (1, 1))
    assert node.status().queue.sq_tail == before


def test_no_node_at_the_link(tmp_path):
    with pytest.raises(LinkError) as e:
        Node(f"qemu:{tmp_path}/none.sock")
    assert e.value.name == "E_IO" and "cannot connect to the host port" in str(e.value)
    with pytest.raises(InputError, match="want jtag:HOST:PORT"):
        Node("jtag:0")
    with pytest.raises(InputError, match="unknown link"):
        Node("serial:/dev/ttyS0")


def test_closed_node_refuses(node):
    # A Node whose link was closed refuses before touching anything (QEMU's host port serves one
    # client at a time, so the test closes the module's node only after using a copy of it).
    other = Node.__new__(Node)
    other._n = None
    with pytest.raises(StateError, match="closed"):
        other.units()


def test_list_longer_than_the_firmware_takes(node):
    # KD_MAX_WRITES = 4,096 (include/kohaku/desc_list.h): the queue refuses a REPLAY count above
    # it as BAD_LEN, detail = the count (status.h), before reading the list.
    text = "0x28 0x0\n" * 4096 + "0x00 0x10010\n"
    ml = MoveList.from_text(text)
    assert len(ml) == 4097
    with pytest.raises(StatusError) as e:
        node.replay(ml)
    assert e.value.name == "BAD_LEN" and e.value.detail == 4097
    with pytest.raises(kohaku.BuildError) as b:
        ml.raw(0x28, 0)             # nothing is appended past the builder's capacity
    assert b.value.name == "LIST_TOO_LONG" and len(ml) == 4097
