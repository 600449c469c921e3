#!/usr/bin/env bash
# faults.sh — the firmware's answer to every injected fault, end to end through kactl
# (docs/reliability.md "Fault matrix"). Each fault is armed either by the faults=
# machine property (docs/model.md "Fault injection"; a comma inside it is written ",,") or at
# run time through the host port (`kactl inject`). Each test asserts the exact status, detail
# and value of the command that met the fault, that the agent and the mover were left quiet
# (`kactl status` agent line: PROG_STAT.run 0, RX empty, AUX_STAT busy 0), that the next command
# succeeds, and the referee counters stay zero for the whole QEMU run.
# Usage: tests/e2e/faults.sh BOARD OUTDIR    -> PASS:/FAIL: lines on stdout (suite log)
# Expected values are literals: status codes/names from include/kohaku/status.h; TIMEOUT detail
# = (what << 8) | {y,x} with what 3 = the program's last completion (dispatch/kdp_flit.h), value
# = (signals seen << 32) | instructions dispatched; unit coordinates from the default map of
# docs/model-mesh.md §1 (NP 1,1..4,1, TU 1,2 and 2,2); TU opcodes from docs/model-mesh.md §5.
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl kademo=$out/host/kademo
fw=$out/$board/fw.elf demo=host/demo e2e=tests/e2e
work=$out/tests/e2e-faults/$board
rm -rf "$work" && mkdir -p "$work"
case $board in
  *rv32) variant=32 ;;
  *rv64) variant=64 ;;
esac

T="" why="" OUT="" RC=0 dead="" run=0
begin() { T=$1; why=""; }
k() { if [ -n "$dead" ]; then OUT="(not run)"; RC=99; return; fi
  OUT=$("$kactl" "$@" 2>&1); RC=$?; { echo "\$ kactl $* -> $RC"; echo "$OUT"; } >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
end() {
  if [ -z "$why" ]; then echo "PASS: e2e-faults-$board/$T"; return; fi
  [ -n "$dead" ] && why=" not run: the firmware did not boot in this QEMU run ($dead)"
  echo "FAIL: e2e-faults-$board/$T$(head -c 700 <<< "$why")"
}
# A service image that faults inside a REPLAY at SYMBOL (the RV32 halt and RV64 trap images):
# a QEMU of its own, boot, the replay that faults (kactl exit 3). fpc = SYMBOL's address as kactl
# prints it. Returns 1, with the reason in why, when the image was not built.
fault_in_command() { # IMAGE SYMBOL
  if [ ! -f "$1" ]; then why=" $1 was not built (tests/e2e/reliability.mk builds it)"; return 1; fi
  fpc=$(riscv64-unknown-elf-nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }' | sed 's/0x0*/0x/')
  run=$((run + 1)); dead=""
  hp_start "$board" "$out" "$work/qemu$run" "" && export KACTL_SOCKET=$HP_SOCK
  k boot "$1"
  want_rc 0 boot
  k replay "$demo/copy.txt"
  want_rc 3 replay
}
# The agent and the mover quiet, the firmware READY, referee zero (kactl status's lines).
quiet() {
  k status
  want_out "^firmware: state=READY"
  want_out "^agent: .* quiet$"
  want_out "^referee: credit_violations=0 bad_reg_writes=0 busy_go=0 cpu_aux_cfg_writes=0 "
}
# A dispatch of PROG to TARGET and its exact completion line.
dispatch_is() { # PROG TARGET RC STATUS DETAIL VALUE
  k dispatch "$1" --target "$2"
  want_rc "$3" "dispatch $1 $2"
  want_out "^dispatch: status=$4 detail=$5 value=$6 "
}
# One QEMU run with the given machine properties, the firmware booted by enumeration.
start() { # PROPS [boot args...]
  run=$((run + 1))
  local props=$1; shift
  dead=""
  if ! hp_start "$board" "$out" "$work/qemu$run" "$props"; then
    dead="QEMU did not start: $(head -c 200 "$HP_LOG" 2>/dev/null | tr '\n' '|')"; return
  fi
  export KACTL_SOCKET=$HP_SOCK
  k boot "$fw" "$@"
  [ "$RC" -eq 0 ] || dead="boot: $(tail -n1 <<< "$OUT" | head -c 200)"
  BOOT_OUT=$OUT
}
finish() {
  begin "referee_zero_run$run"
  k referee
  want_rc 0 referee
  end
  hp_stop
}
trap 'hp_stop' EXIT
zero() { "$kactl" write "$1" $(printf '00%.0s' $(seq 1 "$2")) > /dev/null; }

# A spec the model cannot honour is refused at start with its reason, never ignored.
begin bad_spec_refused_at_start
case $board in *rv32) q=$out/qemu/bin/qemu-system-riscv32 c=rv32,c=false ;; *) q=$out/qemu/bin/qemu-system-riscv64 c=rv64,c=false ;; esac
for spec in "bogus@1|unknown item 'bogus@1'" "hang@9,,9|no unit at 9,9" "fault@1,,2:zz|cannot parse 'fault@1,2:zz'"; do
  o=$(timeout 20 "$q" -M "kohaku-sysnode,faults=${spec%%|*}" -cpu "$c" -bios none -display none -monitor none \
      -serial none -nodefaults -kernel "$fw" 2>&1 < /dev/null); r=$?
  [ $r -ne 0 ] && grep -qF "${spec#*|}" <<< "$o" || why="$why faults=${spec%%|*}: exit $r, $(head -c 200 <<< "$o");"
