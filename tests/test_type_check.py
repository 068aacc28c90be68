"""firmware/ type-checks against MicroPython's own stubs for the Pico (pyright)."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYRIGHT = os.path.join(ROOT, "node_modules", ".bin", "pyright")


def pyright(*files):
    assert os.path.isdir(os.path.join(ROOT, ".stubs")), "the MicroPython stubs are missing: run make setup"
    assert os.path.exists(PYRIGHT), "pyright is missing: run make setup"
    return subprocess.run([PYRIGHT, "-p", os.path.join(ROOT, "pyproject.toml"), *files],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_firmware_type_checks_against_the_pico_stubs():
    result = pyright()
    assert result.returncode == 0, result.stdout[-4000:]


def test_a_machine_call_that_does_not_exist_fails_the_check(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import machine\nmachine.Pin(2).value(1)\nmachine.Pin(2).no_such_method()\n")
    result = pyright(str(bad))
    assert result.returncode != 0
    assert "no_such_method" in result.stdout and ":2:" not in result.stdout
