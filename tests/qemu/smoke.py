#!/usr/bin/env python3
"""smoke.py — the kohaku-sysnode machine's smoke tests (docs/qemu.md): runs the hand-written images
of tests/qemu/ on both emulators and checks the run contract's stop line, exit status and console
output, -icount determinism, the boot-block property and the host port (HELLO over a real Unix
socket, the core held until released). Expected values are literals from docs/hardware.md §4/§5 and the
run contract, written out below, never taken from the code under test.

Writes one line per test to --log: PASS: name / FAIL: name why / HANG: name."""

import argparse
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 20
STOP_RE = re.compile(r"^kohaku-stop: state=(exited|halted) cause=(\d+) word=0x([0-9a-f]+) pc=0x([0-9a-f]+)$")

# Host port wire format (include/kohaku/hostport.h), written out as literals.
KHP_OP_HELLO, KHP_OP_READ, KHP_OP_WRITE = 1, 2, 3
KHP_MAGIC, KHP_VERSION = 0x4B485031, 1
KHP_CPU_CTRL, KHP_CPU_STATE, KHP_CPU_NOW_NS = 0x10000, 0x10008, 0x10038
KHP_CPU_HELD, KHP_CPU_EXITED = 0, 3
KHP_IMEM_BASE = 0x100000
KHP_MEM0 = 1 << 40                     # mesh 0's unit-global memory: (0 + 1) << 40 | address


class Hang(Exception):
    pass


def qemu_cmd(args, variant, image, mprops=""):
    emu = os.path.join(args.qemu_bin, "qemu-system-riscv%d" % variant)
    machine = "kohaku-sysnode" + ("," + mprops if mprops else "")
    cmd = [emu, "-M", machine, "-cpu", "rv%d,c=false" % variant, "-bios", "none",
           "-display", "none", "-monitor", "none", "-serial", "none", "-nodefaults",
           "-icount", "shift=0,align=off,sleep=off"]
    if image:
        cmd += ["-kernel", os.path.join(args.images, image)]
    return cmd


