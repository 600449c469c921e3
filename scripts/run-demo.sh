#!/usr/bin/env bash
# run-demo.sh — `make run` (docs/design.md §7 "The two commands"): boots the
# firmware in our QEMU machine through the host port with kactl, replays a descriptor list from
# the host (copying the NPU's inputs into place), dispatches docs/npu.md §8's program to NP 1,1
# through PROG_DST, checks the result in DRAM against a host reference, prints statuses and
# cycle counts, stops the firmware and shuts QEMU down. Exit 0 only if every step was right.
# Usage: scripts/run-demo.sh BOARD OUTDIR      (make run [BOARD=qemu-rv64] calls it)
set -u
board=${1:-qemu-rv32} out=${2:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
kactl=$out/host/kactl kademo=$out/host/kademo fw=$out/$board/fw.elf demo=host/demo
work=$out/run/$board
. scripts/qemu-hostport.sh

for f in "$kactl" "$kademo" "$fw"; do
  [ -e "$f" ] || { echo "run: $f is missing (make run builds it)"; exit 2; }
done

step() { printf '\n== %s\n' "$*"; }
fail() { echo "run: FAILED: $*"; [ -s "$work/console.txt" ] && { echo "-- firmware console:"; cat "$work/console.txt"; }; hp_stop; exit 1; }
k() { echo "\$ kactl $*"; "$kactl" "$@"; }

step "QEMU: $board, host port on a Unix socket (core held until kactl releases it)"
hp_start "$board" "$out" "$work" || exit 1
export KACTL_SOCKET=$HP_SOCK
trap 'hp_stop' EXIT
echo "qemu pid $HP_PID, socket $HP_SOCK"

step "flash and boot: hold the core, load $fw through the load paths, boot block + queue, release"
k boot "$fw" || fail "boot"

step "units the firmware found (CU_CTRL enumeration through the mailbox)"
k units || fail "units"

step "host uploads the NPU's inputs (X 4x32, W 32x16, FP16) to 0x180000 / 0x181000"
"$kademo" inputs || fail "inputs"

step "replay a descriptor list from the host: two COPY moves put X and W where the program reads them"
sed -n '1,2p' "$demo/copy.txt"
k replay "$demo/copy.txt" || fail "replay"

step "dispatch docs/npu.md §8 (20 CU_INST flits, softmax of X.W) to NP 1,1 through PROG_DST"
k dispatch "$demo/softmax.prog" --target 1,1 --txn 1 || fail "dispatch"

step "check the data in DRAM against the host reference"
"$kademo" check || fail "data check"

step "node status"
k status || fail "status"

step "stop the firmware"
k stop || fail "stop"
k referee || fail "referee counters not all zero"

hp_stop
trap - EXIT
step "done: $board booted, replayed, dispatched, data checked, stopped"
