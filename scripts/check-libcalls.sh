#!/usr/bin/env bash
# check-libcalls.sh — the RV32 image's native code calls no routine the byte-trick fences keep
# out (boot/boot.h KX_OPAQUE, KX_TOUCHED; mover/kmv_port.h kmv_writes_of): memset, memcpy and
# libgcc's multiplies. Such a call costs the instruction window the routine's bytes (RV32I has
# no multiply; the image links no libc routine on purpose). Cold code is not scanned: its
# multiplies are interpreted copies (docs/kvm.md "Multiply").
# Usage: check-libcalls.sh ELF-or-OBJECT    Exit 0: none; 1: each call printed; 2: bad input.
set -u
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
[ -f "${1:-}" ] || { echo "usage: check-libcalls.sh ELF-or-OBJECT" >&2; exit 2; }
# A linked image names the callee as <sym>; an object, through its relocation.
hits=$("$OBJDUMP" -dr -j .text "$1" 2>/dev/null; for s in $("$OBJDUMP" -h "$1" | awk '$2 ~ /^\.text\./ { print $2 }'); do
         "$OBJDUMP" -dr -j "$s" "$1"; done) || true
bad=$(grep -E '(<|R_RISCV_(CALL|CALL_PLT|JAL)[[:space:]]+)(memset|memcpy|__mulsi3|__muldi3)\b' <<< "$hits" | sort -u)
if [ -n "$bad" ]; then
  echo "check-libcalls: $1 calls a routine kept out of the RV32 window:"
  sed 's/^/  /' <<< "$bad"
  exit 1
fi
exit 0
