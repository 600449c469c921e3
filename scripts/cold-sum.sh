#!/usr/bin/env bash
# cold-sum.sh — writes the 32-bit sum of an RV32 image's cold segment (.kvm_cold, in the firmware's
# DRAM range) into its word __kx_cold_sum (in .rodata, the scratchpad), after the link: the boot
# compares the two before anything runs cold code, and again after any failure (hal/rv32/kvm.c
# hal_cold_bad; docs/kvm.md "Guards"). The sum cannot be known before the link lays the code out.
# Usage: cold-sum.sh IMAGE.elf   (rewrites IMAGE.elf in place)
set -euo pipefail
elf=$1
OBJCOPY=${OBJCOPY:-riscv64-unknown-elf-objcopy}
NM=${NM:-riscv64-unknown-elf-nm}
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
err() { echo "cold-sum: $elf: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sym() { $NM "$elf" | awk -v s="$1" '$3 == s { print $1 }'; }
sum_at=$(sym __kx_cold_sum) start=$(sym __kx_cold_start) end=$(sym __kx_cold_end)
[ -n "$sum_at" ] && [ -n "$start" ] && [ -n "$end" ] || err "no __kx_cold_sum/__kx_cold_start/__kx_cold_end (not linked with linker/rv32.ld.S?)"
$OBJCOPY -O binary --only-section=.kvm_cold "$elf" "$tmp/cold.bin"
bytes=$(stat -c %s "$tmp/cold.bin")
(( bytes == 16#$end - 16#$start && bytes % 16 == 0 )) || err ".kvm_cold is $bytes bytes, the symbols say $((16#$end - 16#$start))"
sum=$(od -An -v -tu4 -w4 "$tmp/cold.bin" | awk '{ s = (s + $1) % 4294967296 } END { printf "%.0f", s }')

# The word's section and its offset in it, then the section rewritten with the word set.
read -r sec vma < <($OBJDUMP -h "$elf" | awk -v a=$((16#$sum_at)) '
  $1 ~ /^[0-9]+$/ { v = 0; for (i = 1; i <= length($4); i++) v = v * 16 + index("0123456789abcdef", substr($4, i, 1)) - 1;
                    n = 0; for (i = 1; i <= length($3); i++) n = n * 16 + index("0123456789abcdef", substr($3, i, 1)) - 1;
                    if (a >= v && a + 4 <= v + n) { print $2, v; exit } }')
[ -n "${sec:-}" ] || err "no section holds __kx_cold_sum"
$OBJCOPY -O binary --only-section="$sec" "$elf" "$tmp/sec.bin"
off=$(( 16#$sum_at - vma ))
printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((sum & 255)) $((sum >> 8 & 255)) $((sum >> 16 & 255)) $((sum >> 24 & 255)))" |
  dd of="$tmp/sec.bin" bs=1 seek="$off" conv=notrunc status=none
$OBJCOPY --update-section "$sec=$tmp/sec.bin" "$elf" "$tmp/out.elf"
mv -f "$tmp/out.elf" "$elf"
