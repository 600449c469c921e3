#!/usr/bin/env bash
# cli.sh — kactl for scripts and people (docs/host-interface.md "kactl"), against the firmware in
# our QEMU machine: --json on every command (parsed, its documented keys present), --version,
# help [CMD], write --file / read --out (100,000 bytes, files and stdin/stdout), a RUN's
# per-step outcomes, a dispatch's per-unit report, the fault history, draining a completion
# nobody read, progress on stderr only, and the messages that say what is wrong in the user's
# words (hex digits, an empty program, a mover offset that is no register, a RUN's step bits
# kept out of a unit's exec_result, the unit-table rules, the PC of a running core, RV64's boot
# counters, a socket that is not a node, a --queue the firmware does not serve).
# Usage: tests/e2e/cli.sh BOARD OUTDIR   -> PASS:/FAIL: lines (suite log e2e-cli-BOARD)
# Expected values come from the contract, not from kactl: status names and codes from
# include/kohaku/status.h, the default unit map of docs/model-mesh.md §1 (NP at 1,1..4,1, TU at
# 1,2 and 2,2), BATCH_COMPLETE's arg = the txn (docs/hardware.md §2), the NPU's fault code
# 0x4E500501 for opcode 0x5 (docs/npu.md §6), the mover's registers (docs/hardware.md §3).
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl fw=$out/$board/fw.elf demo=host/demo
suite=cli-$board
work=$out/tests/e2e/$suite
rm -rf "$work" && mkdir -p "$work"
case $board in *rv32) variant=32 ;; *rv64) variant=64 ;; esac

