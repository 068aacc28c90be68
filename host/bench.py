"""``make bench``: the budgets of DESIGN §6 measured on CPython and on the
MicroPython WebAssembly port, side by side, for every game.

    python -m host.bench [--check]

``--check`` exits 1 when a figure is over its budget.

The worst position of a game is found here, on CPython, before anything is
measured: random games of the game's widest setups (most players, most
pieces, every option that adds decisions) are played with fixed seeds, every
roll of every position that waits for one is tried, and the roll that leaves
the most legal decisions wins (the first found, on a tie). A game without
rolls (Tiddlee Snuka) is judged at its decisions instead. The position is
handed to both interpreters as a save, so both time the same thing, and the
note under the table names the seed and step, so it can be found again.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from host import BOARDS, FIRMWARE, ROOT
from host.boardfile import read_board
from host.build import build
from rules.core import ROLL, RulesError
from rules.games import GAMES, find_game
from rules.playout import Rng, random_step

HOST = os.path.join(ROOT, "host")
SEEDS = 12  # random games per setup in the search for the worst position
# the setups searched for a game's worst position: (players, options)
WIDEST = {
    "detour": ((2, {"pieces": 4, "half_turns": True, "wheel_turn_optional": True}),
               (4, {"half_turns": True, "wheel_turn_optional": True})),
    "mehen": ((6, {"hunt": True, "lions": 6}), (2, {"hunt": True, "lions": 6})),
    "sniggle": ((4, {}), (2, {})),
    "snuka": ((6, {"nominate": True}), (2, {})),
}
DECIDE_US = 2000
HEAP_BYTES = 64 * 1024
PRESS_MS = 16
PLAYOUT_GOAL = 2000


def adafruit_source():
    """The folder holding Adafruit's adafruit_pixelbuf.py in this environment."""
    import adafruit_pixelbuf

    return os.path.dirname(adafruit_pixelbuf.__file__)


def worst_position(name):
    """The position (and roll) with the most legal decisions found, as a dict."""
    cls = find_game(name)
    best = None
    for players, options in WIDEST.get(name, ((2, {}),)):
        try:
            start = cls(read_board(name), players, options)
        except RulesError:
            continue  # a setup this board does not allow
        for seed in range(SEEDS):
            game, rng, step = start.copy(), Rng(seed), 0
            while not game.over():
                if game.phase == ROLL:
                    for i, (outcome, _, _) in enumerate(game.chance_outcomes()):
                        after = game.copy()
                        after.play(outcome)
                        found = (1, len(after.legal()))
                        if best is None or found > best[0]:
                            best = (found, players, options, seed, step, i, game.save(), game.notation(outcome))
                elif not game.is_chance():
                    found = (0, len(game.legal()))  # counts only where a game never rolls
                    if best is None or found > best[0]:
                        best = (found, players, options, seed, step, -1, game.save(), "")
                game.play(random_step(game, rng))
                step += 1
    (rolled, decisions), players, options, seed, step, index, save, roll = best
    return {"players": players, "options": options, "seed": seed, "step": step, "outcome": index if rolled else -1,
            "roll": roll, "decisions": decisions, "save": save}


def pack_firmware(lib, name):
    """The firmware as it goes onto the Pico (``host.build``: .mpy for the
    RP2040), its .mpy files as one JSON file in ``lib``: device path -> hex.
    Bytecode .mpy files load on any port, the WebAssembly one too."""
    with tempfile.TemporaryDirectory() as out:
        build(Path(out) / "build")
        files = {p.relative_to(Path(out) / "build").as_posix(): p.read_bytes().hex()
                 for p in sorted(Path(out).rglob("*.mpy"))}
    with open(os.path.join(lib, name), "w") as f:
        json.dump(files, f)


def on_cpython(folder, positions):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FIRMWARE, adafruit_source()]))
    command = [sys.executable, os.path.join(HOST, "bench_device.py"), BOARDS, positions]
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.splitlines()[-1])


