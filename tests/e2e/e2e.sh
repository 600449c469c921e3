#!/usr/bin/env bash
# e2e.sh — end-to-end tests through kactl and libkohaku against the firmware in our QEMU machine
# (docs/design.md §7 layer 3): every kactl command; every malformed input of docs/reliability.md
# with its exact status (include/kohaku/status.h names) and the node still answering NOP; a
# replay needing IMM/GATHER refused with NO_REACH on RV64 and run on RV32; 10,000 NOPs and 1,000
# mixed commands with nothing lost or duplicated; a firmware restart resuming the host's queue
# indices; the referee counters zero at the end of every QEMU run.
# Usage: tests/e2e/e2e.sh BOARD OUTDIR [LINK]  -> PASS:/FAIL:/HANG: lines on stdout (suite log)
# LINK (docs/host.md): qemu (default: the host port's Unix socket), jtag (our Tcl server script
# in tclsh over the stand-in Vivado commands, tests/links/) or xdma (the XDMA link's device files
# stood in for by tests/links/xdma_shim.c): the same suite through each; the suite's test names
# are e2e-BOARD/... on qemu and e2e-LINK-BOARD/... on the others. Every link also gets the
# bounded-wait tests (a frozen QEMU, a silent socket, a second client).
# Expected values are literals: status names and codes from status.h, the default unit map from
# docs/model-mesh.md §1 (NP at 1,1..4,1, TU at 1,2 and 2,2, depth 16), the agent's CAPS grid
# fields (0x11, 0x24), DRAM reach from hal/rv*/hal_shared.h, data from the demo's own inputs.
set -u
board=$1 out=$2 link=${3:-qemu}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl kademo=$out/host/kademo soak=$out/tests/e2e/e2e_soak helper=$out/tests/e2e/badinput_guard
fw=$out/$board/fw.elf demo=host/demo
suite=$board; [ "$link" = qemu ] || suite=$link-$board
[ "$link" = jtag ] && export HP_TCP=1
work=$out/tests/e2e/$suite
rm -rf "$work" && mkdir -p "$work"
case $board in
  *rv32) variant=32 dram_end=0x70000000 ;;   # RV32_DRAM_LIMIT - RV32_DRAM_BASE
  *rv64) variant=64 dram_end=0x100000000 ;;  # BOARD_DRAM_BYTES, 4 GB
esac