done
end

# ---------------------------------------------------------------- run 1: faults= property
# TU 1,2's second instruction faults with 0x77; TU 2,2's first completion is dropped; NP 3,1
# runs at a fiftieth of its speed.
start "faults=fault@1,,2:2:0x77;drop@2,,2:1;slow@3,,1:50"

begin prop_unit_fault_on_nth_instruction
dispatch_is $e2e/tu-nop.prog 1,2 0 OK 0x0 0x1
dispatch_is $e2e/tu-nop.prog 1,2 1 UNIT_FAULT 0x21 0x77
want_out "unit 1,2 reported exec_result 0x77"
quiet
dispatch_is $e2e/tu-nop.prog 1,2 0 OK 0x0 0x1         # the third runs: the fault was the second only
end

# The unit retires the instruction but its completion never reaches the agent: the firmware
# must time out naming the unit (never hang, never report success).
begin prop_dropped_completion_times_out
dispatch_is $e2e/tu-nop.prog 2,2 1 TIMEOUT 0x322 0x1
want_out "waited for the program's last completion of unit 2,2"
quiet
still_serves
dispatch_is $e2e/tu-nop.prog 1,2 0 OK 0x0 0x1         # another unit still dispatches
end

# After the lost completion the unit is idle (it retired the instruction; CU_STATUS says so),
# so a new program to it must complete. Regression for dispatch/'s "what a unit still owes"
# (docs/dispatch.md): the owed instruction's signal never comes, so each later run takes its
# own program's signal for the old one and times out again — the unit is lost for good.
begin prop_unit_serves_after_dropped_completion
dispatch_is $e2e/tu-nop.prog 2,2 0 OK 0x0 0x1
end

# A slow unit only takes longer: the same program on NP 3,1 (slowed 50x) and NP 4,1.
begin prop_slow_unit_completes_later
"$kademo" inputs > /dev/null || why="$why kademo inputs failed;"
k replay "$demo/copy.txt"
want_rc 0 replay
zero 0x102000 128
dispatch_is "$demo/softmax.prog" 4,1 0 OK 0x0 0x14
fast=$(sed -n 's/.* cycles=\([0-9]*\) .*/\1/p' <<< "$OUT")
c=$("$kademo" check 2>&1) || why="$why reference check (4,1): $(tr '\n' '|' <<< "$c");"
zero 0x102000 128
dispatch_is "$demo/softmax.prog" 3,1 0 OK 0x0 0x14
slow=$(sed -n 's/.* cycles=\([0-9]*\) .*/\1/p' <<< "$OUT")
c=$("$kademo" check 2>&1) || why="$why reference check (3,1): $(tr '\n' '|' <<< "$c");"
[ -n "$fast" ] && [ -n "$slow" ] && [ "$slow" -gt $((fast * 2)) ] || why="$why slowed NP took $slow cycles, unslowed $fast: want more than twice;"
quiet
end
finish

# ---------------------------------------------------------------- run 2: faults at run time
start ""

begin hostport_unit_fault_default_code
k inject fault@1,2
want_rc 0 inject
dispatch_is $e2e/tu-nop.prog 1,2 1 UNIT_FAULT 0x21 0xfa17
quiet
dispatch_is $e2e/tu-nop.prog 1,2 0 OK 0x0 0x1
end

