#!/usr/bin/env bash
# Counts the PASS/FAIL/HANG/SKIP lines every test suite wrote and prints the closing line.
# A suite whose log is missing (it did not build or did not start) counts as one failure.
# A SKIP line must carry its reason; skips are listed so they are never silent.
# Usage: test-summary.sh LOGDIR SUITE...
set -u
dir=$1; shift
passed=0; failed=0; skipped=0
for s in "$@"; do
  log="$dir/$s.log"
  if [ ! -s "$log" ]; then
    echo "FAIL: suite $s produced no results (build or start failure)"
    failed=$((failed + 1)); continue
  fi
  p=$(grep -c '^PASS: ' "$log"); f=$(grep -c -E '^(FAIL|HANG): ' "$log"); k=$(grep -c '^SKIP: ' "$log")
  grep -E '^(FAIL|HANG): ' "$log" | sed "s/^/[$s] /"
  [ "$k" -gt 0 ] && echo "[$s] $k skipped: $(grep -m1 '^SKIP: ' "$log" | sed 's/^SKIP: //')"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
done
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
