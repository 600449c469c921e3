#!/usr/bin/env bash
# profile.sh — where the firmware's instructions go in `make bench`'s queue run (docs/bench.md
# "Where RV64 boot goes"): runs bench/kbench against the default image under QEMU with
# -singlestep -d exec,nochain (one trace entry per instruction executed, plus a repeat for each
# device access, dropped), maps every PC to its function with nm, and prints instructions per function for
# boot (release to the hal_instret call that records READY) and for the rest (NOPs, the RUN,
# STOP; the idle loop included). Slow (a trace line per instruction): a tool, not a test.
# Usage: bench/profile.sh OUTDIR BOARD [TOP]      (after make bench-build)
set -u
out=$1 board=$2 top=${3:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
NM=${NM:-riscv64-unknown-elf-nm}
case $board in
  qemu-rv32) qemu=$out/qemu/bin/qemu-system-riscv32 cpu=rv32,c=false ;;
  qemu-rv64) qemu=$out/qemu/bin/qemu-system-riscv64 cpu=rv64,c=false ;;
  *) echo "profile.sh: no QEMU board $board" >&2; exit 2 ;;
esac
work=$out/bench/profile-$board
rm -rf "$work" && mkdir -p "$work"
sock=$(mktemp -u /tmp/kohaku-prof.XXXXXXXX).sock
"$qemu" -M kohaku-sysnode,hostport=hp -cpu "$cpu" -bios none -display none -monitor none \
  -serial none -nodefaults -icount shift=0,align=off,sleep=off \
  -chardev "socket,id=hp,path=$sock,server=on,wait=off" -singlestep -d exec,nochain \
  -D "$work/trace.log" > "$work/console.txt" 2> "$work/qemu.log" < /dev/null &
qpid=$!
for _ in $(seq 1 200); do [ -S "$sock" ] && break; sleep 0.05; done
timeout 600 "$out/bench/kbench" "$sock" "$out/$board/fw.elf" > "$work/kbench.txt" 2>&1
kill -TERM "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; rm -f "$sock"
grep '^fig ' "$work/kbench.txt"
$NM -n "$out/$board/fw.elf" | awk '$2 ~ /^[tTW]$/ { print $1, $3 }' > "$work/syms.txt"
python3 - "$work" "$top" <<'EOF'
import bisect, collections, re, sys
work, top = sys.argv[1], int(sys.argv[2])
syms = [(int(a, 16), n) for a, n in (l.split() for l in open(f"{work}/syms.txt"))]
addrs = [a for a, _ in syms]
pat = re.compile(r"\[[0-9a-f]+/([0-9a-f]+)/")
raw = [int(m.group(1), 16) for m in map(pat.search, open(f"{work}/trace.log")) if m]
# An instruction that accesses a device is logged twice (icount re-executes it for its I/O);
# a repeat of the same PC in a row is that, never a loop (no jump-to-self runs here).
pcs = [pc for i, pc in enumerate(raw) if i == 0 or pc != raw[i - 1]]
mark = next((a for a, n in syms if n == "hal_instret"), None)
cut = pcs.index(mark) if mark in pcs else len(pcs)
def show(title, seq):
    c = collections.Counter(syms[bisect.bisect_right(addrs, pc) - 1][1] for pc in seq)
    print(f"== {title}: {sum(c.values())} instructions")
    for n, k in c.most_common(top):
        print(f"{k:9d} {n}")
show("boot (release to READY)", pcs[:cut])
show("after READY (commands, idle loop)", pcs[cut:])
EOF
