#!/usr/bin/env bash
# badinput.sh — the bad-input matrix (docs/reliability.md "Bad-input matrix"),
# the rows tests/e2e/e2e.sh does not already cover: one test per row, each asserting the exact
# status, detail and value, that nothing was written (a guard region in DRAM that the refused
# input's valid part would have written, and the referee counters), and that the node still
# serves (a NOP). Boot-block and queue-header rows boot with the bad field
# (tests/e2e/badinput_guard.c) and assert the core's stop word, then boot properly again.
# Usage: tests/e2e/badinput.sh BOARD OUTDIR    -> PASS:/FAIL: lines on stdout (suite log)
# Expected values are literals of include/kohaku/status.h, exitword.h (0xB007_00rr, rr the
# boot-block reason) and docs/host-interface.md §2, §3.2, §5, §6 (limits: REPLAY 4096 records,
# DISPATCH 65536 payloads and 8 targets, RUN 4096 steps; reach: RV32 DRAM below 0x7000_0000
# less the firmware's own 0x40_0000 + 64 KB (§2.1), RV64 below 4 GB; the record layouts).
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl helper=$out/tests/e2e/badinput_guard
fw=$out/$board/fw.elf demo=host/demo
work=$out/tests/e2e-badinput/$board
rm -rf "$work" && mkdir -p "$work"
case $board in
  *rv32) variant=32 dram_end=0x70000000 ;;
  *rv64) variant=64 dram_end=0x100000000 ;;
esac
GUARD=0x100000 GLEN=1024        # the guard: the demo copy's X destination and the TU write below
TUDST=0x100100                  # where the rows' valid TU WRITE would land
DATA=0x980000                   # the rows' programs, lists and step lists (kactl's data area's top)

