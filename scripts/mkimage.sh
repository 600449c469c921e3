#!/usr/bin/env bash
# mkimage.sh — flashable window images of a checked ELF: PREFIX.imem.bin and
# PREFIX.spad.bin (each window's contents from the window base), PREFIX.{imem,spad}.hex (one
# little-endian 32-bit word per line, the $readmemh form), PREFIX.lst (disassembly).
# The scratchpad image starts at the scratchpad base: its first KX_BOOT_RESERVED bytes are
# zero and are where the host writes the boot block after loading the image.
# Usage: mkimage.sh IMAGE.elf PREFIX
set -euo pipefail
elf=$1 out=$2
OBJCOPY=${OBJCOPY:-riscv64-unknown-elf-objcopy}
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
NM=${NM:-riscv64-unknown-elf-nm}
sym() { $NM "$elf" | awk -v s="$1" '$3 == s { print $1 }'; }

# Pad to a whole number of 32-bit words so the hex has complete words.
pad4() { local n; n=$(stat -c %s "$1"); (( n % 4 == 0 )) || head -c $((4 - n % 4)) /dev/zero >> "$1"; }
hex() { od -An -v -w4 -tx4 --endian=little "$1" | sed 's/^ *//' > "$2"; }

$OBJCOPY -O binary -j .text "$elf" "$out.imem.bin"
pad4 "$out.imem.bin"

spad_base=$((16#$(sym __kx_spad_base)))
first=$((16#$(sym __kx_rodata_start)))
$OBJCOPY -O binary -j .rodata -j .data "$elf" "$out.spad.tmp"
{ head -c $((first - spad_base)) /dev/zero; cat "$out.spad.tmp"; } > "$out.spad.bin"
rm -f "$out.spad.tmp"
pad4 "$out.spad.bin"

hex "$out.imem.bin" "$out.imem.hex"
hex "$out.spad.bin" "$out.spad.hex"
# RV32 cold code (.kvm_cold, docs/kvm.md): PREFIX.dram.{bin,hex}, the firmware's DRAM range from
# its start (docs/host-interface.md §2.1), only when the image has any.
rm -f "$out.dram.bin" "$out.dram.hex"
if [ -n "$(sym __kx_cold_start)" ] && [ "$(sym __kx_cold_start)" != "$(sym __kx_cold_end)" ]; then
  $OBJCOPY -O binary -j .kvm_cold "$elf" "$out.dram.bin"
  pad4 "$out.dram.bin"
  hex "$out.dram.bin" "$out.dram.hex"
fi
$OBJDUMP -h -d -S "$elf" > "$out.lst"
