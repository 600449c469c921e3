#!/usr/bin/env bash
# links.sh — the link cost figures for one board (docs/bench.md "Links"): for each link
# (qemu, jtag through its stand-in, xdma through its shim) the round trips and bytes of
# `kactl boot` of the board's image (the whole process: connecting included) and of one REPLAY
# of a 1,000-write descriptor list (bench/klinks.c: from writing the list to reaping the
# completion, as kactl runs it), plus the whole `kactl replay` process for the same list. The
# jtag stand-in adds the cable's round-trip time (KJS_RT_MS=22, what upstream measured for one
# round trip), so the host polls the node about as often as it would on a real cable.
#   bench <board> link_<link>_<figure> <value> <unit>
# Usage: bench/links.sh OUTDIR BOARD [WORKDIR]     (needs make qemu host, klinks, the shim)
set -u
out=$1 board=$2
work=${3:-$out/bench/links-$board}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
. tests/links/links.sh
kactl=$out/host/kactl klinks=$out/bench/klinks fw=$out/$board/fw.elf
rm -rf "$work" && mkdir -p "$work"
fig() { echo "bench $board link_$1 $2 $3"; }
rc=0

# The list: a one-word COPY's ten walker writes, 989 SEED writes (mover register 0x38: reached
# on both boards, changes nothing), then its GO: 1,000 writes, one move.
list=$work/list1000.txt
{ sed -n 3,12p host/demo/copy.txt; for i in $(seq 1 989); do printf '0x38 0x%016x\n' "$i"; done
  sed -n 13p host/demo/copy.txt; } > "$list"

stat() { # FILE FIELD: from kactl --stats' line
  sed -n "s/^kactl: link .*: \([0-9]*\) round trips, \([0-9]*\) accesses, \([0-9]*\) bytes out, \([0-9]*\) bytes in$/\1 \2 \3 \4/p" "$1" | tail -n1
}

for l in qemu jtag xdma; do
  w=$work/$l
  mkdir -p "$w"
  HP_TCP=0; [ $l = jtag ] && HP_TCP=1
  export HP_TCP
  if ! hp_start "$board" "$out" "$w/qemu" ""; then
    echo "links.sh: $board $l: QEMU did not start" >&2; rc=1; continue
  fi
  KJS_RT_MS=22 link_start $l "$w" || { echo "links.sh: $board $l: $LINK_WHY" >&2; hp_stop; rc=1; continue; }
  if timeout 300 "$kactl" --stats --link "$LINK" boot "$fw" > "$w/boot.out" 2>&1 &&
     read -r rt acc bo bi <<< "$(stat "$w/boot.out")" && [ -n "${rt:-}" ]; then
    fig ${l}_boot_round_trips "$rt" rt
    fig ${l}_boot_bytes $((bo + bi)) bytes
  else
    echo "links.sh: $board $l boot: $(tail -c 300 "$w/boot.out")" >&2; rc=1
  fi
  if timeout 300 "$klinks" "$LINK" "$list" > "$w/klinks.out" 2> "$w/klinks.err"; then
    v() { sed -n "s/^raw $1 //p" "$w/klinks.out"; }
    fig ${l}_replay1000_round_trips "$(v replay_round_trips)" rt
    fig ${l}_replay1000_bytes "$(v replay_bytes)" bytes
  else
    echo "links.sh: $board $l klinks: $(tail -c 300 "$w/klinks.err")" >&2; rc=1
  fi
  if timeout 300 "$kactl" --stats --link "$LINK" replay "$list" > "$w/replay.out" 2>&1 &&
     read -r rt acc bo bi <<< "$(stat "$w/replay.out")" && [ -n "${rt:-}" ]; then
    fig ${l}_kactl_replay1000_round_trips "$rt" rt
  else
    echo "links.sh: $board $l kactl replay: $(tail -c 300 "$w/replay.out")" >&2; rc=1
  fi
  link_stop
  unset LD_PRELOAD KHX_DEV KHX_SOCKET
  hp_stop
done
exit $rc
