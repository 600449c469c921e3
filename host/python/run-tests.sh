#!/usr/bin/env bash
# run-tests.sh — the kohaku package's suite (make test-suite-python-qemu-rv32 / -rv64,
# docs/python.md §7): installs the package with pip, offline, into a fresh venv that sees
# Debian's python3-numpy and python3-pytest (--system-site-packages), then runs its pytest suite
# against the firmware in QEMU on BOARD.
# Usage: host/python/run-tests.sh BOARD OUTDIR  -> PASS:/FAIL:/SKIP: lines on stdout (suite log)
set -u
board=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
case $out in /*) ;; *) out=$top/$out ;; esac
suite=python-$board
py=${PYTHON_DEBIAN:-/usr/bin/python3}      # Debian's: its python3-* packages are the only source
work=$out/tests/python/$board
rm -rf "$work" && mkdir -p "$work"

fail() { echo "FAIL: $suite/$1 $(tail -c 400 "$2" 2>/dev/null | tr '\n' '|')"; }

# A copy of the package's source: pip builds in the tree it installs from, and the two boards'
# suites must not share one.
cp -r host/python "$work/src" && rm -rf "$work/src/build" "$work/src/"*.egg-info

if ! "$py" -m venv --system-site-packages "$work/venv" > "$work/venv.log" 2>&1; then
  fail venv_create "$work/venv.log"; exit 0
fi
# --no-index: nothing may come from a package index; numpy (a dependency) must be Debian's.
if KOHAKU_LIBKOHAKU=$out/host/libkohaku.so "$work/venv/bin/pip" install --no-build-isolation --no-index \
     --disable-pip-version-check "$work/src" > "$work/pip.log" 2>&1; then
  echo "PASS: $suite/pip_install_offline"
else
  fail pip_install_offline "$work/pip.log"; exit 0
fi

# Run from the work directory so `import kohaku` can only find the installed package.
cd "$work" || exit 2
: > "$work/results.txt"
env -u KOHAKU_LIBKOHAKU PYTHONDONTWRITEBYTECODE=1 timeout 600 "$work/venv/bin/python" -m pytest -q \
  -p no:cacheprovider "$work/src/tests" --board="$board" --out="$out" --kohaku-log="$work/results.txt" \
  --suite="$suite" > "$work/pytest.out" 2>&1
rc=$?
cat "$work/results.txt"
case $rc in
  0|1) ;;    # every test reported itself (1: some failed)
  124) echo "HANG: $suite/pytest (600 s)" ;;
  *) fail "pytest_exit_$rc" "$work/pytest.out" ;;
esac
exit 0
