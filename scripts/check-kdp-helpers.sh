#!/usr/bin/env bash
# check-kdp-helpers.sh — the dispatch helpers the host tests check are the code the firmware
# runs (docs/dispatch.md "Files"). Usage: check-kdp-helpers.sh [ROOT]
#
# The tested helpers are the kdp_* functions tests/host/dispatch/test_kdp_flit.c calls. Each must
#   1. be defined exactly once under dispatch/ (no second copy of its logic under another name
#      is caught by rule 3);
#   2. be called by the running code (every dispatch/*.c), or be a
#      test/bench builder, listed on kdp_flit.h's "kdp-builders:" line, a static inline there
#      whose body calls a helper the running code calls;
# and
#   3. the raw forms those helpers wrap appear in no running .c file: the reply mask and
#      op/index word, the CU_CTRL word-3 fields, the top-up credit constant, kf_hdr().
#   4. the unit-table rules are one function, kx_units_check (include/kohaku/unit_rules.h), called
#      by boot/bootblock.c and dispatch/units.c, neither testing inst_depth itself.
# One "ok"/"VIOLATION" line per finding; exit 1 on any violation.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
d=$root/dispatch
test_c=$root/tests/host/dispatch/test_kdp_flit.c
run_c=$(ls "$d"/*.c)
bad=0
viol() { echo "VIOLATION: $*"; bad=1; }

for f in $test_c $run_c $d/kdp_flit.h; do
  [ -f "$f" ] || { viol "missing $f"; exit 1; }
done

# Definition lines of NAME: a line starting a declaration of NAME( that does not end in ';'.
defs() { grep -nE "^[a-z][a-z0-9_ ]*[ *]$1\(" $d/*.c $d/*.h 2>/dev/null | grep -vE ';[[:space:]]*$'; }
# Calls of NAME in the running files, definitions left out.
calls() { grep -nwE "$1" $run_c | grep -E "$1[[:space:]]*\(" | grep -vE "^[^:]*:[0-9]+:[a-z][a-z0-9_ ]*[ *]$1\("; }

tested=$(grep -oE '\bkdp_[a-z0-9_]+\(' "$test_c" | tr -d '(' | sort -u)
[ -n "$tested" ] || viol "no kdp_* helper called in $test_c"
used=""
for h in $tested; do
  n=$(defs "$h" | wc -l)
  if [ "$n" -ne 1 ]; then
    viol "$h is defined $n times under dispatch/: $(defs "$h" | sed "s|$root/||" | tr '\n' ' ')"
  fi
  if [ -n "$(calls "$h")" ]; then used="$used $h"; fi
done
for h in $tested; do
  case " $used " in *" $h "*) echo "ok: $h is called by the running code"; continue;; esac
  # A builder: listed, static inline in kdp_flit.h, its body calling a helper the running code
  # calls.
  if ! grep -E '^/\* kdp-builders:' "$d/kdp_flit.h" | grep -qw "$h"; then
    viol "$h is tested but the running code (dispatch/*.c) never calls it"
    continue
  fi
  body=$(awk -v n="$h" '$0 ~ "^static inline .*[ *]" n "\\(" { on = 1 } on { print } on && /^}/ { exit }' "$d/kdp_flit.h")
  via=""
  for u in $used; do
    if printf '%s\n' "$body" | grep -qE "\b$u[[:space:]]*\("; then via=$u; break; fi
  done
  if [ -n "$body" ] && [ -n "$via" ]; then
    echo "ok: $h is a builder over $via"
  else
    viol "$h is tested but the running code (dispatch/*.c) never calls it"
  fi
done

# Rule 3: the helpers' raw forms outside kdp_flit.h, in code (comments left out: a comment
# line, or the rest of a line from its comment on). A _Static_assert line may name them.
code() { awk '{ l = $0; sub(/\/\*.*/, "", l) } l ~ /^[[:space:]]*\*/ { next } { print FILENAME ":" FNR ":" l }' $run_c; }
for tok in KDP_REPLY_MASK KDP_REPLY_OP_INDEX KF_W3_CTRL_OP KF_W3_CTRL_INDEX KDP_TOPUP_CREDIT 'kf_hdr\('; do
  hits=$(code | grep -E "$tok" | grep -v '_Static_assert')
  if [ -n "$hits" ]; then
    viol "$tok outside dispatch/kdp_flit.h (a copy of a helper's logic): $(printf '%s\n' "$hits" | sed "s|$root/||" | tr '\n' ' ')"
  fi
done

# Rule 4: one set of unit-table rules.
for f in "$root/boot/bootblock.c" "$d/units.c"; do
  if [ ! -f "$f" ]; then viol "missing $f"; continue; fi
  grep -qE '\bkx_units_check[[:space:]]*\(' "$f" || viol "${f#$root/} does not call kx_units_check"
  if grep -qE 'inst_depth' "$f"; then
    viol "${f#$root/} tests inst_depth itself (a second copy of the unit-table rules)"
  fi
done

[ $bad -eq 0 ] && echo "ok: every tested dispatch helper is the running code"
exit $bad
