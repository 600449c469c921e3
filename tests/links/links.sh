# links.sh — sourced by tests/e2e/e2e.sh (after scripts/qemu-hostport.sh and checks.sh): puts a
# link between kactl and the QEMU node of hp_start, and the link tests every link gets.
#   link_start LINK WORKDIR   qemu: the host port's socket; jtag: tclsh runs host/kohaku-jtag.tcl
#                             over tests/links/vivado-standin.tcl, forwarding to QEMU; xdma:
#                             LD_PRELOAD of the xdma_shim.so stand-in for /dev/xdma0_*.
#                             Sets LINK (a kactl --link spec), LINK_WHY on failure.
#   link_stop
#   link_absent_tests         no node behind the link: exit 3 and the link's own message
#   bounded_wait_tests        issue 13 item 5: a frozen QEMU, a silent far end, a second client
# A jtag run needs QEMU's host port on TCP (Tcl has no Unix sockets): HP_TCP=1 before hp_start.

KJS_PID=""
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The stand-in server: KJS_* hazards from the caller's environment. Waits for its banner.
jtag_standin() { # WORKDIR [server options] -> KJS_PID, KJS_PORT
  local w=$1; shift
  mkdir -p "$w"
  KJS_PORT=$(free_port)
  KJS_QEMU_PORT=$HP_PORT tclsh tests/links/jtag-standin.tcl "$KJS_PORT" "$@" > "$w/standin.log" 2>&1 &
  KJS_PID=$!
  local i
  for i in $(seq 1 200); do
    grep -q '^kohaku-jtag: serving' "$w/standin.log" 2>/dev/null && return 0
    kill -0 "$KJS_PID" 2>/dev/null || { LINK_WHY="stand-in exited: $(head -c 300 "$w/standin.log")"; return 1; }
    sleep 0.05
  done
  LINK_WHY="stand-in silent for 10 s"
  return 1
}
jtag_standin_stop() {
  [ -n "$KJS_PID" ] || return 0
  kill -CONT "$KJS_PID" 2>/dev/null; kill -TERM "$KJS_PID" 2>/dev/null; wait "$KJS_PID" 2>/dev/null
  KJS_PID=""
}

link_start() { # LINK WORKDIR
  LINK_WHY=""
  case $1 in
    qemu) LINK=qemu:$HP_SOCK ;;
    jtag) jtag_standin "$2" || return 1; LINK=jtag:127.0.0.1:$KJS_PORT ;;
    xdma) export LD_PRELOAD=$out/tests/links/xdma_shim.so KHX_DEV=/dev/xdma0 KHX_SOCKET=$HP_SOCK
          LINK=xdma:/dev/xdma0 ;;
    *) LINK_WHY="unknown link $1"; return 1 ;;
  esac
}
link_stop() { jtag_standin_stop; }

# kactl with a bounded wall-clock guard: a hang is exit 124, never a stuck suite.
kt() { OUT=$(timeout 60 "$kactl" "$@" 2>&1); RC=$?; echo "\$ kactl $* -> $RC" >> "$work/transcript.txt"; echo "$OUT" >> "$work/transcript.txt"; }

link_absent_tests() {
  begin link_unknown_scheme
  kt --link "serial:/dev/ttyS0" status
  want_rc 2 status
  want_out "unknown link .serial:/dev/ttyS0.: use qemu:PATH, jtag:HOST:PORT or xdma:/dev/xdmaN"
  end
  case $link in
    jtag)
      begin jtag_no_server
      local p; p=$(free_port)
      kt --link "jtag:127.0.0.1:$p" status
      want_rc 3 status
      want_out "no JTAG server at 127.0.0.1:$p \(Connection refused\): in Vivado's hardware manager"
      end
      begin jtag_bad_spec
      kt --link "jtag:127.0.0.1" status
      want_rc 2 status
      want_out "want jtag:HOST:PORT"
      end ;;
    xdma)
      begin xdma_no_device
      OUT=$(LD_PRELOAD= timeout 60 "$kactl" --link xdma:/dev/xdma-kohaku-none status 2>&1); RC=$?
      want_rc 3 status
      want_out "no XDMA device: cannot open /dev/xdma-kohaku-none_user \(No such file or directory\)"
      end ;;
  esac
}

