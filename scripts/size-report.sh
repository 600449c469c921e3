#!/usr/bin/env bash
# size-report.sh — picolibc and newlib-nano side by side (docs/libc.md): for each
# image, the instruction window and scratchpad use (from the image's __kx_* symbols, as
# scripts/check-image.sh reads them) and the bytes the C library put in it (input sections from
# libc.a, plus the firmware's newlib system calls, from the link map).
# Usage: size-report.sh PICOLIBC_OUT NEWLIB_OUT IMAGE...   (IMAGE relative to both, e.g. qemu-rv32/fw.elf)
set -euo pipefail
pico=$1 nano=$2; shift 2
NM=${NM:-riscv64-unknown-elf-nm}

# sizes ELF: "text spad" (bytes), as check-image.sh computes them.
sizes() {
  local -A S
  while read -r addr _ name; do S[$name]=$((16#$addr)); done < <($NM "$1" | grep ' __kx_')
  echo "$(( S[__kx_text_end] - S[__kx_imem_base] )) $(( S[__kx_noinit_end] - S[__kx_spad_base] + S[__kx_stack_bytes] ))"
}
# libc MAP: "code data" bytes of allocated input sections from libc.a (and newlib_syscalls.c.o),
# from the map's memory-map part (discarded sections are listed before it and not counted).
libc_bytes() {
  awk '
    function hex(s,   i, v) { v = 0; s = tolower(substr(s, 3))
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v }
    /^Linker script and memory map/ { on = 1; next }
    !on { next }
    /^\.[A-Za-z_]/ { out = $1; if (NF == 1) next }
    /^ [^ ]/ && NF == 1 { pend = 1; next }            # input section name alone; numbers follow
    {
      size = ""; file = ""
      if ($1 ~ /^\./ && $2 ~ /^0x/ && $3 ~ /^0x/ && NF >= 4) { size = $3; file = $4 }
      else if (pend && $1 ~ /^0x/ && $2 ~ /^0x/ && NF >= 3) { size = $2; file = $3 }
      pend = 0
      if (file == "" || out ~ /^\.(debug|comment|riscv|stack)/) next
      if (file !~ /libc\.a\(|newlib_syscalls\.c\.o/) next
      if (out ~ /^\.text/) code += hex(size); else data += hex(size)
    }
    END { printf "%d %d\n", code, data }' "$1"
}
delta() { local d=$(( $2 - $1 )); if [ $d -gt 0 ]; then echo "+$d"; else echo "$d"; fi; }

echo "C library size comparison: picolibc 1.8 (Debian) vs newlib-nano 3.3.0 (scripts/build-newlib.sh)"
echo "text = instruction window used; spad = scratchpad used (boot block, rodata, data, bss,"
echo "noinit and stack); libc = code/data bytes from libc.a (newlib-nano: with its system calls)."
echo "Windows: RV32 8192 + 8192 bytes, RV64 32768 + 32768 bytes."
echo
printf '%-32s %19s   %19s   %19s   %19s\n' "" "text" "spad" "libc code" "libc data"
printf '%-32s' "image"
for _ in 1 2 3 4; do printf ' %6s %6s %5s  ' pico nano diff; done
echo
for img in "$@"; do
  for d in "$pico" "$nano"; do
    [ -f "$d/$img" ] || { echo "size-report: $d/$img missing" >&2; exit 1; }
  done
  read -r pt ps < <(sizes "$pico/$img"); read -r nt ns < <(sizes "$nano/$img")
  read -r pc pd < <(libc_bytes "$pico/${img%.elf}.map"); read -r nc nd < <(libc_bytes "$nano/${img%.elf}.map")
  printf '%-32s' "$img"
  printf ' %6d %6d %5s  ' "$pt" "$nt" "$(delta "$pt" "$nt")" "$ps" "$ns" "$(delta "$ps" "$ns")" \
    "$pc" "$nc" "$(delta "$pc" "$nc")" "$pd" "$nd" "$(delta "$pd" "$nd")"
  echo
done
