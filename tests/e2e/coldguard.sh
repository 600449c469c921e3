#!/usr/bin/env bash
# coldguard.sh — the RV32 second engine's guards end to end (docs/kvm.md "Guards",
# docs/reliability.md): the product image flashed by kactl into our QEMU, as a user would.
# - At boot, before READY, the cold segment's header (magic, length, build id) is compared: an
#   absent segment (fw.elf without its DRAM segment) or one from another build (same length,
#   another id) is refused with one console line and the boot exit word 0xB007_0009, never run
#   (before the guards: "fatal kvm" nine times and a scratchpad overrun).
# - The whole segment is summed before the first cold instruction of each boot runs. One word
#   damaged in place: with a unit table the node reaches READY and serves native commands, and
#   the first command that needs cold code (a REPLAY: its list check is cold) stops the core with
#   0xDEAD_0007 and "fatal kvm cause=0x0" (no instruction fetched); a boot that enumerates (cold
#   code) stops the same way before READY.
# - After READY, a segment damaged later is found at the next failure: 0xDEAD_0007 and the
#   FATAL state line, once; with the segment intact the same failure is an ordinary refusal and
#   the node keeps serving.
# And the stack: painted before release (tests/e2e/stackmark.c), measured after a workload that
# nests the interpreter three deep (a DISPATCH to a hung unit: cold glue, native dispatch, cold
# recovery, native wait, cold failure record) and runs the deepest interpreted chain (a RUN's
# REPLAY step list check); the high-water mark must lie within the build-time bound (fw.stack,
# scripts/stack-check.py) and above two interpreter frames.
# Usage: tests/e2e/coldguard.sh BOARD OUTDIR   (an RV32 board)  -> PASS:/FAIL: lines on stdout
# Expected values are literals of include/kohaku/exitword.h (KX_EXIT_BOOT(9) = 0xB0070009),
# boot/boot.h (KX_SITE_KVM_COLD: 0xDEAD0007), include/kohaku/status.h (BAD_OP 0x01) and the
# model's default map (docs/hardware.md §10: NP at 1..4,1, TU at 1,2 and 2,2, depth 16).
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl fw=$out/$board/fw.elf
work=$out/tests/e2e-coldguard/$board
rm -rf "$work" && mkdir -p "$work"
OBJCOPY=${OBJCOPY:-riscv64-unknown-elf-objcopy} NM=${NM:-riscv64-unknown-elf-nm}