def on_micropython(lib, args):
    command = ["node", os.path.join(HOST, "mpy_run.mjs"), "--path", FIRMWARE + "=/firmware",
               "--path", BOARDS + "=/boards", "--path", lib + "=/lib", os.path.join(lib, "bench_device.py"),
               "/boards"] + args
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def led_rows(cpy, mpy):
    """(figure, CPython, MicroPython, budget, within?) for the table."""
    c, m = cpy["led"], mpy["led"]
    yield ("LED frame encode, %s (%d pixels), us" % (c["board"], c["pixels"]),
           "%.0f" % c["encode_us"], "%.0f" % m["encode_us"], "faster than Adafruit", None)
    yield ("  adafruit_pixelbuf encode of the same frame, us",
           "%.0f" % c["adafruit_us"], "%.0f" % m["adafruit_us"], "", None)
    yield ("  ratio Adafruit / ours", "%.1fx" % (c["adafruit_us"] / c["encode_us"]),
           "%.1fx" % (m["adafruit_us"] / m["encode_us"]), "> 1",
           c["encode_us"] < c["adafruit_us"] and m["encode_us"] < m["adafruit_us"])
    yield ("LED frame: bytes allocated (MicroPython)", "-", str(m["frame_bytes_allocated"]), "0",
           m["frame_bytes_allocated"] == 0)
    yield ("the wire itself, us (30 us per pixel + 50 us latch)", "", "%d" % wire_us(c["pixels"]),
           "physical limit", None)
    polls = mpy["polls"]
    for port, label in (("button", "Button.poll"), ("picker", "ButtonPicker.poll"),
                        ("sensors", "Sensors.poll (74HC165 chain)"), ("wheels", "Wheels.poll")):
        yield ("input poll: bytes allocated per %s (MicroPython)" % label, "-", "%g" % polls[port], "0",
               polls[port] == 0)


def wire_us(pixels):
    return 30 * pixels + 50


