#!/usr/bin/env bash
# readme.sh — README.md's "Drive it from a host" block, taken from README.md itself (so it cannot
# drift from what is tested) and run as a user would paste it, from the top of the tree, in a
# fresh bash with `set -e`: every command must succeed, `kademo check` must find softmax(X.W) in
# DRAM (the inputs were uploaded first), the RUN must end OK, and QEMU must be gone at the end.
# The only changes made to the text: the socket and console paths /tmp/node.sock and
# /tmp/node-console.txt become unique files (parallel test runs share /tmp), and build/ becomes
# OUTDIR when the tree is built elsewhere (make O=...).
# Usage: tests/e2e/readme.sh OUTDIR   -> PASS:/FAIL: lines (suite log readme-block)
set -u
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
work=$out/tests/e2e/readme
rm -rf "$work" && mkdir -p "$work"
T="" why=""
begin() { T=$1; why=""; }
end() { if [ -z "$why" ]; then echo "PASS: readme-block/$T"; else echo "FAIL: readme-block/$T$(head -c 600 <<< "$why")"; fi; }

begin block_runs_as_pasted
# The first ```sh block after the heading.
awk '/^## Drive it from a host/ { h = 1; next } /^## / { h = 0 } h && /^```sh/ { b = 1; next } b && /^```/ { exit } b' \
  README.md > "$work/block.sh"
[ -s "$work/block.sh" ] || why="$why no sh block under \"## Drive it from a host\" in README.md;"
for want in '&$' 'QEMU_PID=\$!' '^export PATH=' '^kademo inputs' '^kactl dispatch host/demo/softmax.prog' \
            '^kactl run host/demo/steps.txt' '^kactl stop' '^kill \$QEMU_PID'; do
  grep -qE -- "$want" "$work/block.sh" || why="$why block lacks /$want/;"
done
sock=$(mktemp -u /tmp/kohaku-readme.XXXXXXXX).sock
console=$work/console.txt
pidf=$work/qemu.pid
{
  echo "set -e"
  sed -e "s#/tmp/node.sock#$sock#g" -e "s#/tmp/node-console.txt#$console#g" \
      $( [ "$out" != build ] && echo "-e s#build/#$out/#g -e s#^make #make\\ O=$out\\ #" ) "$work/block.sh"
  echo "echo \$QEMU_PID > $pidf"
} > "$work/run.sh"
env -u KACTL_SOCKET -u KACTL_LINK timeout 300 bash "$work/run.sh" > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 0 ] || why="$why the block failed (exit $rc): $(tail -n 4 "$work/out.txt" | tr '\n' '|');"
o=$(cat "$work/out.txt")
grep -qE "^boot: READY on RV32, 6 units \(enumerated\)" <<< "$o" || why="$why no READY boot;"
grep -qE "^replay: status=OK " <<< "$o" || why="$why replay not OK;"
grep -qE "^dispatch: status=OK .*value=0x14 " <<< "$o" || why="$why dispatch not OK with 20 instructions;"
grep -qE "^run: status=OK detail=0x0 value=0x4 " <<< "$o" || why="$why run not OK with 4 steps;"
grep -qE "^stop: core exited with word 0x0 \(clean stop\)" <<< "$o" || why="$why no clean stop;"
pid=$(cat "$pidf" 2>/dev/null)
if [ -z "$pid" ]; then why="$why QEMU_PID never set;"
else
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then why="$why QEMU (pid $pid) still running after the block;"; kill -KILL "$pid"; fi
fi
rm -f "$sock"
end

# kademo check is the proof the inputs were uploaded: without `kademo inputs` the same dispatch
# must not pass it (a check that cannot fail would prove nothing). The block minus that line.
begin check_needs_the_inputs
{ echo "trap 'echo \$QEMU_PID > $pidf.2' EXIT"
  grep -v '^kademo inputs' "$work/run.sh" | sed -e "s#$sock#$sock.2#g"; } > "$work/run-noinputs.sh"
env -u KACTL_SOCKET -u KACTL_LINK timeout 300 bash "$work/run-noinputs.sh" > "$work/out2.txt" 2>&1; rc=$?
[ $rc -ne 0 ] || why="$why the block passed without the inputs;"
grep -q "^kademo" "$work/out2.txt" || grep -qiE "mismatch|differ|wrong|FAIL" "$work/out2.txt" || why="$why no check failure reported: $(tail -n 3 "$work/out2.txt" | tr '\n' '|');"
pid=$(cat "$pidf.2" 2>/dev/null)
[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
rm -f "$sock.2"
end
