#!/usr/bin/env bash
# records.sh — records end to end through kactl (docs/host-interface.md "Records"):
# replay and run by handle against the same unrecorded commands (memory and completions), a
# step list naming a record, a mover walk and command data aimed at the record area (refused),
# unknown / forgotten / wrong-kind / restarted handles, the boot block's limits, and records
# changed behind the firmware's back (a host write, a unit program): refused at use by their
# digest.
# Usage: tests/e2e/records.sh BOARD OUTDIR    -> PASS:/FAIL: lines on stdout (suite log)
# Expected values are literals of include/kohaku/status.h (REC_UNKNOWN 0x28, REC_STALE 0x29,
# REC_KIND 0x2A, REC_CHANGED 0x2B, REC_FULL 0x78, MV_OWNED 0x20, BAD_ADDR 0x05, CHANGED 0x0C), exitword.h (0xB007_000A: record
# limits refused) and include/kohaku/queue.h / cpu_map.h (handle [3:0] slot, [4] step list,
# [31:8] the RECORD's submission index + 1; the record area at 0x41_0000; a list's record is two
# 32-byte steps then the list rounded up to 32 bytes), and the two forms a list is kept in
# (below: LIST_KEPT).
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. scripts/qemu-hostport.sh
kactl=$out/host/kactl fw=$out/$board/fw.elf demo=host/demo
work=$out/tests/e2e-records/$board
rm -rf "$work" && mkdir -p "$work"

T="" why="" OUT="" RC=0
k() { OUT=$("$kactl" "$@" 2>&1); RC=$?; { echo "\$ kactl $* -> $RC"; echo "$OUT"; } >> "$work/transcript.txt"; }
. tests/e2e/checks.sh
begin() { T=$1; why=""; }
end() { if [ -z "$why" ]; then echo "PASS: e2e-records-$board/$T"; else echo "FAIL: e2e-records-$board/$T$(head -c 700 <<< "$why")"; fi; }
# the completion line of the last kactl run, cycles and tag left out (they differ run to run)
cpl() { sed -n 's/^\([a-z]*\): status=\([A-Z_]*\) detail=\([0-9a-fx]*\) value=\([0-9a-fx]*\) .*/\2 \3 \4/p' <<< "$OUT" | head -n1; }
handle() { sed -n 's/^handle @\(0x[0-9a-f]*\) .*/\1/p' <<< "$OUT"; }
mem() { "$kactl" read "$1" "$2" | sed 's/^[^:]*: *//'; }
boot() { k boot "$fw" "$@"; [ "$RC" -eq 0 ] || why="$why boot $*: $(tail -n1 <<< "$OUT");"; }
put_w() { "$kactl" write --raw "$1" "$2" > /dev/null || why="$why kactl write $1 failed;"; }
memx() { mem "$@" | tr -d ' \n'; }
rec_at() { sed -n "s/^  @$1 .* bytes at \(0x[0-9a-f]*\)$/\1/p" <<< "$OUT"; }

hp_start "$board" "$out" "$work/qemu" "" || { echo "FAIL: e2e-records-$board/qemu_start $(head -c 300 "$HP_LOG")"; exit 0; }
export KACTL_SOCKET=$HP_SOCK
trap 'hp_stop' EXIT

# Data the lists move: copy.txt copies 8 words 0x18_0000 -> 0x10_0000 and 32 words
# 0x18_1000 -> 0x10_1000 (host/demo/copy.txt's comment).
SRC_X=0x180000 SRC_W=0x181000 DST_X=0x100000 DST_W=0x101000
# How a record keeps copy.txt (18 writes: moves of 10 and 6 writes before their GOs), per board
# (board/common/*.h BOARD_REC_SEALED, docs/service.md "Records"): RV32 as the list, 12 bytes a
# write; RV64 as sealed moves (docs/mover.md §5.1: a move keeping e writes before its GO is
# 3 + e + 2 ceil(e / 16) words of 8 bytes: a header, an offsets word and its check word, the e
# values, the GO's value, a balance; copy.txt keeps all its writes). W5 and W14: the record
# offsets of the low words of write 5's value (the first move's destination HDR,
# 0x0000100001000001) and write 14's (the second move's, 0x0000100001010001), after the
# record's two 32-byte steps: RV32 64 + 12 i + 4; RV64 64 + 8 x (3 + 5) for write 5 (header,
# offsets and check words, writes 0-4), 64 + 8 x 15 (the first move) + 8 x (3 + 3) for write 14.
case $board in
  *rv64) LIST_KEPT=$(( (15 + 11) * 8 )) W5=128 W14=232 ;;
  *)     LIST_KEPT=$(( 18 * 12 ))       W5=128 W14=236 ;;
esac
LIST_HELD=$(( 64 + (LIST_KEPT + 31) / 32 * 32 ))   # bytes a list's record holds: 288 on both
pattern() { # N BYTES of a pattern seeded by $2 as hex
  python3 -c "import sys; n=int(sys.argv[1]); s=int(sys.argv[2]); print(bytes(((i*7+s)&255) for i in range(n)).hex())" "$1" "$2"; }
