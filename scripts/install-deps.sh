#!/usr/bin/env bash
# Installs what building, running and testing need on a fresh Debian 12 machine.
# Idempotent: a machine that has everything does nothing but check.
set -euo pipefail

# tcl: tclsh runs the jtag link's server script (host/kohaku-jtag.tcl) over the stand-in Vivado
# commands in make test (tests/links/, docs/host.md).
# python3-*: the kohaku Python package (host/python/, docs/python.md) installs with pip, offline,
# into a venv that sees these (--system-site-packages): setuptools and wheel build it, numpy is
# its dependency, pytest runs its suite. Nothing comes from any other package index.
# newlib-source: scripts/build-newlib.sh builds newlib-nano from it (LIBC=newlib-nano); its
# configure needs only a host gcc and make besides the cross compiler (no texinfo: the build
# makes no documentation; no flex/bison).
PKGS=(
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
  newlib-source gcc make
  gdb-multiarch
  dpkg-dev ninja-build meson libglib2.0-dev libpixman-1-dev libfdt-dev pkg-config zlib1g-dev
  python3 xz-utils
  tcl
  python3-venv python3-pip python3-setuptools python3-wheel python3-numpy python3-pytest
  clang libclang-rt-14-dev
)

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# QEMU's recipe needs Debian's source package: add a deb-src entry of our own, matching the
# machine's Debian entry (never edit debian.sources itself).
SRC_LIST=/etc/apt/sources.list.d/kohaku-deb-src.sources
need_update=0
if [ ! -f "$SRC_LIST" ]; then
  uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1=="deb"{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
  [ -n "$uri" ] || { echo "install-deps: cannot find the Debian mirror URI" >&2; exit 1; }
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" "$suite" | $SUDO tee "$SRC_LIST" >/dev/null
  need_update=1
fi

if [ ${#missing[@]} -gt 0 ] || [ $need_update -eq 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
