#!/usr/bin/env bash
# rename-prefixes.sh — one prefix per component (docs/design.md §6 "Names"): renames the names
# that used to share a prefix with another component, over every tracked text file.
#
#   mover registers (include/kohaku/mover_regs.h)  KM_x, enum km_x  ->  KMV_x, enum kmv_x
#       (the firmware's mover is kmv_; KM_ / km_ stay the device model's)
#   bit-field helpers (include/kohaku/bits.h)       KH_BIT, KH_GENMASK, KH_FIELD_*  ->  KBF_*
#       (KH_ / kh_ stay the host library's)
#   console and exit (boot/console.h)               hal_puts, hal_put_hex, hal_put_hex_digits,
#       hal_console_putc, hal_exit  ->  kx_*  (they live in boot/, whose prefix is kx_)
#
# Re-runnable: it only rewrites the old spellings, so a second run changes nothing, and it can
# be run again after merging branches that still use the old names. The mover register list is
# read from mover_regs.h itself (both spellings), so registers a branch added there are renamed
# too. Word-boundary matches only (KM_REG_CTRL, not XKM_REG_CTRL). This file is not rewritten.
#
# Usage: scripts/rename-prefixes.sh [-n]    (-n: list the files it would change, change nothing)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

dry=0
[ "${1:-}" = "-n" ] && dry=1
self=scripts/rename-prefixes.sh
regs=include/kohaku/mover_regs.h
sedf=$(mktemp); trap 'rm -f "$sedf"' EXIT

# The device model's own AXI beat size was spelt like the mover's word: give it its own name
# first (the model does not include mover_regs.h), so the pass below cannot touch it.
if grep -qw 'KM_WORD_BYTES' model/memory.c 2>/dev/null; then
  [ $dry = 1 ] && echo model/memory.c || sed -i 's/\bKM_WORD_BYTES\b/KM_BEAT_BYTES/g' model/memory.c
fi

# Mover register names: every macro and enum constant mover_regs.h defines, either spelling.
names=$( { grep -oE '^[[:space:]]*#[[:space:]]*define[[:space:]]+KMV?_[A-Za-z0-9_]+' "$regs";
          grep -oE '\bKMV?_[A-Za-z0-9_]+[[:space:]]*=[^=]' "$regs"; } |
        grep -oE 'KMV?_[A-Za-z0-9_]+' | sed -E 's/^KMV?_//' | sort -u)
[ -n "$names" ] || { echo "rename-prefixes: no mover register names found in $regs" >&2; exit 1; }
for n in $names; do
  # A KMV_ name the firmware's mover already defines for something else would be a clash.
  if git grep -q -E "^[[:space:]]*#[[:space:]]*define[[:space:]]+KMV_$n\b" -- ':!'"$regs"; then
    echo "rename-prefixes: KMV_$n is already defined outside $regs; rename by hand" >&2
    exit 1
  fi
  echo "s/\\bKM_$n\\b/KMV_$n/g" >> "$sedf"
done
for t in mode width fault; do echo "s/\\bkm_$t\\b/kmv_$t/g" >> "$sedf"; done
for n in BIT GENMASK FIELD_SHIFT FIELD_GET FIELD_PREP FIELD_FITS; do
  echo "s/\\bKH_$n\\b/KBF_$n/g" >> "$sedf"
done
for n in puts put_hex put_hex_digits console_putc exit; do
  echo "s/\\bhal_$n\\b/kx_$n/g" >> "$sedf"
done

# Files holding an old spelling (text files only, this script excepted).
pat='\b(KM_[A-Za-z0-9_]+|km_(mode|width|fault)|KH_(BIT|GENMASK|FIELD_[A-Z]+)|hal_(puts|put_hex|put_hex_digits|console_putc|exit))\b'
files=$(git grep -l -I -E "$pat" -- . ":!$self" || true)
changed=0
for f in $files; do
  [ -f "$f" ] || continue
  new=$(sed -f "$sedf" "$f")
  if [ "$new" != "$(cat "$f")" ]; then
    changed=$((changed + 1))
    if [ $dry = 1 ]; then echo "$f"; else sed -i -f "$sedf" "$f"; fi
  fi
done
echo "rename-prefixes: $changed file(s) $([ $dry = 1 ] && echo would change || echo changed)" >&2