def run(args, variant, image, mprops=""):
    try:
        p = subprocess.run(qemu_cmd(args, variant, image, mprops), capture_output=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Hang()
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def stop_line(stderr):
    lines = [l for l in stderr.splitlines() if l.startswith("kohaku-stop:")]
    if len(lines) != 1:
        return None, "expected exactly one kohaku-stop line, got %d (stderr: %r)" % (len(lines), stderr[-400:])
    m = STOP_RE.match(lines[0])
    if not m:
        return None, "malformed stop line %r" % lines[0]
    return (m.group(1), int(m.group(2)), int(m.group(3), 16), int(m.group(4), 16)), None


def expect_stop(args, variant, image, state, cause, word, pc=None, rc=None, stdout=None, mprops=""):
    """Run an image and compare its stop line; pc None = not asserted (EXIT has no defined pc)."""
    code, out, err = run(args, variant, image, mprops)
    got, why = stop_line(err)
    if why:
        return why
    if got[0] != state or got[1] != cause or got[2] != word or (pc is not None and got[3] != pc):
        return "stop %s cause=%d word=0x%x pc=0x%x, want %s cause=%d word=0x%x pc=%s" % (
            got + (state, cause, word, "any" if pc is None else "0x%x" % pc))
    want_rc = rc if rc is not None else (0 if state == "exited" and word == 0 else 1)
    if code != want_rc:
        return "exit status %d, want %d" % (code, want_rc)
    if stdout is not None and out != stdout:
        return "stdout %r, want %r" % (out, stdout)
    if not any(l.startswith("kohaku-referee: ") for l in err.splitlines()):
        return "no kohaku-referee lines after the stop line"
    return None


def t_instret(args):
    runs = [run(args, 32, "rv32-instret.elf") for _ in range(2)]
    outs = [r[1] for r in runs]
    if outs[0] != outs[1]:
        return "two -icount runs differ: %r vs %r" % tuple(outs)
    words = outs[0].split()
    if len(words) != 3:
        return "expected three hex words, got %r" % outs[0]
    first, second = int(words[0], 16), int(words[1], 16)
    if second - first != 2002:
        return "INSTRET advanced by %d across the loop, want 2002" % (second - first)
    if runs[0][0] != 0:
        return "exit status %d" % runs[0][0]
    return None


def t_bootblock(args):
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(bytes([0x78, 0x56, 0x34, 0x12, 0xAA, 0xBB]))
        path = f.name
    try:
        return expect_stop(args, 32, "rv32-bootblock.elf", "exited", 0, 0x12345678,
                           mprops="bootblock=" + path)
    finally:
        os.unlink(path)


def t_stdin(args):
    """RV64 STDIN fed from a chardev (stdin= property, here QEMU's own stdin): the image echoes
    it to the console."""
    cmd = qemu_cmd(args, 64, "rv64-stdin.elf", "stdin=in")
    cmd[1:1] = ["-chardev", "stdio,id=in,signal=off"]
    try:
        p = subprocess.run(cmd, input=b"ping\n", capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Hang()
    got, why = stop_line(p.stderr.decode("latin-1"))
    if why:
        return why
    if got[:3] != ("exited", 0, 0) or p.returncode != 0:
        return "stop %r status %d" % (got, p.returncode)
    if p.stdout != b"ping\n":
        return "stdout %r, want 'ping\\n'" % p.stdout
    return None


def hp_request(sock, op, tag, addr=0, data=b"", width=0, length=None):
    n = len(data) if length is None else length
    sock.sendall(struct.pack("<BBHIQ", op, width, tag, n, addr) + data)
    hdr = b""
    while len(hdr) < 16:
        chunk = sock.recv(16 - len(hdr))
        if not chunk:
            raise RuntimeError("host port closed")
        hdr += chunk
    rop, status, rtag, rlen, value = struct.unpack("<BBHIQ", hdr)
    body = b""
    while len(body) < rlen:
        chunk = sock.recv(rlen - len(body))
        if not chunk:
            raise RuntimeError("host port closed mid-reply")
        body += chunk
    return rop, status, rtag, value, body


def t_hostport(args):
    """HELLO over a Unix socket; the core starts held (no stop line, state HELD); after a
    release through KHP_CPU_CTRL it runs, prints and exits, and QEMU keeps running."""
    hp = HostPort(args, 32, "rv32-console-exit.elf")
    try:
        rop, status, tag, value, _ = hp.request(KHP_OP_HELLO, 0x5A17)
        if (rop, status, tag) != (KHP_OP_HELLO, 0, 0x5A17):
            return "HELLO reply op=%d status=%d tag=0x%x" % (rop, status, tag)
        if value != (KHP_MAGIC | KHP_VERSION << 32):
            return "HELLO value 0x%x, want 0x%x" % (value, KHP_MAGIC | KHP_VERSION << 32)
        _, status, _, value, _ = hp.request(KHP_OP_READ, 2, KHP_CPU_STATE, width=8, length=8)
        if status != 0 or value & 3 != KHP_CPU_HELD:
            return "CPU_STATE before release: status %d value 0x%x, want HELD (0)" % (status, value)
        _, status, _, _, _ = hp.request(KHP_OP_WRITE, 3, KHP_CPU_CTRL, struct.pack("<Q", 0), width=8)
        if status != 0:
            return "release (CPU_CTRL=0) status %d" % status
        deadline = time.time() + TIMEOUT_S
        state = None
        while state != KHP_CPU_EXITED:
            if time.time() > deadline:
                raise Hang()
            _, status, _, value, _ = hp.request(KHP_OP_READ, 4, KHP_CPU_STATE, width=8, length=8)
            state = value & 3
        if hp.p.poll() is not None:
            return "QEMU exited on stop although a host port is attached (exit-on-stop defaults off)"
    finally:
        out, err = hp.close()
    if out != "kohaku\n":
        return "stdout %r, want 'kohaku\\n'" % out
    got, why = stop_line(err)
    if why:
        return why
    if got[:3] != ("exited", 0, 0):
        return "stop line %r" % (got,)
    return None


class HostPort:
    """QEMU with a host port on a fresh Unix socket, and a connected client."""

    def __init__(self, args, variant, image, mprops=""):
        self.tmp = tempfile.mkdtemp(prefix="kohaku-hp-")
        self.path = os.path.join(self.tmp, "hp.sock")
        cmd = qemu_cmd(args, variant, image, "hostport=hp" + ("," + mprops if mprops else ""))
        cmd[1:1] = ["-chardev", "socket,id=hp,path=%s,server=on,wait=off" % self.path]
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.time() + TIMEOUT_S
        while not os.path.exists(self.path):
            if self.p.poll() is not None:
                raise RuntimeError("qemu exited %d: %r" % (self.p.returncode, self.p.stderr.read()[-300:]))
            if time.time() > deadline:
                raise Hang()
            time.sleep(0.02)
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(TIMEOUT_S)
        self.s.connect(self.path)

    def request(self, *a, **k):
        try:
            return hp_request(self.s, *a, **k)
        except socket.timeout:
            raise Hang()

    def close(self):
        self.s.close()
        if self.p.poll() is None:
            self.p.terminate()
        try:
            out, err = self.p.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.rmdir(self.tmp)
        return out.decode("latin-1"), err.decode("latin-1")


def t_hostport_latency(args):
    """host-latency-ns=5000: two back-to-back register reads of the model's clock (KHP_CPU_NOW_NS)
    execute exactly 5000 ns of virtual time apart (the held hart adds no time; the port's own
    cost per read is far below 5000)."""
    hp = HostPort(args, 32, "rv32-console-exit.elf", "host-latency-ns=5000")
    try:
        t = []
        for tag in (1, 2):
            _, status, _, value, _ = hp.request(KHP_OP_READ, tag, KHP_CPU_NOW_NS, width=8, length=8)
            if status != 0:
                return "NOW_NS read status %d" % status
            t.append(value)
    finally:
        hp.close()
    if t[1] - t[0] != 5000:
        return "reads %d ns apart, want 5000" % (t[1] - t[0])
    return None


def imem_segments(path):
    """(paddr, bytes) of the PT_LOAD segments of a 32-bit RISC-V ELF that lie in the RV32
    instruction window (0x0000-0x1FFF, docs/hardware.md §4)."""
    with open(path, "rb") as f:
        img = f.read()
    phoff, = struct.unpack_from("<I", img, 28)
    phentsize, phnum = struct.unpack_from("<HH", img, 42)
    segs = []
    for i in range(phnum):
        ptype, off, _vaddr, paddr, filesz, _memsz = struct.unpack_from("<6I", img, phoff + i * phentsize)
        if ptype == 1 and filesz and paddr < 0x2000:
            segs.append((paddr, img[off:off + filesz]))
    return segs


def t_hostport_reflash(args):
    """Hold a running core, load a new image through the instruction-window load path, release:
    the new image runs from PC 0 (stale translations of the old one are dropped) and INSTRET
    counts from the release (its first read is 2: the li and the load itself)."""
    hp = HostPort(args, 32, "rv32-spin.elf")
    try:
        for tag, hold in ((1, 0), (2, 1)):
            _, status, _, _, _ = hp.request(KHP_OP_WRITE, tag, KHP_CPU_CTRL, struct.pack("<Q", hold), width=8)
            if status != 0:
                return "CPU_CTRL=%d status %d" % (hold, status)
        time.sleep(0.2)
        _, status, _, value, _ = hp.request(KHP_OP_READ, 3, KHP_CPU_STATE, width=8, length=8)
        if value & 3 != KHP_CPU_HELD:
            return "state 0x%x after hold, want HELD" % value
        for paddr, data in imem_segments(os.path.join(args.images, "rv32-instret.elf")):
            _, status, _, _, _ = hp.request(KHP_OP_WRITE, 4, KHP_IMEM_BASE + paddr, data)
            if status != 0:
                return "imem load at 0x%x status %d" % (paddr, status)
        _, status, _, _, _ = hp.request(KHP_OP_WRITE, 5, KHP_CPU_CTRL, struct.pack("<Q", 0), width=8)
        deadline = time.time() + TIMEOUT_S
        state = None
        while state != KHP_CPU_EXITED:
            if time.time() > deadline:
                raise Hang()
            _, status, _, value, _ = hp.request(KHP_OP_READ, 6, KHP_CPU_STATE, width=8, length=8)
            state = value & 3
    finally:
        out, err = hp.close()
    words = out.split()
    if words[:2] != ["00000002", "000007d4"]:
        return "new image printed %r, want INSTRET 00000002 then 000007d4" % out
    return None


FW_DRAM_WORDS = "c01dc0de\n5ec0de64\n"    # rv32-fw-dram.S's first and last word, as printed


def t_fw_dram_hostport(args):
    """The firmware-DRAM segment is in DRAM itself, not in a cache: the host port reads it at
    unit-global 0x40_0000 (behind the caches) before the core ever ran. Then a host reset (hold,
    release from PC 0 with empty caches, twice) finds it again: the image prints both words on
    every run."""
    hp = HostPort(args, 32, "rv32-fw-dram.elf")
    try:
        _, status, _, _, body = hp.request(KHP_OP_READ, 1, KHP_MEM0 + 0x400000, length=4)
        if status != 0 or body != struct.pack("<I", 0xC01DC0DE):
            return "DRAM at 0x400000 before release: status %d bytes %r, want de c0 1d c0" % (status, body)
        _, status, _, _, body = hp.request(KHP_OP_READ, 2, KHP_MEM0 + 0x40FFFC, length=8)
        if status != 0 or body != struct.pack("<II", 0x5EC0DE64, 0):
            return "DRAM at 0x40fffc: status %d bytes %r, want the last word then zeros" % (status, body)
        for run_no in range(2):
            if run_no:
                _, status, _, _, _ = hp.request(KHP_OP_WRITE, 3, KHP_CPU_CTRL, struct.pack("<Q", 1), width=8)
                if status != 0:
                    return "hold status %d" % status
            _, status, _, _, _ = hp.request(KHP_OP_WRITE, 4, KHP_CPU_CTRL, struct.pack("<Q", 0), width=8)
            if status != 0:
                return "release status %d" % status
            deadline = time.time() + TIMEOUT_S
            state = None
            while state != KHP_CPU_EXITED:
                if time.time() > deadline:
                    raise Hang()
                _, status, _, value, _ = hp.request(KHP_OP_READ, 5, KHP_CPU_STATE, width=8, length=8)
                state = value & 3
    finally:
        out, err = hp.close()
    if out != FW_DRAM_WORDS * 2:
        return "stdout %r, want %r twice (first boot, then after the host's reset)" % (out, FW_DRAM_WORDS)
    return None


def expect_refused_image(args, variant, image, why):
    """QEMU refuses to start (status 1, no stop line) with this message on stderr."""
    code, _, err = run(args, variant, image)
    if code != 1 or "kohaku-stop:" in err or why not in err:
        return "status %d, stderr %r, want 1 and %r" % (code, err[-300:], why)
    return None


def t_bad_config(args):
    """A configuration the model refuses stops QEMU with status 1 before the core runs."""
    code, _, err = run(args, 32, "rv32-console-exit.elf", "units=not-a-unit-map")
    if code != 1 or "kohaku-stop:" in err:
        return "status %d, stderr %r" % (code, err[-300:])
    return None


def tests():
    E, H = "exited", "halted"
    t = [
        # RV32 (docs/hardware.md §4)
        ("rv32-console-exit", lambda a: expect_stop(a, 32, "rv32-console-exit.elf", E, 0, 0, stdout="kohaku\n")),
        ("rv32-exit-word", lambda a: expect_stop(a, 32, "rv32-exit-word.elf", E, 0, 0xC0FFEE01, 0x100)),
        ("rv32-spad", lambda a: expect_stop(a, 32, "rv32-spad.elf", E, 0, 0)),
        ("rv32-spad-end", lambda a: expect_stop(a, 32, "rv32-spad-end.elf", H, 3, 0x100, 0x100)),
        ("rv32-imem-load", lambda a: expect_stop(a, 32, "rv32-imem-load.elf", H, 3, 0x100, 0x100)),
        ("rv32-imem-store", lambda a: expect_stop(a, 32, "rv32-imem-store.elf", H, 3, 0x100, 0x100)),
        ("rv32-unassigned", lambda a: expect_stop(a, 32, "rv32-unassigned.elf", H, 3, 0x100, 0x100)),
        ("rv32-ecall", lambda a: expect_stop(a, 32, "rv32-ecall.elf", H, 1, 0x1234ABCD, 0x100)),
        ("rv32-ebreak", lambda a: expect_stop(a, 32, "rv32-ebreak.elf", H, 2, 0x0BADF00D, 0x100)),
        ("rv32-illegal", lambda a: expect_stop(a, 32, "rv32-illegal.elf", H, 3, 0x100, 0x100)),
        ("rv32-divide", lambda a: expect_stop(a, 32, "rv32-divide.elf", H, 3, 0x100, 0x100)),
        ("rv32-misaligned", lambda a: expect_stop(a, 32, "rv32-misaligned.elf", H, 3, 0x100, 0x100)),
        ("rv32-fetch-spad", lambda a: expect_stop(a, 32, "rv32-fetch-spad.elf", H, 3, 0x10000000, 0x10000000)),
        ("rv32-forge", lambda a: expect_stop(a, 32, "rv32-forge.elf", H, 3, 0x100, 0x100)),
        ("rv32-instret-deterministic", t_instret),
        ("rv32-bootblock", t_bootblock),
        # The firmware-owned DRAM range (docs/host-interface.md "Firmware DRAM"): RV32 only
        ("rv32-fw-dram", lambda a: expect_stop(a, 32, "rv32-fw-dram.elf", E, 0, 0, stdout=FW_DRAM_WORDS)),
        ("rv32-fw-dram-past-end", lambda a: expect_refused_image(a, 32, "rv32-fw-dram-past-end.elf",
            "segment at 0x80400000 (+0x10004) is not inside the instruction window or the scratchpad")),
        ("rv64-fw-dram-refused", lambda a: expect_refused_image(a, 64, "rv64-fw-dram.elf",
            "segment at 0x80400000 (+0x4) is not inside the instruction window or the scratchpad")),
        ("hostport-fw-dram-in-dram-and-kept", t_fw_dram_hostport),
        # RV64 (docs/hardware.md §5): a trap with mtvec unset halts with cause=mcause word=mtval pc=mepc
        ("rv64-console-exit", lambda a: expect_stop(a, 64, "rv64-console-exit.elf", E, 0, 0, stdout="kohaku\n")),
        ("rv64-exit-word", lambda a: expect_stop(a, 64, "rv64-exit-word.elf", E, 0, 0x1122334455667788, 0x100)),
        ("rv64-spad", lambda a: expect_stop(a, 64, "rv64-spad.elf", E, 0, 0)),
        ("rv64-spad-end", lambda a: expect_stop(a, 64, "rv64-spad-end.elf", H, 5, 0x18000, 0x100)),
        ("rv64-imem-load", lambda a: expect_stop(a, 64, "rv64-imem-load.elf", H, 5, 0x40, 0x100)),
        ("rv64-imem-store", lambda a: expect_stop(a, 64, "rv64-imem-store.elf", H, 7, 0x48, 0x100)),
        ("rv64-unassigned", lambda a: expect_stop(a, 64, "rv64-unassigned.elf", H, 5, 0x3000000, 0x100)),
        ("rv64-ecall", lambda a: expect_stop(a, 64, "rv64-ecall.elf", H, 11, 0, 0x100)),
        ("rv64-fetch-spad", lambda a: expect_stop(a, 64, "rv64-fetch-spad.elf", H, 1, 0x10000, 0x10000)),
        ("rv64-mtvec", lambda a: expect_stop(a, 64, "rv64-mtvec.elf", E, 0, 0)),
        ("rv64-stdin", t_stdin),
        # Host port (docs/hardware.md §6, hostport.h)
        ("hostport-hello-hold-release", t_hostport),
        ("hostport-latency", t_hostport_latency),
        ("hostport-reflash", t_hostport_reflash),
        ("bad-config-refused", t_bad_config),
    ]
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu-bin", required=True)
    ap.add_argument("--images", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("only", nargs="*", help="run only these tests")
    args = ap.parse_args()
    results = []
    for name, fn in tests():
        if args.only and name not in args.only:
            continue
        try:
            why = fn(args)
            line = "PASS: %s" % name if why is None else "FAIL: %s %s" % (name, why)
        except Hang:
            line = "HANG: %s" % name
        except Exception as e:  # a broken test is a failure, never a crash of the suite
            line = "FAIL: %s %s: %s" % (name, type(e).__name__, e)
        print(line, flush=True)
        results.append(line)
    with open(args.log, "w") as f:
        f.write("\n".join(results) + "\n")
    return 0 if all(l.startswith("PASS") for l in results) else 1


if __name__ == "__main__":
    sys.exit(main())
