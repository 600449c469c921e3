#!/usr/bin/env bash
# bench.sh — the benchmark for one board under our QEMU with -icount (docs/bench.md):
# runs the bench images (bench/target/bench_*.c: dispatch layer, four-NP feed, mover replay),
# then the real firmware image through the host port (bench/kbench.c: boot, NOP, RUN against
# host-driven dispatch), reads the image sizes, and prints one line per figure:
#   bench <board> <name> <value> <unit>        (value "missing" when it cannot be measured)
# Ratios are made here (awk): the images print raw counts and never divide (RV32 has no divide).
# Usage: bench/bench.sh OUTDIR BOARD [WORKDIR]    (needs make qemu host, the images, kbench)
set -u
out=$1 board=$2
work=${3:-$out/bench/$board}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
NM=${NM:-riscv64-unknown-elf-nm}
case $board in
  qemu-rv32) qemu=$out/qemu/bin/qemu-system-riscv32 cpu=rv32,c=false ;;
  qemu-rv64) qemu=$out/qemu/bin/qemu-system-riscv64 cpu=rv64,c=false ;;
  *) echo "bench.sh: no QEMU board $board" >&2; exit 2 ;;
esac
rm -rf "$work" && mkdir -p "$work"
bb=$out/target-tools/good.bootblock
declare -A R                                  # raw counts by key
fig() { echo "bench $board $1 $2 $3"; }
missing() { echo "bench $board $1 missing $2"; echo "bench.sh: $board $1 missing: $3" >&2; }

# ---- the bench images: each must exit with every check passed ----
image_ok=1
for img in enum dispatch feed replay multi; do
  elf=$out/$board/bench/bench_$img.elf
  con=$work/$img.console err=$work/$img.stderr
  if [ ! -f "$elf" ]; then echo "bench.sh: $elf missing" >&2; image_ok=0; continue; fi
  timeout --kill-after=2 60 "$qemu" -M "kohaku-sysnode,bootblock=$bb" -cpu "$cpu" -bios none \
    -display none -monitor none -serial none -nodefaults -icount shift=0,align=off,sleep=off \
    -kernel "$elf" > "$con" 2> "$err" < /dev/null
  if ! grep -q '^kohaku-stop: state=exited cause=0 word=0x7e570000 ' "$err" ||
     ! grep -q '^kohaku-test: [^ ]* passed=[0-9]* failed=0$' "$con"; then
    echo "bench.sh: $board bench_$img failed: $(grep -E '^(FAIL|kohaku-stop)' "$con" "$err" | head -5 | tr '\n' '|')" >&2
    image_ok=0
    continue
  fi
  if grep -q '^kohaku-referee: [a-z_]*=[1-9]' "$err"; then
    echo "bench.sh: $board bench_$img referee: $(grep '^kohaku-referee: [a-z_]*=[1-9]' "$err" | tr '\n' ' ')" >&2
    image_ok=0
  fi
  while read -r _ k v; do R[$k]=$((v)); done < <(grep '^note: ' "$con")
done

# ---- the real firmware through the host port ----
kb=$work/kbench.txt
if hp_start "$board" "$out" "$work/qemu" ""; then
  timeout 300 "$out/bench/kbench" "$HP_SOCK" "$out/$board/fw.elf" > "$kb" 2> "$work/kbench.stderr"
  kbrc=$?
  hp_stop
  [ $kbrc -eq 0 ] || { echo "bench.sh: $board kbench exit $kbrc: $(tail -c 300 "$work/kbench.stderr")" >&2; image_ok=0; }
else
  echo "bench.sh: $board QEMU with a host port did not start" >&2
  : > "$kb"
  image_ok=0
fi
while read -r _ k v; do R[kb_$k]=$v; done < <(grep -E '^(raw|fig) ' "$kb")
# The model's referee after the firmware and host-driven runs: every counter zero.
if grep -q '^raw referee_[a-z_]* [1-9]' "$kb"; then
  echo "bench.sh: $board referee after kbench: $(grep '^raw referee_[a-z_]* [1-9]' "$kb" | tr '\n' ' ')" >&2
  image_ok=0
fi
# Why kbench gave no figure NAME: its own "missing" line, else it stopped before it (its stderr).
kbmiss() { local m; m=$(sed -n "s/^missing $1 //p" "$kb" | head -n1); echo "${m:-kbench did not get that far}"; }

