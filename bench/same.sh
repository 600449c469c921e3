#!/usr/bin/env bash
# same.sh — are two `bench.sh` outputs the same figures (bench-determinism, docs/bench.md)?
# Every line must match exactly, except the two figures timed by host-port requests with the
# core stopped (host_driven_ns and the ratio made from it): QEMU's icount moves the clock to
# the model's next event while the hart is stopped, and a host request arriving just before or
# just after such a step lands a few ns apart, so these two may differ by at most 0.1 %.
# Usage: bench/same.sh A B     exit 0 same; 1 different (the differences on stdout)
set -u
awk '
  NR == FNR { a[FNR] = $0; na = FNR; next }
  { b[FNR] = $0; nb = FNR }
  END {
    bad = 0
    if (na != nb) { print "line counts " na " and " nb; bad = 1 }
    for (i = 1; i <= na && i <= nb; i++) {
      if (a[i] == b[i]) continue
      split(a[i], x, " "); split(b[i], y, " ")
      if ((x[3] == "host_driven_ns" || x[3] == "host_vs_fw_ratio") && x[3] == y[3] && x[4] + 0 > 0 &&
          (x[4] - y[4]) / x[4] < 0.001 && (y[4] - x[4]) / x[4] < 0.001) continue
      print "< " a[i]; print "> " b[i]; bad = 1
    }
    exit bad
  }' "$1" "$2"
