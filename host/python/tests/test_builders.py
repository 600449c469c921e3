"""Builders and the binding itself, without a node: NPU programs against docs/npu.md §8's
table, descriptor lists against docs/mover.md's example and docs/hardware.md §3.1's GATHER erratum,
refusals with their status names (include/kohaku/status.h), the layout check."""
import sys
from pathlib import Path

import numpy as np
import pytest

import kohaku
from kohaku import BuildError, InputError, MoveList, Program, StatusError, TensorRef
from kohaku import _lib

# docs/npu.md §8, the table's words in order (payload word 3 of each flit).
NPU_DOC_SOFTMAX = [
    0x3800000001000000, 0x3000004002000000, 0x3010020001000000, 0x3020004001000200,
    0x34000203C0000000, 0x382FC00000000000, 0x2800000000000000, 0x2800800000004002,
    0x1004000002000200, 0x4000400028001020,
    0x4500500030000400, 0x4600500028000410, 0x4500508030400400, 0x4600508028400410,
    0x4500510030800400, 0x4600510028800410, 0x4500518030C00400, 0x4600518028C00410,
    0x3030004001000000, 0x24000000A0008006,
]


def softmax_program() -> Program:
    p = Program()
    p.memset_host_base(0x100000).memset_xfer(0, 4, 32).memset_xfer(1, 32, 16).memset_shape(2, 4, 16, 32)
    p.memset_weight(0, 64, 1.0).memset_emax(float("-inf"))
    p.memcpy_in(0, 0, shape=0).memcpy_in(64, 0x80, shape=1)
    p.gemm(128, 0, shape=2, weights=0, findemax=True)
    p.cvo("exp", 128, 160, 64, sub_emax=True)
    for r in range(4):
        p.cvo("reduce_sum", 160 + r, 192 + r, 16)
        p.cvo("scale", 160 + r, 160 + r, 16, recip_scale=True)
    p.memset_xfer(3, 4, 16).memcpy_out(0x100, 160, shape=3)
    return p


def test_installed_package_is_tested():
    # The suite installs the package with pip into a fresh venv; this must be that copy, with
    # the library inside it, not the source tree.
    pkg = Path(kohaku.__file__).resolve().parent
    assert Path(sys.prefix).resolve() in pkg.parents, f"{pkg} is not inside {sys.prefix}"
    assert Path(_lib.LIB_PATH).resolve() == pkg / "libkohaku.so"


def test_program_is_npu_doc_table():
    p = softmax_program()
    assert p.words == NPU_DOC_SOFTMAX
    pay = p.payloads()
    assert pay.shape == (20, 4) and pay.dtype == np.uint64
    assert not pay[:, :3].any() and list(pay[:, 3]) == NPU_DOC_SOFTMAX


def test_program_text_round_trips_through_the_c_parser():
    p = softmax_program()
    back = Program.from_text("# comment\n" + p.text())
    assert np.array_equal(back, p.payloads())


def test_program_refuses_what_does_not_fit():
    with pytest.raises(InputError) as e:
        Program().cvo("exp", 1 << 17, 0, 16)        # L2 lines are 17 bits
    assert e.value.name == "E_INPUT" and "src" in str(e.value) and "131071" in str(e.value)
    with pytest.raises(InputError, match="odd"):
        Program().memset_weight(0, 65)               # weights start on an even line
    with pytest.raises(InputError, match="not 32-byte aligned"):
        Program().memset_host_base(0x100010)
    with pytest.raises(InputError, match="not one of"):
        Program().cvo("tanh", 0, 0, 1)
    with pytest.raises(InputError, match="program:2:5: "):
        Program.from_text("0 0 0 0\n0 0 zz 0\n")
    # Values the NPU itself refuses still encode: a reserved CVO function is the unit's to fault.
    assert Program().cvo(0xF, 0, 0, 1).words[0] >> 56 == 0x4F


# docs/mover.md §1: "a copy of four words from 0x2000 to 0x1000", write by write.
MOVER_DOC_COPY = [
    (0x10, 0x0000100000020000), (0x18, 0x0000000002000040), (0x20, 0x0), (0x28, 0x0), (0x28, 0x2),
    (0x10, 0x0000100000010001), (0x18, 0x0000000002000041), (0x20, 0x0), (0x28, 0x1), (0x28, 0x3),
    (0x00, 0x10010),
]


def test_copy_is_mover_doc_example():
    ml = MoveList().copy(TensorRef(0x1000, 128, np.uint8), TensorRef(0x2000, 128, np.uint8))
    assert ml.writes() == MOVER_DOC_COPY
    assert ml.validate(32) == 1 and ml.validate(64) == 1
    assert MoveList.from_text(ml.text()).writes() == MOVER_DOC_COPY


