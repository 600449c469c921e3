"""The example that reproduces `make run` runs, checks its data, and leaves nothing running."""
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "softmax_demo.py"


def test_softmax_demo_example(board, out):
    r = subprocess.run([sys.executable, str(EXAMPLE), "--board", board, "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-1500:] + r.stderr[-1500:]
    pid = int(r.stdout.split("qemu pid ", 1)[1].split(",", 1)[0])
    assert "check: data correct" in r.stdout and "clean stop" in r.stdout
    assert "move 0: OK" in r.stdout and "move 1: OK" in r.stdout
    assert not Path(f"/proc/{pid}").exists(), "the example's QEMU is still running"
