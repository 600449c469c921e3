"""Fixtures for the kohaku package's tests (docs/python.md §7).

Options (or environment): --board (KOHAKU_BOARD, default qemu-rv32), --out (KOHAKU_OUT, the
build directory with qemu/bin and BOARD/fw.elf), --kohaku-log FILE and --suite NAME: one
``PASS: NAME/test`` / ``FAIL: NAME/test reason`` / ``SKIP: NAME/test reason`` line per test
into FILE, the format of every suite of `make test` (scripts/test-summary.sh).

Fixtures: ``qemu`` starts QEMU for the board (module scope) and stops it after the module;
``node`` is a :class:`kohaku.Node` on it with the firmware booted; ``fresh_node`` a node of its
own QEMU for one test (for tests that stop or break the firmware).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import kohaku


def pytest_addoption(parser):
    g = parser.getgroup("kohaku")
    g.addoption("--board", default=os.environ.get("KOHAKU_BOARD", "qemu-rv32"))
    g.addoption("--out", default=os.environ.get("KOHAKU_OUT", "build"))
    g.addoption("--kohaku-log", default=os.environ.get("KOHAKU_TEST_LOG"))
    g.addoption("--suite", default=None)


# ---- PASS/FAIL lines for scripts/test-summary.sh ----

_results = {}


def pytest_runtest_logreport(report):
    cfg = _config
    path = cfg.getoption("--kohaku-log") if cfg else None
    if not path:
        return
    file, _, test = report.nodeid.partition("::")
    name = f"{Path(file).stem}.{test.replace('::', '.')}"
    prev = _results.get(report.nodeid)
    line = None
    if report.failed and prev != "FAIL":
        why = " ".join(str(report.longrepr).splitlines()[-1:])[:400] if report.longrepr else ""
        line = f"FAIL: {_suite()}/{name} ({report.when}) {why}"
        _results[report.nodeid] = "FAIL"
    elif report.skipped and report.when in ("setup", "call") and prev is None:
        why = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        line = f"SKIP: {_suite()}/{name} {why}"
        _results[report.nodeid] = "SKIP"
    elif report.when == "call" and report.passed and prev is None:
        line = f"PASS: {_suite()}/{name}"
        _results[report.nodeid] = "PASS"
    if line:
        with open(path, "a") as f:
            f.write(line + "\n")


_config = None


def pytest_configure(config):
    global _config
    _config = config


def _suite() -> str:
    return _config.getoption("--suite") or f"python-{_config.getoption('--board')}"


# ---- fixtures ----

@pytest.fixture(scope="session")
def board(request) -> str:
    return request.config.getoption("--board")


@pytest.fixture(scope="session")
def out(request) -> Path:
    return Path(request.config.getoption("--out")).resolve()


@pytest.fixture(scope="session")
def firmware(board, out) -> Path:
    fw = kohaku.firmware_path(board, out)
    assert fw.is_file(), f"{fw} is missing: make BOARD={board} firmware"
    return fw


@pytest.fixture(scope="session")
def variant(board) -> int:
    return 64 if board.endswith("rv64") else 32


@pytest.fixture(scope="module")
def qemu(board, out, tmp_path_factory):
    q = kohaku.Qemu(board, out, workdir=tmp_path_factory.mktemp("qemu"))
    yield q
    q.stop()


@pytest.fixture(scope="module")
def node(qemu, firmware):
    with kohaku.Node(qemu.link) as n:
        n.boot(firmware)
        yield n


@pytest.fixture
def fresh_node(board, out, firmware, tmp_path):
    with kohaku.Qemu(board, out, workdir=tmp_path / "qemu") as q, kohaku.Node(q.link) as n:
        n.boot(firmware)
        n.qemu = q
        yield n
