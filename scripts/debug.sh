#!/usr/bin/env bash
# debug.sh — `make debug`: QEMU with a host port and its gdb stub on 127.0.0.1 only, the firmware
# booted through kactl (so it has a queue and serves commands), and a gdb command file that
# attaches and stops the core at a breakpoint the user names (README "Debug with gdb",
# docs/host.md "Debugging command code"). Runs until Ctrl-C (or SIGTERM), then stops QEMU.
# Usage: scripts/debug.sh BOARD OUTDIR [BREAK]    BREAK: a symbol, default kdp_run (dispatch)
# Environment: KOHAKU_GDB_PORT (default 1234). Writes OUTDIR/debug/BOARD/{gdbinit,env}.
set -u
board=$1 out=$2 brk=${3:-kdp_run}
port=${KOHAKU_GDB_PORT:-1234}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl fw=$out/$board/fw.elf work=$out/debug/$board
rm -rf "$work" && mkdir -p "$work"
riscv64-unknown-elf-nm "$fw" 2>/dev/null | grep -qE " [TtWw] $brk$" ||
  { echo "debug: $fw has no function $brk to break on (RV32 cold functions run interpreted: break on their native stub; docs/kvm.md)" >&2; exit 2; }
# -gdb on 127.0.0.1: the stub lets anyone who reaches it read and write the node, so it is not
# offered to the network (QEMU's -s listens on every interface).
HP_QEMU_EXTRA="-gdb tcp:127.0.0.1:$port" hp_start "$board" "$out" "$work" || exit 1
trap 'hp_stop; exit 0' INT TERM
trap 'hp_stop' EXIT
KACTL_SOCKET=$HP_SOCK "$kactl" boot "$fw" || { echo "debug: boot failed; QEMU log: $(head -c 300 "$HP_LOG")" >&2; exit 1; }
cat > "$work/gdbinit" <<GDB
target remote 127.0.0.1:$port
break $brk
GDB
printf 'KACTL_SOCKET=%s\nQEMU_PID=%s\nGDB_PORT=%s\n' "$HP_SOCK" "$HP_PID" "$port" > "$work/env"
cat <<TXT

kohaku: $board booted and serving commands (QEMU pid $HP_PID); gdb stub on 127.0.0.1:$port.
In a second terminal, gdb (it stops the core, sets the breakpoint; then continue):
  gdb-multiarch $fw -x $work/gdbinit -ex continue
In a third, a command that reaches $brk (kdp_run: a dispatch; kmv_replay_validated: a replay);
while gdb holds the core the node's clock stands still but kactl's does not, so give it time:
  KACTL_SOCKET=$HP_SOCK $kactl --timeout-ms 3600000 dispatch host/demo/softmax.prog --target 1,1
Ctrl-C here stops QEMU.
TXT
wait "$HP_PID"
