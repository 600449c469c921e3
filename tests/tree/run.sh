#!/usr/bin/env bash
# run.sh — suite "tree": nothing in the tree points outside it, docs cite no out-of-tree
# issue, and includes point down (docs/design.md §3). Each checker is first shown failing on a
# small fixture tree built here (and passing on a clean one), then run on the real tree.
# Output: one PASS:/FAIL: line per check (scripts/test-summary.sh counts them).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
refs=$top/scripts/check-refs.sh
incs=$top/scripts/check-includes.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: tree/$1"; }
fail() { echo "FAIL: tree/$1: $2"; }
# expect NAME RC WANT-IN-OUTPUT -- CMD...: CMD exits RC and its output contains WANT (if any).
expect() {
  local name=$1 rc=$2 want=$3; shift 4
  local out got
  out=$("$@" 2>&1); got=$?
  if [ "$got" -ne "$rc" ]; then fail "$name" "exit $got, expected $rc: $(printf '%s' "$out" | head -c 400 | tr '\n' '|')"
  elif [ -n "$want" ] && ! printf '%s' "$out" | grep -qF -- "$want"; then fail "$name" "output lacks '$want': $(printf '%s' "$out" | head -c 400 | tr '\n' '|')"
  else pass "$name"; fi
}

# ---- check-refs.sh on fixtures (the forbidden names are assembled so this file has none) ----
sh=shared; bd=BOA; md=RD.md
mk() { mkdir -p "$(dirname "$1")"; printf '%s\n' "$2" > "$1"; }
f=$tmp/refs-clean; mk $f/docs/a.md "See hardware.md §1."; mk $f/fuzz/mover/seeds/x "fuzz/mover/seeds"
expect refs-self/clean-tree-passes 0 "" -- "$refs" --docs "$f"
f=$tmp/refs-shared; mk $f/docs/a.md "See ../$sh/design/x."
expect refs-self/shared-path-fails 1 "docs/a.md:1" -- "$refs" "$f"
f=$tmp/refs-board; mk $f/hal/x.c "/* the agent window ($bd$md §4) */"
expect refs-self/board-citation-fails 1 "hal/x.c:1" -- "$refs" "$f"
f=$tmp/refs-seed; mk $f/model/x.c "/* flit-for""mat.md §2 */"
expect refs-self/seed-citation-fails 1 "model/x.c:1" -- "$refs" "$f"
f=$tmp/refs-issue; mk $f/docs/a.md "As issue 12 asked."
expect refs-self/docs-issue-fails 1 "docs/a.md:1" -- "$refs" --docs "$f"
expect refs-self/issue-only-with-docs 0 "" -- "$refs" "$f"

# ---- check-includes.py on fixtures ----
good=$tmp/inc-good
mk $good/boot/boot.h '#include "board.h"'
mk $good/board/qemu-rv32/board.h '#include "kohaku/x.h"'
mk $good/include/kohaku/x.h '/* x */'
mk $good/hal/include/hal/hal.h '#include "boot.h"'
mk $good/dispatch/d.h '#include "hal/hal.h"'
mk $good/dispatch/pure.h '#include "kohaku/x.h"'
mk $good/service/s.c '#include "d.h"'
mk $good/host/h.c '#include "pure.h"'
mk $good/model/m.c '#include "kohaku/x.h"'
expect includes-self/clean-layers-pass 0 "" -- python3 "$incs" "$good"
b=$tmp/inc-up; cp -r $good $b; mk $b/boot/start.c '#include "hal/hal.h"'
expect includes-self/up-fails 1 "boot/start.c:1 includes hal/include/hal/hal.h (boot -> hal: up)" -- python3 "$incs" "$b"
b=$tmp/inc-cycle; cp -r $good $b; printf '%s\n' '#include "board.h"' '#include "hal/hal.h"' > $b/boot/boot.h
expect includes-self/cycle-fails 1 "VIOLATION: include cycle boot/boot.h -> hal/include/hal/hal.h" -- python3 "$incs" "$b"
b=$tmp/inc-side; cp -r $good $b; mk $b/mover/m.c '#include "d.h"'
expect includes-self/sideways-fails 1 "(mover -> dispatch: sideways)" -- python3 "$incs" "$b"
b=$tmp/inc-board; cp -r $good $b; mk $b/service/t.c '#include "board.h"'
expect includes-self/board-above-hal-fails 1 "board headers are for hal and boot" -- python3 "$incs" "$b"
b=$tmp/inc-model; cp -r $good $b; mk $b/model/n.c '#include "h.h"'; mk $b/host/h.h '/* h */'
expect includes-self/model-host-fails 1 "VIOLATION: model/n.c:1" -- python3 "$incs" "$b"
b=$tmp/inc-impure; cp -r $good $b; mk $b/host/i.c '#include "d.h"'
expect includes-self/host-impure-fails 1 "not pure logic" -- python3 "$incs" "$b"
printf '%s\n' "boot/boot.h -> hal/include/hal/hal.h" > $tmp/known-edge
expect includes-self/known-edge-still-fails-its-cycle 1 "VIOLATION: include cycle" -- python3 "$incs" --known $tmp/known-edge "$tmp/inc-cycle"
b=$tmp/inc-known; cp -r $good $b; mk $b/boot/start.c '#include "hal/hal.h"'
printf '%s\n' "boot/start.c -> hal/include/hal/hal.h" > $tmp/known-one
expect includes-self/known-passes 0 "KNOWN: boot/start.c:1" -- python3 "$incs" --known $tmp/known-one "$b"
printf '%s\n' "boot/start.c -> hal/include/hal/hal.h" > $tmp/known-stale
expect includes-self/stale-known-fails 1 "STALE: boot/start.c" -- python3 "$incs" --known $tmp/known-stale "$good"