# div A B SCALE: A / B to SCALE decimals (awk, host side)
div() { awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN { printf "%.*f", s, a / b }'; }
have() { for k; do [ -n "${R[$k]:-}" ] || return 1; done; }

# 1. boot_insns, enum_cycles
if have kb_boot_insns; then fig boot_insns "${R[kb_boot_insns]}" insns
else missing boot_insns insns "$(kbmiss boot_insns)"; fi
if have enum_cycles; then fig enum_cycles "${R[enum_cycles]}" cycles
else missing enum_cycles cycles "bench image did not run"; fi

# 2. dispatch_insns_per_flit: the whole 4,096-instruction kdp_dispatch call / 4,096
if have dispatch4096_insns dispatch2048_insns dispatch4096_cycles; then
  fig dispatch_insns_per_flit "$(div "${R[dispatch4096_insns]}" 4096 2)" insns/flit
  fig dispatch_cycles_per_flit "$(div "${R[dispatch4096_cycles]}" 4096 2)" cycles/flit
  fig dispatch_insns_per_flit_marginal \
    "$(div $((R[dispatch4096_insns] - R[dispatch2048_insns])) 2048 2)" insns/flit
else missing dispatch_insns_per_flit insns/flit "bench image did not run"; fi

# 3. unit_feed_pct: the lowest of the four units' busy / span
if have feed_busy_1 feed_span_1 feed_busy_2 feed_span_2 feed_busy_3 feed_span_3 feed_busy_4 feed_span_4; then
  low=""
  for u in 1 2 3 4; do
    p=$(div "$((R[feed_busy_$u] * 100))" "${R[feed_span_$u]}" 2)
    [ -z "$low" ] || awk -v a="$p" -v b="$low" 'BEGIN { exit !(a < b) }' && low=$p
  done
  fig unit_feed_pct "$low" %
else missing unit_feed_pct % "bench_feed did not run"; fi

# 3b. dispatch_multi_cycles_per_flit: one kdp_run of 256 instructions to each of the six units,
# processor cycles / (6 x 256); unit_feed6_pct: bench_feed's workload on all six units, the lowest
if have multi_cycles; then
  fig dispatch_multi_cycles_per_flit "$(div "${R[multi_cycles]}" 1536 2)" cycles/flit
else missing dispatch_multi_cycles_per_flit cycles/flit "bench_multi did not run"; fi
if have feed6_busy_1 feed6_span_1 feed6_busy_6 feed6_span_6; then
  low=""
  for u in 1 2 3 4 5 6; do
    p=$(div "$((R[feed6_busy_$u] * 100))" "${R[feed6_span_$u]}" 2)
    [ -z "$low" ] || awk -v a="$p" -v b="$low" 'BEGIN { exit !(a < b) }' && low=$p
  done
  fig unit_feed6_pct "$low" %
else missing unit_feed6_pct % "bench_multi did not run"; fi

# 4. replay_insns_per_write, move_cycles
if have replay_v_pad_insns replay_v_base_insns replay_pad_writes replay_full_pad_insns replay_full_base_insns move_cycles; then
  fig replay_insns_per_write \
    "$(div $((R[replay_v_pad_insns] - R[replay_v_base_insns])) "${R[replay_pad_writes]}" 2)" insns/write
  fig replay_validate_insns_per_write \
    "$(div $((R[replay_full_pad_insns] - R[replay_full_base_insns])) "${R[replay_pad_writes]}" 2)" insns/write
  fig move_cycles "${R[move_cycles]}" cycles
else missing replay_insns_per_write insns/write "bench_replay did not run"; fi

# 5. cmd_overhead_insns
if have kb_cmd_overhead_insns; then fig cmd_overhead_insns "${R[kb_cmd_overhead_insns]}" insns
else missing cmd_overhead_insns insns "$(kbmiss cmd_overhead_insns)"; fi

# 5b. dispatch_cmd_fixed_cycles, units_cmd_cycles: those commands whole (kbench)
for f in dispatch_cmd_fixed_cycles units_cmd_cycles; do
  if have kb_$f; then fig $f "${R[kb_$f]}" cycles
  else missing $f cycles "$(kbmiss $f)"; fi
done
# 5b. records: a recorded 1,001-write list replayed by handle, cycles less the
# processor's waits for the mover (the completion's mover_cycles) per write; a recorded 8-step
# RUN's cycles beyond its moves (kbench: less 8 by-handle replays' work)
if have kb_rec_replay_cycles kb_rec_replay_mover_cycles kb_rec_replay_writes; then
  fig record_replay_insns_per_write \
    "$(div $((R[kb_rec_replay_cycles] - R[kb_rec_replay_mover_cycles])) "${R[kb_rec_replay_writes]}" 2)" insns/write
else missing record_replay_insns_per_write insns/write "$(kbmiss record_replay_insns_per_write)"; fi
if have kb_record_run_overhead_insns; then fig record_run_overhead_insns "${R[kb_record_run_overhead_insns]}" insns
else missing record_run_overhead_insns insns "$(kbmiss record_run_overhead_insns)"; fi

# 6. host_vs_fw_ratio (host-driven over firmware-driven, both in the model's ns)
if have kb_host_ns kb_fw_run_ns; then
  fig host_vs_fw_ratio "$(div "${R[kb_host_ns]}" "${R[kb_fw_run_ns]}" 1)" x
else missing host_vs_fw_ratio x "$(kbmiss host_vs_fw_ratio)"; fi
if have kb_host_ns; then fig host_driven_ns "${R[kb_host_ns]}" ns
else missing host_driven_ns ns "kbench did not get that far"; fi
if have kb_fw_run_ns; then fig fw_driven_ns "${R[kb_fw_run_ns]}" ns
else missing fw_driven_ns ns "$(kbmiss host_vs_fw_ratio)"; fi

# serves_queue: whether the default image below reached READY on the queue (the size budget is
# for the firmware that does the job: an image that fit by leaving the queue out would not count)
if have kb_ready_instret; then fig serves_queue 1 bool; else fig serves_queue 0 bool; fi

# 7. imem_bytes, spad_bytes of the default image (its __kx_* symbols, as check-image.sh reads them)
declare -A S
while read -r a _ n; do S[$n]=$((16#$a)); done < <($NM "$out/$board/fw.elf" | grep ' __kx_')
fig imem_bytes $((S[__kx_text_end] - S[__kx_imem_base])) bytes
fig spad_bytes $((S[__kx_noinit_end] - S[__kx_spad_base] + S[__kx_stack_bytes])) bytes

[ $image_ok -eq 1 ] || { echo "bench.sh: $board: a bench run failed (figures from it are missing)" >&2; exit 1; }
exit 0