T="" why="" OUT="" RC=0 ERR=""
begin() { T=$1; why=""; }
k() { OUT=$("$kactl" "$@" 2>&1); RC=$?; { echo "\$ kactl $* -> $RC"; echo "$OUT"; } >> "$work/transcript.txt"; }
# stdout and stderr apart: OUT the JSON (or text) on stdout, ERR stderr.
ks() { OUT=$("$kactl" "$@" 2> "$work/stderr.txt"); RC=$?; ERR=$(cat "$work/stderr.txt")
  { echo "\$ kactl $* -> $RC"; echo "$OUT"; echo "(stderr) $ERR"; } >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
end() { if [ -z "$why" ]; then echo "PASS: e2e-$suite/$T"; else echo "FAIL: e2e-$suite/$T$(head -c 600 <<< "$why")"; fi; }

# One JSON object on stdout and nothing else; KEY=VALUE checks a member (a.b for nesting, JSON
# text of the value), KEY alone that it is present.
jcheck() { # CMD-NAME EXIT KEY[=VALUE]...
  local r
  r=$(JOUT=$OUT python3 - "$@" 2>&1 <<'PY'
import json, os, sys
want_cmd, want_exit, keys = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
text = os.environ["JOUT"]
lines = [l for l in text.split("\n") if l.strip()]
if len(lines) != 1:
    sys.exit("want exactly one line of JSON on stdout, got %d: %r" % (len(lines), text[:200]))
d = json.loads(lines[0])
for k, v in (("command", want_cmd), ("exit", want_exit), ("ok", want_exit == 0)):
    if d.get(k) != v:
        sys.exit("%s is %r, want %r" % (k, d.get(k), v))
for kv in keys:
    k, _, v = kv.partition("=")
    o = d
    for part in k.split("."):
        if isinstance(o, list):
            o = o[int(part)]
        elif not isinstance(o, dict) or part not in o:
            sys.exit("no key %s in %s" % (k, lines[0][:300]))
        else:
            o = o[part]
    if v and json.dumps(o) != v:
        sys.exit("%s is %s, want %s" % (k, json.dumps(o), v))
PY
) || why="$why [json $1] $r;"
}

# ---------------------------------------------------------------- without a node
begin version
k --version
want_rc 0 --version
want_out "^kactl [^ ]+ \(host port protocol 1, queue version 1, boot block version 1\)$"
ks --json --version
jcheck version 0 version hostport_version=1 queue_version=1 bootblock_version=1
end

begin help_command
k help
want_rc 0 help
for c in boot restart replay dispatch run units status read write nop stop referee submit inject faults drain; do
  want_out "^  $c( |$)"
done
k help nop
want_rc 0 "help nop"
h1=$OUT
k nop --help
[ "$h1" = "$OUT" ] || why="$why help nop differs from nop --help;"
k help bogus
want_rc 2 "help bogus"
want_out "help: there is no command \`bogus\`; \`kactl help\` lists them"
ks --json help faults
jcheck help 0 topic='"faults"' text commands
end

begin json_usage_error
ks --json write 0x200000 0xzz
jcheck write 2 error
[ -z "$(grep -c . <<< "$ERR" | grep -v '^1$')" ] || why="$why stderr: $ERR;"
ks --json bogus
jcheck bogus 2 error
end

# `0xzz` is not "an odd number of digits": the bad character is named; an odd count says so.
begin hex_messages
k write 0x200000 0xzz
want_rc 2 write
want_out "write: \`0xzz\`: \`z\` \(character 3\) is not a hex digit \(0-9, a-f\)"
no_out "even number"
k write 0x200000 123
want_rc 2 write
want_out "write: \`123\` has 3 hex digits, an odd number: each byte is two digits"
end

# An empty program has no position: FILE: and the reason, never FILE:0:0.
begin empty_program_message
printf '# only a comment\n\n' > "$work/empty.prog"
k dispatch "$work/empty.prog" --target 1,1
want_rc 2 dispatch
want_out "empty.prog: the program has no payload line"
no_out ":0:0"
end

# The firmware's unit-table rules (boot block reason 7 for all of them) named by line, before
# anything is flashed: depth 0, 0,0, the agent's 0,1, a coordinate twice.
begin unit_table_rules_named
printf '1,1 NP 16\n2,1 NP 0\n' > "$work/u-depth.txt"
printf '0,0 NP 16\n' > "$work/u-corner.txt"
printf '1,1 NP 16\n0,1 NP 16\n' > "$work/u-agent.txt"
printf '1,1 NP 16\n# c\n1,1 TU 16\n' > "$work/u-dup.txt"
k boot "$fw" --units "$work/u-depth.txt"
want_rc 2 boot; want_out "u-depth.txt:2: unit 2,1 has DEPTH 0"
k boot "$fw" --units "$work/u-corner.txt"
want_rc 2 boot; want_out "u-corner.txt:1: 0,0 is the mesh's corner, which holds no unit"
k boot "$fw" --units "$work/u-agent.txt"
want_rc 2 boot; want_out "u-agent.txt:2: 0,1 is the control agent's own coordinate"
k boot "$fw" --units "$work/u-dup.txt"
want_rc 2 boot; want_out "u-dup.txt:3: unit 1,1 is already listed on line 1"
no_out "reason 7"
end

# A socket that answers something else (an HTTP server here) is named as not a node.
begin socket_not_a_node
sock=$(mktemp -u /tmp/kohaku-cli.XXXXXXXX).sock
python3 - "$sock" > /dev/null 2>&1 <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); s.settimeout(20)
c, _ = s.accept(); c.recv(64); c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n"); c.close(); os.unlink(sys.argv[1])
PY
fake=$!
k --socket "$sock" status
want_rc 3 status
want_out "qemu:$sock is not a node's host port: it answered HELLO with \`HTTP/1.1 400 Bad\`"
no_out "reply op"
kill "$fake" 2>/dev/null; wait "$fake" 2>/dev/null; rm -f "$sock"
end

# ---------------------------------------------------------------- with a node
hp_start "$board" "$out" "$work/qemu" || { echo "FAIL: e2e-$suite/qemu_start $(head -c 300 "$HP_LOG")"; exit 0; }
export KACTL_SOCKET=$HP_SOCK
trap 'hp_stop' EXIT

# A queue an earlier boot left at 0x2000000 still reads READY: naming it is refused at once.
begin stale_queue_refused
k --queue 0x2000000 boot "$fw"
want_rc 0 "boot --queue 0x2000000"
ks --json boot "$fw"
jcheck boot 0 variant=$variant units=6 unit_source='"enumerated"' queue='"0x800000"' entries=256 cycles instret ready_instret ready_cycles image
t0=$(date +%s%N)
k --queue 0x2000000 nop
t1=$(date +%s%N)
want_rc 2 "--queue 0x2000000 nop"
want_out "--queue 0x2000000 is not the queue the firmware serves: its boot block names 0x800000"
no_out "READY"
[ $(( (t1 - t0) / 1000000 )) -lt 5000 ] || why="$why took $(( (t1 - t0) / 1000000 )) ms;"
end

