"""`make run` redone in Python (scripts/run-demo.sh, docs/npu.md §8): upload X and W, replay a
descriptor list that copies them into place, dispatch the softmax program to NP 1,1, and check
P = softmax(X·W) in node DRAM against a numpy reference computed here."""
import numpy as np

from kohaku import MoveList, Program, TensorRef

X_UG, W_UG, P_UG = 0x100000, 0x101000, 0x102000       # docs/npu.md §8
UP_X, UP_W = 0x180000, 0x181000                       # the upload area (scripts/run-demo.sh)
M, K, N = 4, 32, 16


def inputs():
    """kademo's deterministic inputs: an LCG, values small enough for FP16 exp()."""
    s = 0x1234567
    x = np.empty((M, K), np.float16)
    w = np.empty((K, N), np.float16)
    for r in range(M):
        for k in range(K):
            s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
            x[r, k] = ((s >> 16) % 2001 - 1000) / 1000.0
    for k in range(K):
        for j in range(N):
            s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
            w[k, j] = ((s >> 16) % 2001 - 1000) / 2000.0
    return x, w


def reference(x, w):
    """docs/npu.md §3/§8: logits summed in FP32 in ascending k, rounded once to FP16; then
    exp(l - max) / sum per row in double, rounded to FP16."""
    acc = np.zeros((M, N), np.float32)
    for k in range(K):
        acc += x[:, k:k + 1].astype(np.float32) * w[k].astype(np.float32)
    l = acc.astype(np.float16).astype(np.float64)
    e = np.exp(l - l.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float16)


def program():
    p = Program().memset_host_base(X_UG).memset_xfer(0, M, K).memset_xfer(1, K, N).memset_shape(2, M, N, K)
    p.memset_weight(0, 64, 1.0).memset_emax(float("-inf"))
    p.memcpy_in(0, 0, shape=0).memcpy_in(64, (W_UG - X_UG) // 32, shape=1)
    p.gemm(128, 0, shape=2, weights=0, findemax=True).cvo("exp", 128, 160, M * N, sub_emax=True)
    for r in range(M):
        p.cvo("reduce_sum", 160 + r, 192 + r, N).cvo("scale", 160 + r, 160 + r, N, recip_scale=True)
    return p.memset_xfer(3, M, N).memcpy_out((P_UG - X_UG) // 32, 160, shape=3)


def ulps(a, b):
    return np.abs(a.view(np.uint16).astype(np.int32) - b.view(np.uint16).astype(np.int32))


def test_softmax_demo_matches_numpy(node):
    x, w = inputs()
    node.write(UP_X, x)
    node.write(UP_W, w)
    node.zero(X_UG, 0x3000)          # nothing stale can pass
    moves = MoveList().copy(TensorRef.like(X_UG, x), TensorRef.like(UP_X, x)) \
                      .copy(TensorRef.like(W_UG, w), TensorRef.like(UP_W, w))
    r = node.replay(moves)
    assert r.completion.ok and r.moves == ["OK", "OK"] and r.completion.value == 2   # moves done
    assert np.array_equal(node.read(X_UG, dtype=np.float16, shape=(M, K)), x)
    assert np.array_equal(node.read(W_UG, dtype=np.float16, shape=(K, N)), w)

    c = node.dispatch(program(), (1, 1), txn=1)
    assert c.ok and c.name == "OK"
    p = node.read(P_UG, dtype=np.float16, shape=(M, N))
    want = reference(x, w)
    # docs/npu.md §8: each probability within 3 FP16 ulp, each row summing to 1 within 1 %.
    assert ulps(p, want).max() <= 3, f"worst {ulps(p, want).max()} ulp\n{p}\n{want}"
    assert np.abs(p.astype(np.float64).sum(axis=1) - 1).max() <= 0.01
    assert p.min() > 0


def test_referee_clean_after_demo(node):
    assert node.referee() == dict.fromkeys(node.referee(), 0)
    assert all(v == 0 for v in node.referee().values()) and len(node.referee()) == 8