fill_src() { "$kactl" write $SRC_X "$(pattern 256 $1)" > /dev/null && "$kactl" write $SRC_W "$(pattern 1024 $(($1 + 1)))" > /dev/null ||
  why="$why writing the source failed;"; }
zero_dst() { "$kactl" write $DST_X "$(printf '%0512d' 0)" > /dev/null && "$kactl" write $DST_W "$(printf '%02048d' 0)" > /dev/null ||
  why="$why zeroing the destination failed;"; }
dst() { echo "$(mem $DST_X 256)$(mem $DST_W 1024)"; }
src() { echo "$(mem $SRC_X 256)$(mem $SRC_W 1024)"; }

begin boot
boot
end

# ---- replay by handle: the same memory and completion as the unrecorded REPLAY
begin replay_same_as_unrecorded
fill_src 3; zero_dst
k replay $demo/copy.txt; want_rc 0 replay; plain=$(cpl); d1=$(dst)
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
# the first RECORD of this boot: slot 0, a list, generation = its submission index + 1 = 2
# (submission 0 was the REPLAY above)
[ "$H" = 0x200 ] || why="$why handle $H, want 0x200;"
want_out 'record: status=OK detail=0x12 value=0x200 '
zero_dst
k replay @$H; want_rc 0 "replay @$H"; byh=$(cpl); d2=$(dst)
[ "$plain" = "OK 0x0 0x2" ] || why="$why REPLAY completion '$plain', want OK 0x0 0x2;"
[ "$byh" = "$plain" ] || why="$why REPLAY @H completion '$byh' differs from REPLAY's '$plain';"
[ "$d1" = "$(src)" ] || why="$why REPLAY did not copy the source;"
[ "$d2" = "$d1" ] || why="$why REPLAY @H memory differs from REPLAY's;"
end
LIST=$H

begin records_lists_it
k records; want_rc 0 records
# 2 steps (64) + the list kept (216 or 192) rounded up to 32, at the area's start
want_out "^  @$LIST list 18 writes, $LIST_HELD bytes at 0x410000$"
want_out "records: 1 held, $(( 262144 - LIST_HELD )) bytes free"
end

# ---- the record is the firmware's copy: rewriting the host's file data does not change it
begin record_ignores_later_host_data
fill_src 9; zero_dst
k replay @$LIST; want_rc 0 "replay @$LIST"
[ "$(dst)" = "$(src)" ] || why="$why replay @H after new source data did not copy it;"
end

# ---- run by handle, and a step list naming the record
printf 'replay copy.txt\nsignal 7\n' > "$work/steps.txt"; cp $demo/copy.txt "$work/"
printf 'replay @%s\nsignal 7\n' "$LIST" > "$work/steps_h.txt"
begin run_same_as_unrecorded
fill_src 11; zero_dst
k run "$work/steps.txt"; want_rc 0 run; plain=$(cpl); d1=$(dst)
k record "$work/steps.txt"; want_rc 0 record; R=$(handle)
[ $(( R & 0x1f )) -eq $(( 0x10 | 1 )) ] || why="$why RUN record handle $R: want a step list in slot 1;"
zero_dst
k run @$R; want_rc 0 "run @$R"; byh=$(cpl); d2=$(dst)
[ "$plain" = "OK 0x0 0x2" ] || why="$why RUN completion '$plain', want OK 0x0 0x2;"
[ "$byh" = "$plain" ] || why="$why RUN @H completion '$byh' differs from RUN's '$plain';"
[ "$d1" = "$(src)" ] && [ "$d2" = "$d1" ] || why="$why RUN @H memory differs;"
end
RUNREC=$R

begin run_step_names_record
fill_src 13; zero_dst
k run "$work/steps_h.txt"; want_rc 0 "run (replay @H step)"
[ "$(cpl)" = "OK 0x0 0x2" ] || why="$why completion '$(cpl)';"
[ "$(dst)" = "$(src)" ] || why="$why the named record did not run;"
k record "$work/steps_h.txt"; want_rc 0 "record (replay @H step)"; R2=$(handle)
zero_dst
k run @$R2; want_rc 0 "run @$R2"
[ "$(dst)" = "$(src)" ] || why="$why the recorded RUN naming the record did not run it;"
end

