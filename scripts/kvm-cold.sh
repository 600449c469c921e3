#!/usr/bin/env bash
# kvm-cold.sh — turns a natively compiled RV32 object into a cold object (docs/kvm.md): its
# code sections .text* become read-only data sections .kvm_cold* (linker/rv32.ld.S puts them in
# the firmware's DRAM range, where hal/rv32/kvm.c interprets them), and every cold entry F (the list for
# all cold files, so cold-to-cold calls resolve to the cold copies) becomes kvm_cold_F; the
# native stub F (hal/rv32/kvm_stub.c) takes the name. Fails, leaving no OUT, when
#   - the object calls __riscv_save_N/__riscv_restore_N (-msave-restore: entered by jal t0, not
#     the call rule the interpreter follows);
#   - a global function of the object is not a listed entry (native code would jump into the
#     firmware's DRAM, which the core cannot fetch).
# Usage: kvm-cold.sh IN.o OUT.o ENTRY...
set -euo pipefail
in=$1 out=$2; shift 2
OBJCOPY=${OBJCOPY:-riscv64-unknown-elf-objcopy}
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
NM=${NM:-riscv64-unknown-elf-nm}
rm -f "$out"
err() { echo "kvm-cold: $in: $*" >&2; rm -f "$out.tmp"; exit 1; }

if $NM -u "$in" | grep -qE ' __riscv_(save|restore)_'; then
  err "calls __riscv_save/__riscv_restore (compile cold code without -msave-restore)"
fi

args=()
while read -r sec; do
  args+=(--rename-section "$sec=.kvm_cold${sec#.text},alloc,load,readonly,data,contents")
done < <($OBJDUMP -h "$in" | awk '$1 ~ /^[0-9]+$/ && $2 ~ /^\.text($|\.)/ { print $2 }')
for e in "$@"; do args+=(--redefine-sym "$e=kvm_cold_$e"); done
$OBJCOPY "${args[@]}" "$in" "$out.tmp"

# objdump -t: "addr g F .kvm_cold.x size name". A global function of the object that kept its
# own name is one native code would call directly.
left=$($OBJDUMP -t "$out.tmp" | awk '$2 == "g" && $3 == "F" && $NF !~ /^kvm_cold_/ { print $NF }')
[ -z "$left" ] || err "global functions not listed as cold entries (mk/firmware.mk FW_COLD_rv32): $left"
mv -f "$out.tmp" "$out"
