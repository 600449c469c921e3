# links.sh — sourced by tests/e2e/e2e.sh (after scripts/qemu-hostport.sh and checks.sh): puts a
# link between kactl and the QEMU node of hp_start, and the link tests every link gets.
#   link_start LINK WORKDIR   qemu: the host port's socket; jtag: tclsh runs host/kohaku-jtag.tcl
#                             over tests/links/vivado-standin.tcl, forwarding to QEMU; xdma:
#                             LD_PRELOAD of the xdma_shim.so stand-in for /dev/xdma0_*.
#                             Sets LINK (a kactl --link spec), LINK_WHY on failure.
#   link_stop
#   link_absent_tests         no node behind the link: exit 3 and the link's own message
#   bounded_wait_tests        a frozen QEMU, a silent far end, a second client
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

# The link is the one in use: --stats names it and counts its round trips.
link_used_test() {
  begin link_in_use
  k --stats units
  want_rc 0 units
  want_out "^kactl: link ${LINK//./\\.}: [1-9][0-9]* round trips, [1-9][0-9]* accesses, [0-9]+ bytes out, [1-9][0-9]* bytes in$"
  end
}

# The hazards of the real links, each detected with a clear error and exit 3.
link_hazard_tests() {
  case $link in
    jtag)
      # Each hazard on a stand-in of its own: QEMU's host port serves one client at a time, so
      # the suite's stand-in goes first and comes back after.
      link_stop
      begin jtag_write_path_lag_detected
      if KJS_LAG=2 jtag_standin "$work/lag"; then
        kt --link "jtag:127.0.0.1:$KJS_PORT" status
        want_rc 3 status
        # checked at the last 128 bytes of kactl's 16 MB data area (0x90_0000 .. 0x18F_FFFF), as
        # the outside address of mesh 0: 1 << 40 | 0x18F_FF80
        want_out "the write path is skewed: write data lags the write address by 2 beats \(checked at 0x100018fff80\)"
      else why=" $LINK_WHY"; fi
      jtag_standin_stop
      end

      begin jtag_dropped_connection_detected
      if KJS_DIE=30 jtag_standin "$work/die"; then
        kt --link "jtag:127.0.0.1:$KJS_PORT" status
        want_rc 3 status
        want_out "the server closed the connection during round trip [0-9]+ \([0-9]+ transactions, from .*\): the Vivado session or the server script stopped"
      else why=" $LINK_WHY"; fi
      jtag_standin_stop
      end

      begin jtag_wedge_detected
      if KJS_FIFO=16 jtag_standin "$work/wedge"; then
        kt --link "jtag:127.0.0.1:$KJS_PORT,burst=32" write 0x1b0000 $(printf '%02x' $(seq 0 255))
        want_rc 3 write
        want_out "the AXI transaction for a write of 256 bytes at 0x100001b0000 failed: .*timed out. A burst past the JTAG-AXI master's FIFO wedges it .*reset_hw_axi .*burst=N, now 32 beats"
        # Wedged stays wedged: the next connection fails at its write-path check, and says so.
        kt --link "jtag:127.0.0.1:$KJS_PORT" status
        want_rc 3 status
        want_out "is wedged since a 32-beat burst at 0x100001b0000"
      else why=" $LINK_WHY"; fi
      jtag_standin_stop
      end

      begin jtag_frozen_server_times_out
      if KJS_STALL=20 jtag_standin "$work/stall"; then
        kt --link "jtag:127.0.0.1:$KJS_PORT" --timeout-ms 1000 status
        want_rc 3 status
        want_out "no reply within 1000 ms to round trip [0-9]+ \([0-9]+ transactions, from .*\): Vivado is busy or frozen"
      else why=" $LINK_WHY"; fi
      jtag_standin_stop
      end

      link_start jtag "$work/link-again" || { echo "FAIL: e2e-$suite/link_restart $LINK_WHY"; exit 0; }
      export KACTL_LINK=$LINK
      begin jtag_serves_after_hazards
      still_serves
      end ;;
    xdma)
      begin xdma_small_dma_refused
      k write 0x1b0000 $(printf '00%.0s' $(seq 1 16))
      k --link "$LINK,min_dma=8" write 0x1b0000 00112233445566778899aabbccddeeff
      want_rc 3 write
      want_out "the XDMA driver refused a DMA write \(h2c_0\) of 16 bytes at 0x100001b0000 from a buffer at page offset 0: Invalid argument"
      k read 0x1b0000 16
      want_out "^00001b0000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$"
      end

      begin xdma_unaligned_buffer_refused
      k --link "$LINK,buf_offset=64" write 0x1b0000 $(printf '11%.0s' $(seq 1 128))
      want_rc 3 write
      want_out "the XDMA driver refused a DMA write \(h2c_0\) of 128 bytes at 0x100001b0000 from a buffer at page offset 64: Invalid argument"
      k read 0x1b0000 16
      want_out "^00001b0000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$"
      end

      # The link's own way round the refusals: a 3-byte write at an odd address lands exactly.
      begin xdma_small_write_by_block
      k write 0x1b0021 a1b2c3
      want_rc 0 write
      k read 0x1b0020 8
      want_out "^00001b0020: 00 a1 b2 c3 00 00 00 00$"
      end ;;
  esac
}
