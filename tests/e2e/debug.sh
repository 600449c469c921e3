#!/usr/bin/env bash
# debug.sh — `make debug`'s recipe (README "Debug with gdb"), exercised: scripts/debug.sh boots the
# firmware through kactl in QEMU with its gdb stub, which must listen on 127.0.0.1 only; gdb
# (gdb-multiarch, batch) runs the written command file, sets the documented breakpoint kdp_run
# and continues; a kactl dispatch then stops the core there, inside a real command (gdb shows
# the frame); gdb detaches, the dispatch completes OK and the node
# still serves.
# Usage: tests/e2e/debug.sh BOARD OUTDIR   -> PASS:/FAIL: lines (suite log debug-gdb-BOARD)
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
kactl=$out/host/kactl fw=$out/$board/fw.elf
work=$out/tests/e2e/debug-$board
rm -rf "$work" && mkdir -p "$work"
T="" why=""
begin() { T=$1; why=""; }
end() { if [ -z "$why" ]; then echo "PASS: debug-gdb-$board/$T"; else echo "FAIL: debug-gdb-$board/$T$(head -c 600 <<< "$why")"; fi; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env=$out/debug/$board/env

begin break_in_command_code
rm -rf "$out/debug/$board"     # an earlier run's env file must not be taken for this one's
KOHAKU_GDB_PORT=$port scripts/debug.sh "$board" "$out" kdp_run > "$work/debug.out" 2>&1 &
dbg=$!
trap 'kill -TERM $dbg 2>/dev/null; wait $dbg 2>/dev/null' EXIT
for i in $(seq 1 600); do [ -s "$env" ] && break; kill -0 $dbg 2>/dev/null || break; sleep 0.05; done
if ! [ -s "$env" ]; then
  why="$why debug.sh did not come up: $(tail -c 300 "$work/debug.out" | tr '\n' '|');"
else
  . "$env"
  # The stub: bound to 127.0.0.1, not to every interface.
  l=$(ss -ltnH "sport = :$port" 2>/dev/null)
  grep -q "127.0.0.1:$port" <<< "$l" || why="$why stub not on 127.0.0.1:$port: $l;"
  grep -qE "(0\.0\.0\.0|\*|\[::\]):$port" <<< "$l" && why="$why stub on every interface: $l;"
  grep -q "gdb-multiarch $fw -x $out/debug/$board/gdbinit -ex continue" "$work/debug.out" ||
    why="$why the recipe line is not printed;"
  timeout 120 gdb-multiarch -nx -batch "$fw" -x "$out/debug/$board/gdbinit" \
    -ex "shell touch $work/armed" -ex continue -ex 'info symbol $pc' -ex 'bt 2' -ex detach \
    > "$work/gdb.out" 2>&1 &
  gdb=$!
  for i in $(seq 1 400); do [ -e "$work/armed" ] && break; kill -0 $gdb 2>/dev/null || break; sleep 0.05; done
  [ -e "$work/armed" ] || why="$why gdb did not attach: $(tail -c 300 "$work/gdb.out" | tr '\n' '|');"
  KACTL_SOCKET=$KACTL_SOCKET timeout 150 "$kactl" --timeout-ms 120000 dispatch host/demo/softmax.prog --target 1,1 \
    > "$work/kactl.out" 2>&1; rc=$?
  wait $gdb; grc=$?
  [ $grc -eq 0 ] || why="$why gdb exit $grc;"
  grep -qE "^Breakpoint 1, (0x[0-9a-f]+ in )?kdp_run " "$work/gdb.out" ||
    why="$why gdb never stopped at kdp_run: $(tail -c 400 "$work/gdb.out" | tr '\n' '|');"
  grep -qE "^kdp_run( \+ [0-9]+)? in section \.text" "$work/gdb.out" || why="$why pc not in kdp_run;"
  [ $rc -eq 0 ] && grep -q "^dispatch: status=OK " "$work/kactl.out" ||
    why="$why the dispatch did not complete OK after detach (exit $rc): $(tr '\n' '|' < "$work/kactl.out");"
  KACTL_SOCKET=$KACTL_SOCKET "$kactl" nop > "$work/nop.out" 2>&1 || why="$why node not serving after detach;"
fi
kill -TERM $dbg 2>/dev/null; wait $dbg 2>/dev/null
trap - EXIT
[ -n "${QEMU_PID:-}" ] && kill -0 "$QEMU_PID" 2>/dev/null && { why="$why QEMU still running after debug.sh ended;"; kill -KILL "$QEMU_PID"; }
end
