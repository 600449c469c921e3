#!/usr/bin/env bash
# table.sh — the figures of `make bench` as one Markdown table, both boards side by side, with
# the bench budgets (docs/bench.md; the README's table is this output).
# Usage: bench/table.sh RESULTS
set -u
awk '
  BEGIN {
    n = split("boot_insns enum_cycles dispatch_insns_per_flit dispatch_cycles_per_flit " \
              "dispatch_insns_per_flit_marginal unit_feed_pct dispatch_multi_cycles_per_flit unit_feed6_pct " \
              "replay_insns_per_write " \
              "replay_validate_insns_per_write move_cycles record_replay_insns_per_write " \
              "record_run_overhead_insns cmd_overhead_insns dispatch_cmd_fixed_cycles " \
              "units_cmd_cycles host_vs_fw_ratio " \
              "host_driven_ns fw_driven_ns serves_queue imem_bytes spad_bytes " \
              "link_jtag_boot_round_trips link_jtag_boot_bytes link_jtag_replay1000_round_trips " \
              "link_jtag_replay1000_bytes link_jtag_kactl_replay1000_round_trips " \
              "link_xdma_boot_round_trips link_xdma_replay1000_round_trips " \
              "link_qemu_boot_round_trips link_qemu_replay1000_round_trips", order, " ")
    b["dispatch_insns_per_flit"] = "<= 24 / <= 12"; b["unit_feed_pct"] = ">= 90 / >= 95"
    b["replay_insns_per_write"] = "<= 12 / <= 8"; b["boot_insns"] = "<= 1400 / <= 1200"
    b["enum_cycles"] = "<= 60000 / <= 25000"
    b["dispatch_multi_cycles_per_flit"] = "<= 26 / <= 14"; b["unit_feed6_pct"] = ">= 80 / >= 90"
    b["dispatch_cmd_fixed_cycles"] = "<= 2000 / <= 1000"
    b["host_vs_fw_ratio"] = ">= 20 / >= 20"; b["imem_bytes"] = "<= 7680 / <= 24576"
    b["record_replay_insns_per_write"] = "<= 12 / <= 10"; b["record_run_overhead_insns"] = "<= 2500 / <= 1500"
    b["spad_bytes"] = "<= 8192 / <= 32768"; b["serves_queue"] = "1 / 1"
    b["link_jtag_boot_round_trips"] = "<= 64 / -"; b["link_jtag_replay1000_round_trips"] = "<= 8 / <= 8"
  }
  $1 == "bench" { v[$2, $3] = $4; u[$3] = $5 }
  END {
    print "| figure | unit | qemu-rv32 | qemu-rv64 | budget (rv32 / rv64) |"
    print "|---|---|---:|---:|---|"
    for (i = 1; i <= n; i++) {
      f = order[i]
      r32 = ((("qemu-rv32", f) in v) ? v["qemu-rv32", f] : "-")
      r64 = ((("qemu-rv64", f) in v) ? v["qemu-rv64", f] : "-")
      printf "| %s | %s | %s | %s | %s |\n", f, u[f], r32, r64, (f in b ? b[f] : "")
    }
  }' "$1"