T=""            # current test
why=""          # reasons it failed
OUT="" RC=0     # last kactl output (stdout+stderr) and status
dead="" dead_test=""   # set when this QEMU run's boot failed: later tests say so once, briefly
begin() { T=$1; why=""; }
k() { if [ -n "$dead" ] && ! [[ " boot status referee " == *" $1 "* ]]; then OUT="(not run)"; RC=99; return; fi
  OUT=$("$kactl" "$@" 2>&1); RC=$?; echo "\$ kactl $* -> $RC" >> "$work/transcript.txt"; echo "$OUT" >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
end() {
  if [ -z "$why" ]; then echo "PASS: e2e-$suite/$T"; return; fi
  [ -n "$dead" ] && [ "$T" != "$dead_test" ] && why=" not run: the firmware did not boot in this QEMU run ($dead)"
  echo "FAIL: e2e-$suite/$T$(head -c 600 <<< "$why")"
}
# After a boot test: a failed boot makes the rest of the run moot.
booted() { [ "$RC" -eq 0 ] || { dead=$(tail -n1 <<< "$OUT" | head -c 200); dead_test=$T; }; }
# A malformed submission: its status, detail and value exactly, then a NOP.
refused() { # NAME STATUS DETAIL VALUE -- submit args
  local name=$1 st=$2 det=$3 val=$4; shift 5
  begin "$name"
  k submit "$@"
  want_rc 1 submit
  want_out "^submit: status=$st detail=$det value=$val "
  still_serves
  end
}

. tests/links/links.sh
start() { # extra machine props
  hp_start "$board" "$out" "$work/qemu$1" "${2:-}" || { echo "FAIL: e2e-$suite/qemu_start$1 $(cat "$HP_LOG" 2>/dev/null | head -c 300)"; exit 0; }
  link_start "$link" "$work/link$1" || { echo "FAIL: e2e-$suite/link_start$1 $LINK_WHY"; exit 0; }
  export KACTL_LINK=$LINK
  dead=""
}
finish() { # NAME: referee counters zero at the end of this QEMU run, then shut it down
  begin "referee_zero_$1"
  k referee
  want_rc 0 referee
  # Every counter by name (docs/hardware.md §10.3, model/include/kmodel.h), each 0: not only kactl's verdict.
  [ "$(grep -cE '^referee: (credit_violations|bad_reg_writes|busy_go|cpu_aux_cfg_writes|stage_oob_writes|kick_while_running|stage_overrun|rx_dropped)=0$' <<< "$OUT")" -eq 8 ] ||
    why="$why referee lines: $(tr '\n' '|' <<< "$OUT");"
  end
  link_stop
  hp_stop
}
trap 'link_stop; hp_stop' EXIT

# ---------------------------------------------------------------- without a node
begin help_every_command
for c in boot restart replay dispatch run units status read write nop stop referee submit inject; do
  k "$c" --help
  want_rc 0 "$c --help"
  want_out "^usage: kactl $c"
done
k --help
want_rc 0 --help
end

begin no_node_clear_message
OUT=$(KACTL_SOCKET=$work/none.sock "$kactl" status 2>&1); RC=$?
want_rc 3 status
want_out "cannot connect to the host port"
end

link_absent_tests

begin boot_refuses_non_elf
k boot "$demo/copy.txt"
want_rc 2 boot
want_out "not an ELF file"
end

# ---------------------------------------------------------------- run 1: enumeration
start 1
begin status_held_before_boot
k status
want_rc 0 status
want_out "^core: RV$variant held"
end

begin boot_enumerate
k boot "$fw"
want_rc 0 boot
want_out "^boot: READY on RV$variant, 6 units \(enumerated\), queue 0x800000 \(256 entries\)"
booted
end

link_used_test
link_hazard_tests

begin units_default_map
k units
want_rc 0 units
want_out "^units: status=OK detail=0x0 value=0x6 "
for u in "1,1 type=0x4e50 \(NP\) version=1 buffers=0 depth=16" "2,1 type=0x4e50" "3,1 type=0x4e50" \
         "4,1 type=0x4e50" "1,2 type=0x5455 \(TU\)" "2,2 type=0x5455"; do
  want_out "unit $u"
done
end

begin nop_one
k nop
want_rc 0 nop
want_out "nop: 1 completed, 0 not OK"
end

begin write_read_memory
k write 0x1a0000 0xdeadbeef 00112233
want_rc 0 write
k read 0x1a0000 8
want_rc 0 read
want_out "^00001a0000: de ad be ef 00 11 22 33$"
end

begin write_read_agent_register
k write --agent 0x20 0x5                # IRQ_EN: stored and read back, nothing uses it (docs/hardware.md §1)
want_rc 0 write
k read --agent 0x20
want_out "^agent\[0x0020\] = 0x0000000000000005$"
k write --agent 0x20 0
end

begin read_agent_caps
k read --agent 0x10
want_rc 0 read
v=$(sed -n 's/^agent\[0x0010\] = \(0x[0-9a-f]*\)$/\1/p' <<< "$OUT")
# docs/hardware.md §1: GRID_LO 1 and GRID_HI 4 (scalars: the larger side of the default 4x2 grid)
if [ -z "$v" ] || [ $(((v >> 24) & 0xff)) -ne 1 ] || [ $(((v >> 32) & 0xff)) -ne 4 ]; then
  why="$why CAPS $v: GRID_LO/GRID_HI want 1/4;"
fi
end

begin npu_softmax_replay_dispatch
"$kademo" inputs > /dev/null || why="$why kademo inputs failed;"
k replay "$demo/copy.txt"
want_rc 0 replay
want_out "^replay: status=OK detail=0x0 value=0x2 "
want_out "move 0 \(writes 0-10\): OK"
want_out "move 1 \(writes 11-17\): OK"
# The waypoint (docs/host-interface.md §2.2): the replay's mover wait is the last one begun;
# whether its bound has passed depends on the host's pace, so both forms are accepted; RV64's cycle count is not the host's.
k status
want_rc 0 status
if [ "$variant" = 32 ]; then
  want_out "^waypoint: (waiting for a move to finish since cycle [0-9]+ \([0-9]+ cycles ago|last waited for a move to finish at cycle [0-9]+, [0-9]+ cycles ago: over its bound)"
else
  want_out "^waypoint: waiting for a move to finish since cycle [0-9]+ \(or last waited"
fi
k dispatch "$demo/softmax.prog" --target 1,1 --txn 1
want_rc 0 dispatch
want_out "^dispatch: status=OK detail=0x0 value=0x14 "
# A DISPATCH on a quiet agent begins no bounded agent wait (kdp_quiesce's two reads find nothing
# to drain; the kick loop's own waits set no waypoint, docs/host-interface.md §2.2): the replay's
# mover wait is still the last one begun.
k status
if [ "$variant" = 32 ]; then
  want_out "^waypoint: (waiting for a move to finish since cycle [0-9]+ \([0-9]+ cycles ago|last waited for a move to finish at cycle [0-9]+, [0-9]+ cycles ago: over its bound)"
else
  want_out "^waypoint: waiting for a move to finish since cycle [0-9]+ \(or last waited"
fi
c=$("$kademo" check 2>&1) || why="$why reference check: $(tr '\n' '|' <<< "$c");"
end

begin dispatch_two_targets
"$kactl" write 0x102000 $(printf '00%.0s' $(seq 1 128)) > /dev/null
k dispatch "$demo/softmax.prog" --target 3,1 --target 4,1 --txn 9
want_rc 0 dispatch
want_out "^dispatch: status=OK detail=0x0 value=0x28 "     # 20 flits to each of two units
c=$("$kademo" check 2>&1) || why="$why reference check: $(tr '\n' '|' <<< "$c");"
end

begin dispatch_credit_cap
"$kactl" write 0x102000 $(printf '00%.0s' $(seq 1 128)) > /dev/null
k dispatch "$demo/softmax.prog" --target 1,1 --credit 2
want_rc 0 dispatch
want_out "^dispatch: status=OK detail=0x0 value=0x14 "
c=$("$kademo" check 2>&1) || why="$why reference check: $(tr '\n' '|' <<< "$c");"
end

# A unit fault fails only its command (docs/npu.md §6: opcode 0x5 -> exec_result 0x4E500501).
begin unit_fault_fails_only_its_command
k dispatch tests/e2e/bad-opcode.prog --target 1,1
want_rc 1 dispatch
want_out "^dispatch: status=UNIT_FAULT detail=0x11 value=0x4e500501 "
"$kactl" write 0x102000 $(printf '00%.0s' $(seq 1 128)) > /dev/null
k dispatch "$demo/softmax.prog" --target 1,1
want_rc 0 dispatch
c=$("$kademo" check 2>&1) || why="$why reference check after the fault: $(tr '\n' '|' <<< "$c");"
end

# A mover fault likewise: the model's first mover access after arming answers an AXI error
# (fault 3, docs/model.md "Fault injection"), at the copy's first GO, write index 10. (A COPY from
# staging aperture 1, which the memory agent drops, never reaches the mover: kactl refuses it
# before sending, and the firmware's validator refuses it MV_ADDR: the bad-input matrix.)
begin mover_fault_fails_only_its_command
k inject axi@1
want_rc 0 inject
k replay "$demo/copy.txt"
want_rc 1 replay
want_out "^replay: status=MOVER_FAULT detail=0x3 value=0xa[0-9a-f]{8} "
want_out "move 0 \(writes 0-10\): MOVER_FAULT"
k inject clear
want_rc 0 inject
k replay "$demo/copy.txt"
want_rc 0 replay
want_out "^replay: status=OK detail=0x0 value=0x2 "
end

# ---- the host refuses what would alias, wrap or reach no memory (docs/hardware.md
# preamble: [38] reserved, [37:36] mesh; §7: 4 GB of DRAM; §8: a foreign mesh's DRAM is served
# from local memory, an unserved aperture is dropped, 4-64 GB hits nothing). Exit 2, nothing
# sent: the bytes at local 0x200000 (what the aliases would hit) stay as written.
sq_now() { "$kactl" status | sed -n 's/.* sq_tail=\([0-9]*\) .*/\1/p'; }
begin write_aliases_refused
"$kactl" write 0x200000 a1b2c3d4 > /dev/null
for a in "0x100000000 DRAM offset 0x100000000, past the 4 GB of DRAM" \
         "0xFFFFFFFE runs past the end of the 4 GB of DRAM at 0x100000000: its last 2 bytes" \
         "0x1000200000 names mesh 1 \(bits 37:36\).*local DRAM offset 0x200000 \(aliased\)" \
         "0x4000200000 has reserved bit 38 set.*DRAM offset 0x200000" \
         "0x8100000000 is aperture 1 \(bits 35:32\)" \
         "0x8000200000 is staging offset 0x200000, past the 2 MB staging store" \
         "0x10000200000 is an outside address .* for mesh 0's unit-global 0x200000"; do
  k write ${a%% *} 11223344
  want_rc 2 "write ${a%% *}"
  want_out "${a#* }"
  no_out "^wrote"
done
k read 0x100000000 4
want_rc 2 read
want_out "past the 4 GB of DRAM"
k read 0x200000 4
want_out "^0000200000: a1 b2 c3 d4$"
k write 0xFFFFFFFC 11223344                  # the last word below 4 GB is memory
want_rc 0 write
end

# A list whose FILL crosses 4 GB, or lands on mesh 1 / bit 38: refused before the upload, the
# move, the walk and the decode named; the same list inside a RUN step too. No submission.
begin replay_list_aliases_refused
before=$(sq_now)
printf '# FILL 2 words from 0xFFFFFFE0: the second is past the 4 GB of DRAM\n0x10 0x0000100ffffffe01\n0x18 0x0000000002000021\n0x20 0\n0x28 1\n0x28 3\n0x40 1\n0x00 0x10014\n' > "$work/fill-4g.txt"
k replay "$work/fill-4g.txt"
want_rc 2 replay
want_out "fill-4g.txt: write 6: move 0 \(FILL, GO at write 6\): the destination walk \(0xffffffe0 \+ 64 bytes\).*runs past the end of the 4 GB of DRAM at 0x100000000: its last 32 bytes"
for m in "0x0000110002000001 names mesh 1" "0x0000140002000001 reserved bit 38"; do
  printf '0x10 %s\n0x18 0x0000000002000011\n0x20 0\n0x28 1\n0x28 3\n0x40 1\n0x00 0x10014\n' "${m%% *}" > "$work/fill-alias.txt"
  k replay "$work/fill-alias.txt"
  want_rc 2 replay
  want_out "${m#* }"
done
printf 'barrier\nreplay fill-4g.txt\n' > "$work/steps-4g.txt"
k run "$work/steps-4g.txt"
want_rc 2 run
want_out "fill-4g.txt: write 6: move 0 \(FILL"
k replay tests/e2e/axi-fault.txt          # a COPY from aperture 1: dropped on the mesh
want_rc 2 replay
want_out "the source walk .*aperture 1"
after=$(sq_now)
[ -n "$before" ] && [ "$before" = "$after" ] || why="$why submissions changed: $before -> $after;"
end

# ---- text is text; one set of limits (include/kohaku/queue.h, desc_list.h)
begin nul_in_files_is_syntax_error
before=$(sq_now)
printf '0 0 0 0x3800000001000000\n0 0 \0 0x1\n' > "$work/nul.prog"
k dispatch "$work/nul.prog" --target 1,1
want_rc 2 dispatch
want_out "nul.prog:2:5: a NUL byte"
printf '0x10 0x0000100001900001\n0x18 0x0000000002000801\0\n' > "$work/nul-list.txt"
k replay "$work/nul-list.txt"
want_rc 2 replay
want_out "nul-list.txt:2:24: a NUL byte"
printf 'barrier # ok\nsig\0nal 1\n' > "$work/nul-steps.txt"
k run "$work/nul-steps.txt"
want_rc 2 run
want_out "nul-steps.txt:2:4: a NUL byte"
printf '1,1 NP 16\n2,1 NP\x01 16\n' > "$work/ctl-units.txt"
k boot "$fw" --units "$work/ctl-units.txt"
want_rc 2 boot
want_out "ctl-units.txt:2:7: control byte 0x01"
no_out "^boot: flashed"
after=$(sq_now)
[ -n "$before" ] && [ "$before" = "$after" ] || why="$why submissions changed: $before -> $after;"
still_serves
end

begin limits_are_the_firmwares
before=$(sq_now)
awk 'BEGIN { for (i = 0; i < 4097; i++) print "0x38 0x0" }' > "$work/list-4097.txt"
k replay "$work/list-4097.txt"
want_rc 2 replay
want_out "list-4097.txt:4097:1: more than 4096 writes: a REPLAY takes at most 4096"
awk 'BEGIN { for (i = 0; i < 65537; i++) print "0 0 0 0" }' > "$work/prog-65537.prog"
k dispatch "$work/prog-65537.prog" --target 2,2
want_rc 2 dispatch
want_out "prog-65537.prog:65537:1: more than 65536 payloads"
awk 'BEGIN { for (i = 0; i < 4097; i++) print "barrier" }' > "$work/steps-4097.txt"
k run "$work/steps-4097.txt"
want_rc 2 run
want_out "steps-4097.txt:4097:1: more than 4096 steps"
# Nine programs of 65,536 payloads (2 MB each) and nine 32-byte steps: 18,874,656 bytes, more
# than the 16 MB data area; the message gives the total.
head -n 65536 "$work/prog-65537.prog" > "$work/prog-65536.prog"
for i in 1 2 3 4 5 6 7 8 9; do echo "dispatch 2,2 prog-65536.prog"; done > "$work/steps-big.txt"
k run "$work/steps-big.txt"
want_rc 2 run
want_out "its data \(18874656 bytes in all\) does not fit kactl's 16777216-byte \(16 MB\) data area"
after=$(sq_now)
[ -n "$before" ] && [ "$before" = "$after" ] || why="$why submissions changed: $before -> $after;"
# The largest program the firmware takes goes through kactl too (it once stopped at 32,768).
k dispatch "$work/prog-65536.prog" --target 2,2
want_rc 0 dispatch
want_out "^dispatch: status=OK detail=0x0 value=0x10000 "
# The firmware's maximum passes kactl and the node: 4,096 SIGNAL steps, the last one's value kept.
awk 'BEGIN { for (i = 0; i < 4096; i++) printf "signal 0x%x\n", i }' > "$work/steps-4096.txt"
k run "$work/steps-4096.txt"
want_rc 0 run
want_out "^run: status=OK detail=0x0 value=0x1000 "
k status
want_out "progress=0xfff "
end

# Every boot argument is checked before the node is touched: exit 2, and the running firmware
# goes on serving (it was not held, reflashed or restarted).
begin boot_arguments_checked_first
for a in "--entries 3|--entries 3 is not a power of two in 1..4096" \
         "--entries 0|--entries 0 is not a power of two" \
         "--timeout-cycles 0|--timeout-cycles 0: every wait would time out at once"; do
  k boot "$fw" ${a%%|*}
  want_rc 2 "boot ${a%%|*}"
  want_out "${a#*|}"
  no_out "^boot: flashed"
done
k --queue 0x800010 boot "$fw"
want_rc 2 "boot --queue 0x800010"
want_out "--queue 0x800010 is not 32-byte aligned"
k --queue 0x1000800000 boot "$fw"
want_rc 2 "boot --queue 0x1000800000"
want_out "names mesh 1"
k --queue 0x900000 boot "$fw"
want_rc 2 "boot --queue 0x900000"
want_out "overlaps kactl's command data area"
k --queue 0x400000 boot "$fw"
want_rc 2 "boot --queue 0x400000"
want_out "overlaps the firmware's own DRAM \[0x400000, 0x410000\)"
if [ $variant = 32 ]; then
  k --queue 0x6ffff000 boot "$fw"
  want_rc 2 "boot --queue 0x6ffff000"
  want_out "past the DRAM the RV32 core reaches"
fi
no_out "^boot: flashed"
still_serves
end

begin run_step_list
cat > "$work/steps.txt" <<EOF
# replay the inputs into place, softmax on NP 2,1, wait for it, then signal
replay $top/$demo/copy.txt
dispatch 2,1 $top/$demo/softmax.prog txn 4
wait 2,1 1
barrier
signal 0x5a
EOF
"$kactl" write 0x102000 $(printf '00%.0s' $(seq 1 128)) > /dev/null
k run "$work/steps.txt"
want_rc 0 run
want_out "^run: status=OK detail=0x0 value=0x5 "
c=$("$kademo" check 2>&1) || why="$why reference check: $(tr '\n' '|' <<< "$c");"
k status
want_out "progress=0x5a "
end

# IMM (0x40) and GATHER (0x50) are past RV64's mover window (0x00-0x3F): NO_REACH before any
# write, nothing changed; RV32's descriptor form reaches every offset.
begin replay_fill_imm
"$kactl" write 0x190000 0000000000000000 > /dev/null
k replay "$demo/fill.txt"
if [ $variant = 64 ]; then
  want_rc 1 replay
  want_out "^replay: status=NO_REACH detail=0x40 "
  want_out "move 0 \(writes 0-6\): NO_REACH"
  k read 0x190000 8
  want_out "^0000190000: 00 00 00 00 00 00 00 00$"
else
  want_rc 0 replay
  want_out "^replay: status=OK detail=0x0 value=0x1 "
  k read 0x190ff8 8
  want_out "^0000190ff8: ed 5e de c0 ed 5e de c0$"     # 0xC0DE5EED to the last word
fi
still_serves
end

begin replay_gather
"$kademo" inputs > /dev/null
"$kactl" write 0x191000 03000000 00000000 > /dev/null      # indices 3, 0
"$kactl" write 0x192000 $(printf '00%.0s' $(seq 1 64)) > /dev/null
k replay "$demo/gather.txt"
if [ $variant = 64 ]; then
  want_rc 1 replay
  want_out "^replay: status=NO_REACH detail=0x50 "
  k read 0x192000 8
  want_out "^0000192000: 00 00 00 00 00 00 00 00$"
else
  want_rc 0 replay
  want_out "^replay: status=OK "
  g=$("$kactl" read 0x192000 64 | cut -d: -f2)
  w=$( { "$kactl" read 0x181060 32; "$kactl" read 0x181000 32; } | cut -d: -f2)
  [ "$g" = "$w" ] || why="$why gathered rows differ from W rows 3 and 0;"
fi
still_serves
end

# The queue-protocol tests: malformed inputs, step-list refusals, a syntax error, 10,000 NOPs.
# The malformed inputs of docs/reliability.md, each its own status, nothing executed, the queue still served.
refused unknown_command BAD_OP 0x9 0x0 -- --op 9
refused nonzero_flags BAD_FLAGS 0x1 0x0 -- --op 0 --flags 1
refused replay_count_zero BAD_LEN 0x0 0x0 -- --op 1 --addr 0x900000 --count 0
refused replay_length_overruns_memory BAD_ADDR 0x18 $(printf '0x%x' $((dram_end - 12))) -- \
  --op 1 --addr $((dram_end - 12)) --count 2
refused replay_misaligned BAD_ALIGN 0x4 0x900002 -- --op 1 --addr 0x900002 --count 1
refused dispatch_misaligned BAD_ALIGN 0x8 0x900004 -- --op 2 --addr 0x900004 --count 1 --target 1,1
refused dispatch_unknown_target BAD_TARGET 0x99 0x0 -- --op 2 --addr 0x900000 --count 1 --target 9,9
refused dispatch_no_target BAD_NTARGETS 0x0 0x0 -- --op 2 --addr 0x900000 --count 1
refused dispatch_duplicate_target DUP_TARGET 0x11 0x0 -- --op 2 --addr 0x900000 --count 1 --target 1,1 --target 1,1
refused run_misaligned BAD_ALIGN 0x8 0x900004 -- --op 3 --addr 0x900004 --count 1

begin run_step_unknown_unit
printf 'dispatch 1,1 %s\nwait 9,9 1\n' "$top/$demo/softmax.prog" > "$work/bad-steps.txt"
k run "$work/bad-steps.txt"
want_rc 1 run
want_out "^run: status=BAD_TARGET detail=0x99 value=0x1000000000000 "    # step 1 in [63:48]
want_out "failed at step 1"
still_serves
end

begin run_wait_unsatisfiable
printf 'wait 1,1 1\n' > "$work/bad-wait.txt"
k run "$work/bad-wait.txt"
want_rc 1 run
want_out "^run: status=UNSATISFIABLE detail=0x11 value=0x1 "
still_serves
end

begin replay_text_syntax_sends_nothing
k status; before=$(grep -o 'sq_tail=[0-9]*' <<< "$OUT")
printf '# bad\n0x18\n' > "$work/bad.txt"
k replay "$work/bad.txt"
want_rc 2 replay
want_out "bad.txt:2:"
k status; after=$(grep -o 'sq_tail=[0-9]*' <<< "$OUT")
[ -n "$before" ] && [ "$before" = "$after" ] || why="$why submissions changed: $before -> $after;"
end

begin nops_10000
k nop --count 10000
want_rc 0 nop
want_out "^nop: 10000 completed, 0 not OK, tags [0-9]+\.\.[0-9]+ in order"
end

begin mixed_1000
if S=$("$soak" "$LINK" $variant 1000 "$demo" 2>&1); then
  grep -q '^PASS: mixed_1000_commands' <<< "$S" || why="$why $(tr '\n' '|' <<< "$S");"
else
  why="$why $(tr '\n' '|' <<< "$S" | head -c 400);"
fi
end

# A dropped completion or a hung unit ends in a TIMEOUT naming the unit, never a hang: TU HANG
# (docs/model-mesh.md §5) on TU 1,2; detail = (3 "the program's last completion" << 8) | 0x21,
# value = (signals seen 0 << 32) | 1 instruction dispatched.
begin dispatch_hang_times_out
k dispatch tests/e2e/tu-hang.prog --target 1,2
want_rc 1 dispatch
want_out "^dispatch: status=TIMEOUT detail=0x321 value=0x1 "
want_out "waited for the program's last completion of unit 1,2"
still_serves
end

begin stop_and_explain
k stop
want_rc 0 stop
want_out "^stop: status=OK "
want_out "^stop: core exited with word 0x0 \(clean stop\)"
k status
want_rc 0 status
want_out "^core: RV$variant exited: exited with word 0x0 \(clean stop\)"
want_out "^firmware: state=STOPPED"
end

# The same program host-driven (the bench's host-driven path), the agent free now the firmware stopped.
begin host_driven_dispatch
if S=$("$soak" "$LINK" $variant hostdrive "$demo" 2>&1); then
  c=$("$kademo" check 2>&1) || why="$why reference check: $(tr '\n' '|' <<< "$c");"
else
  why="$why $(tr '\n' '|' <<< "$S");"
fi
echo "$S" >> "$work/transcript.txt"
end

# ---- nothing is submitted unless the firmware is READY; a second stop sends
# nothing; every command is accounted for across a restart (ran, aborted, discarded).
begin stop_again_sends_nothing
before=$(sq_now)
k stop
want_rc 0 stop
want_out "^stop: already stopped: firmware STOPPED, core exited with word 0x0 \(clean stop\).*nothing sent"
k replay "$demo/copy.txt"
want_rc 3 replay
want_out "replay: nothing sent: the firmware is STOPPED"
k nop
want_rc 3 nop
after=$(sq_now)
[ -n "$before" ] && [ "$before" = "$after" ] || why="$why submissions changed: $before -> $after;"
end

begin restart_discards_what_was_never_taken
# Two NOPs a dying host left in the ring while the firmware was stopped (e2e_soak pend).
S=$("$soak" "$LINK" $variant pend 2 2>&1) || why="$why pend: $S;"
k restart
want_rc 0 restart
want_out "^restart: earlier: tag [0-9]+ \(NOP, submitted and never taken\) is discarded"
want_out "^restart: earlier commands: 0 ran, 0 aborted, 2 discarded$"
k status
want_out "sq_tail=([0-9]+) sq_head=\1 cq_tail=\1 cq_head=\1 "
k nop --count 3
want_rc 0 nop
want_out "^nop: 3 completed, 0 not OK"
no_out "earlier"
end

begin restart_keep_pending_runs_them
k stop
want_rc 0 stop
S=$("$soak" "$LINK" $variant pend 2 2>&1) || why="$why pend: $S;"
k restart --keep-pending
want_rc 0 restart
want_out "is kept: it runs after the restart"
want_out "^earlier: ran after the restart: status=OK "
want_out "^restart: earlier commands: 2 ran, 0 aborted, 0 discarded$"
still_serves
end

# A fresh boot replaces the queue: it says what the old one still held.
begin fresh_boot_says_what_it_discards
k stop
want_rc 0 stop
S=$("$soak" "$LINK" $variant pend 3 2>&1) || why="$why pend: $S;"
k boot "$fw"
want_rc 0 boot
want_out "^boot: the earlier queue at 0x800000 had 3 command\(s\) not completed and 0 completion\(s\) not read: the fresh queue discards them"
want_out "^boot: READY on RV$variant, 6 units"
booted
k boot "$fw"
no_out "earlier queue"
still_serves
end

# A kactl that gave up waiting leaves its command running; the next kactl waits for it (bounded)
# and prints its completion before sending its own: no "completion has tag ..." ever after.
# The firmware's own wait is made long (200,000,000 cycles) so that kactl's 300 ms, which also
# bounds each round trip on the link, runs out first.
begin late_completion_accounted_for
k boot "$fw" --timeout-cycles 200000000
want_rc 0 boot
k --timeout-ms 300 dispatch tests/e2e/tu-hang.prog --target 2,2
want_rc 3 dispatch
want_out "timed out after 300 ms"
k nop
want_rc 0 nop
want_out "^earlier: completed after its kactl stopped waiting: status=TIMEOUT detail=0x322 "
want_out "^nop: 1 completed, 0 not OK"
k nop --count 5
want_rc 0 nop
no_out "earlier"
end
finish 1

# ---------------------------------------------------------------- run 2: unit table, restart
start 2
begin boot_unit_table
printf '# two NPs\n1,1 NP 16\n2,1 NP 8 1 0\n' > "$work/units.txt"
k boot "$fw" --units "$work/units.txt" --entries 16
want_rc 0 boot
booted || true
want_out "^boot: READY on RV$variant, 2 units \(from --units\), queue 0x800000 \(16 entries\)"
k units
want_out "^units: status=OK detail=0x0 value=0x2 "
want_out "unit 2,1 type=0x4e50 \(NP\) version=1 buffers=0 depth=8"
no_out "unit 3,1"
k submit --op 2 --addr 0x900000 --count 1 --target 3,1
want_out "^submit: status=BAD_TARGET detail=0x13 "
end

begin restart_resumes_indices
k nop --count 37                                  # wraps the 16-entry rings twice
want_rc 0 nop
k status
want_out "sq_tail=39 sq_head=39 cq_tail=39 cq_head=39"
k boot "$fw" --units "$work/units.txt" --resume
want_rc 0 boot
want_out "sq 39/39 cq 39/39"
k nop --count 5
want_rc 0 nop
want_out "tags 40\.\.44 in order"
k status
want_out "sq_tail=44 sq_head=44 cq_tail=44 cq_head=44"
end

begin restart_in_place
k restart
want_rc 0 restart
want_out "^restart: READY, sq 44/44 cq 44/44"
still_serves
end

begin restart_aborts_taken_command
printf '1,1 NP 16\n2,2 TU 16\n' > "$work/units-tu.txt"
k boot "$fw" --units "$work/units-tu.txt" --timeout-cycles 2147483647   # the longest accepted
want_rc 0 boot
if S=$("$soak" "$LINK" $variant abort tests/e2e/tu-delay.prog 2>&1); then
  grep -q '^PASS: abort' <<< "$S" || why="$why $(tr '\n' '|' <<< "$S");"
else
  why="$why $(tr '\n' '|' <<< "$S" | head -c 400);"
fi
echo "$S" >> "$work/transcript.txt"
end

begin restart_aborts_what_kactl_gave_up_on
k --timeout-ms 300 dispatch tests/e2e/tu-delay.prog --target 2,2
want_rc 3 dispatch
k restart
want_rc 0 restart
want_out "^restart: earlier: tag [0-9]+ \(taken, not completed\) is aborted by the restart"
want_out "^earlier: aborted by the restart: status=ABORTED "
want_out "^restart: earlier commands: 0 ran, 1 aborted, 0 discarded$"
still_serves
end

bounded_wait_tests

# kactl refuses --timeout-cycles 0 itself (boot_arguments_checked_first); the firmware's own
# refusal of such a block, explained in words, through the library (badinput_guard).
begin boot_block_refused_explained
r=$("$helper" "$LINK" boot "$fw" wait_cycles 0)
[ "$r" = "stopped state=3 word=0xb0070006" ] || why="$why helper: $r;"
k status
want_rc 1 status
want_out "boot block refused: wait_cycles is 0 \(reason 6\)"
want_out "0xb0070006"
end
finish 2

# ---------------------------------------------------------------- run 3: an RV64 trap inside a command
# service/service.mk's trap image: the real service whose replay executes `unimp` at the
# symbol kq_test_trap_pc (tests/service/trap_stubs.c). kactl must explain it in words: the
# wait ends with the core's stop, and status reads the FATAL state line (KQ_FATAL_TRAP).
if [ $variant = 64 ]; then
  timg=$out/qemu-rv64/tests/service_trap.elf
  begin rv64_trap_explained
  if [ ! -f "$timg" ]; then
    why=" $timg was not built (make $timg)"
  else
    tpc=$(riscv64-unknown-elf-nm "$timg" | awk '$3 == "kq_test_trap_pc" { print "0x" $1 }' | sed 's/0x0*/0x/')
    start 3
    k boot "$timg"
    want_rc 0 boot
    k replay "$demo/copy.txt"
    want_rc 3 replay
    want_out "the core stopped: exited with word 0x5452415000000002 \(RV64 trap reported by the firmware: illegal instruction \(mcause 2\)\)"
    k status
    want_rc 1 status
    want_out "^firmware: state=FATAL code=TRAP: illegal instruction \(mcause 2\) at pc $tpc, mtval 0xc0001073"
    want_out "^queue: .* sq_tail=1 sq_head=1 cq_tail=0 "
    end
    finish 3
  fi
  [ -f "$timg" ] || end
fi
trap - EXIT
exit 0
