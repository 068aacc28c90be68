"""``make bench``: the budgets (docs/budgets.md) measured on CPython, on the
MicroPython WebAssembly port and on the emulated Pico, side by side, for
every game.

    python -m host.bench [--check]

``--check`` exits 1 when a figure is over its budget. The budgets apply
to the Pico column (``pico`` measures it: minutes of
emulated RP2040, two boards at a time, once the other two columns, timed on
the clock, are measured on an idle machine); the WebAssembly column keeps
one of its own (the decision listing). The strength of the hint the Pico
can afford is played out on CPython with ``strength``'s games.

The worst position of each game (``position``) is found first, on CPython,
and handed to every interpreter as a save. ``device`` measures inside each
interpreter, ``board`` on the Pico's own pins.
"""

import argparse
import contextlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.controller import HINT_MS
from app.device import LOOP_MS
from host import BOARDS, FIRMWARE, ROOT
from host.bench import pico as bench_pico, strength
from host.bench.position import SEEDS, worst_position
from host.pico.build import build
from host.pico.vpico import UF2_NAME
from rules.games import GAMES

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = "bench_device.py"  # device.py as the WebAssembly port runs it
DECIDE_US = 2000  # on WebAssembly
PLAYOUT_GOAL = 2000
# docs/budgets.md: on the Pico
PRESS_MS = 16
PERIOD_MS = 10
PICO_DECIDE_US = 10000
PICO_FREE_BYTES = 96 * 1024
BOOT_MS = 1500
BOOT_MAX_FLASH_MS = 2500  # at the flash's maximum erase and program times
PAUSE_MS = 60  # the longest pause between two frames of an animation
LATCH_US = 300  # the low the pixels' port leaves between two frames (hal/strip_micropython.py)
LINK_US = 1000  # the USB line protocol's share of a tick, a host subscribed (hardware/usb-protocol.md)
STRENGTH_GAMES = 400  # the hint's search against the greedy player, per game


def pack_firmware(lib, name):
    """The firmware as it goes onto the Pico (``host.pico.build``: .mpy for the
    RP2040), its .mpy files as one JSON file in ``lib``: device path -> hex.
    Bytecode .mpy files load on any port, the WebAssembly one too."""
    with tempfile.TemporaryDirectory() as out:
        build(Path(out) / "build")
        files = {p.relative_to(Path(out) / "build").as_posix(): p.read_bytes().hex()
                 for p in sorted(Path(out).rglob("*.mpy"))}
    with open(os.path.join(lib, name), "w") as f:
        json.dump(files, f)


def on_cpython(folder, positions):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FIRMWARE, bench_pico.adafruit_source()]))
    command = [sys.executable, os.path.join(HERE, "device.py"), BOARDS, positions]
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.splitlines()[-1])


def on_micropython(lib, args):
    command = ["node", os.path.join(ROOT, "host", "mpy_run.mjs"), "--path", FIRMWARE + "=/firmware",
               "--path", BOARDS + "=/boards", "--path", lib + "=/lib", os.path.join(lib, DEVICE),
               "/boards"] + args
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def led_rows(cpy, mpy, pico):
    """(figure, CPython, WebAssembly, Pico, budget, within?) for the table."""
    c, m, p = cpy["led"], mpy["led"], pico["led"]
    yield ("LED frame encode, %s (%d pixels), us" % (c["board"], c["pixels"]),
           "%.0f" % c["encode_us"], "%.0f" % m["encode_us"], "%.0f" % p["encode_us"], "faster than Adafruit", None)
    yield ("  adafruit_pixelbuf encode of the same frame, us",
           "%.0f" % c["adafruit_us"], "%.0f" % m["adafruit_us"], "%.0f" % p["adafruit_us"], "", None)
    yield ("  ratio Adafruit / ours", "%.1fx" % (c["adafruit_us"] / c["encode_us"]),
           "%.1fx" % (m["adafruit_us"] / m["encode_us"]), "%.1fx" % (p["adafruit_us"] / p["encode_us"]), "> 1",
           all(f["encode_us"] < f["adafruit_us"] for f in (c, m, p)))
    yield ("LED frame: bytes allocated (MicroPython)", "-", str(m["frame_bytes_allocated"]),
           str(p["frame_bytes_allocated"]), "0", m["frame_bytes_allocated"] == p["frame_bytes_allocated"] == 0)
    yield ("the wire itself, us (30 us per pixel + 300 us latch)", "", "", "%d" % wire_us(c["pixels"]),
           "physical limit", None)
    for port, label in (("button", "Button.poll"), ("picker", "ButtonPicker.poll"),
                        ("sensors", "Sensors.poll (74HC165 chain)"), ("wheels", "Wheels.poll")):
        m_polls, p_polls = mpy["polls"][port], pico["polls"][port]
        yield ("input poll: bytes allocated per %s (MicroPython)" % label, "-", "%g" % m_polls, "%g" % p_polls, "0",
               m_polls == p_polls == 0)


