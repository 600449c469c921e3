#!/usr/bin/env python3
"""`make run` in Python (scripts/run-demo.sh): start QEMU with a host port, flash and boot the
firmware, upload the NPU's inputs, replay a descriptor list that copies them into place,
dispatch docs/npu.md §8's softmax program to NP 1,1, check P = softmax(X·W) against numpy,
show the node's status, stop the firmware and QEMU. Exit 0 only if every step was right.

    python3 host/python/examples/softmax_demo.py [--board qemu-rv64] [--out build]
"""
import argparse
import sys

import numpy as np

from kohaku import KohakuError, MoveList, Node, Program, Qemu, TensorRef, firmware_path

X_UG, W_UG, P_UG = 0x100000, 0x101000, 0x102000       # where the program reads and writes
UP_X, UP_W = 0x180000, 0x181000                       # where the host uploads
M, K, N = 4, 32, 16


def inputs():
    """Deterministic inputs (the same LCG as kademo), small enough for FP16 exp()."""
    s, x, w = 0x1234567, np.empty((M, K), np.float16), np.empty((K, N), np.float16)
    for i in range(M * K):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        x.flat[i] = ((s >> 16) % 2001 - 1000) / 1000.0
    for i in range(K * N):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        w.flat[i] = ((s >> 16) % 2001 - 1000) / 2000.0
    return x, w


def softmax_program() -> Program:
    """docs/npu.md §8, instruction by instruction."""
    p = Program().memset_host_base(X_UG)
    p.memset_xfer(0, rows=M, elems=K).memset_xfer(1, rows=K, elems=N).memset_shape(2, M, N, K)
    p.memset_weight(0, line=64, scale=1.0).memset_emax(float("-inf"))
    p.memcpy_in(0, 0, shape=0).memcpy_in(64, (W_UG - X_UG) // 32, shape=1)        # X to L2 0, W to 64
    p.gemm(128, 0, shape=2, weights=0, findemax=True)                            # logits at 128
    p.cvo("exp", 128, 160, M * N, sub_emax=True)                                 # exp(l - max) at 160
    for r in range(M):
        p.cvo("reduce_sum", 160 + r, 192 + r, N).cvo("scale", 160 + r, 160 + r, N, recip_scale=True)
    return p.memset_xfer(3, rows=M, elems=N).memcpy_out((P_UG - X_UG) // 32, 160, shape=3)


def reference(x, w):
    acc = np.zeros((M, N), np.float32)
    for k in range(K):                      # FP32 in ascending k, rounded once to FP16
        acc += x[:, k:k + 1].astype(np.float32) * w[k].astype(np.float32)
    l = acc.astype(np.float16).astype(np.float64)
    e = np.exp(l - l.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float16)


def step(title):
    print(f"\n== {title}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="qemu-rv32", choices=["qemu-rv32", "qemu-rv64"])
    ap.add_argument("--out", default="build", help="build directory (qemu/bin, BOARD/fw.elf)")
    a = ap.parse_args()
    fw = firmware_path(a.board, a.out)

    step(f"QEMU: {a.board}, host port on a Unix socket (core held until the host releases it)")
    with Qemu(a.board, a.out) as q, Node(q.link) as node:
        print(f"qemu pid {q.pid}, link {q.link}")

        step(f"flash and boot {fw}")
        b = node.boot(fw)
        print(f"boot: READY on RV{b.variant}, {b.units} units, queue {b.queue_addr:#x} ({b.entries} entries)")
        print(f"boot: flashed {b.flashed}")

        step("units the firmware found")
        for u in node.units():
            print(f"  unit {u.x},{u.y} type={u.type:#06x} ({u.type_name}) version={u.version} depth={u.depth}")

        step(f"upload X ({M}x{K}) and W ({K}x{N}), FP16, to {UP_X:#x} / {UP_W:#x}")
        x, w = inputs()
        node.write(UP_X, x)
        node.write(UP_W, w)
        node.zero(X_UG, 0x3000)

        step("replay a descriptor list: two COPY moves put X and W where the program reads them")
        moves = MoveList().copy(TensorRef.like(X_UG, x), TensorRef.like(UP_X, x)) \
                          .copy(TensorRef.like(W_UG, w), TensorRef.like(UP_W, w))
        r = node.replay(moves)
        print(f"replay: {r.completion.name}, {len(moves)} writes, cycles={r.completion.cycles}")
        for i, m in enumerate(r.moves):
            print(f"  move {i}: {m}")

        step("dispatch docs/npu.md §8 (20 instructions, softmax of X.W) to NP 1,1")
        c = node.dispatch(softmax_program(), (1, 1), txn=1)
        print(f"dispatch: {c.explanation}, cycles={c.cycles}")

        step("check P in DRAM against numpy")
        p = node.read(P_UG, dtype=np.float16, shape=(M, N))
        want = reference(x, w)
        worst = int(np.abs(p.view(np.uint16).astype(int) - want.view(np.uint16).astype(int)).max())
        rowsum = float(np.abs(p.astype(np.float64).sum(axis=1) - 1).max())
        copied = np.array_equal(node.read(X_UG, dtype=np.float16, shape=(M, K)), x)
        print(f"check: X copied into place: {copied}")
        print(f"check: worst {worst} FP16 ulp from numpy (limit 3), worst row sum off by {rowsum:.4f} (limit 0.01)")
        print("check: P[0][0..3] = " + " ".join(f"{v:.5f}" for v in p[0, :4].astype(float)))
        good = copied and worst <= 3 and rowsum <= 0.01
        print(f"check: {'data correct' if good else 'FAILED'}")

        step("node status")
        st = node.status()
        print(f"core: RV{st.core.variant} {st.core.state}: cycles={st.core.cycles} instret={st.core.instret}")
        print(f"firmware: {st.queue.firmware}, sq {st.queue.sq_head}/{st.queue.sq_tail} cq {st.queue.cq_tail}")

        step("stop the firmware")
        cs = node.stop()
        print(f"stop: core {cs.explanation}")
        ref = node.referee()
        print("referee: " + " ".join(f"{k}={v}" for k, v in ref.items()))
        good = good and not any(ref.values())
    step(f"done: {a.board} booted, replayed, dispatched, data {'checked' if good else 'WRONG'}, stopped; "
         "QEMU stopped")
    return 0 if good else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KohakuError as e:
        print(f"softmax_demo: FAILED: {e.name}: {e}", file=sys.stderr)
        sys.exit(1)