# A fault in one unit of a two-unit dispatch: the other unit's work retires, the command
# reports the fault of the faulting unit.
begin hostport_fault_one_of_two_targets
k inject fault@2,2
k dispatch $e2e/tu-nop.prog --target 1,2 --target 2,2
want_rc 1 dispatch
want_out "^dispatch: status=UNIT_FAULT detail=0x22 value=0xfa17 "
quiet
dispatch_is $e2e/tu-nop.prog 2,2 0 OK 0x0 0x1
end

# The mover's first memory access of the replay is an AXI error: MOVER_FAULT 3 at the first
# move's GO (write index 10), nothing written; the same list then runs and copies.
begin hostport_mover_axi_error
"$kademo" inputs > /dev/null
zero 0x100000 32
k inject axi@1
k replay "$demo/copy.txt"
want_rc 1 replay
want_out "^replay: status=MOVER_FAULT detail=0x3 value=0xa[0-9a-f]{8} "
want_out "move 0 \(writes 0-10\): MOVER_FAULT"
k read 0x100000 32
want_out "^0000100000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$"
quiet
k replay "$demo/copy.txt"
want_rc 0 replay
want_out "^replay: status=OK detail=0x0 value=0x2 "
a=$("$kactl" read 0x100000 32 | cut -d: -f2); b=$("$kactl" read 0x180000 32 | cut -d: -f2)
[ "$a" = "$b" ] || why="$why X not copied after the fault: $a vs $b;"
end

# An AXI error on a later access (the second move): the first move's data is in place.
begin hostport_mover_axi_error_second_move
zero 0x100000 32
zero 0x101000 128
k inject axi@2
k replay "$demo/copy.txt"
want_rc 1 replay
want_out "^replay: status=MOVER_FAULT detail=0x3 "
quiet
k inject clear
k replay "$demo/copy.txt"
want_rc 0 replay
end

# A dropped completion in the middle of a 20-instruction program on NP 1,1: 19 signals arrive
# (the 20th, BATCH_COMPLETE, is lost): TIMEOUT value = (19 << 32) | 20.
begin hostport_drop_last_completion_of_program
k inject drop@1,1:20
zero 0x102000 128
dispatch_is "$demo/softmax.prog" 1,1 1 TIMEOUT 0x311 0x1300000014
want_out "waited for the program's last completion of unit 1,1"
quiet
still_serves
end

# A hung unit: its first instruction never retires, so the 20-instruction program fills the
# 16-deep FIFO and the wait for credit runs out: TIMEOUT what 2 (credit) naming 2,1, value =
# (0 signals << 32) | 16 dispatched. The unit is not used again (it holds the instructions).
begin hostport_hang_times_out
k inject hang@2,1
dispatch_is "$demo/softmax.prog" 2,1 1 TIMEOUT 0x212 0x10
want_out "waited for credit .* of unit 2,1"
quiet
still_serves
zero 0x102000 128
dispatch_is "$demo/softmax.prog" 3,1 0 OK 0x0 0x14
c=$("$kademo" check 2>&1) || why="$why reference check on 3,1 after the hang: $(tr '\n' '|' <<< "$c");"
end

# A slow unit past the per-wait timeout (1,000,000 cycles): DELAY 20 at 100,000x.
begin hostport_slow_unit_times_out
k inject slow@1,2:100000
dispatch_is $e2e/tu-delay20.prog 1,2 1 TIMEOUT 0x321 0x1
quiet
k inject clear
still_serves
end

# A hung unit inside a step list: the RUN fails at its DISPATCH step (index 0, value[63:48])
# with the credit timeout of unit 4,1; the SIGNAL after it never runs (progress stays).
begin hostport_hang_inside_step_list
k inject hang@4,1
printf 'dispatch 4,1 %s\nwait 4,1 1\nsignal 0x77\n' "$top/$demo/softmax.prog" > "$work/steps-hang.txt"
k run "$work/steps-hang.txt"
want_rc 1 run
want_out "^run: status=TIMEOUT detail=0x214 value=0x10 "
want_out "failed at step 0 "
k status
no_out "progress=0x77 "
quiet
still_serves
end
k inject clear
finish

