"""The virtual Pico against stock mpremote: files, soft resets, Ctrl-C; and
the firmware on it: `make flash` of the .mpy build, the real main.py booting
to its first lit frame, a die press, the saved game across flashes and
watchdog restarts, configuration errors, Ctrl-C leaving a usable REPL.

What the Pico lights is compared with the simulator: a Rig (hal.simulated)
runs the same game in CPython. The pictures breathe and blink with the time,
so each device frame is compared with the Rig's picture painted for the same
moment: the virtual Pico sends with every frame the last time.ticks_ms() the
program read, which in main.py's loop is the time the frame was painted for,
and every animation of a board at rest repeats after CYCLE_MS, so the Rig
paints that moment of a later cycle. A blinking alert is off half the time,
so a picture is compared frame by frame over a whole blink period (WATCH_MS).
"""

import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import colours as C
from app import device, startup
from app.keeper import Keeper
from app.paint import paint
from hal.pixels import Pixels
from hal.sensors import PLACE_MS
from hal.simulated import Bytes, Rig
from host import build as b
from host.vpico import VirtualPico
from rules.games import new_game

ROOT = Path(__file__).resolve().parent.parent
MPREMOTE = Path(sys.executable).parent / "mpremote"
FIRMWARE_PACKAGES = tuple(sorted(p.name for p in (ROOT / "firmware").iterdir() if (p / "__init__.py").exists()))
BOARD = b.DEFAULT_CONFIG["board"]
# the periods app/paint.py animates a board at rest with: breathing, and blinks (on + off)
CYCLE_MS = math.lcm(C.BREATHE_MS, 2 * C.BLINK_FAST_MS, 2 * C.BLINK_MS, 4 * C.FLASH_MS, 2 * C.SLOW_MS)
WATCH_MS = 2 * C.BLINK_MS
SETTLED_MS = 1600  # after a roll: the tumble and the events' flashes are over
SETTLE_MS = 2 * PLACE_MS  # after a start: the piece sensors have reported the pieces standing


def make_build(out, source=False):
    b.build(out, source=source)
    (out / b.MANIFEST).unlink()  # beside the build, never on the Pico
    return out