SILENT_PID=""
# A far end that accepts and never answers: a Unix socket (qemu, xdma) or a TCP port (jtag).
silent_start() { # unix|tcp -> SILENT_ADDR
  local kind=$1 f=$work/silent.addr
  rm -f "$f"
  python3 - "$kind" "$work/silent.sock" "$f" <<'PY' &
import os, socket, sys, time
kind, path, out = sys.argv[1:4]
if kind == "unix":
    if os.path.exists(path): os.unlink(path)
    s = socket.socket(socket.AF_UNIX); s.bind(path); addr = path
else:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); addr = "127.0.0.1:%d" % s.getsockname()[1]
s.listen(4)
open(out + ".tmp", "w").write(addr); os.rename(out + ".tmp", out)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)     # accepted, never read, never answered
PY
  SILENT_PID=$!
  local i
  for i in $(seq 1 100); do [ -s "$f" ] && break; sleep 0.05; done
  SILENT_ADDR=$(cat "$f")
}
silent_stop() { [ -n "$SILENT_PID" ] && kill "$SILENT_PID" 2>/dev/null; wait "$SILENT_PID" 2>/dev/null; SILENT_PID=""; }

# A client that connects first and holds the connection (the second-client test's first one).
HOLD_PID=""
hold_start() { # unix PATH | tcp PORT
  python3 - "$1" "$2" "$work/hold.ok" <<'PY' &
import socket, sys, time
kind, addr, ok = sys.argv[1:4]
if kind == "unix":
    s = socket.socket(socket.AF_UNIX); s.connect(addr)
else:
    s = socket.socket(); s.connect(("127.0.0.1", int(addr)))
open(ok, "w").write("1")
time.sleep(120)
PY
  HOLD_PID=$!
  local i
  for i in $(seq 1 100); do [ -s "$work/hold.ok" ] && break; sleep 0.05; done
  sleep 0.3       # the far end has accepted it (QEMU) or registered it (the jtag server)
}
hold_stop() { [ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null; wait "$HOLD_PID" 2>/dev/null; HOLD_PID=""; rm -f "$work/hold.ok"; }

bounded_wait_tests() {
  # A frozen QEMU (kill -STOP): the connection's first round trip is bounded by --timeout-ms.
  begin frozen_node_times_out
  kill -STOP "$HP_PID"
  kt --timeout-ms 1000 status
  kill -CONT "$HP_PID"
  want_rc 3 status
  want_out "no reply within 1000 ms"
  sleep 0.5
  still_serves
  end

  # Frozen in the middle of a command stream: the round trip in flight ends the run.
  begin frozen_mid_command_times_out
  OUT=$( { timeout 60 "$kactl" --timeout-ms 1000 nop --count 1000000 2>&1 & p=$!; sleep 1; kill -STOP "$HP_PID"; wait $p; echo "rc=$?"; } )
  kill -CONT "$HP_PID"
  RC=$(sed -n 's/^rc=//p' <<< "$OUT")
  want_rc 3 nop
  want_out "no reply within 1000 ms"
  sleep 0.5
  # The NOPs it left in the ring complete unread: a fresh boot gives the next tests a clean queue.
  k boot "$fw" --units "$work/units.txt"
  want_rc 0 boot
  still_serves
  end

  # A far end that accepts and never answers.
  begin silent_far_end_times_out
  case $link in
    qemu) silent_start unix; kt --link "qemu:$SILENT_ADDR" --timeout-ms 1000 status ;;
    jtag) silent_start tcp; kt --link "jtag:$SILENT_ADDR" --timeout-ms 1000 status ;;
    xdma) silent_start unix; OUT=$(KHX_SOCKET=$SILENT_ADDR timeout 60 "$kactl" --timeout-ms 1000 status 2>&1); RC=$? ;;
  esac
  silent_stop
  want_rc 3 status
  want_out "no reply within 1000 ms"
  end

  # A second client: QEMU's host port serves one at a time; the jtag server says BUSY.
  begin second_client_announced
  case $link in
    jtag) hold_start tcp "$KJS_PORT" ;;
    *) hold_start unix "$HP_SOCK" ;;
  esac
  kt --timeout-ms 1000 status
  hold_stop
  want_rc 3 status
  case $link in
    qemu) want_out "no reply within 1000 ms to HELLO: .*another client holds its host port" ;;
    jtag) want_out "the server refused the connection: this server is serving 127.0.0.1:[0-9]+; it takes one client at a time" ;;
    xdma) want_out "no reply within 1000 ms" ;;
  esac
  sleep 0.3
  still_serves
  end
}
