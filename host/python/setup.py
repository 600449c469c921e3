"""Puts libkohaku.so into the package being built (pyproject.toml has the metadata).

The library is the C host library of this repository built as a shared object (`make host-so`,
rule in host/host.mk); KOHAKU_LIBKOHAKU names it, else ../../build/host/libkohaku.so. The wheel
is tagged for this platform because it carries native code.
"""
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        src = Path(os.environ.get("KOHAKU_LIBKOHAKU") or HERE / ".." / ".." / "build" / "host" / "libkohaku.so")
        if not src.is_file():
            raise SystemExit(f"kohaku: {src} not found: build it with `make host-so` (or set KOHAKU_LIBKOHAKU)")
        dst = Path(self.build_lib) / "kohaku" / "libkohaku.so"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


class NativeDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=NativeDistribution)