T="" why="" OUT="" RC=0 dead="" run=0
begin() { T=$1; why=""; run=$((run + 1)); hp_start "$board" "$out" "$work/qemu$run" && export KACTL_SOCKET=$HP_SOCK; }
k() { OUT=$("$kactl" "$@" 2>&1); RC=$?; { echo "\$ kactl $* -> $RC"; echo "$OUT"; } >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
end() {
  hp_stop
  if [ -z "$why" ]; then echo "PASS: e2e-coldguard-$board/$T"; else echo "FAIL: e2e-coldguard-$board/$T$(head -c 700 <<< "$why")"; fi
}
# The console of this run holds exactly N lines matching RE.
console_count() { # N RE
  local n; n=$(grep -cE -- "$2" "$work/qemu$run/console.txt")
  [ "$n" -eq "$1" ] || why="$why console has $n lines /$2/, want $1: $(head -c 300 "$work/qemu$run/console.txt" | tr '\n' '|');"
}
# The core stopped by the cold segment's check (0xDEAD0007, KX_SITE_KVM_COLD) before any cold
# instruction ran (cause 0), with one console line, the only fatal one; "queue": after READY,
# so the queue's state line says FATAL too.
want_cold_stop() {
  k status
  want_out "^core: state=exited cause=0 word=0xdead0007 "
  [ "${1:-}" != queue ] || want_out "^firmware: state=FATAL"
  console_count 1 "kohaku-fw: fatal kvm cause=0x0 pc=0x804[0-9a-f]{5} addr=0x0$"
  console_count 1 "fatal"
}
sym() { $NM "$fw" | awk -v s="$1" '$3 == s { print $1 }'; }

# The images: without the DRAM segment; with one word of it changed in place (bit 0 of the word
# 64 bytes before the end of the code: inside a cold function, never the header); and with the
# segment of another build: the same code with that word changed, its header and sums made
# for it by scripts/cold-sum.sh (as its own link would), transplanted into this image.
$OBJCOPY -R .kvm_cold "$fw" "$work/nocold.elf" 2> /dev/null  # (its warning: the segment is now empty)
end_code=$((16#$(sym __kx_cold_code_end))) start=$((16#$(sym __kx_cold_start)))
off=$(( end_code - start - 64 ))
$OBJCOPY -O binary --only-section=.kvm_cold "$fw" "$work/cold.bin"
b=$(od -An -tu1 -j "$off" -N1 "$work/cold.bin" | tr -d ' ')
printf "$(printf '\\x%02x' $((b ^ 1)))" | dd of="$work/cold.bin" bs=1 seek="$off" conv=notrunc status=none
$OBJCOPY --update-section .kvm_cold="$work/cold.bin" "$fw" "$work/badcold.elf"
cp "$work/badcold.elf" "$work/other-build.elf"
OBJCOPY=$OBJCOPY NM=$NM scripts/cold-sum.sh "$work/other-build.elf"
$OBJCOPY -O binary --only-section=.kvm_cold "$work/other-build.elf" "$work/other.bin"
$OBJCOPY --update-section .kvm_cold="$work/other.bin" "$fw" "$work/othercold.elf"
# The other build's header differs from this one's in the id alone (magic and length equal):
# the refusal below is the id's.
hdr() { od -An -v -tx4 -w4 -N16 "$1" | tr -d ' ' | tr '\n' ' '; }
$OBJCOPY -O binary --only-section=.kvm_cold "$fw" "$work/own.bin"
read -r m0 l0 i0 r0 <<< "$(hdr "$work/own.bin")"
read -r m1 l1 i1 r1 <<< "$(hdr "$work/other.bin")"
hdr_why=""
[ "$m0 $l0 $r0" = "$m1 $l1 $r1" ] && [ "$m0" = 434d564b ] && [ "$i0" != "$i1" ] ||
  hdr_why=" headers: own $m0 $l0 $i0 $r0, other $m1 $l1 $i1 $r1 (want magic 434d564b, same length, another id);"

for img in nocold othercold; do
  begin "boot_refuses_${img}"
  [ "$img" = othercold ] && why=$hdr_why
  k boot "$work/$img.elf"
  want_rc 3 boot
  want_out "RV32 cold segment absent or not the one linked \(reason 9\)"
  k status
  want_out "^core: state=exited cause=0 word=0xb0070009 "
  console_count 1 "boot refused, reason=0x9$"
  console_count 0 "fatal"
  end
done

# Damaged in place, with a unit table (no cold code before READY): READY, a native command
# served, then a REPLAY (its list check is cold) stops the core before its first cold
# instruction: cause 0, no instruction fetched, the word 0xDEAD0007.
printf '1,1 NP 16\n2,1 NP 16\n3,1 NP 16\n4,1 NP 16\n1,2 TU 16\n2,2 TU 16\n' > "$work/units.txt"
begin damaged_units_first_cold_command
k boot "$work/badcold.elf" --units "$work/units.txt"
want_rc 0 boot
want_out "^boot: READY on RV32, 6 units \(from --units\)"
still_serves
k replay host/demo/copy.txt
want_cold_stop queue
end

# Damaged in place, enumerating (cold code): stopped before READY, the same way.
begin damaged_enumerate_before_ready
k boot "$work/badcold.elf" --enumerate
want_rc 3 boot
no_out "READY"
want_cold_stop
end

# After READY: one word of a cold function changed through the host port, then a command
# the firmware refuses natively (an unknown op): the failure makes it check the segment.
ug=$(( end_code - 64 - 0x80000000 ))
begin after_failure_damaged
k boot "$fw"
want_rc 0 boot
# a plain write there is refused by kactl (host/check.c kh_fw_own_check); --raw plays the
# stray write the guard is for
k write "$(printf '0x%x' "$ug")" ffffffff
want_rc 2 "write into the cold segment without --raw"
k write --raw "$(printf '0x%x' "$ug")" ffffffff
want_rc 0 "write --raw"
k submit --op 99
want_cold_stop queue
end

begin after_failure_intact
k boot "$fw"
want_rc 0 boot
k submit --op 99
want_rc 1 submit
want_out "^submit: status=BAD_OP detail=0x63 "
still_serves
k status
want_out "^firmware: state=READY"
console_count 0 "fatal"
end

# The stack's high-water mark after a workload, against the build's bound.
stack_top=$((16#$(sym __kx_spad_end))) stack_bytes=$((16#$(sym __kx_stack_bytes)))
stack_lo=$((stack_top - stack_bytes))
bound=$(sed -n 's/^native stack: \([0-9]*\) of .*/\1/p' "$out/$board/fw.stack")
kvm_frame=$(sed -n 's/.* kvm_call \([0-9]*\) .*/\1/p' "$out/$board/fw.stack" | head -n1)
begin stack_high_water
o=$("$out/tests/e2e/stackmark" "$HP_SOCK" boot "$fw" "$stack_lo" "$stack_top" 2>&1)
[ "$o" = ready ] || why="$why stackmark boot: $o;"
cat > "$work/steps.txt" <<STEPS
replay $top/host/demo/copy.txt
dispatch 2,1 $top/host/demo/softmax.prog txn 4
wait 2,1 1
STEPS
k run "$work/steps.txt"
want_rc 0 run
k dispatch tests/e2e/tu-hang.prog --target 1,2
want_rc 1 "dispatch to a hung unit"
want_out "status=TIMEOUT "
k replay host/demo/copy.txt
want_rc 0 replay
still_serves
o=$("$out/tests/e2e/stackmark" "$HP_SOCK" measure "$stack_lo" "$stack_top" 2>&1)
hw=$(sed -n 's/^high_water=\([0-9]*\)$/\1/p' <<< "$o")
echo "stack high water: ${hw:-?} of $stack_bytes bytes (build-time bound ${bound:-?}, kvm_call frame ${kvm_frame:-?})" >> "$work/transcript.txt"
if [ -z "$hw" ] || [ -z "$bound" ] || [ -z "$kvm_frame" ]; then why="$why no measure ($o) or no bound in fw.stack;"
elif [ "$hw" -gt "$bound" ]; then why="$why high water $hw bytes above the build-time bound $bound;"
elif [ "$hw" -le $((2 * kvm_frame)) ]; then why="$why high water $hw bytes: the workload did not nest the interpreter;"
else echo "stack: high water $hw of $stack_bytes bytes (build-time bound $bound)"; fi
end
