#!/usr/bin/env bash
# check-image.sh — the firmware build checks (docs/hardware.md §4/§5): fails when an
# image outgrows its instruction window or scratchpad, or holds an instruction its core lacks.
# Writes the size report. Usage: check-image.sh rv32|rv64 IMAGE.elf SIZE-REPORT
#   RV32 (RV32IM, no CSRs, no traps): compressed, float, div/divu/rem/remu, any CSR access
#        (csrr/rdcycle/... are csrrs & co. under -M no-aliases), atomics, mret/sret/wfi.
#   RV64 (RV64IMA + Zicsr + Zifencei): compressed, float.
#   Both: data words in an executable section (the window is fetch-only; data there would
#        be executed or hide an instruction from this scan).
set -euo pipefail
variant=$1 elf=$2 report=$3
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
NM=${NM:-riscv64-unknown-elf-nm}
fail=0
err() { echo "check-image: $elf: $*" >&2; fail=1; }

# ---- sizes, from the linker script's symbols ----
declare -A S
while read -r addr _ name; do S[$name]=$((16#$addr)); done < <($NM "$elf" | grep ' __kx_')
for s in imem_base imem_end text_end spad_base spad_end rodata_start rodata_end data_start \
         data_end bss_start bss_end noinit_start noinit_end stack_bytes; do
  [ -n "${S[__kx_$s]+x}" ] || { err "symbol __kx_$s missing (not linked with linker/$variant.ld.S?)"; exit 1; }
done
imem_avail=$(( S[__kx_imem_end] - S[__kx_imem_base] ))
text=$(( S[__kx_text_end] - S[__kx_imem_base] ))
spad_avail=$(( S[__kx_spad_end] - S[__kx_spad_base] ))
# RV32 cold code (linker/rv32.ld.S .kvm_cold, docs/kvm.md) lives in the firmware's DRAM range,
# not in either window; other images have none.
cold=$(( ${S[__kx_cold_end]:-0} - ${S[__kx_cold_start]:-0} ))
boot=$(( S[__kx_rodata_start] - S[__kx_spad_base] ))
rodata=$(( S[__kx_rodata_end] - S[__kx_rodata_start] ))
data=$(( S[__kx_data_end] - S[__kx_data_start] ))
bss=$(( S[__kx_bss_end] - S[__kx_bss_start] ))
noinit=$(( S[__kx_noinit_end] - S[__kx_noinit_start] ))
stack=${S[__kx_stack_bytes]}
spad_used=$(( S[__kx_noinit_end] - S[__kx_spad_base] + stack ))

{
  printf '%-28s %s\n' "image" "${elf%.tmp} ($variant)"
  printf '%-28s %6d / %6d bytes (%d free)\n' "instruction window used" "$text" "$imem_avail" $((imem_avail - text))
  printf '%-28s %6d / %6d bytes (%d free)\n' "scratchpad used" "$spad_used" "$spad_avail" $((spad_avail - spad_used))
  printf '  %-26s %6d\n' "boot block (reserved)" "$boot" "text" "$text" "cold code (DRAM)" "$cold" "rodata" "$rodata" \
     "data" "$data" "bss" "$bss" "noinit" "$noinit" "stack" "$stack"
} > "$report"

(( text <= imem_avail )) || err "text is $text bytes, the instruction window holds $imem_avail"
(( spad_used <= spad_avail )) || err "scratchpad needs $spad_used bytes (boot block + data + stack), it holds $spad_avail"

# ---- instructions: every executable section, aliases off so pseudo-ops show their base op ----
case $variant in
  rv32) banned='^(c\..*|f.*|div|divu|rem|remu|csrr.*|lr\..*|sc\..*|amo.*|mret|sret|uret|wfi|dret)$' ;;
  rv64) banned='^(c\..*|f.*)$' ;;
  *) echo "check-image: unknown variant $variant" >&2; exit 2 ;;
esac
scan='
  /^ *[0-9a-f]+:\t/ {
    raw = $2; gsub(/ /, "", raw); m = $3; sub(/[ \t].*/, "", m)
    addr = $1; sub(/^ */, "", addr)
    if (m ~ /^\.(word|short|byte|half|insn)$/ || m ~ /^0x/) { print addr " data word in executable section: " raw; next }
    if (length(raw) == 4) { print addr " compressed instruction: " m; next }
    if (m ~ /^fence/) next                       # fence, fence.i, fence.tso: allowed
    if (m ~ banned) print addr " " m
  }'
bad=$($OBJDUMP -d -M no-aliases "$elf" | awk -F'\t' -v banned="$banned" "$scan")
if [ -n "$bad" ]; then
  err "instructions the $variant core lacks:"
  echo "$bad" | head -20 | sed 's/^/    /' >&2
fi
# Cold code: data to the linker, instructions to hal/rv32/kvm.c, which implements only what the
# core has (and less): the same scan, over the section disassembled as code (-D -j).
if (( cold > 0 )); then
  bad=$($OBJDUMP -D -j .kvm_cold -M no-aliases "$elf" | awk -F'\t' -v banned="$banned" "$scan")
  if [ -n "$bad" ]; then
    err "instructions the $variant core lacks in the cold code (.kvm_cold):"
    echo "$bad" | head -20 | sed 's/^/    /' >&2
  fi
fi
if [ $fail -ne 0 ]; then rm -f "$report"; exit 1; fi
exit 0
