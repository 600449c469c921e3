# qemu-hostport.sh — sourced by scripts/run-demo.sh and tests/e2e/e2e.sh: starts our QEMU machine
# with a host port on a Unix socket (QEMU run contract: -M kohaku-sysnode,hostport=..., core
# HELD until the host releases it, QEMU staying up when the core stops) and stops it again.
#   hp_start BOARD OUTDIR WORKDIR [EXTRA_MACHINE_PROPS]   sets HP_PID, HP_SOCK, HP_LOG
#     with HP_TCP=1 the host port listens on 127.0.0.1:HP_PORT instead (HP_SOCK empty): the
#     jtag link's stand-in is Tcl, which has no Unix sockets (tests/links/links.sh)
#   hp_stop                                               SIGTERM, then SIGKILL after 5 s

hp_start() {
  local board=$1 out=$2 work=$3 extra=${4:-}
  local qemu cpu
  case $board in
    qemu-rv32|sysnode-rv32) qemu=$out/qemu/bin/qemu-system-riscv32 cpu=rv32,c=false ;;
    qemu-rv64|sysnode-rv64) qemu=$out/qemu/bin/qemu-system-riscv64 cpu=rv64,c=false ;;
    *) echo "hp_start: unknown board $board" >&2; return 2 ;;
  esac
  [ -x "$qemu" ] || { echo "hp_start: $qemu missing (make qemu)" >&2; return 2; }
  mkdir -p "$work"
  # A Unix socket path must stay under 108 bytes whatever OUTDIR is: use /tmp.
  HP_SOCK=$(mktemp -u /tmp/kohaku-hp.XXXXXXXX).sock
  HP_LOG=$work/qemu.log
  rm -f "$HP_SOCK"
  local chardev="socket,id=hp,path=$HP_SOCK,server=on,wait=off"
  HP_PORT=""
  if [ "${HP_TCP:-0}" = 1 ]; then
    HP_SOCK=""
    HP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    chardev="socket,id=hp,host=127.0.0.1,port=$HP_PORT,server=on,wait=off"
  fi
  local props="kohaku-sysnode,hostport=hp"
  [ -n "$extra" ] && props="$props,$extra"
  # No -kernel: kactl flashes the image through the load paths, as it would on silicon.
  "$qemu" -M "$props" -cpu "$cpu" -bios none -display none -monitor none -serial none \
    -nodefaults -icount shift=0,align=off,sleep=off \
    -chardev "$chardev" > "$work/console.txt" 2> "$HP_LOG" < /dev/null &
  HP_PID=$!
  local i
  for i in $(seq 1 200); do
    # The path appears at QEMU's bind(), but a connect succeeds only after its listen(): a
    # client that came in between was refused (seen under load in e2e-faults-qemu-rv64 run 2).
    # So wait for one connection to be accepted; QEMU takes the next client after it closes.
    if [ -n "$HP_PORT" ]; then
      python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])))' \
        "$HP_PORT" 2>/dev/null && return 0
    else
      [ -S "$HP_SOCK" ] && python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])' \
        "$HP_SOCK" 2>/dev/null && return 0
    fi
    kill -0 "$HP_PID" 2>/dev/null || { echo "hp_start: QEMU exited: $(head -c 400 "$HP_LOG")" >&2; return 1; }
    sleep 0.05
  done
  echo "hp_start: no host port socket after 10 s" >&2
  hp_stop
  return 1
}

hp_stop() {
  [ -n "${HP_PID:-}" ] || return 0
  if kill -0 "$HP_PID" 2>/dev/null; then
    kill -TERM "$HP_PID" 2>/dev/null
    local i
    for i in $(seq 1 100); do
      kill -0 "$HP_PID" 2>/dev/null || break
      sleep 0.05
    done
    kill -0 "$HP_PID" 2>/dev/null && kill -KILL "$HP_PID" 2>/dev/null
  fi
  wait "$HP_PID" 2>/dev/null
  HP_PID=
  [ -n "$HP_SOCK" ] && rm -f "$HP_SOCK"
}
