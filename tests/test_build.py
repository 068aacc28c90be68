"""make build: the Pico's filesystem in build/, and the flash command line."""

import json
import re
from pathlib import Path

import pytest

from host.pico import build as b

ROOT = Path(__file__).resolve().parent.parent


def make_root(tmp_path, config=None):
    """A small project: firmware with main.py and a package, two boards, a pin map."""
    root = tmp_path / "project"
    (root / "firmware" / "rules").mkdir(parents=True)
    (root / "firmware" / "main.py").write_text("import rules.game\n")
    (root / "firmware" / "boot.py").write_text("pass\n")
    (root / "firmware" / "rules" / "__init__.py").write_text("")
    (root / "firmware" / "rules" / "game.py").write_text("X = 1\n")
    (root / "firmware" / "rules" / "notes.md").write_text("not for the Pico\n")
    (root / "firmware" / "rules" / "__pycache__").mkdir()
    (root / "firmware" / "rules" / "__pycache__" / "game.cpython-311.pyc").write_bytes(b"x")
    if config is not None:
        (root / "firmware" / "config.json").write_text(json.dumps(config))
    (root / "boards").mkdir()
    (root / "boards" / "alpha.json").write_text('{\n  "name": "Alpha",\n  "spaces": [1, 2]\n}\n')
    (root / "boards" / "beta.json").write_text('{"name": "Beta"}')
    (root / "boards" / "alpha.md").write_text("notes\n")
    (root / "hardware").mkdir()
    (root / "hardware" / "pins.json").write_text('{\n "pixels": 2\n}\n')
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.2.3"\n')
    return root


def test_the_build_is_the_picos_filesystem(tmp_path):
    root = make_root(tmp_path, config={"board": "beta", "players": 3})
    out = tmp_path / "build"
    files = b.build(out, root=root)
    assert sorted(files) == [
        ".flashed", "boards/alpha.json", "boards/beta.json", "boot.py", "config.json", "hardware/pins.json",
        "main.py", "rules/__init__.mpy", "rules/game.mpy",
    ]
    # the list of the build's files that make flash leaves on the Pico, to know them again
    assert (out / ".flashed").read_text().splitlines() == sorted(files)[1:]
    assert (out / "package.json").is_file()  # the mip manifest, beside what goes onto the Pico
    # main.py and boot.py stay source, as MicroPython runs only those; the rest is bytecode
    assert (out / "main.py").read_text() == "import rules.game\n"
    assert (out / "rules" / "game.mpy").read_bytes()[:2] == b"M\x06"
    # data files minified, same content
    assert (out / "boards" / "alpha.json").read_text() == '{"name":"Alpha","spaces":[1,2]}'
    assert json.loads((out / "hardware" / "pins.json").read_text()) == {"pixels": 2}
    # firmware's own config.json is the one the Pico gets
    assert json.loads((out / "config.json").read_text()) == {"board": "beta", "players": 3}


def test_a_stale_build_is_replaced(tmp_path):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    (out / "rules").mkdir(parents=True)
    (out / "rules" / "gone.mpy").write_bytes(b"old")
    b.build(out, board="alpha", root=root)
    assert not (out / "rules" / "gone.mpy").exists()


def test_the_board_is_chosen_in_the_config(tmp_path):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    b.build(out, board="alpha", root=root)
    config = json.loads((out / "config.json").read_text())
    assert config == dict(b.DEFAULT_CONFIG, board="alpha")
    with pytest.raises(b.BuildError, match=r"no board 'gamma' \(known: alpha, beta\)"):
        b.build(out, board="gamma", root=root)


def test_the_led_budget_is_written_and_a_config_the_board_would_refuse_is_refused_here(tmp_path):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    b.build(out, board="alpha", root=root, led_ma=1800)
    assert json.loads((out / "config.json").read_text())["led_ma"] == 1800
    root = make_root(tmp_path / "other", config={"board": "alpha", "led_ma": "bright"})
    with pytest.raises(b.BuildError, match="config.json: field 'led_ma' must be int"):
        b.build(out, root=root)


def test_the_mip_manifest_lists_every_file_but_itself(tmp_path):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    files = b.build(out, board="alpha", root=root)
    manifest = json.loads((out / "package.json").read_text())
    assert manifest["version"] == "1.2.3"
    assert manifest["urls"] == [[rel, rel] for rel in sorted(files)]
    for _, url in manifest["urls"]:
        assert (out / url).is_file()  # relative to the manifest, as mip reads it