T="" why="" OUT="" RC=0 dead=""
begin() { T=$1; why=""; "$helper" "$HP_SOCK" guard fill $GUARD $GLEN > /dev/null || why=" guard fill failed;"; }
k() { if [ -n "$dead" ]; then OUT="(not run)"; RC=99; return; fi
  OUT=$("$kactl" "$@" 2>&1); RC=$?; { echo "\$ kactl $* -> $RC"; echo "$OUT"; } >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
# Nothing written, nothing broken, still serving.
untouched() {
  local g; g=$("$helper" "$HP_SOCK" guard check $GUARD $GLEN) || why="$why $g;"
  k referee; want_rc 0 referee
  k nop; [ "$RC" -eq 0 ] && grep -q 'nop: 1 completed, 0 not OK' <<< "$OUT" || why="$why NOP afterwards: $(tr '\n' '|' <<< "$OUT" | head -c 200);"
}
end() {
  if [ -z "$why" ]; then echo "PASS: e2e-badinput-$board/$T"; return; fi
  [ -n "$dead" ] && why=" not run: the firmware did not boot ($dead)"
  echo "FAIL: e2e-badinput-$board/$T$(head -c 700 <<< "$why")"
}
row() { # NAME STATUS DETAIL VALUE -- kactl args
  local name=$1 st=$2 det=$3 val=$4; shift 5
  begin "$name"
  k "$@"
  want_rc 1 "$*"
  want_out "^[a-z]+: status=$st detail=$det value=$val "
  untouched
  end
}
# Little-endian hex of a value in N bytes.
le() { local v=$(($2)) n=$1 i s=""; for ((i = 0; i < n; i++)); do s+=$(printf '%02x' $(((v >> (8 * i)) & 0xff))); done; echo "$s"; }
# A RUN step (struct kq_step, 32 bytes): OP TARGET TXN RSVD0 CREDIT RSVD1 N RSVD2 ADDR RSVD3
step() { echo "$(le 1 $1)$(le 1 $2)$(le 1 $3)$(le 1 $4)$(le 2 $5)$(le 2 $6)$(le 4 $7)$(le 4 $8)$(le 8 $9)$(le 8 ${10})"; }
# A descriptor record (struct kd_write, 12 bytes): OFF VALUE
rec() { echo "$(le 4 $1)$(le 8 $2)"; }
# One TU WRITE of one beat to ADDR with SEED (docs/model-mesh.md §5), a 32-byte payload.
tu_write() { echo "$(le 8 0)$(le 8 0)$(le 8 $2)$(le 8 $(((0x2 << 60) | $1)))"; }
put() { "$kactl" write "$@" > /dev/null || why="$why kactl write $1 failed;"; }

start() {
  hp_start "$board" "$out" "$work/qemu" "" || { echo "FAIL: e2e-badinput-$board/qemu_start $(head -c 300 "$HP_LOG")"; exit 0; }
  export KACTL_SOCKET=$HP_SOCK
}
boot_ok() {
  dead=""
  k boot "$fw"
  [ "$RC" -eq 0 ] || dead="boot: $(tail -n1 <<< "$OUT" | head -c 200)"
}
trap 'hp_stop' EXIT
start

# ---------------------------------------------------------------- boot block and queue header
# Each: the firmware refuses to start (exit word 0xB007_00rr), writes nothing; a good boot after.
boot_row() { # NAME FIELD VALUE WORD [RULE]
  begin "$1"
  local r; r=$("$helper" "$HP_SOCK" boot "$fw" "$2" "$3")
  echo "boot $2=$3: $r" >> "$work/transcript.txt"
  [ "$r" = "stopped state=3 word=$4" ] || why="$why $2=$3: $r, want stopped with $4;"
  if [ -n "${5:-}" ]; then
    local last; last=$(grep -a 'queue refused' "$work/qemu/console.txt" | tail -n 1)
    [[ "$last" == *"queue refused, rule=$(printf '0x%x' $5)" ]] || why="$why console's last refusal is '$last', want rule=$(printf '0x%x' $5);"
  fi
  boot_ok
  untouched
  end
}
boot_row boot_bad_magic magic 0x4B424F55 0xb0070001
boot_row boot_bad_version version 2 0xb0070002
boot_row boot_bad_size size 40 0xb0070003
boot_row boot_unit_count_33 unit_count 33 0xb0070003
boot_row boot_unknown_flag flags 0x2 0xb0070004
boot_row boot_wait_cycles_zero wait_cycles 0 0xb0070006
# A limit a 32-bit elapsed count could never pass (KX_BOOT_WAIT_MAX = 2^31 - 1)
boot_row boot_wait_cycles_unbounded wait_cycles 0xffffffff 0xb0070008
boot_row boot_wait_cycles_2pow31 wait_cycles 0x80000000 0xb0070008
boot_row boot_units_duplicate units_dup 0 0xb0070007
boot_row boot_units_depth_zero units_depth0 0 0xb0070007
# boot/ refuses a unit at the agent's own coordinate (kx_bootblock_check, dispatch/'s rule).
boot_row boot_units_agent_coordinate units_agent 0 0xb0070007
boot_row boot_units_without_flag units_noflag 0 0xb0070007
boot_row boot_flag_without_units flag_notable 0 0xb0070007
boot_row boot_queue_misaligned queue_addr 0x800010 0xb0070005 1
boot_row boot_queue_outside_memory queue_addr $dram_end 0xb0070005 1
if [ $variant = 32 ]; then
  boot_row boot_queue_in_processor_window queue_addr 0x80800000 0xb0070005 1   # the core's DRAM window, not unit-global
else
  boot_row boot_queue_in_processor_window queue_addr 0x4000800000 0xb0070005 1 # the uncached alias (bit 38)
fi
boot_row boot_queue_other_mesh queue_addr 0x1000800000 0xb0070005 1
# The firmware's own DRAM range (host-interface.md §2.1, 0x40_0000 + 64 KB: RV32 cold code, the
# copy buffer on both variants) is no queue.
boot_row boot_queue_in_firmware_dram queue_addr 0x400000 0xb0070005 1
boot_row queue_bad_magic q_magic 0x4B51554F 0xb0070005 2
boot_row queue_bad_version q_version 2 0xb0070005 3
boot_row queue_flags q_flags 1 0xb0070005 4
boot_row queue_rsvd q_rsvd 1 0xb0070005 4
boot_row queue_sq_entries_zero q_sq_entries 0 0xb0070005 5
boot_row queue_sq_entries_not_pow2 q_sq_entries 24 0xb0070005 5
boot_row queue_sq_entries_above_max q_sq_entries 8192 0xb0070005 5
boot_row queue_cq_entries_zero q_cq_entries 0 0xb0070005 6
boot_row queue_cq_entries_not_pow2 q_cq_entries 3 0xb0070005 6
boot_row queue_sq_addr_misaligned q_sq_addr 0x801008 0xb0070005 7
boot_row queue_sq_addr_outside_memory q_sq_addr $dram_end 0xb0070005 7
boot_row queue_cq_addr_misaligned q_cq_addr 0x802004 0xb0070005 8
boot_row queue_cq_addr_outside_memory q_cq_addr $((dram_end - 32)) 0xb0070005 8
boot_row queue_rings_overlap q_overlap 0 0xb0070005 9
boot_row queue_indices_corrupt q_indices 17 0xb0070005 10
boot_ok

# ---------------------------------------------------------------- command arguments
row cmd_reserved_word_set BAD_RSVD 0x20 0x0 -- submit --op 0 --rsvd 1
row replay_count_above_max BAD_LEN 0x1001 0x0 -- submit --op 1 --addr $DATA --count 4097
row replay_count_maximum_u32 BAD_LEN 0xffffffff 0x0 -- submit --op 1 --addr $DATA --count 0xffffffff
row replay_outside_memory BAD_ADDR 0xc $(printf '0x%x' $dram_end) -- submit --op 1 --addr $dram_end --count 1
row replay_range_wraps BAD_ADDR 0x18 0xfffffffffffffff8 -- submit --op 1 --addr 0xfffffffffffffff8 --count 2
row replay_other_mesh BAD_ADDR 0xc 0x1000980000 -- submit --op 1 --addr 0x1000980000 --count 1
row replay_bit38 BAD_ADDR 0xc 0x4000980000 -- submit --op 1 --addr 0x4000980000 --count 1
if [ $variant = 32 ]; then
  row replay_in_processor_window BAD_ADDR 0xc 0x80980000 -- submit --op 1 --addr 0x80980000 --count 1
  row replay_staging_unreachable BAD_ADDR 0xc 0x8000000000 -- submit --op 1 --addr 0x8000000000 --count 1
fi
# Data pointing into the firmware's own DRAM range (host-interface.md §2.1: 0x40_0000, 64 KB;
# both variants own it).
row replay_into_firmware_dram BAD_ADDR 0xc 0x400000 -- submit --op 1 --addr 0x400000 --count 1
row run_overlapping_firmware_dram BAD_ADDR 0x40 0x3fffe0 -- submit --op 3 --addr 0x3fffe0 --count 2
row dispatch_count_zero BAD_LEN 0x0 0x0 -- submit --op 2 --addr $DATA --count 0 --target 1,2
row dispatch_count_above_max BAD_LEN 0x10001 0x0 -- submit --op 2 --addr $DATA --count 65537 --target 1,2
row dispatch_nine_targets BAD_NTARGETS 0x9 0x0 -- submit --op 2 --addr $DATA --count 1 --target 1,1 --target 2,1 \
  --target 3,1 --target 4,1 --target 1,2 --target 2,2 --target 1,1 --target 2,1 --ntargets 9
row dispatch_outside_memory BAD_ADDR 0x20 $(printf '0x%x' $((dram_end - 16))) -- submit --op 2 --addr $((dram_end - 16)) --count 1 --target 1,2
row dispatch_range_wraps BAD_ADDR 0x40 0xffffffffffffffe0 -- submit --op 2 --addr 0xffffffffffffffe0 --count 2 --target 1,2
row run_count_zero BAD_LEN 0x0 0x0 -- submit --op 3 --addr $DATA --count 0
row run_count_above_max BAD_LEN 0x1001 0x0 -- submit --op 3 --addr $DATA --count 4097
row run_outside_memory BAD_ADDR 0x20 $(printf '0x%x' $dram_end) -- submit --op 3 --addr $dram_end --count 1

# The maximum program: 65,536 payloads of zeros (TU NOP, exec_result 0) to TU 2,2 complete.
begin dispatch_count_maximum_runs
k submit --op 2 --addr 0x3000000 --count 65536 --target 2,2
want_rc 0 submit
want_out "^submit: status=OK detail=0x0 value=0x10000 "
untouched
end

# ---------------------------------------------------------------- descriptor lists
# Each list starts with a valid, complete move into the guard (the demo copy's first move,
# X -> 0x100000) followed by the bad part: validated whole before any write, so the guard stays.
list_row() { # NAME STATUS DETAIL VALUE RECORDS...
  local name=$1 st=$2 det=$3 val=$4; shift 4
  local hex="" n=0 r
  for r in "$@"; do hex+=$r; n=$((n + 1)); done
  begin "$name"
  put $DATA "$hex"
  k submit --op 1 --addr $DATA --count $n
  want_rc 1 submit
  want_out "^submit: status=$st detail=$det value=$val "
  untouched
  end
}
# The copy's first move (host/demo/copy.txt writes 0-10).
MOVE0=( "$(rec 0x10 0x0000100001800000)" "$(rec 0x18 0x0000000002000080)" "$(rec 0x20 0)" "$(rec 0x28 0)"
        "$(rec 0x28 0x2)" "$(rec 0x10 0x0000100001000001)" "$(rec 0x18 0x0000000002000081)" "$(rec 0x20 0)"
        "$(rec 0x28 0x1)" "$(rec 0x28 0x3)" "$(rec 0x00 0x0000000000010010)" )
list_row list_offset_misaligned BAD_OFFSET 0x7 0xb00000000 "${MOVE0[@]}" "$(rec 0x07 0)" "$(rec 0x00 0x10010)"
list_row list_offset_past_registers BAD_OFFSET 0x80 0xb00000000 "${MOVE0[@]}" "$(rec 0x80 0)" "$(rec 0x00 0x10010)"
list_row list_offset_high_bits BAD_OFFSET 0x110 0xb00000000 "${MOVE0[@]}" "$(rec 0x110 0)" "$(rec 0x00 0x10010)"
list_row list_offset_not_a_register BAD_OFFSET 0x60 0xb00000000 "${MOVE0[@]}" "$(rec 0x60 0)" "$(rec 0x00 0x10010)"
list_row list_missing_go NO_GO 0x1 0xb00000000 "${MOVE0[@]}" "$(rec 0x10 0x0000100001800000)"
if [ $variant = 64 ]; then
  list_row list_unreachable_register_rv64 NO_REACH 0x50 0xb00000000 "${MOVE0[@]}" "$(rec 0x50 0)" "$(rec 0x00 0x10010)"
fi
# ---- walks the firmware must refuse ----
# A GENERATE of WORDS words at BASE (reachable on both variants: no IMM, no GATHER): 7 records,
# its GO at write 17 after MOVE0 (value 0x11 << 32).
gen() { echo "$(rec 0x10 $(((1 << 44) | ($1 << 4) | 1)))" "$(rec 0x18 $(((32 << 20) | ($2 << 4) | 1)))" \
             "$(rec 0x20 0)" "$(rec 0x28 1)" "$(rec 0x28 3)" "$(rec 0x38 7)" "$(rec 0x00 0x10013)"; }
# Owned memory (KS_MV_OWNED, detail = range << 8 | walk, docs/mover.md §3): 0 the firmware's DRAM
# (both variants: RV32 cold code, the copy buffer), 1 the queue header, 2 the submission ring,
# 3 the completion ring (kactl: header 0x800000, rings 4 KB aligned after it, 256 entries),
# 4 the command's own data.
list_row list_walk_into_firmware_dram MV_OWNED 0x1 0x1100000000 "${MOVE0[@]}" $(gen 0x400000 1)
list_row list_walk_into_firmware_dram_end MV_OWNED 0x1 0x1100000000 "${MOVE0[@]}" $(gen 0x40ffe0 2)
list_row list_walk_into_queue_header MV_OWNED 0x101 0x1100000000 "${MOVE0[@]}" $(gen 0x800000 1)
list_row list_walk_into_submission_ring MV_OWNED 0x201 0x1100000000 "${MOVE0[@]}" $(gen 0x801000 1)
list_row list_walk_into_completion_ring MV_OWNED 0x301 0x1100000000 "${MOVE0[@]}" $(gen 0x805000 1)
list_row list_walk_into_its_own_list MV_OWNED 0x401 0x1100000000 "${MOVE0[@]}" $(gen $DATA 1)
# A source reading the firmware's DRAM: the copy's own source moved there (write 0, GO at 10).
list_row list_source_reads_firmware_dram MV_OWNED 0x0 0xa00000000 "$(rec 0x10 0x0000100004000000)" "${MOVE0[@]:1}"
# The address map (KS_MV_ADDR, detail = why << 8 | walk): 3 DRAM at 4 GB and up hits nothing,
# 1 another mesh aliases local memory, 2 bit 38, 4 a walk across 4 GB.
list_row list_walk_dram_past_4gb MV_ADDR 0x301 0x1100000000 "${MOVE0[@]}" $(gen 0x100000000 1)
list_row list_walk_other_mesh MV_ADDR 0x101 0x1100000000 "${MOVE0[@]}" $(gen 0x1000100000 1)
list_row list_walk_bit38 MV_ADDR 0x201 0x1100000000 "${MOVE0[@]}" $(gen 0x4000100000 1)
list_row list_walk_across_4gb MV_ADDR 0x401 0x1100000000 "${MOVE0[@]}" $(gen 0xffffffe0 2)
# XFORM (id 1, two 8-word entries) whose 4-word bursts would cross a 4 KB page: destination
# 0x100fe0 (KS_MV_XFORM 5; GO at write 21).
XF=( "$(rec 0x10 0x0000900001800000)" "$(rec 0x18 0x2000100)" "$(rec 0x20 0)" "$(rec 0x28 0)" "$(rec 0x28 2)"
     "$(rec 0x10 $(((1 << 44) | (0x100fe0 << 4) | 1)))" "$(rec 0x18 0x8000021)" "$(rec 0x20 0)"
     "$(rec 0x28 1)" "$(rec 0x28 3)" "$(rec 0x00 0x10015)" )
list_row list_xform_burst_across_4k MV_XFORM 0x5 0x1500000000 "${MOVE0[@]}" "${XF[@]}"
# GATHER of 9 rows (the erratum: row 8 would take index 0): RV32 refuses it (KS_MV_GATHER_ROWS,
# detail = the rows' elements, GO at write 17); RV64 cannot write GATHER (0x50) at all.
GA=( "$(rec 0x10 0x0000000001800000)" "$(rec 0x10 $(((1 << 44) | (0x100200 << 4) | 1)))"
     "$(rec 0x18 $(((32 << 20) | (9 << 4) | 1)))" "$(rec 0x20 0)"
     "$(rec 0x30 $(((9 << 40) | (DATA + 0x3000))))" "$(rec 0x50 $(((1 << 32) | 32)))" "$(rec 0x00 0x10012)" )
if [ $variant = 32 ]; then
  list_row list_gather_nine_rows MV_GATHER_ROWS 0x9 0x1100000000 "${MOVE0[@]}" "${GA[@]}"
  # Index words in the queue header (detail 0x102: range 1, the index words); a row its index
  # reaches in the firmware's DRAM (index 0x10000 x pitch 64 from 0: 0x400000; detail 0x3).
  GA8=( "${GA[@]}" ); GA8[2]="$(rec 0x18 $(((32 << 20) | (8 << 4) | 1)))"
  GA8[4]="$(rec 0x30 $(((8 << 40) | 0x800000)))"
  list_row list_gather_index_in_queue_header MV_OWNED 0x102 0x1100000000 "${MOVE0[@]}" "${GA8[@]}"
  put $((DATA + 0x3000)) "$(le 4 0x10000)$(le 4 1)$(le 4 2)$(le 4 3)$(le 4 4)$(le 4 5)$(le 4 6)$(le 4 7)"
  GA8[0]="$(rec 0x10 0)"; GA8[4]="$(rec 0x30 $(((8 << 40) | (DATA + 0x3000))))"; GA8[5]="$(rec 0x50 $(((1 << 32) | 64)))"
  list_row list_gather_row_into_firmware_dram MV_OWNED 0x3 0x1100000000 "${MOVE0[@]}" "${GA8[@]}"
else
  list_row list_gather_nine_rows NO_REACH 0x50 0x1000000000 "${MOVE0[@]}" "${GA[@]}"
fi
# A RUN's REPLAY step may not write the RUN's step list (range 4) nor its own list (range 5):
# refused when the RUN is checked, value = step 1 | the GO's write index (6).
begin steps_replay_into_step_list
put $((DATA + 0x2000)) "$(gen $DATA 1 | tr -d ' \n')"
put $((DATA + 0x1000)) "$(tu_write $TUDST 0xBAD0)"
put $DATA "$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)$(step 2 0 0 0 0 0 7 0 $((DATA + 0x2000)) 0)"
k submit --op 3 --addr $DATA --count 2
want_rc 1 submit
want_out "^submit: status=MV_OWNED detail=0x401 value=0x1000000000006 "
untouched
end
begin steps_replay_into_own_list
put $((DATA + 0x2000)) "$(gen $((DATA + 0x2000)) 1 | tr -d ' \n')"
put $((DATA + 0x1000)) "$(tu_write $TUDST 0xBAD0)"
put $DATA "$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)$(step 2 0 0 0 0 0 7 0 $((DATA + 0x2000)) 0)"
k submit --op 3 --addr $DATA --count 2
want_rc 1 submit
want_out "^submit: status=MV_OWNED detail=0x501 value=0x1000000000006 "
untouched
end
# XFORM: RV32 reads the occupant's fault and says OK; RV64 cannot see it and
# never says a plain OK: XFORM_UNCHECKED, detail = the XFORM moves (1), value = moves done (1).
begin xform_completion_says_unchecked_on_rv64
XF1=( "${XF[@]}" ); XF1[5]="$(rec 0x10 $(((1 << 44) | (0x140000 << 4) | 1)))"
hex=""; for r in "${XF1[@]}"; do hex+=$r; done
put $DATA "$hex"
k submit --op 1 --addr $DATA --count 11
if [ $variant = 32 ]; then want_rc 0 submit; want_out "^submit: status=OK detail=0x0 value=0x1 "
else want_rc 1 submit; want_out "^submit: status=XFORM_UNCHECKED detail=0x1 value=0x1 "; fi
untouched
end

# ---- checked once, used once: the host rewrites command data mid-command ----
# A RUN: SIGNAL MARK, DISPATCH a TU DELAY slowed to 20 x 40000 cycles (under the wait bound) to 1,2, WAIT for it, then
# the victim step 3; the helper waits for the SIGNAL on the header, rewrites, and reports.
MARK=0x5A0     # each row's SIGNAL value: new every row (the progress line keeps the last one)
midrun_run() { # NAME STATUS DETAIL VALUE STEP3 RW_ADDR RW_HEX [LIST_HEX]
  local name=$1 st=$2 det=$3 val=$4 s3=$5 at=$6 hx=$7 lst=${8:-}
  MARK=$((MARK + 1))
  begin "$name"
  k inject slow@1,2:40000; want_rc 0 inject
  put $((DATA + 0x1000)) "$(le 8 0)$(le 8 0)$(le 8 0)$(le 8 0x1000000000000014)"     # TU DELAY 20
  [ -n "$lst" ] && put $((DATA + 0x2000)) "$lst"
  put $DATA "$(step 5 0 0 0 0 0 0 0 $MARK 0)$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)$(step 3 0x21 0 0 0 0 1 0 0 0)$s3"
  local r; r=$("$helper" "$HP_SOCK" midrun 3 $DATA 4 progress:$MARK $at "$hx" 2>&1)
  echo "midrun $name: $r" >> "$work/transcript.txt"
  grep -qE "^midrun: status=$st detail=$det value=$val " <<< "$r" || why="$why midrun: $r, want status=$st detail=$det value=$val;"
  k inject clear; want_rc 0 inject
  untouched
  end
}
# Step 3 (a DISPATCH to 1,2) rewritten to target 9,9: refused at use, KS_CHANGED, detail = the
# check's status (BAD_TARGET 0x06), value = step 3 | the check's value (0).
midrun_run midrun_step_rewritten CHANGED 0x6 0x3000000000000 \
  "$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)" $((DATA + 3 * 32 + 1)) 99
# Step 3 a REPLAY of a GENERATE into the guard; its list rewritten to write the queue header:
# the copy fails its validation at use: CHANGED, detail MV_OWNED (0x20), value = step 3 | the
# GO's write (6) << 32 | the refusal's detail (0x101); nothing of the list ran.
midrun_run midrun_replay_list_rewritten CHANGED 0x20 0x3000600000101 \
  "$(step 2 0 0 0 0 0 7 0 $((DATA + 0x2000)) 0)" $((DATA + 0x2000 + 4)) "$(le 8 $(((1 << 44) | (0x800000 << 4) | 1)))" \
  "$(gen $((GUARD + 0x40)) 1 | tr -d ' \n')"
# A REPLAY command whose second move is rewritten (its destination into the guard) while the
# first, a 16 MB GENERATE at 0x2000000, runs: the firmware runs the copy it checked, so the
# rewrite changes nothing: OK, 2 moves, the second's destination 0x140000 generated, guard intact.
begin midrun_replay_command_rewritten
put 0x140000 "$(le 32 0)"
BIG=( "$(rec 0x10 $(((2 << 44) | (0x2000000 << 4) | 1)))" "$(rec 0x18 $(((32768 << 20) | (512 << 4) | 1)))" "$(rec 0x20 0)"
      "$(rec 0x18 $(((32 << 20) | (1024 << 4) | 2 | 1)))" "$(rec 0x20 0)" "$(rec 0x28 1)" "$(rec 0x28 3)" "$(rec 0x38 7)" "$(rec 0x00 0x10013)" )
hex=""; for r in "${BIG[@]}" $(gen 0x140000 1); do hex+=$r; done
put $DATA "$hex"
r=$("$helper" "$HP_SOCK" midrun 1 $DATA 16 mover $((DATA + 9 * 12 + 4)) "$(le 8 $(((1 << 44) | (GUARD << 4) | 1)))" 2>&1)
echo "midrun midrun_replay_command_rewritten: $r" >> "$work/transcript.txt"
grep -qE "^midrun: status=OK detail=0x0 value=0x2 " <<< "$r" || why="$why midrun: $r, want OK 0x2;"
k read 0x140000 8
grep -q "^0000140000: 00 00 00 00 00 00 00 00$" <<< "$OUT" && why="$why 0x140000 not generated: $OUT;"
untouched
end

# RV32 (RV64 cannot gather): a REPLAY whose second move gathers 2 rows by the index word at
# DATA + 0x3000 ({1, 2}); while the first move (16 MB GENERATE) runs, the host rewrites the
# index word to {5, 5}. The firmware copied the index word with the list and pointed the
# gather at its copy: the rows are source words 1 and 2, not 5.
if [ $variant = 32 ]; then
  begin midrun_gather_indices_rewritten
  put 0x180000 "$(le 32 0)$(printf '22%.0s' {1..32})$(printf '33%.0s' {1..32})$(le 32 0)$(le 32 0)$(printf '55%.0s' {1..32})"
  put 0x140000 "$(le 32 0)$(le 32 0)"
  put $((DATA + 0x3000)) "$(le 4 1)$(le 4 2)$(le 8 0)$(le 8 0)$(le 8 0)"
  GI=( "$(rec 0x10 $((0x180000 << 4)))" "$(rec 0x10 $(((1 << 44) | (0x140000 << 4) | 1)))"
       "$(rec 0x18 $(((32 << 20) | (2 << 4) | 1)))" "$(rec 0x20 0)" "$(rec 0x28 1)" "$(rec 0x28 3)"
       "$(rec 0x30 $(((2 << 40) | (DATA + 0x3000))))" "$(rec 0x50 $(((1 << 32) | 32)))" "$(rec 0x00 0x10012)" )
  hex=""; for r in "${BIG[@]}" "${GI[@]}"; do hex+=$r; done
  put $DATA "$hex"
  r=$("$helper" "$HP_SOCK" midrun 1 $DATA 18 mover $((DATA + 0x3000)) "$(le 4 5)$(le 4 5)" 2>&1)
  echo "midrun midrun_gather_indices_rewritten: $r" >> "$work/transcript.txt"
  grep -qE "^midrun: status=OK detail=0x0 value=0x2 " <<< "$r" || why="$why midrun: $r, want OK 0x2;"
  k read 0x140000 64
  want_out "^0000140000: 22 22 22 22 22 22 22 22"
  want_out "^0000140020: 33 33 33 33 33 33 33 33"
  untouched
  end
fi

# Too long: more records than KD_MAX_WRITES (4096) is refused by the command check first.
row list_too_long BAD_LEN 0x1001 0x0 -- submit --op 1 --addr $DATA --count 4097

# ---------------------------------------------------------------- programs
# Empty: dispatch_count_zero; too long: dispatch_count_above_max; unknown target: e2e.sh
# dispatch_unknown_target. "Without last" cannot be sent: the firmware writes every header and
# sets `last` on the final payload itself — a 3-payload program completes as one program.
begin program_last_set_by_firmware
put $DATA "$(le 32 0)$(le 32 0)$(tu_write $TUDST 0x5EED00)"
k submit --op 2 --addr $DATA --count 3 --target 1,2
want_rc 0 submit
want_out "^submit: status=OK detail=0x0 value=0x3 "
k read $TUDST 8
want_out "^0000100100: 00 ed 5e 00 00 00 00 00$"     # lane 0 = seed 0x5EED00
"$helper" "$HP_SOCK" guard fill $GUARD $GLEN > /dev/null
untouched
end


# ---------------------------------------------------------------- step lists
# Each list starts with a valid DISPATCH of a TU WRITE into the guard (step 0), then the bad
# step at index 1: checked whole before any step runs, so the guard stays and value[63:48] = 1.
steps_row() { # NAME STATUS DETAIL VALUE STEP1 [STEP2]
  local name=$1 st=$2 det=$3 val=$4; shift 4
  begin "$name"
  put $((DATA + 0x1000)) "$(tu_write $TUDST 0xBAD0)"
  put $DATA "$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)$1${2:-}"
  local n=2; [ -n "${2:-}" ] && n=3
  k submit --op 3 --addr $DATA --count $n
  want_rc 1 submit
  want_out "^submit: status=$st detail=$det value=$val "
  untouched
  end
}
steps_row steps_unknown_op BAD_STEP 0x9 0x1000000000000 "$(step 9 0 0 0 0 0 0 0 0 0)"
steps_row steps_op_zero BAD_STEP 0x0 0x1000000000000 "$(step 0 0 0 0 0 0 0 0 0 0)"
steps_row steps_unknown_unit BAD_TARGET 0x99 0x1000000000000 "$(step 3 0x99 0 0 0 0 1 0 0 0)"
steps_row steps_wait_more_than_dispatched UNSATISFIABLE 0x21 0x1000000000002 "$(step 3 0x21 0 0 0 0 2 0 0 0)"
steps_row steps_wait_other_unit UNSATISFIABLE 0x22 0x1000000000001 "$(step 3 0x22 0 0 0 0 1 0 0 0)"
steps_row steps_wait_zero BAD_LEN 0x0 0x1000000000000 "$(step 3 0x21 0 0 0 0 0 0 0 0)"
steps_row steps_dispatch_zero BAD_LEN 0x0 0x1000000000000 "$(step 1 0x22 0 0 0 0 0 0 $((DATA + 0x1000)) 0)"
steps_row steps_dispatch_outside_memory BAD_ADDR 0x20 $(printf '0x1%012x' $dram_end) "$(step 1 0x22 0 0 0 0 1 0 $dram_end 0)"
steps_row steps_rsvd0 BAD_RSVD 0x3 0x1000000000000 "$(step 4 0 0 1 0 0 0 0 0 0)"
steps_row steps_rsvd3 BAD_RSVD 0x18 0x1000000000000 "$(step 4 0 0 0 0 0 0 0 0 1)"
# A REPLAY step whose list has a bad offset: the list's own status, record index 0 inside.
begin steps_replay_bad_list
put $((DATA + 0x2000)) "$(rec 0x07 0)$(rec 0x00 0x10010)"
put $((DATA + 0x1000)) "$(tu_write $TUDST 0xBAD0)"
put $DATA "$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)$(step 2 0 0 0 0 0 2 0 $((DATA + 0x2000)) 0)"
k submit --op 3 --addr $DATA --count 2
want_rc 1 submit
want_out "^submit: status=BAD_OFFSET detail=0x7 value=0x1000000000000 "
untouched
end
# A WAIT placed before the DISPATCH it waits for can never be met (step 0).
begin steps_wait_before_dispatch
put $((DATA + 0x1000)) "$(tu_write $TUDST 0xBAD0)"
put $DATA "$(step 3 0x21 0 0 0 0 1 0 0 0)$(step 1 0x21 1 0 0 0 1 0 $((DATA + 0x1000)) 0)"
k submit --op 3 --addr $DATA --count 2
want_rc 1 submit
want_out "^submit: status=UNSATISFIABLE detail=0x21 value=0x1 "
untouched
end

begin referee_zero_at_end
k referee
want_rc 0 referee
end
hp_stop
trap - EXIT
exit 0
