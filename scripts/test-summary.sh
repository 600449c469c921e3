#!/usr/bin/env bash
# Counts the PASS/FAIL/HANG lines every test suite wrote and prints the closing line.
# A suite whose log is missing (it did not build or did not start) counts as one failure.
# Usage: test-summary.sh LOGDIR SUITE...
set -u
dir=$1; shift
passed=0; failed=0
for s in "$@"; do
  log="$dir/$s.log"
  if [ ! -s "$log" ]; then
    echo "FAIL: suite $s produced no results (build or start failure)"
    failed=$((failed + 1)); continue
  fi
  p=$(grep -c '^PASS: ' "$log"); f=$(grep -c -E '^(FAIL|HANG): ' "$log")
  grep -E '^(FAIL|HANG): ' "$log" | sed "s/^/[$s] /"
  passed=$((passed + p)); failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
