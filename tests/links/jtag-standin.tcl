# jtag-standin.tcl — runs our real server script (host/kohaku-jtag.tcl) in tclsh over the
# stand-in Vivado commands (vivado-standin.tcl), which forward to a QEMU node's host port.
#   KJS_QEMU_PORT=P tclsh tests/links/jtag-standin.tcl JTAG_PORT [server options]
# Hazards: KJS_LAG, KJS_FIFO, KJS_DIE, KJS_STALL (vivado-standin.tcl); KJS_RT_MS below.
set here [file dirname [file normalize [info script]]]
source [file join $here vivado-standin.tcl]
source [file join $here .. .. host kohaku-jtag.tcl]
# KJS_RT_MS: the cable's time per round trip, spent before each reply (make bench's figures).
if {[info exists ::env(KJS_RT_MS)] && $::env(KJS_RT_MS) > 0} {
    rename kj::reply kj::reply_now
    proc kj::reply {text} { after $::env(KJS_RT_MS); kj::reply_now $text }
}
kj::serve [lindex $argv 0] {*}[lrange $argv 1 end]