def test_copy_merges_contiguous_axes():
    # A C-ordered (4, 8, 16) float16 tensor is one run of 4*8 words: one dimension per walker.
    ml = MoveList().copy(TensorRef(0x1000, (4, 8, 16), np.float16), TensorRef(0x8000, (4, 8, 16), np.float16))
    dims = [v for o, v in ml.writes() if o == 0x18]
    assert len(dims) == 2 and all((v >> 4) & 0xFFFF == 32 for v in dims)


def test_gather_never_has_more_than_8_indices_per_move():
    # docs/hardware.md §3.1 erratum: a row that starts a new index word reads the previous word's
    # first index, so every move must use at most 8 indices, starting on its own index word.
    n = 20
    ml = MoveList().gather(TensorRef(0x40000, (n, 16), np.float16), TensorRef(0x10000, (64, 16), np.float16),
                           TensorRef(0x30000, n, np.uint32))
    index = [v for o, v in ml.writes() if o == 0x30]
    assert [(v >> 40) & 0xFFFF for v in index] == [8, 8, 4]
    assert [v & ((1 << 40) - 1) for v in index] == [0x30000, 0x30020, 0x30040]
    dst_bases = [(v >> 4) & ((1 << 40) - 1) for o, v in ml.writes() if o == 0x10 and v & 1]
    assert dst_bases == [0x40000, 0x40000 + 8 * 32, 0x40000 + 16 * 32]
    assert len(ml.moves()) == 3 and ml.validate(32) == 3
    gathers = [v for o, v in ml.writes() if o == 0x50]
    assert all(v & 0xFFFFFFFF == 32 and v >> 32 == 1 for v in gathers)    # pitch 32 B, 1 word a row


def test_builder_refusals_carry_status_names():
    with pytest.raises(BuildError) as e:
        MoveList().copy(TensorRef(0x1010, 32, np.uint8), TensorRef(0x2000, 32, np.uint8))
    assert e.value.name == "MV_ALIGN" and e.value.status == 0x1A and isinstance(e.value, ValueError)
    with pytest.raises(InputError, match="last axis must stay last"):
        MoveList().transpose(TensorRef(0, (16, 4), np.float16), TensorRef(0x1000, (4, 16), np.float16), (1, 0))
    with pytest.raises(InputError, match="whole number of 32-byte words"):
        MoveList().fill(TensorRef(0, 3, np.float16), 1.0)
    with pytest.raises(InputError, match="two bound axes"):
        MoveList().pad(TensorRef(0, (4, 4, 64), np.uint8), TensorRef(0x1000, (2, 2, 32), np.uint8),
                       [(1, 1), (1, 1), (16, 16)])
    with pytest.raises(InputError, match="whole 32-byte words"):
        MoveList().pad(TensorRef(0, (2, 64), np.uint8), TensorRef(0x1000, (2, 32), np.uint8), [(0, 0), (8, 24)])


def test_validator_knows_rv64_reach():
    fill = MoveList().fill(TensorRef(0x1000, 64, np.uint8), 7)
    assert fill.validate(32) == 1
    with pytest.raises(StatusError) as e:
        fill.validate(64)
    # docs/hardware.md §3: RV64 reaches mover offsets 0x00-0x3F only; IMM is 0x40.
    assert e.value.name == "NO_REACH" and e.value.detail == 0x40


def test_status_table_is_the_headers():
    t = kohaku.status_table()
    # include/kohaku/status.h, literally.
    assert t[0x06][0] == "BAD_TARGET" and t[0x13][0] == "NO_REACH" and t[0x50][0] == "UNIT_FAULT"
    assert t[0x60][0] == "TIMEOUT" and 0x00 in t
    assert kohaku.status_name(0x7E).startswith("UNKNOWN")


def test_layout_check_refuses_a_mismatched_library():
    bad = dict(_lib.LAYOUT)
    bad[("kq_cpl", "value")] += 8
    with pytest.raises(ImportError, match="kq_cpl.value"):
        _lib.check_layouts(bad)
    del bad[("kh_queue", "")]
    with pytest.raises(ImportError, match="kh_queue"):
        _lib.check_layouts(bad)
    _lib.check_layouts()     # and the real one matches


def test_error_classes():
    from kohaku.errors import library_error
    e = library_error(-6, "timed out waiting for X")
    assert isinstance(e, TimeoutError) and e.name == "E_TIMEOUT" and e.detail == "timed out waiting for X"
    assert isinstance(library_error(-4, "x"), ValueError)
    assert isinstance(library_error(-1, "x"), ConnectionError)
