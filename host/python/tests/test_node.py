"""Node against the firmware in QEMU: status, units, memory, every tensor-level move checked
against numpy, RUN step lists. Expected values: the default unit map (docs/model-mesh.md §1),
the mover's reach per variant (docs/hardware.md §3), its generator (docs/hardware.md §3.1, Philox-4x32-10)."""
import numpy as np
import pytest

from kohaku import MoveList, Program, StatusError, Steps, TensorRef

BASE = 0x200000          # this module's scratch area in node DRAM


def test_boot_and_status(node, variant):
    assert node.variant == variant
    st = node.status()
    assert st.core.state == "running" and st.core.variant == variant
    assert st.queue is not None and st.queue.firmware == "READY" and st.queue.addr == 0x800000
    assert st.queue.units == 6 and st.queue.sq_head == st.queue.sq_tail


def test_units_default_map(node):
    got = [(u.x, u.y, u.type_name, u.depth, u.version) for u in node.units()]
    assert got == [(1, 1, "NP", 16, 1), (2, 1, "NP", 16, 1), (3, 1, "NP", 16, 1), (4, 1, "NP", 16, 1),
                   (1, 2, "TU", 16, 1), (2, 2, "TU", 16, 1)]
    assert node.units()[0].type == 0x4E50 and node.units()[4].type == 0x5455


def test_read_write_bytes_and_arrays(node):
    node.write(BASE, b"\x01\x02\x03kohaku")
    assert node.read(BASE, 9) == b"\x01\x02\x03kohaku"
    a = np.arange(-50, 50, dtype=np.int32).reshape(10, 10)
    assert node.write(BASE + 0x100, a) == 400
    assert np.array_equal(node.read(BASE + 0x100, dtype=np.int32, shape=(10, 10)), a)
    t = TensorRef.like(BASE + 0x100, a)
    assert np.array_equal(node.read(t), a)
    # A strided view read back as numpy would slice it.
    assert np.array_equal(node.read(TensorRef(BASE + 0x100 + 8, (5, 3), np.int32, (80, 8))), a[::2, 2:8:2])
    assert np.array_equal(node.read(t.transpose()), a.T)
    f = np.linspace(-2, 2, 64).astype(np.float16)
    node.write(TensorRef.like(BASE + 0x400, f), f)
    assert np.array_equal(node.read(BASE + 0x400, dtype=np.float16, shape=64), f)


def test_copy_strided_and_broadcast(node):
    src = np.arange(6 * 48, dtype=np.float16).reshape(6, 48)      # rows of 96 bytes = 3 words
    node.write(BASE, src)
    node.zero(BASE + 0x1000, 0x1000)
    s = TensorRef.like(BASE, src)
    # Every other row, and one row broadcast to four.
    sub = TensorRef(BASE, (3, 48), np.float16, (2 * 96, 2))
    ml = MoveList().copy(TensorRef(BASE + 0x1000, (3, 48), np.float16), sub)
    ml.copy(TensorRef(BASE + 0x1800, (4, 48), np.float16), TensorRef(BASE + 96, (1, 48), np.float16))
    node.replay(ml)
    assert np.array_equal(node.read(BASE + 0x1000, dtype=np.float16, shape=(3, 48)), src[::2])
    assert np.array_equal(node.read(BASE + 0x1800, dtype=np.float16, shape=(4, 48)), np.broadcast_to(src[1], (4, 48)))
    assert s.contiguous and not sub.contiguous


def test_transpose(node):
    src = np.arange(4 * 8 * 16, dtype=np.uint16).reshape(4, 8, 16)   # 16 x u16 = one word a row
    node.write(BASE, src)
    node.zero(BASE + 0x2000, src.nbytes)
    dst = TensorRef(BASE + 0x2000, (8, 4, 16), np.uint16)
    node.replay(MoveList().transpose(dst, TensorRef.like(BASE, src), (1, 0, 2)))
    assert np.array_equal(node.read(dst), src.transpose(1, 0, 2))


def philox_4x32_10(ctr, key):
    """Random123's Philox-4x32-10, written from its definition (docs/hardware.md §3.1 names it)."""
    m = 0xFFFFFFFF
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & m, (p0 >> 32) ^ c3 ^ k1, p0 & m
        k0, k1 = (k0 + 0x9E3779B9) & m, (k1 + 0xBB67AE85) & m
    return c0, c1, c2, c3


