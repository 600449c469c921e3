#!/usr/bin/env bash
# check-refs.sh — nothing in the tree points outside it (docs/design.md §6 "Comments and names"):
# no path into ../shared or ../seeds, no citation of the out-of-tree design notes (BOARD.md,
# MODEL.md, SYSTEM.md, STYLE.md, TESTING.md, QEMU.md) or of the upstream seed documents by
# name, no absolute path of a build machine. The hardware facts those held are in
# docs/hardware.md, the design rules in docs/design.md. With --docs it also refuses "issue N"
# citations anywhere in the tree, docs and source comments alike (the tracker they name is not
# part of the tree); tests/tree/ is exempt, its fixtures hold such citations on purpose.
# Usage: check-refs.sh [--docs] [ROOT]   (ROOT defaults to the tree this script is in)
# Prints one line per offending line and exits 1 when there is any.
set -u
docs=0
if [ "${1:-}" = --docs ]; then docs=1; shift; fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "check-refs: no tree at $root"; exit 2; }

# Pointers out of the tree. Case-sensitive on purpose: docs/qemu.md is ours, QEMU.md is not.
# "seeds/" only where it is not a fuzz corpus folder of ours (fuzz/<name>/seeds).
out_re='\.\./shared|shared/design|\.\./seeds|(^|[^a-z/])seeds/|\bBOARD\.md|\bMODEL\.md|\bSYSTEM\.md|\bSTYLE\.md|\bTESTING\.md|\bQEMU\.md|flit-format|instruction-encoding\.md|npu-instruction-encoding|sysnode-instruction-space|/work/'

# Known exceptions, each with its reason. A QEMU patch's bytes are the key of the shared QEMU
# source tree (scripts/build-qemu.sh base_key): editing its description alone would rebuild
# QEMU from scratch for everyone, so their citations are fixed with the next real change to them.
exempt='^qemu/patches/0001-kohaku-sysnode-build-glue\.patch:1:|^qemu/patches/0002-riscv-strict-alignment-property\.patch:3:'

if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  list() { git -C "$root" ls-files -z; }
else
  list() { find . -path ./.git -prune -o -path ./build -prune -o -type f -print0 | sed -z 's#^\./##'; }
fi

bad=0
hits=$(list | grep -zv -e '^scripts/check-refs\.sh$' | xargs -0 grep -HnIE "$out_re" -- 2>/dev/null |
       grep -vE "$exempt")
if [ -n "$hits" ]; then
  printf '%s\n' "$hits" | sed 's/^/points outside the tree: /'
  bad=1
fi
if [ "$docs" = 1 ]; then
  ihits=$(list | grep -zvE '^(tests/tree/|scripts/check-refs\.sh$)' |
          xargs -0 grep -HnIiE '\bissues? [0-9]+' -- 2>/dev/null)
  if [ -n "$ihits" ]; then
    printf '%s\n' "$ihits" | sed 's/^/cites an out-of-tree issue: /'
    bad=1
  fi
fi
exit $bad
