# kohaku-jtag.tcl — the JTAG link's server: source it in a Vivado hardware-manager session whose
# device carries a JTAG-to-AXI master, then `kj::serve ?PORT? ?options?`. It listens on TCP for
# kactl / libkohaku (`kactl --link jtag:HOST:PORT ...`) and runs each request's accesses as AXI
# transactions with create_hw_axi_txn / run_hw_axi, answering once per request: the cable's cost
# is per round trip, so the client sends whole batches. One client at a time; another is told
# BUSY and closed. The protocol is ours (host/link_jtag.c has the grammar; docs/host.md).
#
#   kj::serve ?PORT? ?-addr IP? ?-beat 4|8? ?-burst N? ?-axi OBJ?   serve until kj::stop (vwait)
#   kj::start ?PORT? ...     the same without blocking (the Vivado GUI's event loop serves it)
#   kj::stop                 close the listener and the client
# -addr: where to listen (default 127.0.0.1: the cable's session is not for the network);
# -beat: bytes per beat of the master (its AXI data width / 8; default 8); -burst: beats in one
# write transaction (default 32), which must stay within the master's write FIFO: a longer burst
# wedges it until `reset_hw_axi` or a reprogram; -axi: the master (default the first of
# get_hw_axis).

namespace eval kj {
    variable beat 8
    variable burst 32
    variable max_ops 4096
    variable axi ""
    variable listener ""
    variable client ""
    variable peer ""
    variable need -1
    variable seq 0
    variable ops {}
    variable served 0
}

proc kj::start {{port 5571} args} {
    variable beat; variable burst; variable axi; variable listener
    set addr 127.0.0.1
    foreach {k v} $args {
        switch -- $k {
            -addr { set addr $v }
            -beat { if {$v ni {4 8}} { error "kohaku-jtag: -beat must be 4 or 8" }; set beat $v }
            -burst { if {![string is integer -strict $v] || $v < 1 || $v > 256} {
                         error "kohaku-jtag: -burst must be 1..256" }; set burst $v }
            -axi { set axi $v }
            default { error "kohaku-jtag: unknown option $k (-addr -beat -burst -axi)" }
        }
    }
    if {$axi eq ""} { set axi [lindex [get_hw_axis] 0] }
    if {$axi eq ""} {
        error "kohaku-jtag: no JTAG-AXI master: program the device and refresh it (get_hw_axis is empty)"
    }
    set listener [socket -server kj::accept -myaddr $addr $port]
    puts "kohaku-jtag: serving $axi on $addr:$port (beat $beat bytes, bursts up to $burst beats)"
    flush stdout
}

proc kj::serve {{port 5571} args} {
    kj::start $port {*}$args
    vwait ::kj::stopped
}

proc kj::stop {} {
    variable listener
    catch {close $listener}
    set listener ""
    kj::drop
    set ::kj::stopped 1
}

proc kj::accept {ch host port} {
    variable client; variable peer; variable need
    fconfigure $ch -translation binary
    if {$client ne ""} {
        # A second client is told so at once, instead of waiting unannounced.
        catch {
            puts -nonewline $ch "KJ1 0 BUSY this server is serving $peer; it takes one client at a time\n"
            close $ch
        }
        return
    }
    set client $ch
    set peer "$host:$port"
    set need -1
    fconfigure $ch -blocking 0 -buffering full
    fileevent $ch readable kj::readable
}

proc kj::drop {} {
    variable client; variable need
    if {$client ne ""} { catch {close $client} }
    set client ""
    set need -1
}

proc kj::readable {} {
    variable client; variable need; variable seq; variable ops; variable max_ops
    set ch $client
    while {[gets $ch line] >= 0} {
        if {$need < 0} {
            if {![regexp {^KJ1 ([0-9]+) +([0-9]+)$} $line -> s n] || $n < 1 || $n > $max_ops} {
                catch { puts -nonewline $ch "KJ1 0 ERR 0 malformed request header\n"; flush $ch }
                kj::drop
                return
            }
            set seq $s
            set need $n
            set ops {}
        } else {
            lappend ops $line
            incr need -1
        }
        if {$need == 0} {
            set need -1
            kj::execute
            if {$client eq ""} { return }
        }
    }
    if {[eof $ch]} { kj::drop }
}

proc kj::reply {text} {
    variable client
    if {[catch { puts -nonewline $client $text; flush $client }]} { kj::drop }
}

proc kj::execute {} {
    variable seq; variable ops; variable served
    incr served
    set out {}
    set i 0
    foreach op $ops {
        if {[catch {kj::op $op} r]} {
            kj::reply "KJ1 $seq ERR $i [string map {"\n" " " "\r" " "} $r]\n"
            return
        }
        if {$r ne "-"} { lappend out $r }
        incr i
    }
    set text "KJ1 $seq OK [llength $out]\n"
    if {[llength $out]} { append text [join $out "\n"] "\n" }
    kj::reply $text
}

# One op line: H, W ADDR SIZE HEX or R ADDR SIZE BEATS (addresses hex without 0x).
proc kj::op {line} {
    variable beat; variable burst; variable max_ops; variable axi
    set f [split $line " "]
    switch -- [lindex $f 0] {
        H { return "kohaku-jtag 1 $beat $burst $max_ops" }
        W {
            lassign $f - a size hex
            kj::check_access $a $size
            set beats [expr {[string length $hex] / (2 * $size)}]
            if {$beats < 1 || $beats * 2 * $size != [string length $hex] || $beats > $burst ||
                ($size != $beat && $beats != 1)} {
                error "write of [string length $hex] hex digits at $a: not 1..$burst beats of $size bytes"
            }
            set t [create_hw_axi_txn -force kj_w $axi -type write -address $a -data $hex \
                       -len $beats -size [expr {8 * $size}]]
            run_hw_axi $t
            return -
        }
        R {
            lassign $f - a size beats
            kj::check_access $a $size
            if {![string is integer -strict $beats] || $beats < 1 || $beats > 256} {
                error "read of $beats beats at $a: 1..256"
            }
            # Single-beat reads: a burst on a wide endpoint strides by the endpoint's word.
            set words {}
            for {set k 0} {$k < $beats} {incr k} {
                set ad [format %llx [expr {"0x$a" + $k * $size}]]
                set t [create_hw_axi_txn -force kj_r $axi -type read -address $ad -len 1 \
                           -size [expr {8 * $size}]]
                run_hw_axi $t
                lappend words [string trim [get_property DATA $t]]
            }
            return [join $words " "]
        }
        default { error "unknown op `[lindex $f 0]`" }
    }
}

proc kj::check_access {a size} {
    variable beat
    if {![regexp {^[0-9a-fA-F]{1,16}$} $a]} { error "address `$a` is not hex" }
    if {$size != 4 && $size != $beat} { error "beat size $size: 4 or $beat" }
    if {("0x$a" % $size) != 0} { error "address $a is not $size-aligned" }
}
