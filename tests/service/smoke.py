#!/usr/bin/env python3
"""smoke.py — on-target smoke test of the command queue (firmware side): boots the real
firmware image in our QEMU machine with a host port, writes a boot block and a queue the way
docs/host-interface.md says, and drives it with raw host-port requests (include/kohaku/hostport.h).
A minimal stand-in for the C host library, for this test only. Expected values are literals from
docs/host-interface.md, include/kohaku/queue.h and status.h.

usage: smoke.py QEMU CPU FW_ELF SUITE [trap]   (PASS:/FAIL: lines; exit 0 when all pass)
"trap": the image's replay executes an illegal instruction (tests/service/trap_stubs.c): a
REPLAY must leave the state line FATAL / KQ_FATAL_TRAP with mcause 2, mepc = $KQ_TRAP_PC.
"""
import os, socket, struct, subprocess, sys, tempfile, time

QEMU, CPU, ELF, SUITE = sys.argv[1:5]
MODE = sys.argv[5] if len(sys.argv) > 5 else "full"

# ---- host port (hostport.h) ----
HELLO, READ, WRITE = 1, 2, 3
CPU_BASE, SPAD_LOAD = 0x10000, 0x200000
CPU_CTRL, CPU_STATE, CPU_EXIT_WORD = 0x00, 0x08, 0x10