# Two counts of a boot that differ by design are labelled as such; RV64's minstret under QEMU
# (counted from QEMU's start) is not presented as the boot's cost.
begin boot_counters_labelled
k boot "$fw"
want_rc 0 boot
want_out "^boot: since the release, read now \(idle polling after READY included\): cycles=[0-9]+ instret=[0-9]+$"
if [ "$variant" = 32 ]; then want_out "^boot: release to READY took [0-9]+ instructions"
else no_out "took [0-9]+ instructions"; want_out "not the boot's cost"; fi
end

begin status_running_pc
k status
want_rc 0 status
want_out "^core: state=running pc=- \(the PC is reported when the core stops\) cycles="
no_out "^core: state=running .*pc=0x"
ks --json status
jcheck status 0 core.state='"running"' core.cycles core.instret firmware.state='"READY"' queue.addr='"0x800000"' \
  queue.sq_tail queue.cq_tail agent.prog_stat referee.credit_violations=0 referee.rx_dropped=0
python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); sys.exit("pc" in d["core"])' <<< "$OUT" 2>/dev/null ||
  why="$why core.pc present while running;"
end

begin json_every_command
ks --json units
jcheck units 0 op='"UNITS"' status='"OK"' status_code=0 count=6 units.0.x=1 units.0.y=1 units.0.type_name='"NP"' units.0.depth=16
ks --json nop --count 3
jcheck nop 0 count=3 not_ok=0 first_tag last_tag cycles
ks --json replay "$demo/copy.txt"
jcheck replay 0 op='"REPLAY"' status='"OK"' moves.0.outcome='"OK"' moves.1.outcome='"OK"' value detail cycles tag explain
ks --json write 0x200000 0102030405060708
jcheck write 0 addr='"0x200000"' len=8
ks --json read 0x200000 8
jcheck read 0 addr='"0x200000"' len=8 data='"0102030405060708"'
ks --json read --agent 0x0
jcheck read 0 agent_offset='"0x0"' value
ks --json referee
jcheck referee 0 referee.credit_violations=0 referee.busy_go=0
ks --json inject clear
jcheck inject 0 cleared=true
ks --json submit --op 0
jcheck submit 0 op='"NOP"' status='"OK"' tag
ks --json submit --op 9
jcheck submit 1 status='"BAD_OP"'
ks --json drain
jcheck drain 0 count=0 running=0 drained
ks --json faults
jcheck faults 1 completions.0.status='"BAD_OP"' failed=1 firmware='"READY"' posted first core
ks --json run "$demo/steps.txt"
jcheck run 0 op='"RUN"' status='"OK"' steps.0.step='"replay"' steps.1.step='"dispatch"' steps.3.outcome='"OK"'
ks --json dispatch "$demo/softmax.prog" --target 1,1 --txn 7
jcheck dispatch 0 op='"DISPATCH"' status='"OK"' instructions=20 units.0.x=1 units.0.y=1 \
  units.0.last_signal='"BATCH_COMPLETE"' units.0.result='"0x7"' units.0.signals
ks --json restart
jcheck restart 0 firmware='"READY"' earlier_ran=0 earlier_aborted=0 earlier_discarded=0
ks --json nop --help
jcheck nop 0 text
end

# A successful dispatch reports each unit's own last signal: BATCH_COMPLETE, arg = the txn.
begin dispatch_unit_result
k dispatch "$demo/softmax.prog" --target 1,1 --target 2,1 --txn 9
want_rc 0 dispatch
want_out "^dispatch: 40 instruction\(s\) sent in all \(20 to each of 2 target\(s\)\), every one completed$"
want_out "^  unit 1,1: last signal BATCH_COMPLETE, result 0x9 \(its txn\)"
want_out "^  unit 2,1: last signal BATCH_COMPLETE, result 0x9 \(its txn\)"
end

# Every step's outcome; a unit fault in step 2 keeps the step index out of exec_result.
begin run_every_step
k run "$demo/steps.txt"
want_rc 0 run
for s in "0 .*steps.txt:3: replay" "1 .*steps.txt:4: dispatch" "2 .*steps.txt:5: wait" "3 .*steps.txt:6: signal"; do
  want_out "^  step $s\): OK$"
done
printf 'dispatch 1,1 %s\nbarrier\ndispatch 1,1 %s\nbarrier\n' "$top/$demo/softmax.prog" "$top/tests/e2e/bad-opcode.prog" > "$work/fault.steps"
k run "$work/fault.steps"
want_rc 1 run
want_out "^run: status=UNIT_FAULT detail=0x11 value=0x200004e500501 .*# step 2: UNIT_FAULT \(0x50, fault\): unit 1,1 reported exec_result 0x4e500501$"
want_out "^  step 0 .*: OK$"
want_out "^  step 1 .*: OK$"
want_out "^  step 2 .*: UNIT_FAULT - UNIT_FAULT \(0x50, fault\): unit 1,1 reported exec_result 0x4e500501$"
want_out "^  step 3 .*: not run$"
no_out "exec_result 0x2000"
end

