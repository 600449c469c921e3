#!/usr/bin/env bash
# build-qemu.sh — builds our QEMU (Debian's QEMU 7.2 source + the kohaku-sysnode machine in qemu/
# + the device model in model/) in a cache outside the tree, and points
# <out>/qemu/bin/qemu-system-riscv{32,64} at the result. Recipe: docs/design.md §8;
# the choices: docs/qemu.md.
#
# Usage: scripts/build-qemu.sh [OUT_DIR]        (OUT_DIR defaults to build)
# Env:   KOHAKU_CACHE   cache root (default ~/.cache/kohaku); this script uses $KOHAKU_CACHE/qemu
#        QEMU_JOBS      parallel compile jobs (default 2)
#        KOHAKU_MODEL_DIR  model sources (default model/)
#
# Cache layout ($KOHAKU_CACHE/qemu):
#   dl/           Debian's source package (qemu_7.2+dfsg.orig.tar.xz, the debian tarball, .dsc)
#   src/          ONE extracted, patched, configured tree; src/build is QEMU's build directory.
#                 Our files are copied in only when their content differs, so ninja rebuilds
#                 just what changed (seconds for a change to the machine or the model).
#   bin/<key>/    installed emulators, key = hash of everything that goes into them
#   lock          flock: one build at a time per cache
# When bin/<key> already exists the script only (re)points the links: a no-op build.
set -euo pipefail
# The whole script is one brace group, read completely before it runs: editing this file while a
# build is in progress cannot change what that build executes.
{

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$TOP/build}
case $OUT in /*) ;; *) OUT=$TOP/$OUT ;; esac
CACHE=${KOHAKU_CACHE:-$HOME/.cache/kohaku}/qemu
JOBS=${QEMU_JOBS:-2}
# The device model sources; another directory of the same layout (*.c, *.h, include/kmodel.h) can
# stand in while developing the glue before the model exists.
MODEL=${KOHAKU_MODEL_DIR:-$TOP/model}
EMUS=(qemu-system-riscv32 qemu-system-riscv64)
CONFIGURE_FLAGS=(--target-list=riscv32-softmmu,riscv64-softmmu --meson=meson --disable-docs
  --disable-tools --disable-guest-agent --without-default-features --disable-werror
  --disable-install-blobs)

log() { echo "build-qemu: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---- inputs -------------------------------------------------------------------------------------
# Everything that ends up in the emulators: "name<TAB>path" lines in a stable order, the name
# being what the hash sees (so the key does not depend on where the checkout lives).
inputs() {
  {
    echo "scripts/build-qemu.sh	$TOP/scripts/build-qemu.sh"
    (cd "$TOP" && find qemu/patches qemu/hw -type f) | sed "s#.*#&	$TOP/&#"
    (cd "$MODEL" && find . -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \);
     find include -maxdepth 1 -type f -name '*.h') | sed 's#^\./##' | sed "s#.*#model/&	$MODEL/&#"
    (cd "$TOP" && find include/kohaku -maxdepth 1 -type f -name '*.h') | sed "s#.*#&	$TOP/&#"
  } | LC_ALL=C sort
}

# The patches and configure line define the base tree; a change there means a fresh tree.
base_key() {
  (cd "$TOP" && { printf '%s\n' "${CONFIGURE_FLAGS[@]}"; find qemu/patches -name '*.patch' -type f |
    LC_ALL=C sort | while read -r f; do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-16)
}

full_key() {
  { printf '%s\n' "${CONFIGURE_FLAGS[@]}"; inputs | while IFS=$'\t' read -r name path; do
    echo "$name"; sha256sum < "$path"; done; } | sha256sum | cut -c1-16
}

link_bins() {
  local key=$1 e
  mkdir -p "$OUT/qemu/bin"
  for e in "${EMUS[@]}"; do
    if [ "$(readlink "$OUT/qemu/bin/$e" 2>/dev/null || true)" != "$CACHE/bin/$key/$e" ]; then
      ln -sfn "$CACHE/bin/$key/$e" "$OUT/qemu/bin/$e"
    fi
  done
  echo "$key" > "$OUT/qemu/key.tmp" && mv -f "$OUT/qemu/key.tmp" "$OUT/qemu/key"
}

installed() { [ -x "$CACHE/bin/$1/${EMUS[0]}" ] && [ -x "$CACHE/bin/$1/${EMUS[1]}" ]; }

KEY=$(full_key)
if installed "$KEY"; then
  link_bins "$KEY"
  exit 0
fi

# ---- build (under the cache lock) ---------------------------------------------------------------
mkdir -p "$CACHE/dl" "$CACHE/bin"
exec 9>"$CACHE/lock"
if ! flock -n 9; then
  log "waiting for another build of this cache ($CACHE/lock)"
  flock 9
fi
# Another build may have produced exactly this key while we waited.
if installed "$KEY"; then
  link_bins "$KEY"
  exit 0
fi

# Debian's source package. install-deps.sh adds the deb-src entry apt-get source needs.
orig=$(ls "$CACHE"/dl/qemu_7.2+dfsg.orig.tar.xz 2>/dev/null || true)
if [ -z "$orig" ]; then
  log "fetching Debian's qemu source package into $CACHE/dl"
  (cd "$CACHE/dl" && apt-get source --download-only qemu) ||
    die "apt-get source qemu failed: is there a deb-src entry? (scripts/install-deps.sh adds one)"
  orig=$(ls "$CACHE"/dl/qemu_7.2+dfsg.orig.tar.xz 2>/dev/null || true)
  [ -n "$orig" ] || die "the qemu source package in $CACHE/dl is not QEMU 7.2 ($(ls "$CACHE/dl"))"
fi

SRC=$CACHE/src
BASE=$(base_key)
if [ "$(cat "$SRC/.kohaku-base" 2>/dev/null || true)" != "$BASE" ]; then
  log "preparing a fresh tree in $SRC (first build takes about 5 minutes on 2 cores)"
  rm -rf "$SRC" "$CACHE/src.new"
  mkdir -p "$CACHE/src.new"
  tar -xJf "$orig" -C "$CACHE/src.new" --strip-components=1
  # Debian's own patches (debian/patches) are not applied: they fix Debian packaging, security
  # issues in devices we do not build, and other targets; the RISC-V TCG core is upstream's.
  for p in $(cd "$TOP" && find qemu/patches -name '*.patch' -type f | LC_ALL=C sort); do
    patch -d "$CACHE/src.new" -p1 --quiet --forward < "$TOP/$p" || die "patch $p does not apply"
  done
  mv "$CACHE/src.new" "$SRC"
fi

# Copy src to dst only when the bytes differ, so unchanged files keep their timestamps.
sync_file() {
  local src=$1 dst=$2
  if ! cmp -s "$src" "$dst"; then
    [ -e "$dst" ] && log "updated ${dst#"$SRC"/}"
    mkdir -p "$(dirname "$dst")"
    cp "$src" "$dst.tmp" && mv -f "$dst.tmp" "$dst"
  fi
}
# Write stdin to dst only when it differs.
sync_text() {
  local dst=$1 tmp
  tmp=$(mktemp)
  cat > "$tmp"
  if cmp -s "$tmp" "$dst"; then rm -f "$tmp"; else mkdir -p "$(dirname "$dst")"; mv -f "$tmp" "$dst"; fi
}

# Our machine (qemu/hw/... mirrors the QEMU tree).
(cd "$TOP/qemu" && find hw -type f) | while read -r f; do sync_file "$TOP/qemu/$f" "$SRC/$f"; done

# The model library: model/*.c and its headers, compiled into the machine's meson line.
MDIR=$SRC/hw/riscv/kohaku-model
declare -A want=()
for f in "$MODEL"/*.c "$MODEL"/*.h; do
  [ -e "$f" ] || continue
  sync_file "$f" "$MDIR/$(basename "$f")"; want["$(basename "$f")"]=1
done
for f in "$MODEL"/include/*.h; do
  [ -e "$f" ] || continue
  sync_file "$f" "$MDIR/include/$(basename "$f")"; want["include/$(basename "$f")"]=1
done
for f in "$TOP"/include/kohaku/*.h; do
  sync_file "$f" "$MDIR/top/kohaku/$(basename "$f")"; want["top/kohaku/$(basename "$f")"]=1
done
want[meson.build]=1
# A file removed from model/ must not linger in the tree.
if [ -d "$MDIR" ]; then
  (cd "$MDIR" && find . -type f | sed 's#^\./##') | while read -r f; do
    [ -n "${want[$f]:-}" ] || { rm -f "$MDIR/$f"; log "removed ${MDIR#"$SRC"/}/$f"; }
  done
fi
{
  echo "# Generated by scripts/build-qemu.sh: the device model library (model/) for kohaku-sysnode."
  printf 'kohaku_model_src = files('
  sep=''
  for f in "$MODEL"/*.c; do
    [ -e "$f" ] || continue
    printf "%s'%s'" "$sep" "$(basename "$f")"; sep=', '
  done
  echo ')'
  echo "kohaku_model_dep = declare_dependency(include_directories: include_directories('.', 'include', 'top'))"
} | sync_text "$MDIR/meson.build"

if [ ! -f "$SRC/build/build.ninja" ]; then
  log "configuring"
  (cd "$SRC" && ./configure "${CONFIGURE_FLAGS[@]}") > "$CACHE/configure.log" 2>&1 ||
    { tail -20 "$CACHE/configure.log" >&2; die "configure failed (log: $CACHE/configure.log)"; }
fi
echo "$BASE" > "$SRC/.kohaku-base"

log "building ${EMUS[*]} (-j$JOBS)"
ninja -C "$SRC/build" -j"$JOBS" "${EMUS[@]}" > "$CACHE/ninja.log" 2>&1 ||
  { grep -E -B2 -A8 'error|FAILED' "$CACHE/ninja.log" | head -60 >&2; die "ninja failed (log: $CACHE/ninja.log)"; }

# Install under the key, atomically: a directory that exists is complete.
rm -rf "$CACHE/bin/$KEY.new"
mkdir -p "$CACHE/bin/$KEY.new"
for e in "${EMUS[@]}"; do cp "$SRC/build/$e" "$CACHE/bin/$KEY.new/$e"; done
mv "$CACHE/bin/$KEY.new" "$CACHE/bin/$KEY"
# Keep the newest few installs (other checkouts may still point at them).
for old in $(ls -1t "$CACHE/bin" | tail -n +9); do
  [ "$old" = "$KEY" ] || rm -rf "${CACHE:?}/bin/$old"
done
link_bins "$KEY"
log "installed $CACHE/bin/$KEY"
exit 0
}