def wire_us(pixels):
    return 30 * pixels + LATCH_US


def game_rows(name, position, cpy, mpy, heap, pico, power):
    """The rows of one game; ``pico`` its Pico figures, ``power`` the
    strength of the hint the Pico reaches: (score in half points, games)."""
    c, m, d = cpy[name], mpy[name], pico["device"][name]
    yield ("%s: all legal decisions %s, worst position (%d), us"
           % (name, "after a roll" if position["outcome"] >= 0 else "at a decision", m["decisions"]),
           "%.0f" % c["decide_us"], "%.0f" % m["decide_us"], "%.0f" % d["decide_us"],
           "<= %d (WebAssembly), <= %d (Pico)" % (DECIDE_US, PICO_DECIDE_US),
           m["decide_us"] <= DECIDE_US and d["decide_us"] <= PICO_DECIDE_US)
    yield ("%s:   the search player's pick there (a hint, %d nodes), ms" % (name, m["hint_nodes"]),
           "%.1f" % (c["hint_us"] / 1000), "%.1f" % (m["hint_us"] / 1000), "%.0f" % (d["hint_us"] / 1000), "", None)
    yield ("%s:   the hint as the controller asks for it (%d nodes, %d ms at most), ms"
           % (name, m["hint_nodes"], HINT_MS), "%.1f" % (c["budget_us"] / 1000), "%.1f" % (m["budget_us"] / 1000),
           "%.0f" % (d["budget_us"] / 1000), "<= %d" % HINT_MS,
           max(f["budget_us"] for f in (c, m, d)) <= HINT_MS * 1000)
    yield ("%s:     nodes it reached (passes finished beyond the first look; plans the first look rated)" % name,
           *("%d (%d; %d of %d)" % (f["budget_nodes"], f["budget_passes"], f["budget_rated"], f["plans"])
             for f in (c, m, d)), "", None)
    if d["budget_rated"] < d["plans"]:
        yield ("%s:     its strength: the first look ran out of time, so the hint is the best of the first %d plans"
               " only (the greedy player rates all %d)" % (name, d["budget_rated"], d["plans"]), "", "", "weaker", "",
               "weaker than greedy")
    else:
        score, games = power
        low, high = strength.wilson(score / 2, games)
        yield ("%s:     its strength at %d nodes: score against the greedy player, %d games (95%% interval)"
               % (name, d["budget_nodes"], games), "", "",
               "%.0f%% (%.0f-%.0f%%)" % (50 * score / games, 100 * low, 100 * high),
               "", "stronger than greedy" if low > 0.5 else "weaker than greedy" if high < 0.5 else "not told from greedy")
    g = pico["game"]
    if g["hint_us"] >= 0:
        yield ("%s:   a hint asked on the board in a whole game (the first: loads the search), ms" % name,
               "-", "-", "%.0f" % (g["hint_us"] / 1000), "<= %d" % HINT_MS, g["hint_us"] <= HINT_MS * 1000)
    yield ("%s: a whole random game (%d steps), ms" % (name, c["game_steps"]),
           "%.1f" % (c["game_us"] / 1000), "%.1f" % (m["game_us"] / 1000), "%.0f" % (d["game_us"] / 1000), "", None)
    yield ("%s: random playouts per second (%.0f steps/s on CPython)" % (name, c["steps_per_s"]),
           "%.0f" % c["playouts_per_s"], "%.0f" % m["playouts_per_s"], "%.1f" % d["playouts_per_s"],
           "goal >= %d (CPython)" % PLAYOUT_GOAL, "goal met" if c["playouts_per_s"] >= PLAYOUT_GOAL else "under goal")
    yield ("%s: heap in use after a whole game, firmware loaded, KB (code %.1f)" % (name, heap["code"] / 1024),
           "-", "%.1f" % (heap["heap"] / 1024), "-", "", None)
    yield ("%s:   + what a hint loads (rules.players, rules.playout, tables), KB" % name,
           "-", "%.1f" % (heap["hint"] / 1024), "-", "", None)
    yield ("%s: heap free on the board at the lowest point of a whole game, after any collection, steps' insides"
           " included, KB (largest free block)" % name, "-", "-",
           "%.1f (%.1f)" % (g["true_lowest"] / 1024, g["true_lowest_block"] / 1024),
           ">= %d KB (Pico)" % (PICO_FREE_BYTES // 1024), min(g["true_lowest"], g["lowest"]) >= PICO_FREE_BYTES)
    yield ("%s:   between steps only (gc.collect() after each), KB (largest free block)" % name,
           "-", "-", "%.1f (%.1f)" % (g["lowest"] / 1024, g["lowest_block"] / 1024), "", None)
    yield ("%s:   after that game (%d steps), KB (largest free block)" % (name, g["steps"]),
           "-", "-", "%.1f (%.1f)" % (g["free"] / 1024, g["free_block"] / 1024), "", None)
    answered = pico["press_lit_ms"] is not None
    sent_p, lit_p = ("%.1f" % pico["press_sent_ms"], "%.1f" % pico["press_lit_ms"]) if answered else \
        ("> %d" % bench_pico.ANSWER_MS,) * 2
    phases = " (Pico: the worst of %d touches, every %g ms across %d ms of its loop)" % (
        len(bench_pico.PHASES_MS), bench_pico.PHASE_STEP_MS, bench_pico.FRAME_MS)
    if c["press"] is None:
        yield ("%s: button 1 press -> changed frame sent (the choice a long press takes, held), ms" % name,
               "no die", "no die", sent_p, "", None)
        yield ("%s:   + %d pixels on the wire -> first changed pixel lit, ms%s" % (name, pico["pixels"], phases),
               "no die", "no die", lit_p, "<= %d" % PRESS_MS, answered and pico["press_lit_ms"] <= PRESS_MS)
        click = pico["click_lit_ms"]
        yield ("%s:   its click: from the release to the next choice lit, ms (the worst of %d clicks a touch)"
               % (name, bench_pico.CLICKS), "no die", "no die", "%.1f" % click if click is not None else "none lit",
               "<= %d" % PRESS_MS, click is not None and click <= PRESS_MS)
    else:
        wire = wire_us(pico["pixels"]) / 1000
        sent = [f["press_ms"] + f["pass_us"] / 1000 for f in (c["press"], m["press"])]
        yield ("%s: die press -> changed frame sent, ms (simulated loop: %d ms, then the pass)"
               % (name, c["press"]["press_ms"]), "%.1f" % sent[0], "%.1f" % sent[1], sent_p, "", None)
        yield ("%s:   + %d pixels on the wire -> first changed pixel lit, ms%s" % (name, pico["pixels"], phases),
               "%.1f" % (sent[0] + wire), "%.1f" % (sent[1] + wire), lit_p, "<= %d" % PRESS_MS,
               answered and max(sent) + wire <= PRESS_MS and pico["press_lit_ms"] <= PRESS_MS)
    slow = pico["max_flash"]
    yield ("%s: the longest pause between two frames while an animation runs, the step's save included, ms"
           % name, "-", "-", "%.1f" % pico["pause_ms"], "<= %d (Pico)" % PAUSE_MS, pico["pause_ms"] <= PAUSE_MS)
    yield ("%s:   that pause with the flash's maximum erase and program times, ms" % name,
           "-", "-", "%.1f" % slow["pause_ms"], "", None)
    loop = pico["loop"]
    moment = ("a piece lifted: %d destinations lit" % loop["targets"] if loop["in_hand"] >= 0
              else "a counter dropped through a pocket's beam" if not loop["lifting"]
              else "no piece lifted: those that may move stand in stacks" if not loop["targets"]
              else "the lifted piece NOT seen")
    yield ("%s: the loop's period at the worst moment (%s%s), ms"
           % (name, moment, "" if loop["agreed"] else "; the board did NOT agree with the game"),
           "-", "-", "%.1f" % (loop["period_us"] / 1000), "<= %d (Pico)" % PERIOD_MS,
           loop["agreed"] and (loop["in_hand"] >= 0 or not loop["targets"]) and loop["period_us"] <= PERIOD_MS * 1000)
    yield ("%s:   its longest tick; a garbage collection there, ms" % name,
           "-", "-", "%.1f; %.1f" % (loop["tick_us"] / 1000, loop["collect_us"] / 1000), "", None)
    link = pico["link"]
    yield ("%s: the USB line protocol's share of a tick: no host; a host subscribed (%.0f frames a s), ms"
           % (name, link["frames_per_s"]), "-", "-", "%.2f; %.2f" % (link["idle_us"] / 1000, link["sub_us"] / 1000),
           "<= %g (Pico, subscribed)" % (LINK_US / 1000), link["sub_us"] <= LINK_US)
    yield ("%s:   its longest tick, a host subscribed, ms" % name, "-", "-", "%.1f" % (link["longest_us"] / 1000), "", None)
    yield ("%s:   main.py's loop meanwhile, its mean pass and its longest: no host; a host subscribed, ms" % name,
           "-", "-", "%.2f, %.1f; %.2f, %.1f" % (link["idle_pass_us"] / 1000, link["idle_longest_pass_us"] / 1000,
                                                 link["sub_pass_us"] / 1000, link["sub_longest_pass_us"] / 1000),
           "<= %d (Pico, longest)" % PERIOD_MS,
           max(link["idle_longest_pass_us"], link["sub_longest_pass_us"]) <= PERIOD_MS * 1000)
    # a pass loads the module, the next makes the link: a frame may wait for either and a pass beside it
    load = max(link["load_us"], link["make_us"]) + link["idle_pass_us"]
    yield ("%s:   a host's first byte: the link's module loaded; the link made (a pass each, once), ms" % name,
           "-", "-", "%.1f; %.1f" % (link["load_us"] / 1000, link["make_us"] / 1000),
           "<= %d with a pass (Pico)" % PAUSE_MS, load <= PAUSE_MS * 1000)
    yield ("%s: boot to the first frame, ms (a new game; the saved game resumed)" % name,
           "-", "-", "%.0f; %.0f" % (pico["boot_ms"], pico["resume_ms"]), "<= %d (Pico)" % BOOT_MS,
           max(pico["boot_ms"], pico["resume_ms"]) <= BOOT_MS)
    yield ("%s:   boot with the flash's maximum erase and program times, ms" % name,
           "-", "-", "%.0f; %.0f" % (slow["boot_ms"], slow["resume_ms"]), "<= %d (Pico)" % BOOT_MAX_FLASH_MS,
           max(slow["boot_ms"], slow["resume_ms"]) <= BOOT_MAX_FLASH_MS)


def strength_of(nodes, jobs=2):
    """{game: (score of the search player at ``nodes[game]`` nodes against
    the greedy player, in half points; games)}, ``strength``'s games."""
    tasks = []
    for name, n in nodes.items():
        for first in range(0, STRENGTH_GAMES, strength.CHUNK):
            tasks.append((name, "search", "greedy", first, min(strength.CHUNK, STRENGTH_GAMES - first), n))
    with multiprocessing.Pool(jobs) as pool:
        results = list(strength.played(pool.imap(strength.play_games, tasks), tasks, "bench: the hint's strength"))
    out = {name: (0, 0) for name in nodes}
    for task, (score, _, _) in zip(tasks, results):
        total, games = out[task[0]]
        out[task[0]] = (total + score, games + task[4])
    return out


@contextlib.contextmanager
def stage(what):
    """Progress lines around a stage of the bench: when it starts and how long it took."""
    start = time.time()
    bench_pico.progress("%s ..." % what)
    yield
    bench_pico.progress("%s done (%.0f s)" % (what, time.time() - start))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is over its budget (docs/budgets.md)")
    args = parser.parse_args(argv)
    with stage("worst positions, on CPython"):
        positions = {name: worst_position(name) for name in GAMES}
    # the times on the clock first, on a machine the emulated Picos do not load yet: run beside them, the
    # WebAssembly figures came out up to four times as long from one run to the next
    with tempfile.TemporaryDirectory() as lib:
        shutil.copy(os.path.join(bench_pico.adafruit_source(), "adafruit_pixelbuf.py"), lib)
        shutil.copy(os.path.join(HERE, "device.py"), os.path.join(lib, DEVICE))
        with open(os.path.join(lib, "positions.json"), "w") as f:
            json.dump(positions, f)
        with stage("CPython figures"):
            cpy = on_cpython(lib, os.path.join(lib, "positions.json"))
        with stage("WebAssembly figures"):
            mpy = on_micropython(lib, ["/lib/positions.json"])
        with stage("WebAssembly heaps, the firmware as the Pico loads it"):
            pack_firmware(lib, "firmware.json")
            heaps = {name: on_micropython(lib, ["--heap", name, "/lib/firmware.json"]) for name in GAMES}
    with stage("emulated Picos, %d boards, %d at a time" % (len(GAMES), bench_pico.JOBS)):
        pico = bench_pico.figures(positions)  # minutes of emulated Pico, whose clock counts cycles
    with stage("the hint's strength, %d games a board against the greedy player" % STRENGTH_GAMES):
        power = strength_of({name: pico[name]["device"][name]["budget_nodes"] for name in GAMES})
    table = list(led_rows(cpy, mpy, pico[GAMES[-1]]["device"]))
    for name in GAMES:
        table.extend(game_rows(name, positions[name], cpy, mpy, heaps[name], pico[name], power[name]))
    widths = [max(len(str(r[i])) for r in table) for i in range(5)]
    head = ("figure", "CPython", "WebAssembly", "Pico", "budget")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  verdict")
    over = 0
    for row in table:
        verdict = row[5] if isinstance(row[5], str) else "" if row[5] is None else "within" if row[5] else "OVER"
        over += row[5] is False
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row[:5], widths)) + "  " + verdict)
    print("budgets: docs/budgets.md, each with what it holds for")
    print("times on CPython and WebAssembly are medians of 7 samples; WebAssembly is MicroPython's port under node,"
          " whose clock ticks in whole ms (short actions are timed in batches). Pico is the emulated one"
          " (host/pico/vpico: the stock MicroPython rp2 firmware %s on an RP2040 at 125 MHz, its flash read through"
          " the XIP cache, a miss waiting on the QSPI transfer, erases and programs at the datasheet's typical"
          " times unless a row says otherwise): its clock counts cycles, so one sample is taken and the figure is"
          " the same at every run" % UF2_NAME)
    print("worst positions, found by playing %d random games (seeds 0-%d) of each setup and trying every roll:"
          % (SEEDS, SEEDS - 1))
    for name in GAMES:
        p = positions[name]
        setup = ", ".join(["%d players" % p["players"]] + ["%s=%s" % kv for kv in sorted(p["options"].items())])
        what = "roll %s" % p["roll"] if p["outcome"] >= 0 else "the decision"
        print("  %s (%s): random game seed %d after %d steps, %s: %d decisions; save %s"
              % (name, setup, p["seed"], p["step"], what, p["decisions"], json.dumps(p["save"], separators=(",", ":"))))
    some = heaps[GAMES[0]]
    print("heap in use (WebAssembly): the firmware as the Pico loads it, the .mpy files of host/pico/build.py (bytecode,"
          " which this port loads as the Pico does)%s: %s, the rules core and the game, what they import, the look the"
          " game names if any (app.paint imports it for that game alone), its board"
          " and a finished random game (2 players, stepped through game.play() by the bench script), after"
          " gc.collect() in a fresh interpreter, less the %d bytes it held before (the interpreter and the bench"
          " script); code is the part the imports take. Not counted: main.py (it runs the device), app.startup (dropped"
          " once the game runs), app.bringup (a tool of its own), what this port"
          " cannot import (%s), and the computer players (rules.players, rules.playout), which the controller"
          " imports only when a hint is asked for: the row under the heap says what a hint adds"
          % ("" if all(h["mpy"] for h in heaps.values()) else " (NOT loaded from .mpy here)",
             ", ".join(some["modules"]), max(h["base"] for h in heaps.values()), ", ".join(some["skipped"]) or "-"))
    print("heap free on the board (Pico): in a fresh interpreter main.py's start-up (app.device) starts a new game"
          " (2 players) on the board's pins; it is played to its end at random (seed %d), every step through the"
          " controller's play() (record line, save on flash, events, refresh) and a tick of the loop after it (polls,"
          " a frame); a hint is asked for at the first piece move, so the search's code stays loaded. The emulator"
          " follows every write to the garbage collector's allocation table and counts its free blocks each time a"
          " collection ends, the automatic ones inside a step (the hint's search, a save) included: the fewest is"
          " the figure, with the longest run of free blocks then. Between steps only: gc.mem_free() after"
          " gc.collect() after every step; the largest free block is mem_info()'s max free sz. The bench's own"
          " code (host/bench/board.py, some 2.5 KB) is in that heap too, so a board has a little more"
          % bench_pico.GAME_SEED)
    print("die press (CPython, WebAssembly): a loop stepped by a fake clock 1 ms at a time (hal Button, Tumble,"
          " Pixels) counts the ms from the press to the pass that sends a changed frame; the measured cost of that"
          " pass is added, and then the frame's time on the wire: the pixels show it at the latch, after the last one")
    print("die press (Pico): main.py running the new game, its pieces on their sensors, die button 1 pressed"
          " (its contact bounces) and held %d ms; a twin Pico does all the same but the press, and the first frame that"
          " differs from the twin's answers it: its first edge on the wire (sent) and its latch (lit) less the moment"
          " the contact first closed. Everything the loop does on that tick counts, a save on flash included. The"
          " press is swept across %d ms in steps of %g ms, each on a Pico of its own, and the worst is the figure."
          " Tiddlee Snuka's button 1 picks: a press lights the choice a long press takes, held; its click, known at"
          " the release, lights the next, timed from the release to the first frame that differs from the one"
          " before it" % (bench_pico.HOLD_MS, bench_pico.FRAME_MS, bench_pico.PHASE_STEP_MS))
    print("pause (Pico): the emulator notes each stretch of 5 ms or more in which the core ran without a pause"
          " (main.py's loop sleeps between ticks: a stretch is a tick, a save, a collection); the pause around one is"
          " the time from the last frame latched before it to the first latched after it, the longest over every"
          " press of the sweep, from the first frame on (pieces breathing, the press, the tumble, the step saved)")
    print("the loop's period (Pico): the worst position after its roll saved as the game main.py resumes, the board"
          " made to agree with it, then the piece with the most destinations lifted (Tiddlee Snuka: a counter"
          " dropped through a pocket's beam); the loop of app.device.play (a tick, a %d ms pause) runs on it and the"
          " longest time between two ticks over %d ms is the period. A collection falls in a tick now and then: its"
          " time is shown beside the longest tick" % (LOOP_MS, bench_pico.PERIOD_MS))
    print("boot (Pico): power on to the first frame's latch, with no saved game (main.py starts and saves a new"
          " one), and again after a power cut (it resumes the saved game)")
    nodes = mpy[GAMES[0]]["hint_nodes"]
    print("hint: the search player with the controller's budgets (%d nodes, %d ms on the interpreter's clock) at the"
          " worst position, after the untimed %d-node pick above; on the board, the first hint asked in a whole game."
          " Its strength: host/bench/strength.py's games, 2 players, the search player at the nodes the Pico reaches"
          " against the greedy player, seats alternating; make strength plays it at 300 nodes"
          % (nodes, HINT_MS, nodes))
    print("playouts: whole random games from the start, 2 players, default options (the goal is not one of the"
          " budgets of docs/budgets.md, so --check does not fail on it)")
    return 1 if args.check and over else 0

