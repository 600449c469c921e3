#!/usr/bin/env bash
# run.sh — runs every tests/build/case_*.c through the real firmware build (make with the case
# as the only service source) and checks the outcome its directive states:
#   // buildcheck: board=<board> expect=pass
#   // buildcheck: board=<board> expect=fail message=<extended regex the build output matches>
#   // buildcheck: ... libc=newlib-nano   optional: build with that C library (default picolibc;
#                                       outputs then in <out>/newlib-nano/<board>/, docs/libc.md)
#   // buildcheck-ldsed: <sed script, no $>  optional: edit the generated linker script first (to
#                                       show check-image.sh catching a wrong script)
#   // buildcheck-cold: <source>:<entry>[,<entry>]  optional: one more RV32 cold file (docs/kvm.md,
#                                       make FW_COLD_EXTRA_rv32)
# A failing case must also leave no fw.elf (nor fw.elf.tmp) behind: a rejected image is never
# an output.
# Usage: run.sh WORKDIR   (run from the top of the tree)
set -u
work=$1
MAKE=${MAKE:-make}
mkdir -p "$work"
for src in tests/build/case_*.c; do
  name=$(basename "$src" .c); name=${name#case_}
  d=$(sed -n 's|^// buildcheck: ||p' "$src" | head -n1)
  board=$(sed -n 's/.*board=\([^ ]*\).*/\1/p' <<< "$d")
  expect=$(sed -n 's/.*expect=\([^ ]*\).*/\1/p' <<< "$d")
  message=$(sed -n 's/.*message=\(.*\)$/\1/p' <<< "$d")
  libc=$(sed -n 's/.*libc=\([^ ]*\).*/\1/p' <<< "$d")
  libc=${libc:-picolibc}
  if [ -z "$board" ] || [ -z "$expect" ]; then echo "FAIL: buildcheck/$name no directive"; continue; fi
  ldsed=$(sed -n 's|^// buildcheck-ldsed: ||p' "$src" | head -n1)
  cold=$(sed -n 's|^// buildcheck-cold: ||p' "$src" | head -n1)
  out=$work/$board
  # The board's outputs: mk/firmware.mk puts a newlib-nano build under newlib-nano/.
  bdir=$out/$board
  [ "$libc" = picolibc ] || bdir=$out/$libc/$board
  # fw.ld too: a case may have edited it; libfw.a too: its members follow the case's cold
  # files, and an archive newer than every member would not be remade without them.
  rm -f "$bdir/fw.elf" "$bdir/fw.elf.tmp" "$bdir/fw.ld" "$bdir/libfw.a"
  log=$work/$name.log
  $MAKE --no-print-directory O="$out" BOARD="$board" LIBC="$libc" FW_SERVICE="$src" FW_LD_SED="$ldsed" FW_COLD_EXTRA_rv32="$cold" \
    "firmware-$board" > "$log" 2>&1
  rc=$?
  case $expect in
    pass)
      if [ $rc -eq 0 ] && [ -f "$bdir/fw.elf" ]; then echo "PASS: buildcheck/$name"
      else echo "FAIL: buildcheck/$name build failed: $(grep -m3 -E 'error|check-image' "$log" | tr '\n' '|')"; fi ;;
    fail)
      if [ $rc -eq 0 ]; then echo "FAIL: buildcheck/$name the build passed"
      elif [ -f "$bdir/fw.elf" ] || [ -f "$bdir/fw.elf.tmp" ]; then echo "FAIL: buildcheck/$name the rejected image was left as fw.elf"
      elif ! grep -qE -- "$message" "$log"; then echo "FAIL: buildcheck/$name failed without /$message/: $(tail -n3 "$log" | tr '\n' '|')"
      else echo "PASS: buildcheck/$name"; fi ;;
    *) echo "FAIL: buildcheck/$name bad expect=$expect" ;;
  esac
  [ -z "$ldsed" ] || rm -f "$bdir/fw.ld"
done
