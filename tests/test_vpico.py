"""The firmware on the emulated Pico: the stock MicroPython v1.28.0 firmware
for RPI_PICO on an emulated RP2040, on a board modelled from its parts'
datasheets and wired as hardware/pins.json and hardware/README.md say.

What the Pico lights is read off its data pin (host/pico/vpico/parts.mjs decodes
the WS2812B wire) and compared with the simulator: a Rig (host.rig)
runs the same game in CPython. A picture breathes and blinks with the time,
and the moment a frame was painted for is the tick's clock reading, a few
ms before its first bit: so a frame counts as the Rig's picture when the
Rig paints exactly its bytes for some ms of the WINDOW_MS before it.

What the players do is done to the parts: a die button that bounces, a
piece lifted off and set onto a reed switch of the 74HC165 chain, a Detour
wheel clicked through its Gray code, a counter breaking a pocket's beam for
3 ms. The same acts on the Rig must give the same game record.
"""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import colours as C
from app import startup
from app.keeper import SAVES, Keeper
from app.paint import paint
from hal.pixels import Pixels
from host.bench import PAUSE_MS
from host.bench.pico import longest_pause
from host.pico import build as b
from host.pico.vpico import MissingPicoFiles, VirtualPico, flash, pico_files
from host.rig import Bytes, Rig
from rules.board import MAX_PIXELS
from rules.core import DECIDE, ROLL, WHEEL
from rules.games import new_game
from rules.playout import Rng, random_step
from rules.record import line

pytestmark = pytest.mark.pico

ROOT = Path(__file__).resolve().parent.parent
MPREMOTE = Path(sys.executable).parent / "mpremote"
BOARDS = ("detour", "sniggle", "mehen", "snuka")
CYCLE_MS = 2 * 3 * 4 * 5 * 7 * C.BREATHE_MS  # a whole number of every animation's period
WINDOW_MS = 150  # a tick paints its frame within this before its first bit goes out (Sniggle: about 60 ms now)
SETTLED_MS = 2500  # boot (about 1.6 s) and the piece sensors settling on what stands
BOOT_AT = 100  # pieces and wheels are set this long after power-on, before the firmware reads them
RESET_US = 280  # the low a current WS2812B needs between two frames (Worldsemi's datasheet, RES)


@pytest.fixture(scope="session", autouse=True)
def the_pico_files():
    """The emulated Pico runs the real firmware: without it these tests fail, loudly."""
    try:
        pico_files()
    except MissingPicoFiles as e:
        pytest.fail(str(e))


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("vpico") / "build"
    b.build(out)
    (out / b.MANIFEST).unlink()  # beside the build, never on the Pico
    return out


def read_board(name):
    return json.loads((ROOT / "boards" / ("%s.json" % name)).read_text())


def fresh_game(name):
    return new_game(name, read_board(name), 2)


def prepared(name, until=None, steps=0, seed=1):
    """A game of board ``name``: random steps from the start, ``steps`` of
    them or until ``until(game)``."""
    game, rng = fresh_game(name), Rng(seed)
    played = []
    while len(played) < steps or (until and not until(game)):
        step = random_step(game, rng)
        played.append(line(game, step))
        game.play(step)
    return game, played


def free_wheel(game):
    """A wheel with no piece on it that may turn a quarter now, or None."""
    counts = game.occupancy()
    for d in game.legal():
        if d[0] == "w" and d[1] >= 0 and d[2] == 1 and not any(counts[c] for c in game.board.wheel_cells[9 * d[1]:9 * d[1] + 9]):
            return d[1]
    return None


def plain_moves(game):
    """Piece moves that lift one piece and set it on an empty space, and no other move looks the same."""
    ends = [(f, t) for _, f, t in game.moves()]
    counts = game.occupancy()
    return [d for d, f, t in game.moves() if f != t and not counts[t] and ends.count((f, t)) == 1]


def detour_at_a_star():
    """A Detour game where a piece has reached a star: a free wheel may turn
    a quarter, and after it a plain move is left."""
    for seed in range(1, 100):
        game, played = prepared("detour", until=lambda g: g.phase == WHEEL and free_wheel(g) is not None, seed=seed)
        after = game.copy()
        after.play(("w", free_wheel(game), 1))
        if after.phase == DECIDE and plain_moves(after):
            return game, played
    raise AssertionError("no such game in 100 seeds")


