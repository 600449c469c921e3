# checks.sh — the checks the kactl end-to-end scripts share (e2e.sh, faults.sh, badinput.sh),
# sourced by them: each looks at the last kactl run ($OUT, its output; $RC, its status) and
# appends a reason to $why when it does not hold. The sourcing script defines k (run kactl).
want_rc() { [ "$RC" -eq "$1" ] || why="$why [kactl ${*:2}] exit $RC want $1: $(tail -n2 <<< "$OUT" | tr '\n' '|');"; }
want_out() { grep -qE -- "$1" <<< "$OUT" || why="$why output lacks /$1/: $(head -c 300 <<< "$OUT" | tr '\n' '|');"; }
no_out() { grep -qE -- "$1" <<< "$OUT" && why="$why output has /$1/;"; }
# The node still serves: one NOP completes OK.
still_serves() { k nop; [ "$RC" -eq 0 ] && grep -q 'nop: 1 completed, 0 not OK' <<< "$OUT" || why="$why NOP afterwards: $(tr '\n' '|' <<< "$OUT");"; }
# While a board's image does not serve the command queue (BOARD_SERVICE_QUEUE 0 in its board
# header, asked through scripts/board-serves-queue.sh: the RV32 image with the queue does not
# fit the 8 KB instruction window yet — docs/service.md "Size"), its boot ends in a clean stop instead of READY. A test that needed the queue then
# reports SKIP with that reason instead of FAIL. Any other boot failure, and every test that did
# run, still counts. `skipped NAME` prints the SKIP line and succeeds in exactly that case.
noqueue=""
scripts/board-serves-queue.sh "$board" ||
  noqueue="the $board firmware does not serve the command queue yet: BOARD_SERVICE_QUEUE 0, the image with the queue exceeds the 8 KB window (docs/service.md Size)"
skipped() {
  [ -n "$noqueue" ] && [ -n "$dead" ] && grep -q 'exited with word 0x0' <<< "$dead" || return 1
  echo "SKIP: $1 ($noqueue)"
}