# ---- a mover walk aimed at the record area: refused, checked or recorded; the record stays
begin walk_into_record_area_refused
before=$(mem 0x410000 $LIST_HELD)
# copy.txt's first move with its destination at the record area (HDR walker 1 base 0x41_0000)
sed 's/^0x10 0x0000100001000001$/0x10 0x0000100004100001/' $demo/copy.txt > "$work/evil.txt"
grep -q 0x0000100004100001 "$work/evil.txt" || why="$why evil list not made;"
k replay "$work/evil.txt"; want_rc 1 "replay evil"
# KS_MV_OWNED, detail (range 0: the firmware's DRAM and records) << 8 | walk 1 (destination),
# value = the write (index 10, the first GO) << 32
[ "$(cpl)" = "MV_OWNED 0x1 0xa00000000" ] || why="$why REPLAY into the record area: '$(cpl)';"
k record "$work/evil.txt"; want_rc 1 "record evil"
[ "$(cpl)" = "MV_OWNED 0x1 0xa00000000" ] || why="$why RECORD of it: '$(cpl)';"
[ "$(mem 0x410000 $LIST_HELD)" = "$before" ] || why="$why the record's bytes changed;"
fill_src 17; zero_dst
k replay @$LIST; want_rc 0 "replay @$LIST after"
[ "$(dst)" = "$(src)" ] || why="$why the record no longer copies;"
end

# ---- command data in the record area: refused (BAD_ADDR, detail = bytes, value = address)
begin command_data_in_record_area_refused
k submit --op 1 --addr 0x410000 --count 1; want_rc 1 "submit REPLAY at 0x410000"
[ "$(cpl)" = "BAD_ADDR 0xc 0x410000" ] || why="$why REPLAY data: '$(cpl)';"
k submit --op 6 --addr 0x410040 --count 2; want_rc 1 "submit RECORD at 0x410040"
[ "$(cpl)" = "BAD_ADDR 0x18 0x410040" ] || why="$why RECORD data: '$(cpl)';"
still_serves
end

# ---- handles the firmware does not hold
begin unknown_handle
k replay @0x5                           # slot 5, generation 0: never issued
want_rc 1 "replay @0x5"; [ "$(cpl)" = "REC_UNKNOWN 0x5 0x0" ] || why="$why '$(cpl)';"
k replay @0x7f07                        # slot 7, generation 0x7f: not issued yet
want_rc 1 "replay @0x7f07"; [ "$(cpl)" = "REC_UNKNOWN 0x7f07 0x0" ] || why="$why '$(cpl)';"
k forget @0x7f07; want_rc 1 forget; [ "$(cpl)" = "REC_UNKNOWN 0x7f07 0x0" ] || why="$why forget: '$(cpl)';"
k replay @0x208                         # bit 3 is 0 in every handle
want_rc 1 "replay @0x208"; [ "$(cpl)" = "REC_UNKNOWN 0x208 0x0" ] || why="$why reserved bit: '$(cpl)';"
still_serves
end

begin wrong_kind
k run @$LIST; want_rc 1 "run @list"; [ "$(cpl)" = "REC_KIND $LIST 0x0" ] || why="$why run @list: '$(cpl)';"
k replay @$RUNREC; want_rc 1 "replay @run"; [ "$(cpl)" = "REC_KIND $RUNREC 0x0" ] || why="$why replay @run: '$(cpl)';"
end

begin forgotten_handle_stale
k forget @$RUNREC; want_rc 0 forget; [ "$(cpl)" = "OK 0x0 $(printf 0x%x $LIST_HELD)" ] ||
  why="$why forget: '$(cpl)' (want the 64 bytes of its 2 steps and the list it copied, $LIST_HELD);"
k run @$RUNREC; want_rc 1 "run forgotten"; [ "$(cpl)" = "REC_STALE $RUNREC 0x1" ] || why="$why '$(cpl)';"
k forget @$RUNREC; want_rc 1 "forget twice"; [ "$(cpl)" = "REC_STALE $RUNREC 0x1" ] || why="$why twice: '$(cpl)';"
# a step naming a forgotten list is refused before anything runs (RUN's check), step 0
k forget @$LIST; want_rc 0 "forget list"
k run "$work/steps_h.txt"; want_rc 1 "run naming a forgotten list"
[ "$(cpl)" = "REC_STALE $LIST 0x1" ] || why="$why run naming it: '$(cpl)';"
still_serves
end

# ---- restart: records do not survive; their handles read stale (lost at the restart)
begin restart_forgets_records
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
k restart; want_rc 0 restart
k replay @$H; want_rc 1 "replay after restart"; [ "$(cpl)" = "REC_STALE $H 0x2" ] || why="$why '$(cpl)';"
k records; want_out 'records: 0 held, 262144 bytes free'
k record $demo/copy.txt; want_rc 0 "record after restart"
fill_src 21; zero_dst
k replay @$(handle); want_rc 0 "replay new"; [ "$(dst)" = "$(src)" ] || why="$why new record did not copy;"
end

# ---- limits from the boot block
begin limit_handles
boot --rec-handles 2
k record $demo/copy.txt; want_rc 0 r1
k record $demo/copy.txt; want_rc 0 r2
k record $demo/copy.txt; want_rc 1 r3
# no free handle: value 1, detail = the bytes it would hold (LIST_HELD)
[ "$(cpl)" = "REC_FULL $(printf 0x%x $LIST_HELD) 0x1" ] || why="$why third record: '$(cpl)';"
k replay @0x2; want_rc 1 "slot 2 of 2"; [ "$(cpl)" = "REC_UNKNOWN 0x2 0x0" ] || why="$why slot past the limit: '$(cpl)';"
still_serves
end

