#!/usr/bin/env bash
# faultpos.sh — the fault-position matrix on one QEMU board (tests/e2e/faultpos.c; docs/reliability.md
# "Fault matrix", row "fault at every position"): boots the firmware through kactl, runs the
# fault-at-every-position matrix, then checks the node still serves.
# Usage: tests/e2e/faultpos.sh BOARD OUTDIR    -> PASS:/FAIL: lines on stdout
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl
work=$out/tests/e2e-faultpos/$board
rm -rf "$work" && mkdir -p "$work"
trap 'hp_stop' EXIT
hp_start "$board" "$out" "$work" "" || { echo "FAIL: e2e-faultpos-$board/qemu_start"; exit 0; }
export KACTL_SOCKET=$HP_SOCK
if ! o=$("$kactl" boot "$out/$board/fw.elf" 2>&1); then
  echo "FAIL: e2e-faultpos-$board/every_position not run: boot: $(tail -n1 <<< "$o" | head -c 300)"; exit 0
fi
S=$("$out/tests/e2e/faultpos" "$HP_SOCK" 2>&1); rc=$?
echo "$S" > "$work/faultpos.txt"
echo "$S" | grep '^faultpos:'
echo "$S" | grep '^FAIL: ' | sed "s|^FAIL: |FAIL: e2e-faultpos-$board/|" | head -20
if [ $rc -eq 0 ] && grep -q '^PASS: faultpos/every_position' <<< "$S"; then
  echo "PASS: e2e-faultpos-$board/every_position"
elif ! grep -q '^FAIL: ' <<< "$S"; then
  echo "FAIL: e2e-faultpos-$board/every_position exit $rc: $(tail -c 300 <<< "$S" | tr '\n' '|')"
fi
o=$("$kactl" nop 2>&1)
grep -q 'nop: 1 completed, 0 not OK' <<< "$o" && echo "PASS: e2e-faultpos-$board/serves_after" || echo "FAIL: e2e-faultpos-$board/serves_after $(tr '\n' '|' <<< "$o")"