def mpremote(port, *args, timeout=60):
    result = subprocess.run([str(MPREMOTE), "connect", port, *args], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def flash(pico, build_dir, fresh=False):
    """make flash, then wait for the reset it ends with (mpremote leaves before the Pico resets)."""
    resets = len(pico.status()["resets"])
    command = [sys.executable, "-m", "host.build", "flash", "--port", pico.port, "--out", str(build_dir)]
    result = subprocess.run(command + (["--fresh"] if fresh else []), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    wait_for(lambda: len(pico.status()["resets"]) > resets, 5)
    assert pico.status()["resets"][resets:] == ["reset"]
    return result.stdout


def wait_for(condition, timeout):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def mark(pico):
    """(frames sent, boots) so far: what came after is new."""
    status = pico.status()
    return status["frames"], len(status["boots"])


def first_frame(pico, since):
    """The first frame of a boot after ``since`` (a ``mark``): what main.py lit first."""
    n, boots = since
    while True:
        frame = pico.wait_frame(n, timeout=10)
        assert frame is not None, "main.py lit no pixel"
        if frame["boot"] > boots:
            return frame
        n = frame["n"] + 1


def watch(pico, since, after_ms=0):
    """The frames of ``since``'s boot over WATCH_MS of the device's clock,
    from ``after_ms`` after frame ``since``."""
    frames = []
    n = since["n"]
    while True:
        frame = pico.wait_frame(n, timeout=10)
        assert frame is not None and frame["boot"] == since["boot"]
        t = frame["ticks"] - since["ticks"]
        if t >= after_ms + WATCH_MS:
            return frames
        if t >= after_ms:
            frames.append(frame)
        n = frame["n"] + 1


def wire(count, *lit):
    """The wire bytes hal.pixels sends for ``count`` pixels with ``lit`` = (index, r, g, b)..."""
    sent = []
    pixels = Pixels(count, sent.append)
    for led in lit:
        pixels.set(*led)
    pixels.show()
    return bytes(sent[0])


def fresh_game(board=BOARD):
    with open(ROOT / "boards" / ("%s.json" % board)) as f:
        data = json.load(f)
    return new_game(data["game"], data, b.DEFAULT_CONFIG["players"], b.DEFAULT_CONFIG["options"])


def painted(rig, ticks):
    """The wire bytes of the Rig's picture at the device's moment ``ticks``."""
    t = ticks + CYCLE_MS * ((rig.now - ticks) // CYCLE_MS + 1)
    paint(rig.ctl, t)
    rig.ctl.ports.pixels.encode()
    return bytes(rig.ctl.ports.pixels.wire).hex()


def shows(frames, rig):
    """Whether every device frame is the Rig's picture at the moment it was painted for."""
    return all(painted(rig, frame["ticks"]) == frame["hex"] for frame in frames)


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return make_build(tmp_path_factory.mktemp("vpico") / "build")


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    with VirtualPico(tmp_path_factory.mktemp("vpico") / "flash") as pico:
        yield pico


# ---- stock mpremote against an empty virtual Pico --------------------------------------

def test_mpremote_lists_runs_and_sizes_an_empty_pico(pico):
    assert mpremote(pico.port, "fs", "ls").split() == ["ls", ":"]
    assert mpremote(pico.port, "exec", "print(6 * 7)") == "42\n"
    # the Pico's 1408 KiB filesystem
    assert "1441792" in mpremote(pico.port, "df")


def test_files_go_both_ways_and_errors_read_as_on_a_pico(pico, tmp_path):
    text = tmp_path / "note.txt"
    text.write_text("a line\n")
    out = mpremote(pico.port, "fs", "mkdir", ":notes", "+", "fs", "cp", str(text), ":notes/", "+", "fs", "ls", ":notes")
    assert out.split("ls :notes")[1].split() == ["7", "note.txt"]
    assert (pico.flash / "notes" / "note.txt").read_text() == "a line\n"  # kept on the host
    cat = subprocess.run([str(MPREMOTE), "connect", pico.port, "cat", ":notes/note.txt"], capture_output=True, timeout=30)
    assert cat.stdout == b"a line\r\n"  # printed text goes out with \r\n, as rp2 sends it
    back = tmp_path / "back.txt"
    mpremote(pico.port, "fs", "cp", ":notes/note.txt", str(back))
    assert back.read_text() == "a line\n"
    missing = subprocess.run([str(MPREMOTE), "connect", pico.port, "cat", ":nope"], capture_output=True, text=True, timeout=30)
    assert missing.returncode == 1 and "No such file or directory" in missing.stdout + missing.stderr
    error = subprocess.run([str(MPREMOTE), "connect", pico.port, "exec", "open('nope')"], capture_output=True, text=True, timeout=30)
    assert "OSError: [Errno 2] ENOENT" in error.stdout  # Linux's errno, as MicroPython on the Pico has it
    mpremote(pico.port, "rm", "-r", ":notes")
    assert not (pico.flash / "notes").exists()


def test_a_soft_reset_is_a_fresh_interpreter_with_the_same_files_and_boot_py(pico, tmp_path):
    boot = tmp_path / "boot.py"
    boot.write_text("import builtins\nbuiltins.BOOTED = True\n")
    mpremote(pico.port, "fs", "cp", str(boot), ":boot.py")
    out = mpremote(pico.port, "exec", "x = 5", "+", "soft-reset", "+", "exec", "print('x' in globals(), BOOTED)")
    assert out == "False True\n"
    mpremote(pico.port, "rm", ":boot.py")


# ---- the firmware on the virtual Pico ---------------------------------------------------

def test_flash_puts_the_build_on_and_main_boots_to_the_simulators_picture(pico, build_dir):
    since = mark(pico)
    out = flash(pico, build_dir)
    first = first_frame(pico, since)
    on_pico = sorted(p.relative_to(pico.flash).as_posix() for p in pico.flash.rglob("*") if p.is_file())
    in_build = sorted(p.relative_to(build_dir).as_posix() for p in build_dir.rglob("*") if p.is_file())
    assert set(in_build) == set(on_pico) - {"game.sav", "game.jsonl"}, out
    assert {"game.sav", "game.jsonl"} <= set(on_pico)  # a new game, saved
    assert not (build_dir / "hal" / "simulated.mpy").exists()  # the PC's simulated board stays behind
    assert first["gpio"] == json.loads((build_dir / "hardware" / "pins.json").read_text())["pixels"]
    assert first["timing"] == [400, 850, 800, 450]  # WS2812B at 800 kHz
    # the real main.py's first frame: the picture the simulator shows for the same game
    assert shows([first], Rig(fresh_game(), Bytes([0])))
    # and once the wheel contacts have been read: the virtual wheels stand where a new game has them
    assert shows(watch(pico, first, SETTLE_MS), Rig(fresh_game(), Bytes([0])))


def test_a_die_press_rolls_and_lights_what_the_simulator_lights_for_that_roll(pico):
    record = pico.flash / "game.jsonl"
    pico.click("die1")
    wait_for(lambda: len(record.read_text().splitlines()) == 2, 5)
    # the same roll in the Rig (the Pico's own record says what it rolled)
    dice = [int(d) for d in json.loads(record.read_text().splitlines()[1])["roll"].split(",")]
    rig = Rig(fresh_game(), Bytes([d - 1 for d in dice]))
    rig.press(0)
    assert rig.game.legal()  # rolled: a move is awaited
    # the first turn needs the player's pieces on their START: put them there on both boards
    counts = rig.game.occupancy()
    for s in range(len(counts)):
        if counts[s]:
            pico.place(rig.game.board.sensor_of[s])
            rig.sim.put(s)
    rig.run(SETTLED_MS)
    time.sleep(SETTLED_MS / 1000)
    frames = watch(pico, pico.wait_frame(pico.status()["frames"]))
    assert shows(frames, rig)
    assert not shows(frames, Rig(fresh_game(), Bytes([0])))  # not the picture before the roll


def test_ctrl_c_stops_the_game_and_its_watchdog_and_the_repl_is_free(pico):
    # main.py is in its loop, under the watchdog, since the die press
    started = time.monotonic()
    # resume: no soft reset, so what main.py left behind is still there
    loaded = ("import sys, machine; print(machine.mem32[0x40058000] >> 30 & 1, "
              "sorted(m.__file__ for m in sys.modules.values() if getattr(m, '__file__', '').split('/')[0] in %r))")
    out = mpremote(pico.port, "resume", "exec", loaded % (FIRMWARE_PACKAGES,), timeout=20)
    assert time.monotonic() - started < 5
    enabled, files = out.split(" ", 1)
    assert enabled == "0"  # the watchdog's ENABLE bit: stopped with the loop
    files = eval(files)
    assert "app/device.mpy" in files and "hal/pixels.mpy" in files  # main.py ran on the precompiled modules ...
    assert all(f.endswith(".mpy") for f in files), files  # ... and only on them
    # the start-up code was unloaded once the game ran, leaving its RAM to the game
    assert "app/startup.mpy" not in files and "hal/pins.mpy" not in files


def test_piece_sensors_read_through_the_74hc165_chain(pico):
    pico.place(5)
    pico.place(12)
    code = (
        "import json\n"
        "from machine import Pin\n"
        "from hal.sensors import ShiftIn\n"
        "p = json.load(open('/hardware/pins.json'))\n"
        "s = ShiftIn(Pin(p['sensor_latch'], Pin.OUT), Pin(p['sensor_clock'], Pin.OUT), Pin(p['sensor_data'], Pin.IN), 2)\n"
        "print(list(s.read()))\n"
    )
    try:
        out = mpremote(pico.port, "resume", "exec", code)
    finally:
        pico.lift(5)
        pico.lift(12)
    # a piece closes its switch to ground: input D5 of chip 0 and D4 of chip 1 read 0
    assert out == "[%d, %d]\n" % (0xFF & ~(1 << 5), 0xFF & ~(1 << 4))


def test_the_wiring_checks_of_the_flashing_guide_run(pico):
    # hardware/flashing.md's commands: pixel 0 dim red (sent G, R, B), the two die buttons
    guide = (ROOT / "hardware" / "flashing.md").read_text()
    light, buttons = [line.split('exec "')[1][:-1] for line in guide.splitlines() if "mpremote exec" in line]
    before = pico.status()["frames"]
    mpremote(pico.port, "resume", "exec", light)
    assert pico.wait_frame(before, timeout=5)["hex"] == "001000"
    pico.press("die2")
    try:
        assert mpremote(pico.port, "resume", "exec", buttons) == "1 0\n"
    finally:
        pico.release("die2")


def test_a_second_flash_keeps_the_saved_game_and_the_pico_resumes_it(pico, build_dir, tmp_path):
    # what main.py saved, and a file of the player's own: neither is in the build
    mine = tmp_path / "notes.txt"
    mine.write_text("keep me\n")
    mpremote(pico.port, "fs", "cp", str(mine), ":notes.txt")
    in_build = {p.relative_to(build_dir).as_posix() for p in build_dir.rglob("*") if p.is_file()}
    kept = {p.relative_to(pico.flash).as_posix(): p.read_bytes() for p in pico.flash.rglob("*")
            if p.is_file() and p.relative_to(pico.flash).as_posix() not in in_build}
    since = mark(pico)
    out = flash(pico, build_dir)
    assert "Up to date: ./rules/core.mpy" in out  # unchanged files are not copied again
    assert "removed" not in out
    for rel, data in kept.items():
        assert (pico.flash / rel).read_bytes() == data, rel
    # the board shows the rolled game, not a new one
    frames = watch(pico, first_frame(pico, since), SETTLE_MS)
    resumed, note = Keeper("%s/" % pico.flash).resume(fresh_game())
    assert resumed is not None and resumed.phase != fresh_game().phase, note
    assert shows(frames, Rig(resumed, Bytes([0])))
    assert not shows(frames, Rig(fresh_game(), Bytes([0])))


def test_a_hung_game_loop_is_restarted_by_the_watchdog_and_the_game_resumes(pico):
    saved = (pico.flash / "game.sav").read_bytes()
    resets = len(pico.status()["resets"])
    since = mark(pico)
    # the real loop of app.device, with a tick that never returns and a short watchdog
    hang = (
        "import time, app.device as d\n"
        "class Hung:\n"
        "    def tick(self, now):\n"
        "        while True:\n"
        "            time.ticks_ms()\n"
        "d.WATCHDOG_MS = 300\n"
        "d.play(Hung())\n"
    )
    mpremote(pico.port, "exec", "--no-follow", hang)
    wait_for(lambda: len(pico.status()["resets"]) > resets, 5)
    assert pico.status()["resets"][resets:] == ["watchdog"]
    frames = watch(pico, first_frame(pico, since), SETTLE_MS)
    assert (pico.flash / "game.sav").read_bytes() == saved
    resumed, _ = Keeper("%s/" % pico.flash).resume(fresh_game())
    assert shows(frames, Rig(resumed, Bytes([0])))
    assert "restarted by the watchdog" in (pico.flash / "error.log").read_text()


def test_a_fault_is_logged_and_the_log_stays_small(pico):
    # the controller of main.py, with a die button whose pin read fails: the controller
    # catches it, and main.py's log puts it on the console and in /error.log
    code = (
        "import app.device as d, app.startup as s\n"
        "ctl = s.start(s.read_config())\n"
        "def broken():\n"
        "    raise OSError(5)\n"
        "ctl.ports.buttons[0]._read = broken\n"
        "ctl.tick(1000)\n"
        "for i in range(400):\n"
        "    d.log('line %d' % i)\n"
    )
    out = mpremote(pico.port, "exec", code)
    assert "fault in _poll_buttons: OSError(5,)" in out
    log = (pico.flash / "error.log").read_text()
    assert len(log) <= device.LOG_LIMIT + 20
    assert log.endswith("line 398\nline 399\n")
    assert all(line.startswith("line ") for line in log.splitlines()[-100:])  # whole lines kept


def console_after_reset(pico, until, timeout=5):
    """What the device prints after a press of its reset button, up to ``until``."""
    import serial

    with serial.Serial(pico.port, timeout=0.05) as port:
        while port.read(65536):
            pass  # what was printed before
        pico.reset()
        seen = b""
        deadline = time.monotonic() + timeout
        while until.encode() not in seen and time.monotonic() < deadline:
            seen += port.read(4096)
    return seen.decode(errors="replace")


@pytest.mark.parametrize("path, content, message", [
    ("config.json", None, "config.json: the file is missing (make flash puts it on the Pico)"),
    ("config.json", '{"board": "detour", "input": "sensor"}',
     "config.json: field 'input' is 'sensor'; use \"sensors\" or \"buttons\" (no piece sensors)"),
    ("config.json", '{"board": "chess"}', "boards/chess.json: the file is missing (config.json's field 'board' "
     "names it; the boards on this Pico: detour, mehen, sniggle, snuka)"),
    ("config.json", '{"board": "detour", "players": 9}', "config.json: Detour is for 2 to 4 players"),
    ("hardware/pins.json", '{"pixels": 2, "die1": 3, "die2": 40}',
     "hardware/pins.json: pin map: 'die2' is 40; use a GPIO on the header: GP0-GP22 or GP26-GP28"),
    ("hardware/pins.json", '{"pixels": 2, "die1": 3, "die2": 4}',
     "hardware/pins.json: role 'sensor_latch' is missing: config.json's input \"sensors\" reads"),
    ("boards/detour.json", '{"game": "detour", "name": "detour"}', "boards/detour.json: "),
])
def test_a_configuration_error_is_named_and_blinks_the_first_pixel_red(pico, build_dir, path, content, message):
    target = pico.flash / path
    try:
        if content is None:
            target.unlink()
        else:
            target.write_text(content)
        resets = len(pico.status()["resets"])
        since = mark(pico)
        seen = console_after_reset(pico, message)
        assert message in seen, seen
        assert startup.RESTART in seen
        assert message in (pico.flash / "error.log").read_text()
        # the first pixel blinks red, every other pixel is dark; the board does not restart
        on = first_frame(pico, since)
        off = first_frame(pico, (on["n"] + 1, since[1]))
        assert bytes.fromhex(on["hex"]) == wire(startup.BLANK, (0, 255, 0, 0))
        assert bytes.fromhex(off["hex"]) == wire(startup.BLANK)
        assert len(pico.status()["resets"]) == resets + 1  # the reset button, no more
    finally:
        (pico.flash / path).write_bytes((build_dir / path).read_bytes())


def test_the_watchdog_resets_a_board_nobody_feeds(pico):
    mpremote(pico.port, "exec", "import machine\nmachine.WDT(timeout=200)")
    wait_for(lambda: pico.status()["resets"][-1] == "watchdog", 5)
    assert mpremote(pico.port, "exec", "import machine; print(machine.reset_cause() == machine.WDT_RESET)") == "True\n"


def test_a_fresh_flash_clears_the_pico_first(pico, tmp_path):
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    (tiny / "main.py").write_text("print('tiny')\n")
    flash(pico, tiny, fresh=True)
    assert sorted(p.name for p in pico.flash.iterdir()) == ["main.py"]


# ---- every board, and .py against .mpy --------------------------------------------------

@pytest.mark.parametrize("board, input", [
    ("sniggle", "sensors"), ("sniggle", "buttons"), ("mehen", "sensors"), ("snuka", "sensors"), ("detour", "buttons"),
])
def test_every_board_boots_to_the_simulators_picture(build_dir, tmp_path, board, input):
    flash_dir = tmp_path / "flash"
    shutil.copytree(build_dir, flash_dir)
    config = json.loads((flash_dir / "config.json").read_text())
    (flash_dir / "config.json").write_text(json.dumps(dict(config, board=board, input=input)))
    game = fresh_game(board)
    with VirtualPico(flash_dir) as pico:
        if input == "sensors":  # the pieces are put where a new game has them
            counts = game.occupancy() or ()
            for s in range(len(counts)):
                if counts[s]:
                    pico.place(game.board.sensor_of[s])
        frames = watch(pico, pico.wait_frame(pico.status()["frames"]), SETTLE_MS)
        assert shows(frames, Rig(game, Bytes([0]), sensors=input == "sensors"))



def test_the_pico_boots_the_same_from_py_and_from_mpy(build_dir, tmp_path):
    shutil.copytree(build_dir, tmp_path / "mpy")
    make_build(tmp_path / "py", source=True)
    boot_ms = {}
    for kind in ("py", "mpy"):
        flash_dir = tmp_path / kind
        with VirtualPico(flash_dir) as pico:
            frame = pico.wait_frame(0, timeout=10)
            assert frame is not None, kind
            assert shows([frame], Rig(fresh_game(), Bytes([0]))), kind
            status = pico.status()
            boot_ms[kind] = "%s ms (%s ms from main.py's start)" % (status["first_frame_ms"], status["main_to_first_frame_ms"])
    print("boot to the first frame: .py %s, .mpy %s" % (boot_ms["py"], boot_ms["mpy"]))