def test_the_real_firmware_builds_and_every_module_is_bytecode(tmp_path):
    out = tmp_path / "build"
    files = b.build(out)
    sources = [p.relative_to(ROOT / "firmware").as_posix() for p in (ROOT / "firmware").rglob("*.py")]
    for rel in sources:
        if rel in b.SOURCE_ONLY:
            assert rel in files
        else:
            assert rel[:-3] + ".mpy" in files, rel
    assert not [rel for rel in files if rel.endswith(".py") and rel not in b.SOURCE_ONLY]
    text = b.report(files, "detour")
    assert "detour" in text and "total" in text
    # a whole build fits the Pico's filesystem many times over
    assert sum(files.values()) < b.PICO_FLASH_BYTES // 4


def test_flash_copies_the_build_but_not_the_manifest_and_resets(tmp_path):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    b.build(out, board="alpha", root=root)
    command = b.flash_command("/dev/ttyACM0", out)
    assert command[1:3] == ["connect", "/dev/ttyACM0"]
    copy = command.index("cp")
    assert command[copy:copy + 2] == ["cp", "-r"]
    assert command[copy + 2:command.index(":", copy)] == [
        str(out / name) for name in (".flashed", "boards", "boot.py", "config.json", "hardware", "main.py", "rules")]
    assert command[-2:] == ["+", "reset"]
    assert "rm" not in command and "exec" not in command  # the saved game stays; nothing to remove
    fresh = b.flash_command("/dev/ttyACM0", out, fresh=True)
    assert fresh[3:7] == ["rm", "-r", ":", "+"]


def test_flash_refuses_an_empty_build(tmp_path):
    with pytest.raises(b.BuildError, match="make build"):
        b.flash_command("/dev/ttyACM0", tmp_path)


class Port:
    def __init__(self, device, vid):
        self.device = device
        self.vid = vid


def test_the_port_is_the_one_pico_plugged_in(monkeypatch):
    from serial.tools import list_ports

    ports = [Port("/dev/ttyUSB0", 0x10C4), Port("/dev/ttyACM1", b.PICO_VID)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert b.find_port() == "/dev/ttyACM1"
    ports.append(Port("/dev/ttyACM2", b.PICO_VID))
    with pytest.raises(b.BuildError, match="several Picos.*ttyACM1, /dev/ttyACM2"):
        b.find_port()
    ports[:] = [Port("/dev/ttyUSB0", 0x10C4)]
    with pytest.raises(b.BuildError, match="no Pico running MicroPython.*data cable.*flashing.md.*"
                                           "/dev/ttyACM0.*make repl PORT=/dev/ttyACM0"):
        b.find_port("make repl")


def test_a_port_that_does_not_exist_is_named_before_mpremote_tries_it(capsys):
    assert b.main(["flash", "--port", "/dev/ttyACM77"]) == 2
    assert capsys.readouterr().err.startswith("error: there is no port /dev/ttyACM77: is the Pico plugged in?")


def test_make_passes_port_fresh_and_board_on():
    import subprocess

    dry = subprocess.run(["make", "-n", "flash", "PORT=/dev/ttyACM3", "FRESH=1", "BOARD=mehen"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "-m host.pico.build --board mehen" in dry
    assert "--led-ma 1800" in subprocess.run(["make", "-n", "build", "LED_MA=1800"], cwd=ROOT, capture_output=True,
                                             text=True, check=True).stdout
    assert "-m host.pico.build flash --port /dev/ttyACM3 --fresh" in dry
    plain = subprocess.run(["make", "-n", "flash", "FRESH=0"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "--fresh" not in plain and "--port" not in plain


def test_flash_refuses_a_build_that_leaves_no_room_for_the_games(tmp_path, monkeypatch):
    root = make_root(tmp_path)
    out = tmp_path / "build"
    b.build(out, board="alpha", root=root)
    free, needed = b.room_left({"boards/alpha.json": 1, "boards/beta.json": 1})
    assert needed == 2 * (3 * 48 * 1024 + 4 * 4096) + 8192  # two boards' long records, saves, error.log
    (out / "rules" / "big.bin").write_bytes(b"x" * (b.PICO_FLASH_BYTES - needed))
    (out / b.FLASHED).write_text((out / b.FLASHED).read_text() + "rules/big.bin\n")
    monkeypatch.setattr(b, "ask_pico", lambda port: pytest.fail("the Pico was asked"))
    with pytest.raises(b.BuildError, match="saves and records of its 2 boards need 328 KiB"):
        b.flash("/dev/ttyACM0", out)


def test_make_help_lines_its_descriptions_up_and_clean_removes_the_emulated_picos_files():
    import subprocess

    lines = [line for line in subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True,
                                             check=True).stdout.splitlines() if line.startswith("  make ")]
    columns = {re.match(r"  make \S+ +", line).end() for line in lines if "variables:" not in line}
    assert len(lines) > 20 and len(columns) == 1  # every description starts in one column
    clean = subprocess.run(["make", "-n", "clean"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert " .vpico" in clean