def game_rows(name, position, cpy, mpy, heap):
    c, m = cpy[name], mpy[name]
    yield ("%s: all legal decisions %s, worst position (%d), us"
           % (name, "after a roll" if position["outcome"] >= 0 else "at a decision", m["decisions"]),
           "%.0f" % c["decide_us"], "%.0f" % m["decide_us"], "<= %d (MicroPython)" % DECIDE_US,
           m["decide_us"] <= DECIDE_US)
    yield ("%s:   the search player's pick there (a hint, %d nodes), ms" % (name, m["hint_nodes"]),
           "%.1f" % (c["hint_us"] / 1000), "%.1f" % (m["hint_us"] / 1000), "", None)
    yield ("%s: a whole random game (%d steps), ms" % (name, c["game_steps"]),
           "%.1f" % (c["game_us"] / 1000), "%.1f" % (m["game_us"] / 1000), "", None)
    yield ("%s: random playouts per second (%.0f steps/s on CPython)" % (name, c["steps_per_s"]),
           "%.0f" % c["playouts_per_s"], "%.0f" % m["playouts_per_s"], "goal >= %d (CPython)" % PLAYOUT_GOAL,
           "goal met" if c["playouts_per_s"] >= PLAYOUT_GOAL else "under goal")
    yield ("%s: heap in use after a whole game, firmware loaded, KB (code %.1f)" % (name, heap["code"] / 1024),
           "-", "%.1f" % (heap["heap"] / 1024), "<= %d KB (MicroPython)" % (HEAP_BYTES // 1024),
           heap["heap"] <= HEAP_BYTES)
    yield ("%s:   + what a hint loads (rules.players, rules.playout, tables), KB" % name,
           "-", "%.1f" % (heap["hint"] / 1024), "", None)
    if c["press"] is None:
        yield ("%s: die press -> first changed pixel" % name, "no die", "no die", "", None)
        return
    sent = [p["press_ms"] + p["pass_us"] / 1000 for p in (c["press"], m["press"])]
    wire = wire_us(c["press"]["pixels"]) / 1000
    yield ("%s: die press -> changed frame sent, ms (loop: %d ms, then the pass)" % (name, c["press"]["press_ms"]),
           "%.1f" % sent[0], "%.1f" % sent[1], "<= %d" % PRESS_MS, max(sent) <= PRESS_MS)
    yield ("%s:   + %d pixels on the wire -> first changed pixel lit, ms" % (name, c["press"]["pixels"]),
           "%.1f" % (sent[0] + wire), "%.1f" % (sent[1] + wire), "<= %d" % PRESS_MS, max(sent) + wire <= PRESS_MS)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is over its budget")
    args = parser.parse_args(argv)
    positions = {name: worst_position(name) for name in GAMES}
    with tempfile.TemporaryDirectory() as lib:
        shutil.copy(os.path.join(adafruit_source(), "adafruit_pixelbuf.py"), lib)
        shutil.copy(os.path.join(HOST, "bench_device.py"), lib)
        with open(os.path.join(lib, "positions.json"), "w") as f:
            json.dump(positions, f)
        cpy = on_cpython(lib, os.path.join(lib, "positions.json"))
        mpy = on_micropython(lib, ["/lib/positions.json"])
        pack_firmware(lib, "firmware.json")
        heaps = {name: on_micropython(lib, ["--heap", name, "/lib/firmware.json"]) for name in GAMES}
    table = list(led_rows(cpy, mpy))
    for name in GAMES:
        table.extend(game_rows(name, positions[name], cpy, mpy, heaps[name]))
    widths = [max(len(str(r[i])) for r in table) for i in range(4)]
    head = ("figure", "CPython", "MicroPython", "budget")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  verdict")
    over = 0
    for row in table:
        verdict = row[4] if isinstance(row[4], str) else "" if row[4] is None else "within" if row[4] else "OVER"
        over += row[4] is False
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row[:4], widths)) + "  " + verdict)
    print("times are medians of 7 samples; MicroPython here is the WebAssembly port under node, several times"
          " faster than a Pico, whose clock ticks in whole ms (short actions are timed in batches)")
    print("worst positions, found by playing %d random games (seeds 0-%d) of each setup and trying every roll:"
          % (SEEDS, SEEDS - 1))
    for name in GAMES:
        p = positions[name]
        setup = ", ".join(["%d players" % p["players"]] + ["%s=%s" % kv for kv in sorted(p["options"].items())])
        what = "roll %s" % p["roll"] if p["outcome"] >= 0 else "the decision"
        print("  %s (%s): random game seed %d after %d steps, %s: %d decisions; save %s"
              % (name, setup, p["seed"], p["step"], what, p["decisions"], json.dumps(p["save"], separators=(",", ":"))))
    some = heaps[GAMES[0]]
    print("heap: the firmware as the Pico loads it, the .mpy files of host/build.py (bytecode, which this port"
          " loads as the Pico does)%s: %s, the rules core and the game, what they import, its board and a finished"
          " random game (2 players, stepped through game.play() by the bench script), after gc.collect() in a fresh"
          " interpreter, less the %d bytes it held before (the interpreter and the bench script); code is the part"
          " the imports take. Not counted: main.py (it runs the device), what this port cannot import (%s), and the"
          " computer players (rules.players, rules.playout), which the controller imports only when a hint is"
          " asked for: the row under the heap says what a hint adds"
          % ("" if all(h["mpy"] for h in heaps.values()) else " (NOT loaded from .mpy here)",
             ", ".join(some["modules"]), max(h["base"] for h in heaps.values()), ", ".join(some["skipped"]) or "-"))
    print("die press: a loop stepped by a fake clock 1 ms at a time (hal Button, Tumble, Pixels) counts the ms"
          " from the press to the pass that sends a changed frame; the measured cost of that pass is added, and"
          " then the frame's time on the wire: the pixels show it at the latch, after the last one")
    print("playouts: whole random games from the start, 2 players, default options (the goal is not a DESIGN §6"
          " budget, so --check does not fail on it)")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
