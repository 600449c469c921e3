#!/bin/sh
# size.sh — bytes of text each dispatch/ object puts into a linked image (docs/dispatch.md
# "Size"), from the linker map: the .text input sections kept after --gc-sections, summed per
# object. Usage: size.sh <map>   (make dispatch-size links the maps it reads)
set -eu
map=$1
# Input sections are " .text.x 0xADDR 0xSIZE obj" or " .text.x" with the rest on the next line;
# only the memory map part (after "Linker script and memory map") counts, not the discarded list.
awk '/^Linker script and memory map/ { m = 1; next }
     !m { next }
     pend != "" { if ($1 ~ /^0x/ && NF == 3) print $2, $3; pend = ""; next }
     /^ \.text/ { if (NF == 1) { pend = $1; next } if (NF == 4) print $3, $4 }' "$map" |
  grep -E '\((dispatch|enum|recover|wait)\.c\.o\)$' | {
    total=0; objs=""
    while read -r size obj; do
      o=${obj##*(}; o=${o%)}
      eval "n=\${sz_$(echo "$o" | tr -c 'a-z0-9\n' _):-0}"
      eval "sz_$(echo "$o" | tr -c 'a-z0-9\n' _)=$((n + size))"
      case " $objs " in *" $o "*) ;; *) objs="$objs $o";; esac
      total=$((total + size))
    done
    for o in $objs; do eval "printf '%6d %s\n' \"\$sz_$(echo "$o" | tr -c 'a-z0-9\n' _)\" $o"; done
    printf '%6d dispatch/ total\n' "$total"
    # The hot part: what is not meant to run as cold code (docs/rv32-size.md): enum.c
    # (enumeration), recover.c (failure-only paths) and wait.c (their waits and reads).
    eval "cold=\$(( \${sz_enum_c_o:-0} + \${sz_recover_c_o:-0} + \${sz_wait_c_o:-0} ))"
    printf '%6d without enum.c, recover.c and wait.c (the native part)\n' "$((total - cold))"
  }
