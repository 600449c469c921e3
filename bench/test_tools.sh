#!/usr/bin/env bash
# test_tools.sh — tests of the bench's own tooling on literal figure lines (no QEMU): check.sh
# passes when every bench budget is met and fails naming each one missed or missing, at
# the budgets' exact edges; same.sh accepts identical runs and the host-timed pair within
# 0.1 %, and refuses anything else. Prints PASS:/FAIL: lines (suite bench-tools).
# Usage: bench/test_tools.sh WORKDIR
set -u
work=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
T="" why=""
begin() { T=$1; why=""; }
end() { if [ -z "$why" ]; then echo "PASS: bench-tools/$T"; else echo "FAIL: bench-tools/$T$why"; fi; }

# Every budgeted figure exactly at its limit (docs/bench.md "Budgets").
good() {
  cat <<'EOF'
bench qemu-rv32 boot_insns 1400 insns
bench qemu-rv32 enum_cycles 60000 cycles
bench qemu-rv32 dispatch_insns_per_flit 24.00 insns/flit
bench qemu-rv32 unit_feed_pct 90.00 %
bench qemu-rv32 dispatch_multi_cycles_per_flit 26.00 cycles/flit
bench qemu-rv32 unit_feed6_pct 80.00 %
bench qemu-rv32 dispatch_cmd_fixed_cycles 2000 cycles
bench qemu-rv32 replay_insns_per_write 12.00 insns/write
bench qemu-rv32 host_vs_fw_ratio 20.0 x
bench qemu-rv32 serves_queue 1 bool
bench qemu-rv32 imem_bytes 7680 bytes
bench qemu-rv32 record_replay_insns_per_write 12.00 insns/write
bench qemu-rv32 record_run_overhead_insns 2500 insns
bench qemu-rv32 spad_bytes 8192 bytes
bench qemu-rv64 boot_insns 1200 insns
bench qemu-rv64 enum_cycles 25000 cycles
bench qemu-rv64 dispatch_insns_per_flit 12.00 insns/flit
bench qemu-rv64 unit_feed_pct 95.00 %
bench qemu-rv64 dispatch_multi_cycles_per_flit 14.00 cycles/flit
bench qemu-rv64 unit_feed6_pct 90.00 %
bench qemu-rv64 dispatch_cmd_fixed_cycles 1000 cycles
bench qemu-rv64 replay_insns_per_write 8.00 insns/write
bench qemu-rv64 host_vs_fw_ratio 20.0 x
bench qemu-rv64 serves_queue 1 bool
bench qemu-rv64 imem_bytes 24576 bytes
bench qemu-rv64 record_replay_insns_per_write 10.00 insns/write
bench qemu-rv64 record_run_overhead_insns 1500 insns
bench qemu-rv64 spad_bytes 32768 bytes
bench qemu-rv32 link_jtag_boot_round_trips 64 rt
bench qemu-rv32 link_jtag_replay1000_round_trips 8 rt
bench qemu-rv64 link_jtag_replay1000_round_trips 8 rt
EOF
}

begin check_all_at_limits_pass
good > "$work/good.txt"
out=$("$here/check.sh" "$work/good.txt"); rc=$?
[ $rc -eq 0 ] || why="$why exit $rc;"
[ "$(grep -c '^bench-check: ok ' <<< "$out")" -eq 31 ] || why="$why not 31 ok lines;"
end

