# checks.sh — the checks the kactl end-to-end scripts share (e2e.sh, faults.sh, badinput.sh),
# sourced by them: each looks at the last kactl run ($OUT, its output; $RC, its status) and
# appends a reason to $why when it does not hold. The sourcing script defines k (run kactl).
want_rc() { [ "$RC" -eq "$1" ] || why="$why [kactl ${*:2}] exit $RC want $1: $(tail -n2 <<< "$OUT" | tr '\n' '|');"; }
want_out() { grep -qE -- "$1" <<< "$OUT" || why="$why output lacks /$1/: $(head -c 300 <<< "$OUT" | tr '\n' '|');"; }
no_out() { grep -qE -- "$1" <<< "$OUT" && why="$why output has /$1/;"; }
# The node still serves: one NOP completes OK.
still_serves() { k nop; [ "$RC" -eq 0 ] && grep -q 'nop: 1 completed, 0 not OK' <<< "$OUT" || why="$why NOP afterwards: $(tr '\n' '|' <<< "$OUT");"; }