def generated_word(addr, seed):
    """docs/hardware.md §3.1: key = SEED, counter (word address[31:0], word address[34:32] << 1 | half,
    0, 0); bytes 0-15 from half 0, lanes little-endian."""
    wa = addr >> 5
    out = b""
    for half in (0, 1):
        lanes = philox_4x32_10((wa & 0xFFFFFFFF, ((wa >> 32) & 7) << 1 | half, 0, 0),
                               (seed & 0xFFFFFFFF, seed >> 32))
        out += b"".join(v.to_bytes(4, "little") for v in lanes)
    return out


def test_generate_is_philox(node):
    seed = 0x0123456789ABCDEF
    dst = TensorRef(BASE + 0x3000, (4, 32), np.uint8, (64, 1))       # 4 words, every other one
    node.zero(BASE + 0x3000, 0x100)
    node.replay(MoveList().generate(dst, seed))
    got = node.read(BASE + 0x3000, 0x100)
    for r in range(4):
        a = BASE + 0x3000 + 64 * r
        assert got[64 * r:64 * r + 32] == generated_word(a, seed), f"word at {a:#x}"
        assert got[64 * r + 32:64 * r + 64] == bytes(32)              # the gaps untouched


def test_fill(node, variant):
    dst = TensorRef(BASE + 0x4000, (2, 32), np.float16, (128, 2))
    node.write(BASE + 0x4000, bytes(256))
    ml = MoveList().fill(dst, 1.5)
    if variant == 64:
        # docs/hardware.md §3: IMM (0x40) is out of RV64's reach: refused before anything is written.
        with pytest.raises(StatusError) as e:
            node.replay(ml)
        assert e.value.name == "NO_REACH" and e.value.detail == 0x40
        assert node.read(BASE + 0x4000, 256) == bytes(256)
        return
    node.replay(ml)
    got = node.read(BASE + 0x4000, dtype=np.float16, shape=128)
    assert np.all(got[0:32] == 1.5) and np.all(got[64:96] == 1.5)
    assert not got[32:64].any() and not got[96:].any()


def test_pad(node, variant):
    src = (np.arange(3 * 16, dtype=np.float16) + 1).reshape(3, 16)
    node.write(BASE + 0x5000, src)
    dst = TensorRef(BASE + 0x6000, (5, 48), np.float16)
    node.zero(BASE + 0x6000, 0x400)
    ml = MoveList().pad(dst, TensorRef.like(BASE + 0x5000, src), [(1, 1), (16, 16)], value=-2.0)
    if variant == 64:
        with pytest.raises(StatusError) as e:
            node.replay(ml)
        assert e.value.name == "NO_REACH" and e.value.detail == 0x40
        return
    node.replay(ml)
    want = np.pad(src, [(1, 1), (16, 16)], constant_values=-2.0)
    assert np.array_equal(node.read(dst), want)


def test_gather_more_than_8_indices(node, variant):
    table = (np.arange(40 * 16, dtype=np.int32) * 7).reshape(40, 16) // 3   # 64-byte rows
    idx = np.array([5, 0, 39, 7, 7, 12, 3, 30, 1, 2, 38, 11, 20, 21, 9, 33, 4, 17, 25], np.uint32)
    node.write(BASE + 0x8000, table)
    node.write(BASE + 0x7000, idx)
    dst = TensorRef(BASE + 0xA000, (len(idx), 16), np.int32)
    node.zero(BASE + 0xA000, len(idx) * 64)
    ml = MoveList().gather(dst, TensorRef.like(BASE + 0x8000, table), TensorRef.like(BASE + 0x7000, idx))
    if variant == 64:
        # GATHER (0x50) is out of RV64's reach.
        with pytest.raises(StatusError) as e:
            node.replay(ml)
        assert e.value.name == "NO_REACH" and e.value.detail == 0x50
        return
    r = node.replay(ml)
    assert r.moves == ["OK"] * 3
    # Right rows everywhere, rows 8 and 16 included (the erratum's victims in one move).
    assert np.array_equal(node.read(dst), table[idx])


def test_run_steps(node):
    x = np.arange(64, dtype=np.uint8)
    node.write(BASE + 0xC000, x)
    node.zero(BASE + 0xD000, 64)
    prog = Program().memset_xfer(0, 1, 16)          # a harmless one-instruction program
    steps = (Steps().replay(MoveList().copy(TensorRef(BASE + 0xD000, 64, np.uint8), TensorRef(BASE + 0xC000, 64, np.uint8)))
             .dispatch((1, 1), prog, txn=3).dispatch((2, 1), prog).wait((1, 1), 1).barrier().signal(0xC0FFEE))
    c = node.run(steps)
    assert c.ok
    assert node.read(BASE + 0xD000, 64) == x.tobytes()
    assert node.status().queue.progress == 0xC0FFEE
