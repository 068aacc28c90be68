"""make bench runs on both interpreters and prints every figure beside its budget."""

import subprocess
import sys

ROOT = __file__.rsplit("/tests/", 1)[0]


def test_bench_prints_the_led_figures_for_both_interpreters():
    result = subprocess.run([sys.executable, "-m", "host.bench"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:4] == ["figure", "CPython", "MicroPython", "budget"]
    encode = next(l for l in lines if l.startswith("LED frame encode"))
    assert "pixels" in encode
    allocated = next(l for l in lines if l.startswith("LED frame: bytes allocated"))
    assert allocated.split()[-1] in ("within", "OVER")