# ---------------------------------------------------------------- run 3: CU_CTRL never answered
# Enumeration asks each coordinate twice (docs/dispatch.md); a unit that never answers is
# absent: 5 units, a DISPATCH to it is BAD_TARGET naming it, the rest serve.
start "faults=ctrlmute@1,,2:0"
begin ctrl_never_answered_unit_absent
grep -qE "^boot: READY on RV$variant, 5 units \(enumerated\)" <<< "${BOOT_OUT:-}" || why="$why boot: $(tr '\n' '|' <<< "${BOOT_OUT:-}");"
k units
want_out "^units: status=OK detail=0x0 value=0x5 "
no_out "unit 1,2 "
k submit --op 2 --addr 0x900000 --count 1 --target 1,2
want_out "^submit: status=BAD_TARGET detail=0x21 "
quiet
dispatch_is $e2e/tu-nop.prog 2,2 0 OK 0x0 0x1
end
finish

# ---------------------------------------------------------------- run 4: CU_CTRL late
# A reply 1,000 unit cycles late is within the enumeration's wait (4,000 cycles): 6 units.
start "faults=ctrllate@2,,2:1000"
begin ctrl_late_within_wait_counted
grep -qE "^boot: READY on RV$variant, 6 units \(enumerated\)" <<< "${BOOT_OUT:-}" || why="$why boot: $(tr '\n' '|' <<< "${BOOT_OUT:-}");"
dispatch_is $e2e/tu-nop.prog 2,2 0 OK 0x0 0x1
quiet
end
finish

# A reply 20,000 cycles late misses both tries: the unit is absent, and the stray reply that
# arrives later is drained (RX quiet after the next dispatch), never taken for another answer.
start "faults=ctrllate@2,,2:20000"
begin ctrl_late_past_wait_absent_and_drained
grep -qE "^boot: READY on RV$variant, 5 units \(enumerated\)" <<< "${BOOT_OUT:-}" || why="$why boot: $(tr '\n' '|' <<< "${BOOT_OUT:-}");"
k units
no_out "unit 2,2 "
dispatch_is $e2e/tu-nop.prog 1,2 0 OK 0x0 0x1
quiet
end
finish

# ---------------------------------------------------------------- traps and halts (item 3)
if [ $variant = 32 ]; then
  # An RV32 halt: the node's status reports it with cause and PC, in words. The image halts on
  # an illegal instruction (the all-zero word) at 0x100 (tests/qemu/rv32-illegal.S).
  img=$out/tests/qemu/rv32-illegal.elf
  begin rv32_halt_explained
  if [ ! -f "$img" ]; then
    why=" $img was not built (make qemu-smoke-images)"
  else
    run=$((run + 1)); dead=""
    hp_start "$board" "$out" "$work/qemu$run" "" && export KACTL_SOCKET=$HP_SOCK
    k boot "$img"
    want_rc 3 boot
    k status
    want_rc 1 status
    want_out "^core: RV32 halted: halted: RV32 fault .* at pc 0x100"
    want_out "^core: state=halted cause=3 word=0x100 pc=0x100 "
    hp_stop
  fi
  end
  # An RV32 halt inside a command. No traps on RV32 (docs/hardware.md §4): the firmware cannot mark its
  # queue, so the host's wait must end with the core's stop in words, not a timeout, and status
  # must show the halt and the command taken but never completed. The image's replay loads from
  # the fetch-only instruction window at kq_test_halt_pc (tests/e2e/rv32_halt_stubs.c).
  begin rv32_halt_in_command_explained
  if fault_in_command "$out/$board/tests/service_halt.elf" kq_test_halt_pc; then
    hpc=$fpc
    want_out "the core stopped: halted: RV32 fault \(illegal instruction, misaligned or unmapped access or fetch\) at pc $hpc$"
    k status
    want_rc 1 status
    want_out "^core: state=halted cause=3 word=$hpc pc=$hpc "
    want_out "^queue: .* sq_tail=1 sq_head=1 cq_tail=0 "
    hp_stop
  fi
  end
else
  # An RV64 trap inside a command: the queue goes FATAL with mcause, PC and mtval (service.mk's
  # trap image executes `unimp` at kq_test_trap_pc inside a REPLAY).
  begin rv64_trap_in_command_fatal
  if fault_in_command "$out/qemu-rv64/tests/service_trap.elf" kq_test_trap_pc; then
    tpc=$fpc
    want_out "RV64 trap reported by the firmware: illegal instruction \(mcause 2\)"
    k status
    want_rc 1 status
    want_out "^firmware: state=FATAL code=TRAP: illegal instruction \(mcause 2\) at pc $tpc, mtval 0xc0001073"
    hp_stop
  fi
  end
fi
trap - EXIT
exit 0