class Port:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(200):
            try:
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("cannot connect to the host port")
        self.tag = 0

    def _recv(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                raise RuntimeError("host port closed")
            b += c
        return b

    def req(self, op, width, addr, data=b"", rlen=0):
        self.tag = (self.tag + 1) & 0xFFFF
        ln = len(data) if op == WRITE else rlen
        self.s.sendall(struct.pack("<BBHIQ", op, width, self.tag, ln, addr) + data)
        rop, st, tag, rl, val = struct.unpack("<BBHIQ", self._recv(16))
        if st != 0:
            raise RuntimeError("host port status %d for op %d addr 0x%x" % (st, op, addr))
        body = self._recv(rl) if op == READ and width == 0 else b""
        return val, body

    def rd(self, addr, n):
        return self.req(READ, 0, addr, rlen=n)[1]

    def wr(self, addr, data):
        self.req(WRITE, 0, addr, data)

    def reg(self, addr):
        return self.req(READ, 8, addr, rlen=8)[0]

    def setreg(self, addr, v):
        self.req(WRITE, 8, addr, struct.pack("<Q", v))


def mem(ug):
    return (1 << 40) | ug          # mesh 0 (hostport.h KHP_MEM)


# ---- the queue (queue.h) ----
Q = 0x100000                       # header, 512 bytes
SQ, SQN = 0x101000, 8              # 8 submissions of 64 bytes
CQ, CQN = 0x102000, 4              # 4 completions of 32 bytes: small, to show flow control
DATA = 0x200000                    # command data
OUT = 0x300000                     # mover destination
L_SQ_TAIL, L_SQ_HEAD, L_CQ_TAIL, L_CQ_HEAD, L_FW, L_PROGRESS, L_UNITS = (32 * i for i in range(1, 8))
NOP, REPLAY, DISPATCH, RUN, UNITS, STOP = range(6)
S_DISPATCH, S_REPLAY, S_WAIT, S_BARRIER, S_SIGNAL = range(1, 6)
READY, STOPPED, FATAL = 1, 2, 3
# status.h
KS = dict(OK=0x00, BAD_OP=0x01, BAD_FLAGS=0x02, BAD_LEN=0x03, BAD_ALIGN=0x04, BAD_ADDR=0x05,
          BAD_TARGET=0x06, BAD_NTARGETS=0x07, DUP_TARGET=0x08, BAD_STEP=0x09, UNSATISFIABLE=0x0A,
          BAD_RSVD=0x0B, NO_REACH=0x13, UNIT_FAULT=0x50, ABORTED=0x71)
UNITS_MAP = [(0x11, 0x4E50), (0x12, 0x4E50), (0x13, 0x4E50), (0x14, 0x4E50), (0x21, 0x5455), (0x22, 0x5455)]


def bootblock(wait=1000000, qaddr=Q, table=True):
    units = UNITS_MAP if table else []
    ents = b"".join(struct.pack("<BBBBHH", yx, 1, 0, 0, t, 16) for yx, t in units)
    hdr = struct.pack("<IHHIIQHHI", 0x4B424F54, 1, 32 + len(ents), 1 if table else 0, wait, qaddr, len(units), 0, 0)
    return hdr + ents


def sub(op, tag, addr=0, count=0, txn=0, targets=(), cap=0, flags=0):
    t = bytes(targets) + bytes(8 - len(targets))
    return struct.pack("<HHIQIBBH", op, flags, tag, addr, count, txn, len(targets), cap) + t + bytes(32)


def step(op, target=0, n=0, addr=0, txn=0, cap=0):
    return struct.pack("<BBBBHHIIQQ", op, target, txn, 0, cap, 0, n, 0, addr, 0)


def tu(op, imm):
    return struct.pack("<QQQQ", 0, 0, 0, (op << 60) | imm)


def w(off, v):
    return struct.pack("<IQ", off, v)       # a descriptor record {offset, value lo, value hi}


def generate_list(dst, words, seed):
    # docs/hardware.md §3: GENERATE (mode 3) of `words` words at dst, one dimension, bounds disabled.
    return (w(0x10, 1 | (dst << 4) | (1 << 44)) +           # HDR: destination, base, 1 dim
            w(0x18, 1 | (words << 4) | (32 << 20)) +          # DIM: walker 1, dim 0, count, stride 32
            w(0x20, 0) +                                      # AXIS: commit, no bound axis
            w(0x28, 1) + w(0x28, 3) +                         # BOUND 0 and 1 of the destination: off
            w(0x38, seed) +                                   # SEED
            w(0x00, 3 | (1 << 16)))                           # CTRL: GENERATE, width 8, GO


class Host:
    def __init__(self, port):
        self.p = port
        self.sq_tail = 0
        self.cq_head = 0

    def line(self, off, fmt):
        return struct.unpack_from(fmt, self.p.rd(mem(Q + off), 32))

    def state(self):
        return self.line(L_FW, "<IIQQQ")

    def wait_state(self, want, secs=20):
        end = time.time() + secs
        while time.time() < end:
            if self.state()[0] == want:
                return True
            time.sleep(0.01)
        return False

    def submit(self, s):
        self.p.wr(mem(SQ + 64 * (self.sq_tail % SQN)), s)
        self.sq_tail += 1
        self.p.wr(mem(Q + L_SQ_TAIL), struct.pack("<Q", self.sq_tail))

    def cq_tail(self):
        return self.line(L_CQ_TAIL, "<Q")[0]

    def reap(self, secs=20):
        end = time.time() + secs
        while self.cq_tail() <= self.cq_head:
            if time.time() > end:
                return None
            time.sleep(0.005)
        c = struct.unpack("<IHHIIQQ", self.p.rd(mem(CQ + 32 * (self.cq_head % CQN)), 32))
        self.cq_head += 1
        self.p.wr(mem(Q + L_CQ_HEAD), struct.pack("<Q", self.cq_head))
        return dict(tag=c[0], status=c[1], detail=c[3], value=c[5], cycles=c[6])

    def cmd(self, s):
        self.submit(s)
        return self.reap()


results = []


def check(name, ok, why=""):
    results.append(ok)
    print(("PASS: %s/%s" % (SUITE, name)) if ok else ("FAIL: %s/%s %s" % (SUITE, name, why)))
    sys.stdout.flush()


def expect(name, c, status, detail=None, value=None, tag=None):
    if c is None:
        return check(name, False, "no completion")
    why = []
    if c["status"] != KS[status]:
        why.append("status 0x%x want %s" % (c["status"], status))
    if detail is not None and c["detail"] != detail:
        why.append("detail 0x%x want 0x%x" % (c["detail"], detail))
    if value is not None and c["value"] != value:
        why.append("value 0x%x want 0x%x" % (c["value"], value))
    if tag is not None and c["tag"] != tag:
        why.append("tag 0x%x want 0x%x" % (c["tag"], tag))
    check(name, not why, "; ".join(why))


def main():
    d = tempfile.mkdtemp(prefix="kq-smoke-")
    sock = os.path.join(d, "hp.sock")
    q = subprocess.Popen([QEMU, "-M", "kohaku-sysnode,hostport=hp", "-cpu", CPU, "-bios", "none",
                          "-display", "none", "-monitor", "none", "-serial", "none", "-nodefaults",
                          "-icount", "shift=0,align=off,sleep=off",
                          "-chardev", "socket,id=hp,path=%s,server=on,wait=off" % sock,
                          "-kernel", ELF], stdout=open(os.path.join(d, "console"), "wb"),
                         stderr=open(os.path.join(d, "stderr"), "wb"))
    try:
        run(Port(sock))
    except Exception as e:          # a dead port or QEMU is a failure, never a silent pass
        check("driver", False, repr(e))
    finally:
        q.kill()
        q.wait()
    sys.exit(0 if all(results) else 1)


def run(p):
    h = Host(p)
    # Held at start: boot block into the scratchpad, a zeroed header with its setup line.
    p.wr(SPAD_LOAD, bootblock())
    p.wr(mem(Q), bytes(512))
    p.wr(mem(Q), struct.pack("<IHHHHIQQ", 0x4B51554E, 1, 0, SQN, CQN, 0, SQ, CQ))
    p.wr(mem(DATA), bytes(4096))
    p.wr(mem(OUT), bytes(256))
    p.setreg(CPU_BASE + CPU_CTRL, 0)                          # release
    check("boot_ready", h.wait_state(READY), "state %r" % (h.state(),))
    info = h.line(L_PROGRESS, "<QQQ")
    sys.stderr.write("boot: ready_instret=%d ready_cycles=%d\n" % info[1:])
    check("boot_figures", 0 < info[1] <= info[2], repr(info))
    if MODE == "trap":
        return trap(h, p)
    cnt = h.line(L_UNITS, "<I")[0]
    ents = p.rd(mem(Q + L_UNITS + 32), 8 * 6)
    check("units_published", cnt == 6 and struct.unpack_from("<BBBBHH", ents, 40) == (0x22, 1, 0, 0, 0x5455, 16),
          "count %d" % cnt)

    expect("nop", h.cmd(sub(NOP, 0x1001)), "OK", 0, 0, tag=0x1001)
    expect("units", h.cmd(sub(UNITS, 0x1002)), "OK", 0, 6)
    expect("bad_op", h.cmd(sub(9, 0x1003)), "BAD_OP", 9)
    expect("bad_flags", h.cmd(sub(NOP, 0x1004, flags=4)), "BAD_FLAGS", 4)
    expect("bad_len_zero", h.cmd(sub(REPLAY, 5, DATA, 0)), "BAD_LEN", 0)
    expect("bad_len_big", h.cmd(sub(DISPATCH, 6, DATA, 65537, targets=[0x21])), "BAD_LEN", 65537)
    expect("bad_align", h.cmd(sub(RUN, 7, DATA + 4, 1)), "BAD_ALIGN", 8, DATA + 4)
    expect("bad_addr_past_dram", h.cmd(sub(REPLAY, 8, 0xFFFFFFF0, 2)), "BAD_ADDR", 24, 0xFFFFFFF0)
    expect("bad_addr_mesh", h.cmd(sub(REPLAY, 9, 0x1000000000 | DATA, 1)), "BAD_ADDR")
    expect("bad_target", h.cmd(sub(DISPATCH, 10, DATA, 1, targets=[0x33])), "BAD_TARGET", 0x33)
    expect("bad_ntargets", h.cmd(sub(DISPATCH, 11, DATA, 1)), "BAD_NTARGETS", 0)
    expect("dup_target", h.cmd(sub(DISPATCH, 12, DATA, 1, targets=[0x21, 0x21])), "DUP_TARGET", 0x21)

    lst = generate_list(OUT, 4, 0x0123456789ABCDEF)
    data_paths(h, p, lst)
    bad = step(S_DISPATCH, 0x21, 3, DATA + 0x400) + step(S_WAIT, 0x21, 2)
    p.wr(mem(DATA + 0xC00), bad)
    expect("run_unsatisfiable", h.cmd(sub(RUN, 41, DATA + 0xC00, 2)), "UNSATISFIABLE", 0x21, (1 << 48) | 2)
    p.wr(mem(DATA + 0xC00), step(S_BARRIER) + step(7))
    expect("run_bad_step", h.cmd(sub(RUN, 42, DATA + 0xC00, 2)), "BAD_STEP", 7, 1 << 48)
    after_data(h, p)


def data_paths(h, p, lst):
    # REPLAY: GENERATE 4 words; the fifth word (the guard) stays zero.
    p.wr(mem(DATA), lst)
    expect("replay_generate", h.cmd(sub(REPLAY, 20, DATA, len(lst) // 12)), "OK", 0, 1)
    out = p.rd(mem(OUT), 160)
    check("replay_data", all(out[32 * i:32 * i + 32] != bytes(32) for i in range(4)) and out[128:] == bytes(32),
          out.hex())
    # IMM (0x40) is out of RV64's reach: NO_REACH naming it, before anything is written.
    p.wr(mem(OUT), bytes(160))
    p.wr(mem(DATA), w(0x40, 7) + lst)
    c = h.cmd(sub(REPLAY, 21, DATA, len(lst) // 12 + 1))
    if CPU.startswith("rv64"):
        expect("replay_no_reach", c, "NO_REACH", 0x40)
        check("replay_no_reach_nothing_moved", p.rd(mem(OUT), 160) == bytes(160))

    # DISPATCH: 3 TU NOPs to two TUs; value = instructions sent.
    p.wr(mem(DATA + 0x400), tu(0, 1) + tu(0, 2) + tu(0, 3))
    expect("dispatch_two", h.cmd(sub(DISPATCH, 30, DATA + 0x400, 3, txn=5, targets=[0x21, 0x22])), "OK", 0, 6)
    # A unit fault fails only its command: detail {y,x}, value exec_result; NOP still served.
    p.wr(mem(DATA + 0x500), tu(0, 1) + tu(4, 0xBEEF))
    expect("dispatch_fault", h.cmd(sub(DISPATCH, 31, DATA + 0x500, 2, targets=[0x22])), "UNIT_FAULT", 0x22, 0xBEEF)
    expect("nop_after_fault", h.cmd(sub(NOP, 32)), "OK")

    # RUN: dispatch to both TUs, wait, signal; progress line = the SIGNAL value.
    steps = (step(S_DISPATCH, 0x21, 3, DATA + 0x400) + step(S_DISPATCH, 0x22, 3, DATA + 0x400) +
             step(S_WAIT, 0x21, 1) + step(S_REPLAY, 0, len(lst) // 12, DATA + 0x800) +
             step(S_BARRIER) + step(S_SIGNAL, addr=0xC0FFEE))
    p.wr(mem(DATA + 0x800), lst)
    p.wr(mem(DATA + 0xC00), steps)
    expect("run", h.cmd(sub(RUN, 40, DATA + 0xC00, 6)), "OK", 0, 6)
    check("run_progress", h.line(L_PROGRESS, "<Q")[0] == 0xC0FFEE)
    p.wr(mem(DATA + 0xC00), step(S_DISPATCH, 0x21, 2, DATA + 0x500) + step(S_SIGNAL, addr=1))
    expect("run_unit_fault", h.cmd(sub(RUN, 43, DATA + 0xC00, 2)), "UNIT_FAULT", 0x21, (0 << 48) | 0xBEEF)
    # A fault in a group that is not the list's first step: value[63:48] names the failing
    # job's own step (the group is steps 1-2, its second job fails).
    p.wr(mem(DATA + 0xC00), step(S_SIGNAL, addr=2) + step(S_DISPATCH, 0x21, 3, DATA + 0x400) +
         step(S_DISPATCH, 0x22, 2, DATA + 0x500))
    expect("run_group_fault_step", h.cmd(sub(RUN, 44, DATA + 0xC00, 3)), "UNIT_FAULT", 0x22,
           (2 << 48) | 0xBEEF)


def after_data(h, p):
    # Flow control: 6 NOPs into a completion ring of 4; the firmware posts 4 and waits.
    for i in range(6):
        h.submit(sub(NOP, 0x200 + i))
    time.sleep(0.5)
    check("cq_full_waits", h.cq_tail() - h.cq_head == 4, "cq_tail %d cq_head %d" % (h.cq_tail(), h.cq_head))
    tags = [h.reap()["tag"] for _ in range(6)]
    check("cq_in_order", tags == [0x200 + i for i in range(6)], repr(tags))

    # Many NOPs: none lost, none duplicated.
    seen = []
    for i in range(300):
        h.submit(sub(NOP, 0x1000 + i))
        if h.sq_tail - h.cq_head >= CQN:
            seen.append(h.reap()["tag"])
    while h.cq_head < h.sq_tail:
        seen.append(h.reap()["tag"])
    check("nop_300", seen == [0x1000 + i for i in range(300)])

    # Restart: one command taken but not completed (the ring is full), then the core restarts.
    for i in range(5):
        h.submit(sub(NOP, 0x300 + i))
    time.sleep(0.5)
    sq_head = h.line(L_SQ_HEAD, "<QI")
    check("taken_not_completed", sq_head == (h.sq_tail, 0x304), repr(sq_head))
    p.setreg(CPU_BASE + CPU_CTRL, 1)
    p.setreg(CPU_BASE + CPU_CTRL, 0)
    time.sleep(0.2)
    check("restart_ready", h.wait_state(READY))
    tags = [h.reap() for _ in range(5)]
    check("restart_completes_4", [c["tag"] for c in tags[:4]] == [0x300 + i for i in range(4)])
    expect("restart_aborted", tags[4], "ABORTED", 0, 0, tag=0x304)
    expect("restart_nop", h.cmd(sub(NOP, 0x400)), "OK", tag=0x400)

    # STOP: completes, state STOPPED, the core exits with word 0.
    expect("stop", h.cmd(sub(STOP, 0x500)), "OK", tag=0x500)
    check("stopped", h.wait_state(STOPPED))
    time.sleep(0.1)
    check("exited", p.reg(CPU_BASE + CPU_STATE) & 3 == 3 and p.reg(CPU_BASE + CPU_EXIT_WORD) == 0)

    # No table in the boot block: the firmware enumerates the default map (docs/model-mesh.md:
    # NP at (1..4, 1), TU at (1..2, 2); CU_CAPS type "NP" 0x4E50 / "TU" 0x5455, depth 16).
    p.setreg(CPU_BASE + CPU_CTRL, 1)
    p.wr(SPAD_LOAD, bootblock(table=False))
    p.setreg(CPU_BASE + CPU_CTRL, 0)
    check("restart_after_stop", h.wait_state(READY))
    expect("enumerated_units", h.cmd(sub(UNITS, 0x600)), "OK", 0, 6)
    ents = p.rd(mem(Q + L_UNITS + 32), 8 * 6)
    got = sorted((e[0], e[4], e[5]) for e in struct.iter_unpack("<BBBBHH", ents))
    check("enumerated_table", got == sorted((yx, t, 16) for yx, t in UNITS_MAP), repr(got))

    # A host that breaks the ring rules: FATAL, KQ_FATAL_QUEUE, which = KQ_BROKEN_SQ_TAIL.
    h.p.wr(mem(Q + L_SQ_TAIL), struct.pack("<Q", h.sq_tail + 100))
    check("broken_fatal", h.wait_state(FATAL))
    st = h.state()
    check("broken_code", st[1] == 3 and st[2] == 1 and st[3] == h.sq_tail + 100 and st[4] == h.sq_tail, repr(st))
    check("broken_exit_word", p.reg(CPU_BASE + CPU_EXIT_WORD) == 0xDEAD0010)


def trap(h, p):
    expect("nop", h.cmd(sub(NOP, 1)), "OK")
    lst = generate_list(OUT, 4, 1)
    p.wr(mem(DATA), lst)
    h.submit(sub(REPLAY, 2, DATA, len(lst) // 12))
    check("trap_fatal", h.wait_state(FATAL), repr(h.state()))
    st = h.state()
    pc = int(os.environ["KQ_TRAP_PC"], 16)
    # KQ_FATAL_TRAP 1; mcause 2 (illegal instruction); mepc the unimp; mtval its encoding
    check("trap_state", st[1:] == (1, 2, pc, 0xC0001073), "state %r, want pc 0x%x" % (st, pc))
    check("trap_exit_word", p.reg(CPU_BASE + CPU_EXIT_WORD) == 0x5452415000000002)
    check("trap_no_completion", h.cq_tail() == 1)


if __name__ == "__main__":
    main()
