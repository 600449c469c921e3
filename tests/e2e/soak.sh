#!/usr/bin/env bash
# soak.sh — one soak run (tests/e2e/soak.c; docs/reliability.md "Soak") on one
# QEMU board: boots the firmware through kactl, runs N mixed commands with faults injected
# through the host port, then checks the node still serves and the referee counters are zero.
# Usage: tests/e2e/soak.sh BOARD OUTDIR [N]    -> figures, then PASS:/FAIL: lines on stdout
set -u
board=$1 out=$2 n=${3:-2000}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl
work=$out/tests/soak/$board
rm -rf "$work" && mkdir -p "$work"
case $board in *rv32) variant=32 ;; *rv64) variant=64 ;; esac
trap 'hp_stop' EXIT
hp_start "$board" "$out" "$work" "" || { echo "FAIL: soak-$board/qemu_start"; exit 0; }
export KACTL_SOCKET=$HP_SOCK
if ! o=$("$kactl" boot "$out/$board/fw.elf" 2>&1); then
  echo "FAIL: soak-$board/soak_${n}_commands not run: boot: $(tail -n1 <<< "$o" | head -c 300)"; exit 0
fi
# The wall-clock bound of each wait: a batch of NPU programs under a slow unit takes a while.
S=$("$out/tests/e2e/soak" "$HP_SOCK" $variant "$n" host/demo 2>&1); rc=$?
echo "$S" | grep '^soak:'
echo "$S" > "$work/soak.txt"
if [ $rc -eq 0 ] && grep -q "^PASS: soak_${n}_commands" <<< "$S"; then
  echo "PASS: soak-$board/soak_${n}_commands"
else
  echo "FAIL: soak-$board/soak_${n}_commands $(grep -m1 '^FAIL' <<< "$S" | head -c 500)$( [ $rc -gt 1 ] && echo " exit $rc: $(tail -c 300 <<< "$S" | tr '\n' '|')")"
fi
o=$("$kactl" nop 2>&1)
grep -q 'nop: 1 completed, 0 not OK' <<< "$o" && echo "PASS: soak-$board/serves_after" || echo "FAIL: soak-$board/serves_after $(tr '\n' '|' <<< "$o")"
o=$("$kactl" referee 2>&1) && echo "PASS: soak-$board/referee_zero" || echo "FAIL: soak-$board/referee_zero $(tr '\n' ' ' <<< "$o")"