# 0x08 is 8-aligned and inside 0x00-0x7F; it is simply no mover register.
begin bad_offset_message
printf '0x08 0x0\n0x00 0x10000\n' > "$work/off8.txt"
k replay "$work/off8.txt"
want_rc 1 replay
want_out "^replay: status=BAD_OFFSET detail=0x8 .*: there is no mover register at offset 0x08"
no_out "not an 8-aligned"
printf '0x0c 0x0\n0x00 0x10000\n' > "$work/offc.txt"
k replay "$work/offc.txt"
want_out "offset 0x0c is not a multiple of 8"
end

begin faults_history
k faults
want_rc 1 faults
want_out "^  #[0-9]+ RUN tag=[0-9]+ status=UNIT_FAULT .*# step 2: UNIT_FAULT"
want_out "^  #[0-9]+ REPLAY tag=[0-9]+ status=BAD_OFFSET "
want_out "^faults: firmware READY; core running$"
no_out " status=OK "
k faults --all
want_out " status=OK "
end

# 100,000 bytes: far past the argument-list limit as hex; through files and through stdin/stdout.
begin write_read_files
head -c 100000 /dev/urandom > "$work/in.bin"
k write 0x300000 --file "$work/in.bin"
want_rc 0 "write --file"
want_out "^wrote 100000 bytes at 0x300000$"
k read 0x300000 100000 --out "$work/out.bin"
want_rc 0 "read --out"
cmp -s "$work/in.bin" "$work/out.bin" || why="$why read back differs;"
"$kactl" read 0x300000 100000 --out - > "$work/out2.bin" 2>> "$work/transcript.txt" || why="$why read --out - failed;"
cmp -s "$work/in.bin" "$work/out2.bin" || why="$why read --out - differs;"
head -c 4096 /dev/urandom > "$work/in2.bin"
"$kactl" write 0x300000 --file - < "$work/in2.bin" >> "$work/transcript.txt" 2>&1 || why="$why write --file - failed;"
"$kactl" read 0x300000 4096 --out - > "$work/out3.bin" 2>> "$work/transcript.txt"
cmp -s "$work/in2.bin" "$work/out3.bin" || why="$why stdin write differs;"
: > "$work/empty.bin"
k write 0x300000 --file "$work/empty.bin"
want_rc 2 "write --file empty"
end

# A long command (32,768 instructions) shows progress on stderr when asked, never on stdout,
# and nothing when stderr is not a terminal and nobody asked. Progress starts after 1 s of wall
# time, so the command must outlast that on a fast host too: TU DELAY 320 an instruction (with
# DELAY 20 a faster firmware finished in under 1 s once and the test failed).
for i in $(seq 32768); do echo "0 0 0 0x1000000000000140"; done > "$work/long.prog"   # TU DELAY 320
begin progress_stderr_only
ks --progress dispatch "$work/long.prog" --target 1,2
want_rc 0 "--progress dispatch"
grep -qE "^kactl: [0-9]+ s waiting for the completion of command tag" <<< "$ERR" || why="$why no progress on stderr: $ERR;"
grep -q "waiting for" <<< "$OUT" && why="$why progress on stdout;"
ks dispatch "$work/long.prog" --target 1,2
grep -q "waiting for" <<< "$ERR" && why="$why progress without --progress on a non-terminal;"
end

# A completion nobody read: a kactl that stopped waiting leaves it; drain reads it.
begin drain_stale_completion
k --timeout-ms 300 dispatch "$work/long.prog" --target 1,2
want_rc 3 "dispatch --timeout-ms 300"
k drain
want_rc 0 drain
want_out "^drain: [01] completion\(s\) drained; [01] command\(s\) still running"
k --timeout-ms 20000 drain --wait
want_rc 0 "drain --wait"
want_out "^drain: [0-9]+ completion\(s\) drained; 0 command\(s\) still running$"
k status
want_out "cq_tail=([0-9]+) cq_head=\1 "
still_serves
end

begin stop_json
ks --json stop
jcheck stop 0 op='"STOP"' status='"OK"' core
ks --json stop
jcheck stop 0 already_stopped=true core
end

hp_stop
trap - EXIT
