#!/usr/bin/env bash
# board-serves-queue.sh BOARD — exit 0 when BOARD's firmware serves the command queue
# (BOARD_SERVICE_QUEUE 1 in its board header, board/common/*.h included), 1 when it does not.
# The preprocessor reads the headers, so the answer is the one the firmware build sees.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
v=$(printf '#include "board.h"\nBOARD_SERVICE_QUEUE\n' |
    cpp -P -I"$top/include" -I"$top/board/$1" - 2>/dev/null | tail -n1 | tr -d ' ')
[ "$v" = "1" ]
