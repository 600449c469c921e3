#!/usr/bin/env python3
"""stack-check.py — the RV32 image's stack budgets, from the linked image (
docs/kvm.md "Stack"). Fails the build when the deepest call chain outgrows its stack.

Two stacks:
  native       the scratchpad stack, __kx_stack_bytes (board BOARD_STACK_BYTES): every chain
               from _start, through the cold-code interpreter: native code that loads cold
               entry F's word kvm_entry_F (a native stub of F, or a HAL_COLD call site,
               hal/rv32/hal_variant.h) and calls kvm_call (its frame holds the interpreted
               stack) runs kvm_cold_F;
               cold code's calls of native code run below kvm_call's frame, and may enter
               kvm_call again;
  interpreted  KVM_STACK_BYTES (hal/rv32/kvm.h), one per kvm_call: every chain of cold
               functions from a cold entry, up to its calls of native code.
Frames are read from the code itself: the sum of a function's sp decrements (addi sp,sp,-N,
and __riscv_save_N's frame, simulated from libgcc's routine in the image). Static frames only,
as -fstack-usage reports them for the cold objects (native code is compiled through LTO,
which leaves no .su files): a dynamic sp adjustment, an indirect call not listed in INDIRECT
below, or recursion fails the check, since the bound would not hold.

Usage: stack-check.py IMAGE.elf KVM_STACK_BYTES [--report FILE] [--lenient-indirect]
  --lenient-indirect: an unlisted indirect call is reported (its chain is then unbounded) instead
  of failing; for images other than the product (build-check cases that link newlib's printf,
  whose output goes through a function pointer).
Env:   OBJDUMP, NM (default riscv64-unknown-elf-*)
"""
import os
import re
import subprocess
import sys

OBJDUMP = os.environ.get("OBJDUMP", "riscv64-unknown-elf-objdump")
NM = os.environ.get("NM", "riscv64-unknown-elf-nm")

# Indirect calls the code makes, by the calling function: the functions they can reach.
# kq_check_cold calls its environment's map, validator and prepare (service/kq_check_cold.c;
# service/queue.c kq_env: kq_map, kmv_validate's and kq_cold_owned's native stubs).
INDIRECT = {
    "kvm_cold_kq_check_cold": ["kq_map", "kmv_validate", "kq_cold_owned"],
    # the validator reads a gather's index words through its caps' map (kq_map: service/queue.c)
    "check_move": ["kq_map"],
    # the service validates a list's copy through kq_env.validate (kmv_validate's native stub,
    # a kvm_call of its own)
    "cold_replay_copy": ["kmv_validate"],
    # RECORD validates its copy the same way (service/record.c rec_validate)
    "rec_validate": ["kmv_validate"],
}


LENIENT = "--lenient-indirect" in sys.argv
UNBOUNDED = []


def die(msg):
    sys.stderr.write("stack-check: %s\n" % msg)
    sys.exit(1)


def symbols(elf):
    out = subprocess.run([NM, elf], capture_output=True, text=True, check=True).stdout
    s = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3:
            s[p[2]] = int(p[0], 16)
    return s


FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\t[0-9a-f ]+\t(\S+)\s*([^#]*)(?:#\s*([0-9a-f]+)\s*<([^>+]+)(\+0x[0-9a-f]+)?>)?")


JTARGET = re.compile(r"^(\w+),([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>$")


def disasm(elf, args):
    """{function: [(addr, mnemonic, operands, target_addr, target_sym, target_off)]}"""
    out = subprocess.run([OBJDUMP, "-M", "no-aliases"] + args + [elf], capture_output=True,
                         text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(2)
            funcs[cur] = []
            continue
        m = INSN.match(line)
        if m and cur is not None:
            ops = m.group(3).strip()
            ta, ts, toff = (int(m.group(4), 16) if m.group(4) else None), m.group(5), m.group(6)
            j = JTARGET.match(ops)
            if j:                                   # jal: "rd,addr <sym+off>"
                ops = j.group(1) + "," + j.group(2)
                ta, ts, toff = int(j.group(2), 16), j.group(3), j.group(4)
            funcs[cur].append((int(m.group(1), 16), m.group(2), ops, ta, ts, toff))
    return funcs


def save_frames(funcs):
    """__riscv_save_N -> bytes it allocates, by simulating its code to `jalr zero,0(t0)`."""
    addr_of = {}
    for f, body in funcs.items():
        for i, ins in enumerate(body):
            addr_of[ins[0]] = (f, i)
    frames = {}
    for f in funcs:
        if not f.startswith("__riscv_save_"):
            continue
        fn, i = f, 0
        sp, t1, steps = 0, 0, 0
        while steps < 64:
            steps += 1
            a, mn, ops, ta, ts, toff = funcs[fn][i]
            if mn == "addi" and ops.startswith("sp,sp,"):
                sp -= int(ops.split(",")[2])
            elif mn == "addi" and ops.startswith("t1,zero,"):
                t1 = int(ops.split(",")[2])
            elif mn == "sub" and ops == "sp,sp,t1":
                sp -= -t1
            elif mn == "jalr" and ops == "zero,0(t0)":
                break
            elif mn == "jal" and ops.startswith("zero,"):
                fn, i = addr_of[ta]
                continue
            i += 1
            if i >= len(funcs[fn]):
                die("%s runs off its end" % f)
        frames[f] = sp
    return frames


def analyse(funcs, saves, cold):
    """frame, callees and cold entries of each function: (frame, [direct callees], [kvm_cold_F
    of every entry word kvm_entry_F it loads: the cold entries its calls of kvm_call run])."""
    info = {}
    starts = {body[0][0]: f for f, body in funcs.items() if body}
    for f, body in funcs.items():
        frame, calls, prev, const, colds = 0, set(), None, {}, set()
        lo, hi = (body[0][0], body[-1][0]) if body else (0, 0)
        for a, mn, ops, ta, ts, toff in body:
            loads_sp = prev is not None and prev[0] in ("lui", "auipc") and prev[1].startswith("sp,")
            if mn == "lw" and ts and ts.startswith("kvm_entry_") and not toff:
                colds.add("kvm_cold_" + ts[len("kvm_entry_"):])
            prev = (mn, ops)
            o = ops.split(",")
            # Constants built in a register (lui, addi): a frame over 2 KB is `li t0, -N` then
            # `add sp, sp, t0`.
            if mn == "lui" and len(o) == 2:
                const[o[0]] = int(o[1], 0) << 12
                if const[o[0]] & 0x80000000:
                    const[o[0]] -= 1 << 32
            elif mn == "addi" and len(o) == 3 and o[0] != "sp" and o[1] in ("zero",) + tuple(const):
                const[o[0]] = (0 if o[1] == "zero" else const[o[1]]) + int(o[2])
            if mn == "addi" and ops.startswith("sp,sp,") and not loads_sp:   # not `la sp, X`
                n = int(o[2])
                if n < 0:
                    frame -= n
            elif mn == "add" and ops.startswith("sp,sp,") and o[2] in const and f not in saves:
                if const[o[2]] < 0:
                    frame -= const[o[2]]
            elif mn in ("add", "sub") and ops.startswith("sp,sp,") and f not in saves:
                die("%s adjusts sp by a register (%s %s): no static frame" % (f, mn, ops))
            elif mn == "jal":
                rd = ops.split(",")[0]
                if rd == "t0":                      # jal t0, __riscv_save_N
                    frame += saves[ts]
                elif ta is not None and not (lo <= ta <= hi) and ts in funcs and not toff:
                    if not ts.startswith("__riscv_restore_"):
                        calls.add(ts)               # a call, or a tail call (rd zero)
            elif mn == "jalr":
                rd, rest = ops.split(",", 1)
                base = rest[rest.index("(") + 1:-1]
                if ta is not None and base in ("zero", "ra") and ts and not toff:
                    calls.add(ts)                   # cold code's call of native code
                elif rd == "zero" and base in ("ra", "t0"):
                    pass                            # a return
                elif rd == "zero":
                    pass                            # a computed jump inside the function
                elif f == "kvm_call":
                    pass                            # the interpreter's call of native code
                elif f.split(".")[0] in INDIRECT:
                    # GCC's clones (rec_validate.constprop.0) call what the function calls
                    calls.update(INDIRECT[f.split(".")[0]])
                elif LENIENT:
                    UNBOUNDED.append("%s at 0x%x" % (f, a))
                else:
                    die("%s: indirect call at 0x%x (%s %s) not listed in INDIRECT" % (f, a, mn, ops))
        info[f] = (frame, sorted(calls), sorted(colds))
    return info


def main():
    if len(sys.argv) < 3:
        die("usage: stack-check.py IMAGE.elf KVM_STACK_BYTES [--report FILE]")
    elf, kvm_stack = sys.argv[1], int(sys.argv[2], 0)
    report = sys.argv[sys.argv.index("--report") + 1] if "--report" in sys.argv else None
    sym = symbols(elf)
    native = disasm(elf, ["-d", "-j", ".text"])
    cold = {}
    if sym.get("__kx_cold_code_end", 0) > sym.get("__kx_cold_start", 0) + 16:
        cold = disasm(elf, ["-D", "-j", ".kvm_cold", "--start-address=%d" % (sym["__kx_cold_start"] + 16),
                            "--stop-address=%d" % sym["__kx_cold_code_end"]])
    saves = save_frames(native)
    allf = dict(native)
    allf.update(cold)
    info = analyse(allf, saves, cold)
    stack_bytes = sym["__kx_stack_bytes"]

    # Interpreted depth of a cold function: its frame plus its deepest cold callee.
    memo_i, memo_n, busy = {}, {}, set()

    def idepth(f):
        if f in memo_i:
            return memo_i[f]
        if f in busy:
            die("recursion through %s" % f)
        busy.add(f)
        best, chain = 0, []
        for c in info[f][1]:
            if c in cold:
                d, ch = idepth(c)
                if d > best:
                    best, chain = d, ch
        busy.discard(f)
        memo_i[f] = (info[f][0] + best, [(f, info[f][0])] + chain)
        return memo_i[f]

    # Native depth of a native function, and the native depth below a cold function (its
    # frame is on the interpreted stack; its native callees run below kvm_call's frame).
    def ndepth(f):
        if f in memo_n:
            return memo_n[f]
        if f in busy:
            die("recursion through %s" % f)
        busy.add(f)
        best, chain = 0, []
        if f in cold:
            own = 0
            for c in info[f][1]:
                d, ch = ndepth(c)
                if d > best:
                    best, chain = d, ch
        else:
            own = info[f][0]
            colds = [e for e in info[f][2] if e in cold]
            if colds and "kvm_call" not in info[f][1]:
                die("%s loads the entry word of %s but never calls kvm_call" % (f, colds[0]))
            for c in info[f][1]:
                if c == "kvm_call" and colds:
                    # kvm_call's frame, then the deepest of its cold entries' native callees
                    # or kvm_call's own (its fatal path)
                    d, ch = 0, []
                    for e in colds + [k for k in info["kvm_call"][1]]:
                        dk, chk = ndepth(e)
                        if dk > d:
                            d, ch = dk, chk
                    d += info["kvm_call"][0]
                    ch = [("kvm_call", info["kvm_call"][0])] + ch
                else:
                    d, ch = ndepth(c)
                if d > best:
                    best, chain = d, ch
        busy.discard(f)
        memo_n[f] = (own + best, ([(f, own)] if f not in cold else [("(" + f + ")", 0)]) + chain)
        return memo_n[f]

    nat, nchain = ndepth("_start")
    entries = [f for f in cold if f.startswith("kvm_cold_")]
    ib, ichain = 0, []
    for e in entries:
        d, ch = idepth(e)
        if d > ib:
            ib, ichain = d, ch
    lines = [
        "native stack: %d of %d bytes (deepest chain: %s)" % (
            nat, stack_bytes, " > ".join("%s %d" % x for x in nchain)),
        "interpreted stack: %d of %d bytes (deepest chain: %s)" % (
            ib, kvm_stack, " > ".join("%s %d" % x for x in ichain) or "no cold code"),
    ]
    if UNBOUNDED:
        lines.append("unbounded (indirect calls not followed): " + ", ".join(UNBOUNDED))
    if report:
        with open(report, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    ok = True
    if nat > stack_bytes:
        sys.stderr.write("stack-check: %s: %s\n" % (elf, lines[0]))
        ok = False
    if ib > kvm_stack:
        sys.stderr.write("stack-check: %s: %s\n" % (elf, lines[1]))
        ok = False
    if not ok:
        die("%s: a stack overflows (raise BOARD_STACK_BYTES or KVM_STACK_BYTES, or shorten the chain)" % elf)


if __name__ == "__main__":
    main()