begin limit_bytes
boot --rec-bytes $(( 2 * LIST_HELD - 32 ))
k record $demo/copy.txt; want_rc 0 r1
k record $demo/copy.txt; want_rc 1 r2
# one held, 32 bytes short of a second: value 2
[ "$(cpl)" = "REC_FULL $(printf 0x%x $LIST_HELD) 0x2" ] || why="$why second record: '$(cpl)';"
k records; want_out "records: 1 held, $(( LIST_HELD - 32 )) bytes free"
# the area is that small, but the firmware owns its largest extent whatever the limit (1 MB):
# command data there is refused, data right past 0x51_0000 is the host's
k submit --op 1 --addr 0x410200 --count 1; [ "$(cpl)" = "BAD_ADDR 0xc 0x410200" ] || why="$why 0x410200: '$(cpl)';"
k submit --op 1 --addr 0x50fff4 --count 1; [ "$(cpl)" = "BAD_ADDR 0xc 0x50fff4" ] || why="$why 0x50fff4: '$(cpl)';"
k submit --op 1 --addr 0x510000 --count 1; [ "$(cpl)" != "BAD_ADDR 0xc 0x510000" ] || why="$why 0x510000 refused;"
end

begin limit_refused_at_boot
k boot "$fw" --rec-handles 9; want_rc 3 "boot --rec-handles 9"; want_out '0xb007000a'
k boot "$fw" --rec-bytes 0x100020; want_rc 3 "boot --rec-bytes 1 MB + 32"; want_out '0xb007000a'
k boot "$fw" --rec-bytes 100; want_rc 3 "boot --rec-bytes 100"; want_out '0xb007000a'
boot
still_serves
end

