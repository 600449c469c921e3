#!/usr/bin/env bash
# run.sh — runs one on-target test image under our QEMU machine (QEMU run contract) and
# prints its result lines for the suite log: the image's own PASS/FAIL check lines, prefixed
# with board/image, then one line for the image as a whole: PASS, FAIL <why> or HANG.
# Directives in the test source (one per line, "// kohaku-test: KEY=VALUE"):
#   boards=qemu-rv32[,qemu-rv64]  build/run only there (read by target.mk)
#   bootblock=<mkbootblock options>  boot block to pass (default: a good block)
#   qemu-opts=<extra -M props>     appended to -M kohaku-sysnode
#   expect-stop=<state> cause=<n> [word=<v>] [pc=<v>]   the kohaku-stop: line expected
#                                  (default: exited cause=0 word=KX_EXIT_TEST_BASE and the
#                                  harness summary line with failed=0)
#   expect-console=<text>          must appear in the console output (repeatable)
#   expect-referee=<name>=<n> | <name>>0   a model referee counter QEMU printed on stderr
#                                  ("kohaku-referee: <name>=<n>") has that value (repeatable;
#                                  a missing counter line fails)
# Values v are numbers (0x..) or @symbol, resolved from the image's ELF symbol table, so a
# fault PC comes from a label in the test, never a hard-coded address; in expect-console
# text, @symbol becomes 0x<hex> as kx_put_hex prints it.
# Usage: run.sh QEMU CPU MKBOOTBLOCK TIMEOUT_S TAG SRC ELF WORKDIR
set -u
qemu=$1 cpu=$2 mkbb=$3 tmo=$4 tag=$5 src=$6 elf=$7 work=$8
NM=${NM:-riscv64-unknown-elf-nm}
mkdir -p "$work"
con=$work/console.txt err=$work/stderr.txt

directive() { sed -n "s|^[[:space:]]*// kohaku-test: $1=\(.*\)$|\1|p" "$src"; }
# sym NAME: the symbol's address as 0x<hex>; status 1 (and nothing printed) when absent.
sym() {
  local a; a=$($NM "$elf" | awk -v s="$1" '$3 == s { print $1; exit }')
  [ -n "$a" ] || return 1
  printf '0x%x' $((16#$a))
}
nosym() { echo "FAIL: $tag directive names $1, which $elf does not define"; exit 0; }
val() { case $1 in @*) sym "${1#@}" ;; *) printf '0x%x' $(($1)) ;; esac; }

# Boot block: every image gets one, as the host would write it.
bbopts=$(directive bootblock | tail -n1)
# shellcheck disable=SC2086
"$mkbb" -o "$work/bootblock.bin" $bbopts || { echo "FAIL: $tag mkbootblock $bbopts"; exit 0; }
mprops="kohaku-sysnode,bootblock=$work/bootblock.bin"
extra=$(directive qemu-opts | tail -n1)
[ -n "$extra" ] && mprops="$mprops,$extra"

timeout --kill-after=2 "$tmo" "$qemu" -M "$mprops" -cpu "$cpu" -bios none -display none \
  -monitor none -serial none -nodefaults -icount shift=0,align=off,sleep=off \
  -kernel "$elf" > "$con" 2> "$err" < /dev/null
rc=$?

# The image's own check lines go to the log under the image's name.
sed -n -e "s|^PASS: |PASS: $tag: |p" -e "s|^FAIL: |FAIL: $tag: |p" "$con"

if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "HANG: $tag no stop within ${tmo}s (console: $(tail -c 200 "$con" | tr '\n' '|'))"
  exit 0
fi
stop=$(grep -m1 '^kohaku-stop: ' "$err")
if [ -z "$stop" ]; then
  echo "FAIL: $tag no kohaku-stop line (qemu status $rc: $(head -c 300 "$err" | tr '\n' '|'))"
  exit 0
fi
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$stop"; }
state=$(field state) cause=$(field cause) word=$(field word) pc=$(field pc)

why=""
exp=$(directive expect-stop | tail -n1)
if [ -z "$exp" ]; then
  exp="state=exited cause=0 word=0x7e570000"     # KX_EXIT_TEST_BASE: all checks passed
  grep -q "^kohaku-test: [^ ]* passed=[0-9]* failed=0$" "$con" || why="$why no clean summary line;"
  grep -q "^kohaku-test: [^ ]* passed=0 " "$con" && why="$why image ran no check;"
else
  case $exp in state=*) ;; *) exp="state=$exp" ;; esac
fi
for kv in $exp; do
  k=${kv%%=*} v=${kv#*=}
  case $k in
    state) [ "$state" = "$v" ] || why="$why state=$state want $v;" ;;
    cause) [ "$cause" = "$v" ] || why="$why cause=$cause want $v;" ;;
    word|pc)
      want=$(val "$v") || nosym "$v"
      got=${!k}
      [ -n "$got" ] && [ $((got)) -eq $((want)) ] 2>/dev/null || why="$why $k=$got want $want;" ;;
    *) why="$why bad directive key $k;" ;;
  esac
done
while IFS= read -r text; do
  [ -n "$text" ] || continue
  while [[ $text =~ @([A-Za-z_][A-Za-z_0-9]*) ]]; do
    s=${BASH_REMATCH[1]}
    a=$(sym "$s") || nosym "@$s"
    text=${text//@$s/$a}
  done
  grep -qF -- "$text" "$con" || why="$why console lacks '$text';"
done < <(directive expect-console)
while IFS= read -r rk; do
  [ -n "$rk" ] || continue
  case $rk in
    *'>0') rn=${rk%>0} rop=gt rv=0 ;;
    *=*)   rn=${rk%%=*} rop=eq rv=${rk#*=} ;;
    *)     why="$why bad expect-referee '$rk';"; continue ;;
  esac
  rgot=$(sed -n "s/^kohaku-referee: $rn=\([0-9]*\)$/\1/p" "$err" | tail -n1)
  if [ -z "$rgot" ]; then why="$why no referee line for $rn;"
  elif [ $rop = gt ] && [ "$rgot" -le 0 ]; then why="$why referee $rn=$rgot want >0;"
  elif [ $rop = eq ] && [ "$rgot" -ne $((rv)) ]; then why="$why referee $rn=$rgot want $rv;"
  fi
done < <(directive expect-referee)

if [ -z "$why" ]; then
  echo "PASS: $tag"
else
  echo "FAIL: $tag$why (stop: ${stop#kohaku-stop: })"
fi
exit 0