# One step past each limit, one figure at a time: exit 1 and exactly that line marked FAIL.
for edit in "qemu-rv32 boot_insns 1401" "qemu-rv64 boot_insns 1201" \
            "qemu-rv32 enum_cycles 60001" "qemu-rv64 enum_cycles 25001" \
            "qemu-rv64 dispatch_insns_per_flit 12.01" \
            "qemu-rv32 dispatch_insns_per_flit 24.01" "qemu-rv64 unit_feed_pct 94.99" \
            "qemu-rv32 unit_feed_pct 89.99" "qemu-rv64 replay_insns_per_write 8.01" \
            "qemu-rv32 replay_insns_per_write 12.01" "qemu-rv64 host_vs_fw_ratio 19.9" \
            "qemu-rv32 imem_bytes 7681" "qemu-rv32 spad_bytes 8193" "qemu-rv64 imem_bytes 24577" \
            "qemu-rv32 serves_queue 0" "qemu-rv64 boot_insns missing" \
            "qemu-rv32 record_replay_insns_per_write 12.01" "qemu-rv64 record_replay_insns_per_write 10.01" \
            "qemu-rv32 record_run_overhead_insns 2501" "qemu-rv64 record_run_overhead_insns 1501" \
            "qemu-rv32 link_jtag_boot_round_trips 65" "qemu-rv32 link_jtag_replay1000_round_trips 9" \
            "qemu-rv64 link_jtag_replay1000_round_trips 9" "qemu-rv64 link_jtag_replay1000_round_trips missing" \
            "qemu-rv64 dispatch_multi_cycles_per_flit 14.01" "qemu-rv32 dispatch_multi_cycles_per_flit 26.01" \
            "qemu-rv64 unit_feed6_pct 89.99" "qemu-rv32 unit_feed6_pct 79.99" \
            "qemu-rv64 dispatch_cmd_fixed_cycles 1001" "qemu-rv32 dispatch_cmd_fixed_cycles 2001" \
            "qemu-rv32 dispatch_cmd_fixed_cycles missing"; do
  set -- $edit
  begin "check_fails_$1_$2_$3"
  good | awk -v b="$1" -v n="$2" -v v="$3" '$2 == b && $3 == n { $4 = v } { print }' > "$work/bad.txt"
  out=$("$here/check.sh" "$work/bad.txt"); rc=$?
  [ $rc -eq 1 ] || why="$why exit $rc want 1;"
  [ "$(grep -c '^bench-check: FAIL ' <<< "$out")" -eq 1 ] || why="$why FAIL lines: $(grep FAIL <<< "$out" | tr '\n' '|');"
  grep -q "^bench-check: FAIL $1 $2 " <<< "$out" || why="$why no FAIL line for $1 $2;"
  end
done

begin check_fails_when_a_figure_is_absent
good | grep -v 'qemu-rv64 unit_feed_pct' > "$work/bad.txt"
out=$("$here/check.sh" "$work/bad.txt"); rc=$?
[ $rc -eq 1 ] || why="$why exit $rc want 1;"
grep -q '^bench-check: FAIL qemu-rv64 unit_feed_pct missing' <<< "$out" || why="$why no missing line;"
end

begin same_identical
good > "$work/a.txt"; good > "$work/b.txt"
"$here/same.sh" "$work/a.txt" "$work/b.txt" > /dev/null || why="$why identical runs refused;"
end

begin same_host_pair_within_tolerance
printf 'bench qemu-rv64 host_driven_ns 9810000 ns\nbench qemu-rv64 host_vs_fw_ratio 39.0 x\n' > "$work/a.txt"
printf 'bench qemu-rv64 host_driven_ns 9810900 ns\nbench qemu-rv64 host_vs_fw_ratio 39.0 x\n' > "$work/b.txt"
"$here/same.sh" "$work/a.txt" "$work/b.txt" > /dev/null || why="$why 0.01 % apart refused;"
printf 'bench qemu-rv64 host_driven_ns 9830000 ns\nbench qemu-rv64 host_vs_fw_ratio 39.0 x\n' > "$work/b.txt"
"$here/same.sh" "$work/a.txt" "$work/b.txt" > /dev/null && why="$why 0.2 % apart accepted;"
end

begin same_refuses_any_other_difference
good > "$work/a.txt"
good | sed 's/qemu-rv64 boot_insns 1200/qemu-rv64 boot_insns 1201/' > "$work/b.txt"
"$here/same.sh" "$work/a.txt" "$work/b.txt" > /dev/null && why="$why boot 1200 vs 1201 accepted;"
good | sed '$d' > "$work/b.txt"
"$here/same.sh" "$work/a.txt" "$work/b.txt" > /dev/null && why="$why a missing line accepted;"
end
exit 0