# ---- RV64: a sealed move's header changed so that its fields disagree (the bytes of its
# groups one more, 0x60 -> 0x61 for copy.txt's first move of 10 writes: (10 + 2) x 8; header
# [47:32], record offset 64 + 4). The loop reads the header's fields before the move's sum has
# checked them, so it must stay bounded by them: the move never starts, KS_REC_CHANGED, value
# 0, the node serves. RV32 keeps the list itself, which has no header: the test is RV64's.
begin sealed_header_changed_bounded
case $board in
  *rv64)
    k record $demo/copy.txt; want_rc 0 record; H=$(handle)
    k records; HA=$(rec_at $H)
    [ "$(memx $(( ${HA:-0} + 68 )) 1)" = 60 ] || why="$why the header's bytes field reads '$(memx $(( ${HA:-0} + 68 )) 1)';"
    put_w $(( ${HA:-0} + 68 )) 61
    k replay @$H; want_rc 1 "replay @$H, header changed"
    [ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why completion '$(cpl)';"
    put_w $(( ${HA:-0} + 68 )) 60
    k forget @$H; want_rc 0 forget ;;
esac
still_serves
end

# ---- a mover fault in a recorded list ends REPLAY @H as it ends REPLAY: the model's mover
# takes an AXI error at its first access (the first move) or at a later one (the second move:
# its first move's 8 words read and written, 16 accesses, then the second's first); status,
# detail (the fault code, 3) and the write the value names (value[63:32]: the failed move's GO,
# 10 or 17) the same; value[31:0] is the mover's status word, whose move count runs on across
# replays (docs/hardware.md §5), so it is not compared.
begin replay_by_handle_mover_fault_as_replay
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
for at in 1 17; do
  "$kactl" inject axi@$at > /dev/null; k replay $demo/copy.txt; want_rc 1 "replay, axi@$at"; p=$(cpl)
  "$kactl" inject axi@$at > /dev/null; k replay @$H; want_rc 1 "replay @$H, axi@$at"; r=$(cpl)
  set -- $p; ps=$1 pd=$2 pi=$(( $3 >> 32 )); set -- $r
  [ "$ps $pd $pi" = "MOVER_FAULT 0x3 $([ $at = 1 ] && echo 10 || echo 17)" ] || why="$why REPLAY axi@$at: '$p';"
  [ "$1 $2 $(( $3 >> 32 ))" = "$ps $pd $pi" ] || why="$why REPLAY @H axi@$at: '$r', REPLAY '$p';"
done
"$kactl" inject clear > /dev/null
fill_src 59; zero_dst
k replay @$H; want_rc 0 "replay @$H after"; [ "$(dst)" = "$(src)" ] || why="$why the record no longer copies;"
k forget @$H; want_rc 0 forget
still_serves
end

# ---- a step list's record takes the largest free run of the area: its steps and the lists
# copied after them are one run of bytes, which the first run that holds its steps alone may
# not be (before: REC_FULL with most of the area free). A and B are copy.txt's records; A
# forgotten leaves a free run of LIST_HELD bytes at 0x41_0000, too short for two steps (64)
# and two copies of the list (LIST_HELD - 64 each): the record goes after B.
begin run_record_takes_a_run_that_holds_it
k record $demo/copy.txt; want_rc 0 "record A"; A=$(handle)
k record $demo/copy.txt; want_rc 0 "record B"; B=$(handle)
k forget @$A; want_rc 0 "forget A"
printf 'replay copy.txt\nreplay copy.txt\n' > "$work/steps_two.txt"
k record "$work/steps_two.txt"; want_rc 0 "record two REPLAY steps"; R=$(handle)
k records
want_out "^  @$R steps 2 steps, $(( 64 + 2 * (LIST_HELD - 64) )) bytes at $(printf 0x%x $(( 0x410000 + 2 * LIST_HELD )))$"
fill_src 53; zero_dst
k run @$R; want_rc 0 "run @$R"; [ "$(dst)" = "$(src)" ] || why="$why the record did not copy;"
k forget @$R; want_rc 0 "forget it"; k forget @$B; want_rc 0 "forget B"
k records; want_out 'records: 0 held, 262144 bytes free'
still_serves
end

# ---- a recorded gather (RV32; RV64 cannot reach GATHER, 0x50: RECORD refuses it as REPLAY
# does, NO_REACH). The mover reads a gather's index words when its move runs, so RECORD keeps
# them in the record (after the list, under the record's digest) and points the INDEX write
# there: a replay by handle gathers by the indices that were checked, whatever the host's copy
# becomes. gather.txt: 9 writes, rows of W (0x18_1000, pitch 32) by the indices at 0x19_1000
# (count 2) into 0x19_2000. Its record: 2 steps (64) + 108 bytes -> 128 + one index word (32).
zero_g() { "$kactl" write 0x192000 "$(printf '%0128d' 0)" > /dev/null || why="$why zeroing 0x19_2000;"; }
rows30() { [ "$(memx 0x192000 64)" = "$(memx 0x181060 32)$(memx 0x181000 32)" ] || why="$why $1: not W rows 3 and 0;"; }
begin recorded_gather_keeps_its_indices
fill_src 47
"$kactl" write 0x191000 03000000 00000000 > /dev/null      # indices 3, 0
k record $demo/gather.txt
case $board in
  *rv64)
    want_rc 1 "record gather.txt"; want_out "^record: status=NO_REACH detail=0x50 " ;;
  *)
    want_rc 0 "record gather.txt"; G=$(handle)
    "$kactl" write 0x191000 01000000 02000000 > /dev/null  # the host's indices change: 1, 2
    k records; GA=$(rec_at $G)
    want_out "^  @$G list 9 writes, 224 bytes at "
    GI=$(( ${GA:-0} + 192 ))
    [ "$(memx $GI 8)" = 0300000000000000 ] || why="$why the record's index word reads '$(memx $GI 8)';"
    zero_g; k replay @$G; want_rc 0 "replay @$G"; rows30 "replay @H"
    # its own index word changed by a host write: refused, nothing gathered
    put_w $GI 01000000; zero_g
    k replay @$G; want_rc 1 "replay @$G, index word changed"
    [ "$(cpl)" = "REC_CHANGED $G 0x0" ] || why="$why changed index word: '$(cpl)';"
    [ "$(memx 0x192000 64)" = "$(printf '%0128d' 0)" ] || why="$why gathered by a changed index word;"
    put_w $GI 03000000
    # a RUN record naming it keeps its own copy, the INDEX write pointed at it: it gathers the
    # same rows once the list is forgotten and its bytes overwritten
    printf 'replay @%s\n' "$G" > "$work/steps_g.txt"
    k record "$work/steps_g.txt"; want_rc 0 "record a RUN naming it"; RG=$(handle)
    k forget @$G; want_rc 0 "forget the list"
    put_w $GI 02000000
    zero_g; k run @$RG; want_rc 0 "run @$RG"; rows30 "run @H after the list was forgotten"
    k forget @$RG; want_rc 0 "forget the RUN" ;;
esac
still_serves
end

# ---- a record changed behind the firmware's back (docs/service.md "Records": a digest kept at
# RECORD, checked over the whole record before anything of a by-handle use runs): a host write
# or a unit program into the record area. KS_REC_CHANGED is 0x2B (status.h), detail = the
# handle, value 0 (in a RUN: the step naming it in value[63:48]); KS_CHANGED 0x0C at use.
# The word changed is the first move's destination (copy.txt's write 5, value
# 0x0000100001000001: base 0x10_0000, walker 1): at record offset W5 in a list's record and in a
# step list's of 2 steps (64 bytes of steps, then the list). 0x01020001 makes the base 0x10_2000: a list that still validates, so
# only the digest can tell. Canaries sit where the list writes and where the changed one would.
DST_Y=0x102000
CAN=$(pattern 1024 77)
canary() { "$kactl" write $DST_X "${CAN:0:512}" > /dev/null && "$kactl" write $DST_W "$CAN" > /dev/null &&
  "$kactl" write $DST_Y "${CAN:0:512}" > /dev/null || why="$why writing the canaries failed;"; }
