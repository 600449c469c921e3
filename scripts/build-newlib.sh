#!/usr/bin/env bash
# build-newlib.sh — builds newlib 3.3.0 (Debian's newlib-source) in its nano configuration for
# the two library directories the firmware links (rv32im/ilp32, rv64im/lp64) with Debian's
# gcc-riscv64-unknown-elf, in a cache outside the tree, and points <out>/newlib-nano/sysroot
# at the result (the choices: docs/libc.md).
#
# Usage: scripts/build-newlib.sh [OUT_DIR]       (OUT_DIR defaults to build)
# Env:   KOHAKU_CACHE   cache root (default ~/.cache/kohaku); this script uses $KOHAKU_CACHE/newlib
#        NEWLIB_JOBS    parallel compile jobs (default 2)
#        NEWLIB_TARBALL the source tarball (default: the one newlib-source installs)
#
# Cache layout ($KOHAKU_CACHE/newlib):
#   <key>/rv32im/ilp32/{include,lib/libc.a,lib/libm.a}   built with $FLAGS_rv32 below
#   <key>/rv64im/lp64/{include,lib/libc.a,lib/libm.a}    built with $FLAGS_rv64 below
#   work/        scratch tree of a build in progress (removed after a build)
#   lock         flock: one build at a time per cache
# key = hash of this script, the source tarball and the compiler version: anything that changes
# the libraries gives a new directory. When <key> exists the script only (re)points the link.
#
# Each library directory is its own configure with explicit -march/-mabi and --disable-multilib:
# no multilib tree walk, so nothing compressed or float can come in by GCC's default directory
# (docs/design.md §8.2). RV32 is also built -mno-div: the RV32 core has no divider
# (check-image.sh refuses div/rem), so division goes to libgcc's shift-subtract routines.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$TOP/build}
case $OUT in /*) ;; *) OUT=$TOP/$OUT ;; esac
CACHE=${KOHAKU_CACHE:-$HOME/.cache/kohaku}/newlib
JOBS=${NEWLIB_JOBS:-2}
TARBALL=${NEWLIB_TARBALL:-/usr/src/newlib/newlib-3.3.0.tar.xz}
TARGET=riscv64-unknown-elf
CC=$TARGET-gcc
READELF=$TARGET-readelf

# The library directories (GCC's multilib names, as for picolibc) and their flags. The ISA/ABI
# flags match the firmware's variant (mk/firmware.mk FW_ARCH_*) minus the extensions the
# library never needs (A, Zicsr, Zifencei are not used by C code).
MULTIS=(rv32im/ilp32 rv64im/lp64)
declare -A ARCH=(
  [rv32im/ilp32]="-march=rv32im -mabi=ilp32 -mno-div"
  [rv64im/lp64]="-march=rv64im -mabi=lp64 -mcmodel=medany"
)
COMMON_CFLAGS="-Os -g -ffunction-sections -fdata-sections"
# The nano configuration (the usual embedded set): nano malloc and formatted I/O (no float
# printf unless _printf_float is linked on purpose), small reent, lite exit, global atexit,
# no wide-orientation, no iov in stream I/O, no fseek optimisation, no unbuffered-stream
# optimisation; no system calls from newlib (the firmware supplies its own: boot/libc/).
CONFIGURE_FLAGS=(--target=$TARGET --disable-multilib --disable-nls --enable-target-optspace
  --enable-newlib-nano-malloc --enable-newlib-nano-formatted-io --disable-newlib-io-float
  --enable-newlib-reent-small --enable-lite-exit --enable-newlib-global-atexit
  --disable-newlib-wide-orient --disable-newlib-fvwrite-in-streamio
  --disable-newlib-fseek-optimization --disable-newlib-unbuf-stream-opt
  --disable-newlib-supplied-syscalls)

log() { echo "build-newlib: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Variables of a calling make (LIBC=, O=, V=... in MAKEFLAGS) must not reach newlib's makefiles.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

[ -f "$TARBALL" ] || die "$TARBALL not found: install Debian's newlib-source (scripts/install-deps.sh)"
command -v "$CC" >/dev/null || die "$CC not found: install gcc-riscv64-unknown-elf (scripts/install-deps.sh)"

KEY=$({ cat "${BASH_SOURCE[0]}"; sha256sum < "$TARBALL"; "$CC" --version | head -n1; } | sha256sum | cut -c1-16)
DEST=$CACHE/$KEY

link_out() {
  mkdir -p "$OUT/newlib-nano"
  if [ "$(readlink "$OUT/newlib-nano/sysroot" 2>/dev/null || true)" != "$DEST" ]; then
    ln -sfn "$DEST" "$OUT/newlib-nano/sysroot"
  fi
  echo "$KEY" > "$OUT/newlib-nano/key.tmp" && mv -f "$OUT/newlib-nano/key.tmp" "$OUT/newlib-nano/key"
}
installed() {
  local m
  for m in "${MULTIS[@]}"; do [ -f "$DEST/$m/lib/libc.a" ] || return 1; done
}

if installed; then link_out; exit 0; fi

mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
if ! flock -n 9; then
  log "waiting for another build of this cache ($CACHE/lock)"
  flock 9
fi
# Another build may have produced exactly this key while we waited.
if installed; then link_out; exit 0; fi

start=$(date +%s)
WORK=$CACHE/work
rm -rf "$WORK" "$DEST.new"
mkdir -p "$WORK/src" "$DEST.new"
log "extracting $(basename "$TARBALL")"
# Debian's tarball has one top directory (not named newlib-3.3.0): strip it whatever its name.
tar -xJf "$TARBALL" -C "$WORK/src" --strip-components=1
[ -x "$WORK/src/configure" ] && [ -d "$WORK/src/newlib/libc" ] || die "$TARBALL is not a newlib source tree"

for m in "${MULTIS[@]}"; do
  b=$WORK/build-${m%%/*}
  mkdir -p "$b"
  cflags="${ARCH[$m]} $COMMON_CFLAGS"
  log "configuring $m ($cflags)"
  (cd "$b" && "$WORK/src/configure" "${CONFIGURE_FLAGS[@]}" --prefix="$WORK/inst-${m%%/*}" \
      CFLAGS_FOR_TARGET="$cflags" CCASFLAGS_FOR_TARGET="$cflags") > "$b/configure.log" 2>&1 ||
    { tail -20 "$b/configure.log" >&2; die "configure $m failed (log: $b/configure.log)"; }
  log "building $m (-j$JOBS)"
  # Only newlib: libgloss (board support, crt0, system calls) is the firmware's own business.
  make -C "$b" -j"$JOBS" all-target-newlib > "$b/build.log" 2>&1 ||
    { grep -E -B2 -A8 'error|Error' "$b/build.log" | head -60 >&2; die "build $m failed (log: $b/build.log)"; }
  make -C "$b" install-target-newlib > "$b/install.log" 2>&1 ||
    { tail -20 "$b/install.log" >&2; die "install $m failed (log: $b/install.log)"; }
  mkdir -p "$DEST.new/$m"
  mv "$WORK/inst-${m%%/*}/$TARGET/include" "$WORK/inst-${m%%/*}/$TARGET/lib" "$DEST.new/$m/"
  # Every object must be plain integer code: e_flags 0 means no RVC and the soft-float ABI.
  flags=$("$READELF" -h "$DEST.new/$m/lib/libc.a" "$DEST.new/$m/lib/libm.a" |
          awk '/^ *Flags:/ { print $2 }' | sort -u | tr '\n' ' ')
  [ "$flags" = "0x0 " ] || die "$m: objects with ELF flags '$flags' (want only 0x0: no RVC, soft float)"
  want_class=ELF${m:2:2}
  class=$("$READELF" -h "$DEST.new/$m/lib/libc.a" | awk '/^ *Class:/ { print $2 }' | sort -u | tr '\n' ' ')
  [ "$class" = "$want_class " ] || die "$m: objects of class '$class' (want $want_class)"
done

# Publish atomically: a <key> directory that exists is complete.
mv "$DEST.new" "$DEST"
rm -rf "$WORK"
# Keep the newest few builds (other checkouts may still point at them).
for old in $(cd "$CACHE" && ls -1td -- */ 2>/dev/null | sed 's#/$##' | tail -n +5); do
  [ "$old" = "$KEY" ] || rm -rf "${CACHE:?}/$old"
done
link_out
log "installed $DEST in $(( $(date +%s) - start )) s"