def image(build_dir, folder, board, game=None, played=(), config=None):
    """The Pico's filesystem: the build, config.json for ``board``, and ``game``
    saved with its record as main.py left it after ``played``."""
    files = folder / "files"
    shutil.copytree(build_dir, files)
    settings = dict(json.loads((files / "config.json").read_text()), board=board, **(config or {}))
    (files / "config.json").write_text(json.dumps(settings))
    if game is not None:
        keeper = Keeper("%s/" % files, board)
        keeper.begin(fresh_game(board))
        for text in played:
            keeper.played(text, game)
    path = folder / "fs.bin"
    path.write_bytes(flash.image(files))
    return path


def stand(pico, game, at=BOOT_AT):
    """Put the pieces and the wheels where ``game`` has them."""
    counts = game.occupancy() or ()
    for s in range(len(counts)):
        if counts[s]:
            pico.place(game.board.sensor_of[s], at=at)
    for w, position in enumerate(getattr(game, "wheels", ())):
        if position:
            pico.turn(w, position, at=at, click=10)


def painted(rig, t, picked_now=False):
    """The wire bytes (hex) of the Rig's picture at the Pico's ms ``t`` (in a
    later animation cycle); with ``picked_now``, as the first frame of the
    choice on offer, whose flash begins lit when it is first painted."""
    at = t + CYCLE_MS * ((rig.now - t) // CYCLE_MS + 1)
    canvas = rig.ctl._canvas
    kept = canvas._flashed, canvas._flash_at
    if picked_now:
        canvas._flashed, canvas._flash_at = rig.snap.picked, at
    paint(canvas, rig.snap, at)
    canvas._flashed, canvas._flash_at = kept
    rig.ctl.ports.pixels.encode()
    return bytes(rig.ctl.ports.pixels.wire).hex()


def shows(frame, rig, first=False):
    """Whether ``frame`` is the Rig's picture painted in the WINDOW_MS before
    it went out (``first``: the first frame of the Pico's start, which paints
    the choice on offer for the first time)."""
    start = int(frame["start_ms"])
    return any(painted(rig, t, first) == frame["hex"] for t in range(start - WINDOW_MS, start + 1))


def record(pico):
    return pico.files()[SAVES + "game-%s.jsonl" % pico.board].decode().splitlines()


def roll_of(game, text):
    """The random bytes that make hal.Chance give ``game`` the roll of a record line."""
    outcome = game.parse(json.loads(text)["roll"])
    if isinstance(outcome, int):  # Mehen's throw sticks: one byte, its low three bits
        return [outcome]
    return [d - 1 for d in outcome]  # a die takes a byte below 252 modulo 6


def wire(count, *lit):
    """The wire bytes hal.pixels sends for ``count`` pixels with ``lit`` = (index, r, g, b)..."""
    sent = []
    pixels = Pixels(count, sent.append)
    for led in lit:
        pixels.set(*led)
    pixels.show()
    return bytes(sent[0]).hex()


def mpremote(port, *args, timeout=60):
    result = subprocess.run([str(MPREMOTE), "connect", port, *args], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def console_after(pico, act, until, timeout=60):
    """What the Pico prints after ``act()`` (a reset, say), up to ``until``."""
    import serial

    seen = b""
    with serial.Serial(pico.port, timeout=0.1) as port:
        act()
        deadline = time.monotonic() + timeout
        while until.encode() not in seen and time.monotonic() < deadline:
            seen += port.read(4096)
    return seen.decode(errors="replace")


def mark(pico):
    """(frames sent, starts) so far: what comes after is new."""
    status = pico.status()
    return status["frames"], len(status["boots"])


def next_boot(pico, since):
    """The first frame lit after the Pico started again, since ``mark()`` ``since``."""
    n, boots = since
    while True:
        frame = pico.wait_frame(n)
        assert frame is not None, "the Pico lit nothing after it restarted"
        if frame["boot"] > boots:
            return frame
        n = frame["n"] + 1


# ---- every board: the first frame, and a turn by hand -----------------------------------

def press_die(pico, rig, at):
    """Die button 1, bouncing, on the Pico; the same roll on the Rig."""
    pico.press("die1", at=at)
    pico.release("die1", at=at + 120)
    pico.wait(at + 1200 - pico.now())
    rolled = record(pico)[-1]
    assert "roll" in json.loads(rolled), "the die did not roll: the Pico's board disagrees with its game"
    rig.ctl.ports.chance.urandom.values = bytes(roll_of(rig.game, rolled))
    rig.press(0)
    return rolled


def move_piece(pico, rig):
    """A legal piece move by hand: lift the piece, set it down where it may go."""
    simple = plain_moves(rig.game)
    assert simple, "no plain move after this roll: choose another seed"
    decision = simple[0]
    f, t = next((f, t) for d, f, t in rig.ctl.moves if d == decision)
    at = pico.now() + 20
    pico.lift(rig.game.board.sensor_of[f], at=at)
    pico.place(rig.game.board.sensor_of[t], at=at + 250)
    pico.wait(1200)
    rig.act(decision)
    return decision


@pytest.mark.parametrize("name", BOARDS)
def test_each_board_boots_to_the_simulators_picture_and_plays_a_turn_by_hand(build_dir, tmp_path, name):
    if name == "detour":
        game, played = detour_at_a_star()
    elif name == "snuka":
        game, played = fresh_game(name), []
    else:
        game, played = prepared(name, steps=12, until=lambda g: g.phase == ROLL)
    with VirtualPico(image(build_dir, tmp_path, name, game, played), board=name) as pico:
        stand(pico, game)
        first = pico.wait_frame(0)
        assert first is not None and not first["errors"], first
        # the simulator, on the same game with the same record
        (tmp_path / "rig").mkdir()
        keeper = Keeper("%s/rig/" % tmp_path, name)
        keeper.begin(fresh_game(name))
        for text in played:
            keeper.played(text, game)
        rig = Rig(type(game).load(game.board, game.save()), Bytes([0]), keeper=keeper)
        # the first thing main.py lit is the simulator's picture of the same game
        assert shows(first, rig, first=True), name
        pico.wait(SETTLED_MS - pico.now())
        if name == "detour":
            w = free_wheel(rig.game)
            done = pico.turn(w, 1, at=pico.now() + 10)
            pico.wait(done + 1000 - pico.now())
            rig.turn(w, 1)
            assert rig.game.phase != WHEEL
        if name == "snuka":
            pocket = rig.game.board.space("TL")
            pico.beam(rig.game.board.sensor_of[pocket], at=pico.now() + 10, width=3)
            at = pico.now() + 100
            pico.press("die1", at=at)
            pico.release("die1", at=at + 900)
            pico.wait(1200)
            before = rig.game.copy()
            rig.beam("TL")
            rig.hold(0)
            # the beam brought the pots first: holding the button potted
            assert before.parse(json.loads(record(pico)[-1])["play"])[0] == "pot"
        else:
            if rig.game.phase == ROLL:
                rolled = pico.now() + 10
                press_die(pico, rig, rolled)
                # the dice tumble, the throw is saved, the pieces breathe: no frame waits long on the flash
                assert longest_pause(pico, [f for f in pico.frames() if f["t_ms"] >= rolled]) <= PAUSE_MS
            if rig.game.phase == DECIDE:
                move_piece(pico, rig)
        ours = record(pico)
        theirs = (tmp_path / "rig" / SAVES / ("game-%s.jsonl" % name)).read_text().splitlines()
        assert ours == theirs
        assert len(ours) > len(played) + 1
        assert pico.status()["pixel_errors"] == 0
        assert not short_resets(pico.frames()), "frames less than %d us apart merge on a current WS2812B" % RESET_US


def short_resets(frames):
    """(frame, the low before it in us) for every frame sent less than RESET_US after the one before."""
    return [(b["n"], round((b["start_ms"] - a["end_ms"]) * 1000)) for a, b in zip(frames, frames[1:])
            if a["boot"] == b["boot"] and (b["start_ms"] - a["end_ms"]) * 1000 < RESET_US]


# ---- a maker's Pico: make flash, the watchdog, Ctrl-C, mistakes in the files --------------

@pytest.fixture(scope="module")
def flashed(build_dir, tmp_path_factory):
    """A Pico that started blank (MicroPython formats its flash) and got the build with make flash."""
    folder = tmp_path_factory.mktemp("flashed")
    with VirtualPico(folder / "fs.bin") as pico:
        assert pico.wait_frame(0, timeout=1) is None  # nothing on it lights a pixel
        command = [sys.executable, "-m", "host.pico.build", "flash", "--port", pico.port, "--out", str(build_dir)]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        assert pico.wait_frame(0) is not None  # the game runs: the board lights up
        yield pico, result.stdout


def test_make_flash_copies_the_build_and_the_pico_restarts_into_the_game(flashed, build_dir):
    pico, out = flashed
    frame = pico.wait_frame(0)
    assert frame["boot"] == 2 and pico.status()["boots"] == ["power", "reset"]
    files = pico.files()
    in_build = {p.relative_to(build_dir).as_posix() for p in build_dir.rglob("*") if p.is_file()}
    assert set(files) - {SAVES + "game-detour.sav", SAVES + "game-detour.jsonl"} == in_build, out
    assert all(files[rel] == (build_dir / rel).read_bytes() for rel in in_build)
    assert SAVES + "game-detour.sav" in files  # main.py began a new game, and saved it
    assert shows(frame, Rig(fresh_game("detour"), Bytes([0])))


def saved_game(files, folder, board="detour"):
    """(game, steps, note): what Keeper.resume makes of the Pico's files, and the steps its save counts."""
    keeper = Keeper("%s/" % folder, board)
    for rel in ("game-%s.sav" % board, "game-%s.jsonl" % board):
        (folder / SAVES / rel).write_bytes(files[SAVES + rel])
    game, note = keeper.resume(fresh_game(board))
    return game, keeper.steps, note


def test_a_power_cut_in_the_middle_of_a_save_resumes_the_last_step(flashed, tmp_path):
    pico, _ = flashed
    before = record(pico)
    programs = pico.status()["flash"]["programs"]
    # inside the 4th write from now, half of it done: a step's record line and save take more writes
    pico.power_cut(off=200, after_writes=3, torn=0.5)
    since = mark(pico)
    pico.click("die1", at=pico.now() + 10)
    frame = next_boot(pico, since)
    assert pico.status()["boots"][-1] == "power"
    assert pico.status()["flash"]["programs"] > programs  # it was writing when the power went
    files = pico.files()
    game, steps, note = saved_game(files, tmp_path)
    assert game is not None, note
    # the game is where the last whole step left it, and the record agrees with the save
    lines = files[SAVES + "game-detour.jsonl"].decode().splitlines()
    assert lines[:len(before)] == before and len(lines) == steps + 1
    assert shows(frame, Rig(game, Bytes([0])))


def test_ctrl_c_stops_the_game_and_its_watchdog_and_the_repl_is_free(flashed):
    pico, _ = flashed
    packages = tuple(sorted(p.name for p in (ROOT / "firmware").iterdir() if (p / "__init__.py").exists()))
    loaded = ("import sys, machine; print(machine.mem32[0x40058000] >> 30 & 1, "
              "sorted(m.__file__ for m in sys.modules.values() if getattr(m, '__file__', '').split('/')[0] in %r))")
    # resume: no soft reset, so what main.py left behind is still there
    enabled, files = mpremote(pico.port, "resume", "exec", loaded % (packages,)).split(" ", 1)
    assert enabled == "0"  # the watchdog's ENABLE bit: stopped with the loop
    files = eval(files)
    assert "app/device.mpy" in files and "hal/pixels.mpy" in files  # main.py ran on the precompiled modules ...
    assert all(f.endswith(".mpy") for f in files), files  # ... and only on them
    # the start-up code was unloaded once the game ran, leaving its RAM to the game
    assert "app/startup.mpy" not in files and "hal/pins.mpy" not in files


def test_the_picos_compiled_pixel_loops_send_the_bytes_cpython_sends(flashed):
    pico, _ = flashed
    rng = Rng(5)
    frames = [bytes([255] * 315), bytes(315)]  # full white (over the budget), all off
    frames += [bytes(rng.below(256) for _ in range(315)) for _ in range(3)]
    code = ("import hal.viper\nfrom hal.pixels import Pixels, weigh\n"
            "p = Pixels(105, None, order='BRG', brightness=0.8, budget_ma=450)\n"
            "print(weigh is hal.viper.weigh)\n"
            "for h in %r:\n p.frame[:] = bytes.fromhex(h)\n p.encode()\n print(p.draw_ma, p.scale, p.wire.hex())\n"
            % [f.hex() for f in frames])
    out = mpremote(pico.port, "exec", code).split()
    assert out[0] == "True"  # the Pico runs the loops compiled to machine code
    ours = Pixels(105, None, order="BRG", brightness=0.8, budget_ma=450)
    for frame, (draw, scale, wire) in zip(frames, zip(*[iter(out[1:])] * 3)):
        ours.frame[:] = frame
        ours.encode()
        assert (int(draw), int(scale), wire) == (ours.draw_ma, ours.scale, ours.wire.hex())
    assert int(out[2]) < ours.brightness  # the limit acted on full white


def test_the_picos_compiled_hex_loop_writes_what_cpython_writes(flashed):
    pico, _ = flashed
    code = ("import app.link_viper\nfrom app import link\nout = bytearray(512)\n"
            "print(link.hexed is app.link_viper.hexed)\n"
            "for start, end in ((0, 256), (250, 256), (7, 8)):\n"
            " link.hexed(bytes(range(256)), start, end, out)\n print(bytes(out[:2 * (end - start)]).decode())\n")
    out = mpremote(pico.port, "exec", code).split()
    assert out[0] == "True"  # the link's frames are encoded by the loop compiled to machine code
    assert out[1:] == [bytes(range(256)).hex(), bytes(range(250, 256)).hex(), "07"]


# record lines as the record writes them and as a failing flash may hold them
STEP_LINES = [b'{"roll": "3,5"}', b'{"move": "d1 -> f3"}', b'{"roll": "3,5\xff\x00"}', b'{"roll" : "3,5"}',
              b'{"roll": 35}', b'{"ro\\ll": "3"}', b'{"": "3,5"}', b'{"roll": "3,5"', b'"roll": "3,5"}',
              b'{"a": "b", "c": "d"}', b'{"roll":"3,5"}', b'{"roll": "3,5\n"}', b'{"x": "y"}']


def test_the_picos_compiled_record_line_check_agrees_with_cpython(flashed):
    from app import link

    pico, _ = flashed
    page = b"".join(STEP_LINES)
    spans, at = [], 0
    for text in STEP_LINES:
        spans.append((at, at + len(text)))
        at += len(text)
    code = ("import app.link_viper\nfrom app import link\nprint(link.step_line is app.link_viper.step_line)\n"
            "page = bytearray(%r)\nprint(''.join(str(link.step_line(page, a, b)) for a, b in %r))\n" % (page, spans))
    out = mpremote(pico.port, "exec", code).split()
    assert out[0] == "True"  # the Pico checks the record's lines with the loop compiled to machine code
    ours = "".join(str(link.step_line(page, a, b)) for a, b in spans)
    assert out[1] == ours
    assert ours.startswith("11") and ours.count("1") == 3  # the two a record writes, and the short {"x": "y"}


def test_the_picos_compiled_record_page_answers_what_cpython_answers(flashed):
    from array import array

    from app import link

    pico, _ = flashed
    steps = [b'{"roll": "3,5"}', b'{"move": "d1 -> f3"}', b'{"pass": "-"}'] * 12
    page = b"\n".join(steps[:9] + [b'{"roll": "3,5\xff"}'] + steps[9:]) + b"\n"
    # (from which line, where in the page, how many lines, the most an answer holds)
    cases = [(1, 0, 1, 400, 160), (1, 0, 3, 9, 160), (5, 0, 1, 400, 160), (8, 0, 1, 400, 1000), (98, 120, 98, 120, 60)]
    code = ("import app.link_viper\nfrom array import array\nfrom app import link\n"
            "print(link.record_lines is app.link_viper.record_lines)\npage = %r\n"
            "for first, i, n, last, most in %r:\n"
            " out = bytearray(256)\n state = array('i', (i, n, first, last, 0, 3, most))\n"
            " link.record_lines(page, len(page), out, state)\n"
            " print(bytes(out[:state[5]]).hex(), list(state))\n" % (page, cases))
    out = mpremote(pico.port, "exec", code).splitlines()
    assert out[0] == "True"  # the Pico answers a page of the record with the loop compiled to machine code
    for (first, i, n, last, most), found in zip(cases, out[1:]):
        mine = bytearray(256)
        state = array("i", (i, n, first, last, 0, 3, most))
        link.record_lines(page, len(page), mine, state)
        assert found == "%s %s" % (bytes(mine[:state[5]]).hex(), list(state))
    state = array("i", (0, 1, 1, 400, 0, 0, 160))
    link.record_lines(page, len(page), mine, state)
    answer = bytes(mine[:state[5]]).decode().splitlines()
    assert answer[0] == '~{"n": 1, "line": {"roll": "3,5"}}' and 160 - 30 < state[4] <= 160


def test_the_picos_compiled_paint_loops_write_what_cpython_writes(flashed):
    pico, _ = flashed
    from array import array

    from app import paint
    from rules.core import EMPTY

    at = [3 * k for k in (0, 4, 1, 104, 50)]
    owners = bytes([EMPTY, 1, EMPTY, 0, EMPTY])
    code = ("import hal.viper\nfrom array import array\nfrom app import paint\n"
            "print(paint.spread is hal.viper.spread)\n"
            "f = bytearray(315)\nat = array('H', %r)\n"
            "paint.spread(f, at, b'', 0x12FE07)\nprint(f.hex())\n"
            "paint.spread(f, at, %r, 0xA0B0C0)\nprint(f.hex())\n" % (at, owners))
    out = mpremote(pico.port, "exec", code).split()
    assert out[0] == "True"  # the Pico paints with the loop compiled to machine code
    ours = bytearray(315)
    paint.spread(ours, array("H", at), b"", 0x12FE07)  # every space
    assert out[1] == ours.hex() and ours[12:15] == bytes([0x12, 0xFE, 0x07])
    paint.spread(ours, array("H", at), owners, 0xA0B0C0)  # the spaces no piece stands on
    assert out[2] == ours.hex() and ours[3:6] == bytes([0xA0, 0xB0, 0xC0]) and ours[12:15] == bytes([0x12, 0xFE, 0x07])


# every walk from a starting square or a main-area space of the Sniggle board, folded into one number
SNIGGLE_WALKS = (
    "import json\nfrom rules import sniggle\n"
    "board = sniggle.SniggleBoard(json.load(open(%r)))\n"
    "h = 0\n"
    "starts = [(board.start[k], k) for k in range(16)]\n"
    "for s, k in starts + [(s, 0) for s in range(len(board.ids)) if board.kind[s] == 0]:\n"
    "    for values in ((1, 2, 3, 4, 5, 6), (2, 5), (4,)):\n"
    "        for ends in board.walks(s, -1, k, values):\n"
    "            for t in ends + [255]:\n"
    "                h = (h * 31 + t) %% 1000000007\n"
    "print(h)\n"
)


def on_the_pico_and_here(pico, module, name, code):
    """Whether the Pico runs ``module.name`` compiled (it is rules.viper's), and
    what ``code`` (a board file's name in it) prints there and here."""
    # whole games of emulated Pico: on a busy PC they take minutes, and only a hang should fail here
    found = mpremote(pico.port, "exec", "import rules.viper\nfrom rules import %s\nprint(%s.%s is rules.viper.%s)\n"
                     % (module, module, name, name) + code % "/boards/sniggle.json", timeout=600)
    here = {}
    exec(code.replace("print(h)", "result = h") % str(ROOT / "boards" / "sniggle.json"), here)
    return found.split(), ["True", str(here["result"])]


def test_the_picos_compiled_sniggle_walk_reaches_what_cpython_reaches(flashed):
    found, expected = on_the_pico_and_here(flashed[0], "sniggle", "walk_main", SNIGGLE_WALKS)
    assert found == expected  # the Pico runs the walk compiled to machine code


# every legal move at every decision of a few Sniggle games, by its notation, folded into one number
SNIGGLE_MOVES = (
    "import json\nfrom rules import sniggle\nfrom rules.playout import Rng, random_step\n"
    "board = sniggle.SniggleBoard(json.load(open(%r)))\n"
    "h = 0\n"
    "for n in (2, 4):\n"
    "    game, rng = sniggle.Sniggle(board, n, {'larger_die': n == 4}), Rng(n)\n"
    "    for _ in range(200):\n"
    "        if game.over():\n"
    "            break\n"
    "        for d in game.legal():\n"
    "            for c in game.notation(d) + ' ':\n"
    "                h = (h * 31 + ord(c)) %% 1000000007\n"
    "        game.play(random_step(game, rng))\n"
    "print(h)\n"
)


def test_the_picos_compiled_sniggle_moves_are_what_cpython_lists(flashed):
    found, expected = on_the_pico_and_here(flashed[0], "sniggle", "fill_moves", SNIGGLE_MOVES)
    assert found == expected  # the Pico lists the moves (and finds their spaces) compiled to machine code


# the search's rating of every player (the next throw's risk too) at every state of a few Sniggle games, folded
SNIGGLE_RATINGS = (
    "import json\nfrom rules import players, sniggle\nfrom rules.playout import Rng, random_step\n"
    "board = sniggle.SniggleBoard(json.load(open(%r)))\n"
    "h = 0\n"
    "for n in (2, 4):\n"
    "    game, rng = sniggle.Sniggle(board, n), Rng(n)\n"
    "    for _ in range(60):\n"
    "        if game.over():\n"
    "            break\n"
    "        for p in range(n):\n"
    "            for ahead in (False, True):\n"
    "                h = (h * 31 + players.evaluate(game, p, ahead)) %% 1000000007\n"
    "        game.play(random_step(game, rng))\n"
    "print(h)\n"
)


def test_the_picos_compiled_sniggle_rating_rates_what_cpython_rates(flashed):
    found, expected = on_the_pico_and_here(flashed[0], "sniggle_tactics", "sniggle_rate", SNIGGLE_RATINGS)
    assert found == expected  # the Pico rates with the loop compiled to machine code


def test_a_hung_game_loop_is_restarted_by_the_watchdog_and_the_game_resumes(flashed, tmp_path):
    pico, _ = flashed
    saved = pico.files()
    since = mark(pico)
    # the real loop of app.device, with a tick that never returns and a short watchdog
    hang = (
        "import app.device as d\n"
        "class Hung:\n"
        "    def tick(self, now):\n"
        "        while True:\n"
        "            pass\n"
        "d.WATCHDOG_MS = 300\n"
        "d.play(Hung())\n"
    )
    mpremote(pico.port, "exec", "--no-follow", hang)
    frame = next_boot(pico, since)
    assert pico.status()["boots"][-1] == "watchdog"
    files = pico.files()
    assert files[SAVES + "game-detour.sav"] == saved[SAVES + "game-detour.sav"]
    assert "restarted by the watchdog" in files["error.log"].decode()
    game, _, note = saved_game(files, tmp_path)
    assert game is not None, note
    assert shows(frame, Rig(game, Bytes([0])))


@pytest.mark.parametrize("path, content, message", [
    ("config.json", None, "config.json: the file is missing (make flash puts it on the Pico)"),
    ("config.json", '{"board": "detour", "input": "sensor"}',
     "config.json: field 'input' is 'sensor'; use \"sensors\" or \"buttons\" (no piece sensors)"),
    ("hardware/pins.json", '{"pixels": 2, "die1": 3, "die2": 40}',
     "hardware/pins.json: pin map: 'die2' is 40; use a GPIO on the header: GP0-GP22 or GP26-GP28"),
])
def test_a_configuration_mistake_is_named_and_blinks_the_first_pixel_red(flashed, build_dir, tmp_path, path, content, message):
    pico, _ = flashed
    try:
        if content is None:
            mpremote(pico.port, "rm", ":" + path)
        else:
            (tmp_path / "bad").write_text(content)
            mpremote(pico.port, "cp", str(tmp_path / "bad"), ":" + path)
        since = mark(pico)
        seen = console_after(pico, pico.reset, startup.RESTART)  # printed after the message
        assert message in seen and startup.RESTART in seen, seen
        assert message in pico.files()["error.log"].decode()
        # the first pixel blinks red, every other pixel is dark; the board does not restart
        on = next_boot(pico, since)
        off = pico.wait_frame(on["n"] + 1)
        assert on["hex"] == wire(MAX_PIXELS, (0, 255, 0, 0)) and off["hex"] == wire(MAX_PIXELS)
        assert off["t_ms"] - on["t_ms"] == pytest.approx(startup.BLINK_MS, abs=30)  # (plus the frame itself)
        assert pico.status()["boots"][-1] == "reset button"
    finally:
        mpremote(pico.port, "cp", str(build_dir / path), ":" + path)