canary_kept() { [ "$(memx $DST_X 256)$(memx $DST_W 1024)$(memx $DST_Y 256)" = "${CAN:0:512}$CAN${CAN:0:512}" ] ||
  why="$why $1: destination memory changed (something ran);"; }
# the record's start (kactl records) into AT, and the changed word's address into W
find_rec() { k records; AT=$(rec_at "$1"); [ -n "$AT" ] || why="$why record $1 not listed;"; W=$(( ${AT:-0} + W5 ))
  [ "$(memx $W 4)" = 01000001 ] || why="$why the word at $(printf 0x%x $W) reads '$(memx $W 4)', want 01000001;"; }
change() { put_w $W 01000201; }
restore() { put_w $W 01000001; }

begin host_write_list_record_refused
boot
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
find_rec $H
fill_src 31; canary
# kactl (libkohaku) refuses a write into the firmware's own DRAM: usage error, nothing written;
# the stray write below goes through --raw (put_w), as a tool other than ours would
k write $(printf 0x%x $W) 01000201; want_rc 2 "plain write into the record area"
want_out "firmware's own DRAM at 0x400000-0x50ffff"
[ "$(memx $W 4)" = 01000001 ] || why="$why the refused write changed the record;"
change
k replay @$H; want_rc 1 "replay @$H changed"
[ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why REPLAY @H of a changed record: '$(cpl)';"
canary_kept "replay @H"
# refused every time until forgotten or restored; still held; the node serves
k replay @$H; want_rc 1 "replay @$H again"
[ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why again: '$(cpl)';"
k records; want_out "^  @$H list 18 writes, $LIST_HELD bytes at $AT$"
still_serves
canary_kept "after"
end

begin changed_list_named_by_a_step_refused
# an unrecorded RUN naming it: refused at its check, nothing ran; a RECORD naming it: refused
# (it would copy the changed list into a record of its own)
printf 'replay @%s\nsignal 7\n' "$H" > "$work/steps_c.txt"
k run "$work/steps_c.txt"; want_rc 1 "run naming a changed record"
[ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why RUN (step 0): '$(cpl)';"
k record "$work/steps_c.txt"; want_rc 1 "record naming a changed record"
[ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why RECORD (step 0): '$(cpl)';"
canary_kept "run naming it"
end

begin restored_record_runs_again
# the check compares the bytes, not a flag set by a write
restore
k replay @$H; want_rc 0 "replay @$H restored"
[ "$(cpl)" = "OK 0x0 0x2" ] || why="$why '$(cpl)';"
[ "$(dst)" = "$(src)" ] || why="$why the restored record did not copy the source;"
[ "$(memx $DST_Y 256)" = "${CAN:0:512}" ] || why="$why 0x10_2000 was written;"
k run "$work/steps_c.txt"; want_rc 0 "run naming it, restored"
k forget @$H; want_rc 0 forget
end

# A change in the list's second move (copy.txt's write 14, the W copy's destination HDR, value
# 0x0000100001010001; 0x01030001 makes its base 0x10_3000, a list that still validates). Kept as
# a list (RV32), the record is summed whole before anything runs: nothing ran, value 0. Kept as
# sealed moves (RV64, docs/mover.md "Sealed moves"), each move is checked as it is written to
# the mover: the first move (as recorded) ran, the changed one never started: value 1, the
# moves done. The word is at record offset W14.
begin changed_later_move_stops_there
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
k records; AT=$(rec_at $H)
W2=$(( ${AT:-0} + W14 ))
[ "$(memx $W2 4)" = 01000101 ] || why="$why the word at $(printf 0x%x $W2) reads '$(memx $W2 4)', want 01000101;"
fill_src 43; canary; "$kactl" write 0x103000 "$CAN" > /dev/null || why="$why canary at 0x10_3000;"
put_w $W2 01000301
k replay @$H; want_rc 1 "replay @$H, second move changed"
case $board in
  *rv64)
    [ "$(cpl)" = "REC_CHANGED $H 0x1" ] || why="$why completion '$(cpl)', want the first move done;"
    [ "$(memx $DST_X 256)" = "$(memx $SRC_X 256)" ] || why="$why the first move (as recorded) did not run;" ;;
  *)
    [ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why completion '$(cpl)', want nothing run;"
    [ "$(memx $DST_X 256)" = "${CAN:0:512}" ] || why="$why the first move ran;" ;;
esac
[ "$(memx $DST_W 1024)" = "$CAN" ] || why="$why the second move ran as recorded;"
[ "$(memx 0x103000 1024)" = "$CAN" ] || why="$why the changed second move ran;"
put_w $W2 01000101
k replay @$H; want_rc 0 "replay @$H restored"; [ "$(dst)" = "$(src)" ] || why="$why restored: did not copy;"
k forget @$H; want_rc 0 forget
still_serves
end

# ---- RV64: the second move's offsets word overwritten with zeros (a stray zeroing write; every
# lane would name CTRL, where a value with bit 16 set would start the mover on registers half
# loaded). Its check word no longer matches, so the group stores nothing: the first move ran
# (value 1), the second never started, its destination keeps its canary. The offsets word is
# at record offset 64 + 15 x 8 + 8 = 192 (the second move's header, then it).
begin sealed_offsets_zeroed_stores_nothing
case $board in
  *rv64)
    k record $demo/copy.txt; want_rc 0 record; H=$(handle)
    k records; HA=$(rec_at $H); OW=$(( ${HA:-0} + 192 ))
    kept_ow=$(memx $OW 8)
    [ "$kept_ow" != 0000000000000000 ] || why="$why the offsets word reads 0 already;"
    fill_src 61; canary
    put_w $OW 0000000000000000
    k replay @$H; want_rc 1 "replay @$H, offsets word zeroed"
    [ "$(cpl)" = "REC_CHANGED $H 0x1" ] || why="$why completion '$(cpl)';"
    [ "$(memx $DST_X 256)" = "$(memx $SRC_X 256)" ] || why="$why the first move did not run;"
    [ "$(memx $DST_W 1024)" = "$CAN" ] || why="$why the second move's destination changed;"
    put_w $OW "$kept_ow"
    zero_dst; k replay @$H; want_rc 0 "replay @$H restored"; [ "$(dst)" = "$(src)" ] || why="$why restored: no copy;"
    k forget @$H; want_rc 0 forget ;;
esac
still_serves
end

begin host_write_run_record_refused
k record "$work/steps.txt"; want_rc 0 "record steps"; R=$(handle)
find_rec $R
want_out "^  @$R steps 2 steps, $LIST_HELD bytes at "     # 2 steps (64) + the list kept
fill_src 33; canary
change
k run @$R; want_rc 1 "run @$R changed"
[ "$(cpl)" = "REC_CHANGED $R 0x0" ] || why="$why RUN @H of a changed record: '$(cpl)';"
canary_kept "run @H"
still_serves
restore
k run @$R; want_rc 0 "run @$R restored"
[ "$(dst)" = "$(src)" ] || why="$why the restored step record did not copy;"
k forget @$R; want_rc 0 forget
end

# A TU WRITE (docs/model-mesh.md §5: opcode 2 in [255:252], the 40-bit address in [39:0], word 2
# the pattern's seed) of one 32-byte beat at record offset 96, inside the first move's writes
# (RV32: writes 2 to 5; RV64: the values of writes 1 to 4): the firmware does not
# read unit programs, so DISPATCH runs it (OK); the record is then refused.
begin unit_write_into_record_refused
k record $demo/copy.txt; want_rc 0 record; H=$(handle)
find_rec $H
kept=$(memx $AT $LIST_HELD)
printf '0 0 0x5eed 0x%x\n' $(( (2 << 60) | (AT + 96) )) > "$work/tu-rec.prog"
k dispatch "$work/tu-rec.prog" --target 1,2; want_rc 0 "dispatch the TU write"
[ "$(memx $AT $LIST_HELD)" != "$kept" ] || why="$why the unit's write did not change the record;"
fill_src 35; canary
k replay @$H; want_rc 1 "replay @$H after the unit's write"
[ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why REPLAY @H: '$(cpl)';"
canary_kept "replay @H"
still_serves
end

# The same unit program inside a RUN that names the record after it: the RUN's check finds the
# record as kept; the DISPATCH changes it; the REPLAY @H step's check at use refuses it
# (KS_CHANGED, detail = KS_REC_CHANGED, value = step 2 << 48): steps 0 and 1 ran, 2 and 3 not.
begin unit_write_mid_run_refused_at_use
put_w $AT "$kept"
k replay @$H; want_rc 0 "replay @$H restored"
fill_src 37; canary
cp "$work/tu-rec.prog" "$work/tu-rec2.prog"
printf 'dispatch 1,2 tu-rec2.prog\nwait 1,2 1\nreplay @%s\nsignal 9\n' "$H" > "$work/steps_u.txt"
k run "$work/steps_u.txt"; want_rc 1 "run writing its own named record"
[ "$(cpl)" = "CHANGED 0x2b 0x2000000000000" ] || why="$why RUN: '$(cpl)';"
canary_kept "the REPLAY @H step"
k replay @$H; want_rc 1 "replay @$H after"; [ "$(cpl)" = "REC_CHANGED $H 0x0" ] || why="$why after: '$(cpl)';"
k forget @$H; want_rc 0 "forget a changed record"
k records; want_out 'records: 0 held, 262144 bytes free'
still_serves
end

# A recorded RUN whose own DISPATCH step sends a unit program writing into that record: the
# record is checked again after every group of programs (docs/service.md "Records"), so the
# steps after the write never run: KS_REC_CHANGED, detail = the handle, value = the first step
# not run << 48. The record area is empty (above), so the record starts at 0x41_0000 (first
# fit). Each RUN goes right after its RECORD, before any kactl command reuses the data area its
# program is in.
# self_write ADDR STEPS LISTED [VALUE]: records STEPS (a file of $work) whose first step
# DISPATCHes a TU WRITE of one beat at ADDR to 1,2, runs it by handle and wants KS_REC_CHANGED
# with VALUE (default: step 1, the WAIT after the group), then `kactl records` to list it as
# LISTED (steps, bytes at 0x41_0000).
self_write() {
  printf '0 0 0x5eed 0x%x\n' $(( (2 << 60) | $1 )) > "$work/tu-self.prog"
  k record "$work/$2"; want_rc 0 "record $2 (its program writes the record)"; R=$(handle)
  k run @$R; want_rc 1 "run @$R"
  [ "$(cpl)" = "REC_CHANGED $R ${4:-0x1000000000000}" ] || why="$why the first use: '$(cpl)', want ${4:-step 1};"
  k records; want_out "^  @$R steps $3 bytes at 0x410000$"
}

# (1) The program overwrites the record's second step, the WAIT (at 0x41_0020): step 1 is not
# used once the group has run: refused there, and at the next use before anything runs.
begin unit_write_by_own_run_refused_after_group
printf 'dispatch 1,2 tu-self.prog\nwait 1,2 1\n' > "$work/steps_self.txt"
self_write 0x410020 steps_self.txt "2 steps, 64"
k run @$R; want_rc 1 "run @$R again"
[ "$(cpl)" = "REC_CHANGED $R 0x0" ] || why="$why the next use: '$(cpl)';"
k forget @$R; want_rc 0 forget
still_serves
end

# (2) The program overwrites the list a later REPLAY step runs (4 steps of 32 bytes, then the
# list kept at 0x41_0080; the beat at 0x41_00a0 holds part of its first move): the REPLAY
# (step 2) never runs: the destinations keep their canaries. Kept as a list (RV32), the check
# after the group finds it (step 1); kept as sealed moves (RV64: the steps' digest covers the
# steps, each move checks itself), the REPLAY step finds its first move changed before its GO:
# step 2, no move done.
begin unit_write_by_own_run_list_never_runs
fill_src 39; canary
printf 'dispatch 1,2 tu-self.prog\nwait 1,2 1\nreplay copy.txt\nsignal 9\n' > "$work/steps_self2.txt"
case $board in *rv64) changed_at=0x2000000000000 ;; *) changed_at=0x1000000000000 ;; esac
self_write 0x4100a0 steps_self2.txt "4 steps, .*" $changed_at
canary_kept "the REPLAY step after the write"
k forget @$R; want_rc 0 forget
still_serves
end

# ---- a recorded RUN of DISPATCH, WAIT and SIGNAL steps (the demo's steps.txt) runs as the
# unrecorded one: the same completion (OK, value = its 4 steps), and a unit fault in a recorded
# DISPATCH step ends it as it ends the unrecorded RUN (UNIT_FAULT:
# detail {y,x} 0x11, value step 2 << 48 | the unit's exec_result 0x4e500501)
begin run_dispatch_steps_same_as_unrecorded
k run $demo/steps.txt; want_rc 0 "run steps.txt"; plain=$(cpl)
[ "$plain" = "OK 0x0 0x4" ] || why="$why RUN completion '$plain', want OK 0x0 0x4;"
k record $demo/steps.txt; want_rc 0 "record steps.txt"; R=$(handle)
k run @$R; want_rc 0 "run @$R"
[ "$(cpl)" = "$plain" ] || why="$why RUN @H completion '$(cpl)' differs from RUN's '$plain';"
k run @$R; want_rc 0 "run @$R again"
[ "$(cpl)" = "$plain" ] || why="$why RUN @H (second) completion '$(cpl)';"
printf 'dispatch 1,1 %s\nbarrier\ndispatch 1,1 %s\nbarrier\n' "$top/$demo/softmax.prog" "$top/tests/e2e/bad-opcode.prog" > "$work/fault.steps"
k run "$work/fault.steps"; want_rc 1 "run fault.steps"; plain=$(cpl)
[ "$plain" = "UNIT_FAULT 0x11 0x200004e500501" ] || why="$why faulting RUN completion '$plain';"
k record "$work/fault.steps"; want_rc 0 "record fault.steps"; F=$(handle)
k run @$F; want_rc 1 "run @$F"
[ "$(cpl)" = "$plain" ] || why="$why faulting RUN @H completion '$(cpl)' differs from '$plain';"
still_serves
end