# ---- check-calls.py on fixtures: calls between firmware .c files go one way ----
calls=$top/scripts/check-calls.py
g=$tmp/calls-good
mk $g/dispatch/a.c 'unsigned kdp_a(void)'; printf '%s\n' '{' '    return kdp_b();' '}' >> $g/dispatch/a.c
mk $g/dispatch/b.c 'unsigned kdp_b(void)'; printf '%s\n' '{' '    return 1; /* kdp_a( in a comment is no call */' '}' >> $g/dispatch/b.c
mk $g/hal/rv32/h.c 'void hal_x(void)'; printf '%s\n' '{' '    hal_y();' '}' >> $g/hal/rv32/h.c
mk $g/hal/rv64/h.c 'void hal_y(void)'; printf '%s\n' '{' '    hal_x();' '}' >> $g/hal/rv64/h.c
expect calls-self/one-way-passes 0 "" -- python3 "$calls" "$g"
b=$tmp/calls-pair; cp -r $g $b; printf '%s\n' 'unsigned kdp_b(void)' '{' '    return kdp_a();' '}' > $b/dispatch/b.c
expect calls-self/pair-fails 1 "VIOLATION: call cycle dispatch/a.c -> dispatch/b.c" -- python3 "$calls" "$b"
b=$tmp/calls-cold; cp -r $g $b; printf '%s\n' 'unsigned kdp_b(void)' '{' '    return HAL_COLD0(kdp_a);' '}' > $b/dispatch/b.c
expect calls-self/cold-call-counts 1 "VIOLATION: call cycle dispatch/a.c -> dispatch/b.c" -- python3 "$calls" "$b"
b=$tmp/calls-ring; cp -r $g $b; printf '%s\n' 'unsigned kdp_b(void)' '{' '    return kq_c();' '}' > $b/dispatch/b.c
mk $b/service/c.c 'unsigned kq_c(void)'; printf '%s\n' '{' '    return kdp_a();' '}' >> $b/service/c.c
expect calls-self/ring-fails 1 "VIOLATION: call cycle dispatch/a.c -> dispatch/b.c -> service/c.c" -- python3 "$calls" "$b"

# ---- check-kdp-helpers.sh on fixtures: copies of the real dispatch/ and its pure-logic test ----
kdp=$top/scripts/check-kdp-helpers.sh
kfix() { mkdir -p "$1/tests/host/dispatch" "$1/boot"; cp -r "$top/dispatch" "$1/"; cp "$top/tests/host/dispatch/test_kdp_flit.c" "$1/tests/host/dispatch/"; cp "$top/boot/bootblock.c" "$1/boot/"; }
f=$tmp/kdp-clean; kfix $f
expect kdp-helpers-self/copy-of-tree-passes 0 "" -- "$kdp" "$f"
f=$tmp/kdp-inline; kfix $f
sed -i 's/if (kdp_ctrl_reply_ok(h, w3, yx, index, txn))/if (((h ^ kdp_ctrl_hdr(0, yx, txn)) \& KDP_REPLY_MASK) == 0 \&\& kdp_ctrl_reply_op(w3, index))/' $f/dispatch/wait.c
expect kdp-helpers-self/reply-match-inlined-fails 1 "kdp_ctrl_reply_ok is tested but the running code" -- "$kdp" "$f"
f=$tmp/kdp-chunk; kfix $f
sed -i 's/kdp_plan_chunk(p->n, \([a-z0-9>.-]*\), rs)/(p->n - \1 < rs ? p->n - \1 : rs)/' $f/dispatch/dispatch.c
expect kdp-helpers-self/chunk-inlined-fails 1 "kdp_plan_chunk is tested but the running code" -- "$kdp" "$f"
f=$tmp/kdp-twice; kfix $f
printf '%s\n' '#include "kdp_flit.h"' 'uint32_t kdp_plan_chunk(uint32_t n, uint32_t c, uint32_t r)' '{' '    return n - c;' '}' > $f/dispatch/kdp_flit.c
expect kdp-helpers-self/second-definition-fails 1 "kdp_plan_chunk is defined 2 times" -- "$kdp" "$f"
f=$tmp/kdp-credit; kfix $f
sed -i 's/kdp_kick(c, pick, g->base + off, k.len, k.credit);/kdp_kick(c, pick, g->base + off, k.len, KDP_TOPUP_CREDIT);/' $f/dispatch/dispatch.c
expect kdp-helpers-self/raw-topup-credit-fails 1 "KDP_TOPUP_CREDIT outside dispatch/kdp_flit.h" -- "$kdp" "$f"
f=$tmp/kdp-units; kfix $f
sed -i 's/return kx_units_check(bb->units, n, BOARD_AGENT_YX, KX_BOOT_BAD_UNITS);/return bb->units[0].inst_depth == 0 ? KX_BOOT_BAD_UNITS : 0;/' $f/boot/bootblock.c
expect kdp-helpers-self/boot-own-unit-rules-fails 1 "boot/bootblock.c does not call kx_units_check" -- "$kdp" "$f"

# ---- the real tree ----
expect refs/nothing-points-outside 0 "" -- "$refs" --docs "$top"
expect kdp-helpers/tested-is-running 0 "" -- "$kdp" "$top"
expect includes/point-down 0 "" -- python3 "$incs" --known "$top/tests/tree/include-known.txt" "$top"
expect calls/one-way 0 "" -- python3 "$calls" "$top"
