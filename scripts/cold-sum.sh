#!/usr/bin/env bash
# cold-sum.sh — after the link, writes what identifies an RV32 image's cold segment (.kvm_cold, in
# the firmware's DRAM range) into the segment and into the image (hal/rv32/kvm.h; docs/kvm.md
# "Guards"): the build id, the 32-bit sum of the segment's words other than the id itself, into
# the header's word 2; into the image's table __kx_cold_chk (.rodata, the scratchpad) the sum
# of the header's four words (magic, length, id, `ret`) and, as __kx_cold_sum, the sum of all the
# segment's words, the id's included. The boot compares the header's sum before READY; kvm_call sums the whole
# segment before its first instruction runs, and the firmware again after any failure
# (hal/rv32/kvm.c hal_cold_bad). None of them can be known before the link lays the code out.
# Running it again gives the same image (the id word is left out of the id).
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
chk_at=$(sym __kx_cold_chk) sum_at=$(sym __kx_cold_sum) start=$(sym __kx_cold_start) end=$(sym __kx_cold_end)
[ -n "$chk_at" ] && [ -n "$sum_at" ] && (( 16#$sum_at == 16#$chk_at + 12 )) && [ -n "$start" ] && [ -n "$end" ] || err "no __kx_cold_chk/__kx_cold_sum/__kx_cold_start/__kx_cold_end as linker/rv32.ld.S lays them out"
$OBJCOPY -O binary --only-section=.kvm_cold "$elf" "$tmp/cold.bin"
bytes=$(stat -c %s "$tmp/cold.bin")
(( bytes == 16#$end - 16#$start && bytes % 16 == 0 )) || err ".kvm_cold is $bytes bytes, the symbols say $((16#$end - 16#$start))"
# The id: every word but word 2 (the id's own place, whatever it holds now).
id=$(od -An -v -tu4 -w4 "$tmp/cold.bin" | awk 'NR != 3 { s = (s + $1) % 4294967296 } END { printf "%.0f", s }')
full=$(( (id * 2) % 4294967296 ))

# le32 FILE OFFSET VALUE: writes VALUE little-endian at OFFSET of FILE.
le32() {
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($3 & 255)) $(($3 >> 8 & 255)) $(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
le32 "$tmp/cold.bin" 8 "$id"
# The header's four words (magic, length, id, 0) summed: what the boot compares.
hdr=$(od -An -v -tu4 -w4 -N16 "$tmp/cold.bin" | awk '{ s = (s + $1) % 4294967296 } END { printf "%.0f", s }')
(( hdr != 0 )) || err "the cold header sums to 0, as an absent segment does"

# __kx_cold_chk's section and __kx_cold_sum's offset in it, then the section rewritten with both sums set.
read -r sec vma < <($OBJDUMP -h "$elf" | awk -v a=$((16#$sum_at)) '
  $1 ~ /^[0-9]+$/ { v = 0; for (i = 1; i <= length($4); i++) v = v * 16 + index("0123456789abcdef", substr($4, i, 1)) - 1;
                    n = 0; for (i = 1; i <= length($3); i++) n = n * 16 + index("0123456789abcdef", substr($3, i, 1)) - 1;
                    if (a - 12 >= v && a + 4 <= v + n) { print $2, v; exit } }')
[ -n "${sec:-}" ] || err "no section holds __kx_cold_sum"
$OBJCOPY -O binary --only-section="$sec" "$elf" "$tmp/sec.bin"
off=$(( 16#$sum_at - vma ))
le32 "$tmp/sec.bin" "$off" "$full"
le32 "$tmp/sec.bin" $((off - 8)) "$hdr"
$OBJCOPY --update-section "$sec=$tmp/sec.bin" --update-section ".kvm_cold=$tmp/cold.bin" "$elf" "$tmp/out.elf"
mv -f "$tmp/out.elf" "$elf"
