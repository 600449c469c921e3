#!/usr/bin/env bash
# size-diff.sh — what a change costs the images (docs/rv32-size.md "Size per change"): builds
# qemu-rv32 and qemu-rv64 at BASE and at HEAD (default: the work tree as it is) and prints, per
# board, the window bytes, the RV32 cold segment and the static instruction count in the
# window, each with its delta, then every function whose size changed.
#   make size-diff BASE=main                  base main, head = the work tree (its O= build)
#   make size-diff BASE=HEAD~1 HEAD=HEAD       two revisions
# Revisions are exported with git archive into a temporary directory and built there (nothing
# in the repository or the work tree changes); the work tree is built in its own O=.
# Usage: size-diff.sh O BASE [HEAD]
set -euo pipefail
out=$1 base=$2 head=${3:-}
boards="qemu-rv32 qemu-rv64"
top=$(git rev-parse --show-toplevel)
OBJDUMP=${OBJDUMP:-riscv64-unknown-elf-objdump}
NM=${NM:-riscv64-unknown-elf-nm}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# build REV DIR: the boards' fw.elf for REV ("" = the work tree) under DIR/<board>/.
build() {
  local rev=$1 dir=$2 src
  if [ -z "$rev" ]; then
    local od; case $out in /*) od=$out ;; *) od=$top/$out ;; esac
    make -C "$top" --no-print-directory O="$od" $(for b in $boards; do echo "$od/$b/fw.elf"; done) >&2
    for b in $boards; do mkdir -p "$dir/$b"; cp "$od/$b/fw.elf" "$od/$b/fw.size" "$dir/$b/"; done
  else
    git -C "$top" rev-parse --verify -q "$rev^{commit}" > /dev/null ||
      { echo "size-diff: $rev is not a revision" >&2; exit 2; }
    src=$tmp/src-$(basename "$dir"); mkdir -p "$src"
    git -C "$top" archive "$rev" | tar -x -C "$src"
    make -C "$src" --no-print-directory O="$dir" $(for b in $boards; do echo "$dir/$b/fw.elf"; done) >&2
  fi
}

# fig ELF SIZE: "text cold insns" of one image.
fig() {
  local text cold insns
  text=$(awk '$1 == "text" { print $2 }' "$2")
  cold=$(awk '$1 == "cold" && $2 == "code" { print $4 }' "$2")
  insns=$("$OBJDUMP" -d -j .text "$1" | grep -cE '^ +[0-9a-f]+:	[0-9a-f]{8} ')
  echo "${text:-0} ${cold:-0} $insns"
}

# funcs ELF: "name size" of every function in the window and in the cold segment.
funcs() {
  "$NM" -S -t d "$1" | awk 'NF == 4 && ($3 == "T" || $3 == "t" || $4 ~ /^kvm_cold_/) {
      printf "%s %d\n", $4, $2 }' | sort
}

build "$base" "$tmp/base"
build "$head" "$tmp/head"

printf 'size-diff %s -> %s\n' "$base" "${head:-work tree}"
printf '%-10s %22s %22s %22s\n' board "window bytes" "cold bytes" "window insns"
for b in $boards; do
  read -r t0 c0 i0 < <(fig "$tmp/base/$b/fw.elf" "$tmp/base/$b/fw.size")
  read -r t1 c1 i1 < <(fig "$tmp/head/$b/fw.elf" "$tmp/head/$b/fw.size")
  printf '%-10s %22s %22s %22s\n' "$b" "$t0 -> $t1 ($(printf '%+d' $((t1 - t0))))" \
    "$c0 -> $c1 ($(printf '%+d' $((c1 - c0))))" "$i0 -> $i1 ($(printf '%+d' $((i1 - i0))))"
done
for b in $boards; do
  funcs "$tmp/base/$b/fw.elf" > "$tmp/f0"
  funcs "$tmp/head/$b/fw.elf" > "$tmp/f1"
  echo "$b functions whose size changed (bytes; - = absent):"
  join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/f0" "$tmp/f1" | awk '$2 != $3 {
      d = ($3 == "-" ? 0 : $3) - ($2 == "-" ? 0 : $2)
      printf "  %+6d  %-40s %s -> %s\n", d, $1, $2, $3 }' | sort -k1,1n
done
