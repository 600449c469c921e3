#!/usr/bin/env bash
# figures.sh — suite "docs-figures": the figures README.md and docs/rv32-size.md quote about
# the RV32 image are the built image's (scripts/check-figures.py --size on FW_SIZE). The
# checker is first shown failing on a fixture doc with a stale figure and passing on a right
# one, then run on the real tree. The bench figures are checked by `make bench-docs`. Also: the
# image's native code calls no memset, memcpy or multiply routine (scripts/check-libcalls.sh).
# Usage: figures.sh FW_SIZE     Output: one PASS:/FAIL: line per check.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
chk=$top/scripts/check-figures.py
size=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A fixture size report and docs: text 7000 (680 under the budget, 1192 under the window),
# 5,000 cold bytes (5.0 KB), 2,000 scratchpad bytes free (2.0 KB).
cat > $tmp/fw.size <<'E'
image                        x/fw.elf (rv32)
instruction window used        7000 /   8192 bytes (1192 free)
scratchpad used                6192 /   8192 bytes (2000 free)
  text                         7000
  cold code (DRAM)             5000
E
fixture() {  # fixture DIR IMAGE-BYTES: docs quoting IMAGE-BYTES as the image size
  mkdir -p $1/docs
  printf 'The RV32 image is %s bytes of its 8 KB\nwindow. The boot sums the whole\n5.0 KB cold segment.\n' "$2" > $1/README.md
  printf '680 bytes under the bench budget (%s of 7,680), 1,192 under the\nwindow. belong to the firmware (5.0 KB used). Then 2.0 KB of the scratchpad is still free.\n' "$2" > $1/docs/rv32-size.md
}
fixture $tmp/good 7,000; fixture $tmp/stale 7,010
out=$(python3 "$chk" --root $tmp/good --size $tmp/fw.size 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^PASS')" -eq 5 ]; then
  echo "PASS: docs-figures/self-right-figures-pass"
else echo "FAIL: docs-figures/self-right-figures-pass: exit $rc: $(printf '%s' "$out" | tr '\n' '|' | head -c 400)"; fi
out=$(python3 "$chk" --root $tmp/stale --size $tmp/fw.size 2>&1); rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'FAIL: docs-figures/readme-rv32-image-bytes: README.md quotes "The RV32 image is 7,010 bytes' &&
   printf '%s' "$out" | grep -q 'FAIL: docs-figures/rv32-size-headroom'; then
  echo "PASS: docs-figures/self-stale-figure-fails"
else echo "FAIL: docs-figures/self-stale-figure-fails: exit $rc: $(printf '%s' "$out" | tr '\n' '|' | head -c 400)"; fi
rm $tmp/good/docs/rv32-size.md; : > $tmp/good/docs/rv32-size.md
out=$(python3 "$chk" --root $tmp/good --size $tmp/fw.size 2>&1); rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'rv32-size-headroom: docs/rv32-size.md: the sentence'; then
  echo "PASS: docs-figures/self-missing-sentence-fails"
else echo "FAIL: docs-figures/self-missing-sentence-fails: exit $rc: $(printf '%s' "$out" | tr '\n' '|' | head -c 400)"; fi

# The real tree against the built image.
python3 "$chk" --root "$top" --size "$size"

# The image's native code calls no memset, memcpy or multiply routine (scripts/check-libcalls.sh:
# what the byte-trick helpers keep out). First on objects that make such calls, built here.
lc=$top/scripts/check-libcalls.sh
CC=${CC:-riscv64-unknown-elf-gcc}
printf '%s\n' 'void *memset(void *, int, unsigned int);' 'void z(char *p) { memset(p, 0, 64); }' \
  'unsigned m(unsigned a, unsigned b) { return a * b; }' > $tmp/calls.c
printf '%s\n' 'unsigned s(unsigned a, unsigned b) { return a + b; }' > $tmp/none.c
if ! $CC -march=rv32i -mabi=ilp32 -Os -ffreestanding -c $tmp/calls.c -o $tmp/calls.o 2>$tmp/cc.err ||
   ! $CC -march=rv32i -mabi=ilp32 -Os -ffreestanding -c $tmp/none.c -o $tmp/none.o 2>>$tmp/cc.err; then
  echo "FAIL: docs-figures/libcalls-self: the fixtures do not build: $(head -c 300 $tmp/cc.err | tr '\n' '|')"
else
  out=$("$lc" $tmp/calls.o 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -q memset <<< "$out" && grep -q __mulsi3 <<< "$out"; then
    echo "PASS: docs-figures/libcalls-self-calls-fail"
  else echo "FAIL: docs-figures/libcalls-self-calls-fail: exit $rc: $(tr '\n' '|' <<< "$out" | head -c 300)"; fi
  out=$("$lc" $tmp/none.o 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "PASS: docs-figures/libcalls-self-none-passes"
  else echo "FAIL: docs-figures/libcalls-self-none-passes: exit $rc: $(tr '\n' '|' <<< "$out" | head -c 300)"; fi
fi
elf=$(dirname "$size")/fw.elf
out=$("$lc" "$elf" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "PASS: docs-figures/rv32-image-no-libcalls"
else echo "FAIL: docs-figures/rv32-image-no-libcalls: exit $rc: $(tr '\n' '|' <<< "$out" | head -c 300)"; fi
