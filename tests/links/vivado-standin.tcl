# vivado-standin.tcl — the few Vivado hardware-manager commands host/kohaku-jtag.tcl uses,
# for tests without a cable: each AXI transaction is forwarded to the QEMU node's host port
# (include/kohaku/hostport.h) on TCP, outside address = AXI address (docs/host.md "Address
# map"). Hazards the real master shows, injected from the environment:
#   KJS_LAG=N     write data lags the write address by N beats (stale beats queued first)
#   KJS_FIFO=N    a write burst longer than N beats wedges the master: that run_hw_axi and every
#                 later one fails until reset_hw_axi
#   KJS_DIE=N     the N-th run_hw_axi ends the process (a Vivado session that goes away)
#   KJS_STALL=N   the N-th run_hw_axi never returns (a frozen session)
# Register regions (agent, processor, model registers) take one 64-bit beat per access; the
# load paths and memory take bytes.

namespace eval kjs {
    variable qport $::env(KJS_QEMU_PORT)
    variable sock ""
    variable tag 0
    variable txns
    array set txns {}
    variable lagq {}
    variable wedged ""
    variable runs 0
    foreach {v d} {lag 0 fifo 0 die 0 stall 0} {
        set k KJS_[string toupper $v]
        variable $v [expr {[info exists ::env($k)] ? $::env($k) : $d}]
    }
    # The stale beats a lagging write channel holds: recognisable in a read-back.
    for {set i 0} {$i < $lag} {incr i} { lappend lagq [string repeat "5a" 8] }
}

proc kjs::hp {op width addr len {data ""}} {
    variable sock; variable qport; variable tag
    if {$sock eq ""} {
        set sock [socket 127.0.0.1 $qport]
        fconfigure $sock -translation binary -blocking 1 -buffering none
    }
    set tag [expr {($tag + 1) & 0xFFFF}]
    puts -nonewline $sock [binary format ccsiw $op $width $tag $len $addr]$data
    set h [read $sock 16]
    if {[string length $h] != 16} { error "stand-in: the QEMU host port closed" }
    binary scan $h cucusuiuwu rop st rtag rlen value
    set body ""
    if {$rlen > 0} { set body [read $sock $rlen] }
    if {$st != 0} { error "AXI SLVERR at [format 0x%llx $addr] (host port status $st)" }
    return [list $value $body]
}

proc kjs::is_reg {a} {
    expr {$a < 0x10100 || ($a >= 0x300000 && $a < 0x301000)}
}

# One beat of size bytes (little-endian bytes) at a.
proc kjs::beat_write {a size bytes} {
    if {[kjs::is_reg $a]} {
        if {$size != 8 || $a % 8} { error "stand-in: a register takes one 64-bit beat ([format 0x%llx $a])" }
        kjs::hp 3 8 $a 8 $bytes
    } else {
        kjs::hp 3 0 $a $size $bytes
    }
}

proc kjs::beat_read {a size} {
    if {[kjs::is_reg $a]} {
        if {$size != 8 || $a % 8} { error "stand-in: a register takes one 64-bit beat ([format 0x%llx $a])" }
        lassign [kjs::hp 2 8 $a 8] v
        return [binary format w $v]
    }
    lassign [kjs::hp 2 0 $a $size] v body
    return $body
}

proc get_hw_axis {args} { return hw_axi_1 }
proc get_hw_axi_txns {name} { return $name }
proc delete_hw_axi_txn {args} { foreach t $args { unset -nocomplain kjs::txns($t) } }
proc reset_hw_axi {args} { set kjs::wedged "" }

proc create_hw_axi_txn {args} {
    set pos {}
    array set o {-type "" -address "" -data "" -len 1 -size 64}
    for {set i 0} {$i < [llength $args]} {incr i} {
        set a [lindex $args $i]
        switch -- $a {
            -force - -quiet - -verbose {}
            -type - -address - -data - -len - -size - -burst - -cache - -id {
                set o($a) [lindex $args [incr i]]
            }
            default { lappend pos $a }
        }
    }
    if {[llength $pos] != 2} { error "create_hw_axi_txn: want NAME HW_AXI, got $pos" }
    set name [lindex $pos 0]
    set kjs::txns($name) [list [string tolower $o(-type)] "0x[string trimleft $o(-address) 0x]" \
                              [string map {_ ""} $o(-data)] $o(-len) [expr {$o(-size) / 8}] ""]
    return $name
}

proc get_property {prop obj} {
    if {$prop ne "DATA"} { error "stand-in: property $prop" }
    return [lindex $kjs::txns($obj) 5]
}

proc run_hw_axi {args} {
    foreach t $args {
        if {[string match -* $t]} { continue }
        incr kjs::runs
        if {$kjs::die && $kjs::runs == $kjs::die} { exit 0 }
        if {$kjs::stall && $kjs::runs == $kjs::stall} { after 3600000 }
        if {$kjs::wedged ne ""} {
            error "ERROR: \[Labtoolstcl 44-1000\] (stand-in) hw_axi_1 is wedged since $kjs::wedged; run reset_hw_axi"
        }
        lassign $kjs::txns($t) type addr data len size
        set a [expr {$addr}]
        if {$type eq "write"} {
            if {$kjs::fifo && $len > $kjs::fifo} {
                set kjs::wedged "a $len-beat burst at [format 0x%llx $a] (FIFO $kjs::fifo)"
                error "ERROR: \[Labtoolstcl 44-1001\] (stand-in) hw_axi_1: transaction $t timed out"
            }
            if {[string length $data] != 2 * $len * $size} {
                error "stand-in: -data has [string length $data] digits for $len beats of $size bytes"
            }
            # Vivado's -data: the last beat first, each most significant digit first.
            set bytes [string reverse [binary format H* $data]]
            for {set k 0} {$k < $len} {incr k} {
                set b [string range $bytes [expr {$k * $size}] [expr {($k + 1) * $size - 1}]]
                if {$kjs::lag} {
                    lappend kjs::lagq $b
                    set b [lindex $kjs::lagq 0]
                    set kjs::lagq [lrange $kjs::lagq 1 end]
                    set b [string range $b 0 [expr {$size - 1}]]
                }
                kjs::beat_write [expr {$a + $k * $size}] $size $b
            }
        } else {
            set out ""
            for {set k 0} {$k < $len} {incr k} {
                append out [kjs::beat_read [expr {$a + $k * $size}] $size]
            }
            binary scan [string reverse $out] H* hex
            lset kjs::txns($t) 5 $hex
        }
    }
}
