"""The Pico column of ``make bench``: the firmware as a Pico runs it, on the
virtual Pico of host/pico/vpico (the stock MicroPython 1.28 rp2 firmware on an
emulated RP2040 at 125 MHz, the board's parts around it).

    python -m host.bench.pico [GAME...]     the figures as JSON

Every board gets virtual Picos of its own, booted from a flash image of the
build for that board (host/pico/build.py: the .mpy files, main.py, config.json
naming the board) with the bench's device code beside it (board.py and
device.py of this folder, as bench_board and bench_device, and Adafruit's
adafruit_pixelbuf.py, compiled as the build is) and the worst positions
(position.py). The emulated clock
counts cycles, so a figure comes out the same at every run. On each board:

- boot: power on, and the first frame's latch (main.py starts a new game
  and saves it); then a power cut, and the first frame again (the saved
  game resumed).
- die press: main.py running, the pieces of the new game put on their
  sensors, die button 1 pressed (it bounces) and held HOLD_MS. A twin Pico
  booted from the same image does all the same but the press: the two send
  the same frames until the press makes a difference, so the first frame
  that differs (beyond a step of an animation) from the twin's sent nearest
  in time is the one that answers it.
  Its first edge on the wire (sent) and its latch (lit: the pixels show it)
  less the moment the contact first closed are the figures. Where in a pass
  of the loop the touch lands, and whether an animation frame is going out
  then, changes them, so the press is swept across a whole animation frame
  (FRAME_MS, several passes of the loop) in steps of PHASE_STEP_MS, each on a
  Pico of its own (the same twin serves them all: it is never pressed), and
  the worst is the figure: a bound over the moments a press can land, to
  the step. On Tiddlee Snuka button 1 picks among the candidates: a press
  lights the one a long press would take, held, and the click steps to the
  next, known once the button is released; it is clicked CLICKS times, and
  beside the press's answer the longest from a release to the first frame
  that differs from the one before it (the next candidate lit) is timed.
- the frames' longest pause: the emulator notes every stretch of 5 ms or
  more in which the core ran without a pause (main.py's loop sleeps between
  two ticks, so a stretch is a tick, a save on flash, a collection); the
  longest time between two frames latched one after the other around such
  a stretch, from the first frame on (pieces breathing, the press, the dice
  tumbling, the step saved), is the figure, over every press of the sweep. It is measured again, and
  the boot too, on a Pico whose flash takes the datasheet's maximum erase
  and program times.
- then through mpremote, each in a fresh interpreter (a soft reset, so
  main.py does not run): the loop at the worst moment and a whole game on
  the board's own pins (bench_board), and what bench_device
  measures on every interpreter (``--pico``: one sample each).
- last, what the USB line protocol (app.link) costs main.py's loop: its
  game runs LINK_MS with no host, then LINK_MS with a host subscribed that
  pings it every quarter second, as make live does; the mean of the link's share
  of a tick each time, and its longest subscribed; the loop's mean and
  longest pass each time (the USB port's interrupts and its work in the
  pause between two ticks count there).
"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from host.bench.position import worst_position
from host.boardfile import read_board
from host.pico.build import MANIFEST, _compile, build
from host.pico.live import PING_S
from host.pico.vpico import VirtualPico, flash
from rules.games import GAMES, find_game

MPREMOTE = Path(sys.executable).parent / "mpremote"
# the bench's code on the Pico, by the module name it has there
DEVICE_CODE = {"bench_board": Path(__file__).resolve().parent / "board.py",
               "bench_device": Path(__file__).resolve().parent / "device.py"}
PLACED_MS = 100  # after the first frame the new game's pieces go on their sensors
PRESS_MS = 400  # and this long after that, once the sensors have read them, die button 1 goes down
HOLD_MS = 300  # a firm press, well short of a long one
# the press that much later: across the 20 ms from one animation frame to the
# next (several passes of the loop), every 0.5 ms
FRAME_MS = 20
PHASE_STEP_MS = 0.5
PHASES_MS = tuple(PHASE_STEP_MS * k for k in range(int(FRAME_MS / PHASE_STEP_MS)))
CLICKS = 6  # of Tiddlee Snuka's button 1, one every 2 * HOLD_MS
JITTER = 2  # a wire byte that differs by no more than this is the same picture
ANSWER_MS = 500  # frames are compared for this long after the (last) press
PERIOD_MS = 1000  # the loop is timed this long at the worst moment
GAME_SEED = 1  # of the whole game on the board
# The stock v1.28.0 RPI_PICO firmware, as its linker map gives it (a build of
# the v1.28.0 tag with Debian's gcc-arm-none-eabi 12.2 is the UF2 byte for
# byte): the heap starts at __GcHeapStart, where py/gc.c puts the allocation
# table, a byte for 4 blocks of 16 bytes; gc_collect_end ends a collection.
GC_HEAP_START = 0x200028D8
GC_COLLECT_END = 0x100094E0
GC_BLOCKS_PER_BYTE = 4
GC_BLOCK_BYTES = 16
JOBS = 2  # boards benched at once
TIMEOUT_S = 1200  # for one mpremote run on the emulated Pico
LINK_MS = 3000  # the game runs this long with no host, then with one subscribed
PING_MS = round(PING_S * 1000)  # as make live pings: the subscription lapses after 750 ms without a line


def adafruit_source():
    """The folder holding Adafruit's adafruit_pixelbuf.py in this environment."""
    import adafruit_pixelbuf

    return os.path.dirname(adafruit_pixelbuf.__file__)


def image(folder, name, positions):
    """A flash image for board ``name``: its build, the bench's device code, the positions."""
    out = folder / "build"
    build(out, board=name)
    (out / MANIFEST).unlink()  # beside the build, never on the Pico
    code = dict(DEVICE_CODE, adafruit_pixelbuf=Path(adafruit_source()) / "adafruit_pixelbuf.py")
    for module, src in code.items():
        _compile(src, module + ".py", out / (module + ".mpy"))
    (out / "positions.json").write_text(json.dumps(positions))
    return flash.image(out)


def first_frame(pico, boot):
    """The first frame of boot number ``boot``."""
    n = 0
    while True:
        frame = pico.wait_frame(n, timeout=120)
        if frame is None:
            raise RuntimeError("the virtual Pico lit no pixel")
        if frame["boot"] == boot:
            return frame
        n = frame["n"] + 1


def pressed(pico, name, press, phase=0):
    """On a Pico just switched on, put the new game's pieces on their sensors
    and, with ``press``, press die button 1 (``phase`` ms later than the
    others). Returns (the moments it went down, those it came up, the frames
    of this boot)."""
    first = first_frame(pico, 1)
    game = find_game(name)(read_board(name), 2, {})
    placed = math.ceil(first["t_ms"]) + PLACED_MS
    counts = game.occupancy()
    for s in range(len(counts or ())):
        if counts[s]:
            pico.place(game.board.sensor_of[s], at=placed)
    down = placed + PRESS_MS + phase
    # Tiddlee Snuka's button 1 steps to the next candidate on a click, known
    # at its release; the fouls of a counter light the spots its pot lights,
    # so it takes a few clicks to change the picture
    downs = [down + 2 * HOLD_MS * k for k in range(1 if counts is not None else CLICKS)]
    ups = [at + HOLD_MS for at in downs]
    if press:
        for at, up in zip(downs, ups):
            pico.press("die1", at=at)
            pico.release("die1", at=up)
    pico.wait(ups[-1] + ANSWER_MS - pico.now())
    return downs, ups, [f for f in pico.frames(0) if f["boot"] == 1]


def click_answered(frames, ups):
    """The longest time from a release of button 1 to the first frame latched
    after it that differs (by more than JITTER in a byte) from the last one
    before it: the next candidate lit, ms; None if a click changed nothing."""
    longest = 0
    for up in ups:
        before = [f for f in frames if f["start_ms"] < up]
        after = [f for f in frames if f["start_ms"] >= up]
        if not before:
            return None
        held = bytes.fromhex(before[-1]["hex"])
        changed = next((f for f in after if max(abs(a - b) for a, b in zip(bytes.fromhex(f["hex"]), held)) > JITTER),
                       None)
        if changed is None:
            return None
        longest = max(longest, changed["t_ms"] - up)
    return longest


def longest_pause(pico, frames):
    """The longest time between two frames latched one after the other
    while the Pico's core was held (a stretch without a pause overlapping
    them), from the first frame on, ms."""
    latched = [f["t_ms"] for f in frames]
    holds = pico.holds(latched[0])
    return max([b - a for a, b in zip(latched, latched[1:]) if any(s < b and e > a for s, e in holds)], default=0)


def answer(frames, twin, moments):
    """The first of ``frames`` that differs by more than JITTER in a byte
    from the twin's frame sent nearest in time, and the last of ``moments``
    before it; (None, None) if none does. Frames are paired by time, not by
    number: a press that changes nothing in the picture may still send a
    frame of its own, and pairs by number would then be a frame apart from
    there on (an animation a frame on differs). (A press changes the loop's
    timing by microseconds before it is answered: an animation painted a ms
    later differs by a step or so.)"""
    k = 0
    for mine in frames:
        at = mine["start_ms"]
        while k + 1 < len(twin) and abs(twin[k + 1]["start_ms"] - at) <= abs(twin[k]["start_ms"] - at):
            k += 1
        other = twin[k]
        if max(abs(a - b) for a, b in zip(bytes.fromhex(mine["hex"]), bytes.fromhex(other["hex"]))) > JITTER:
            if at < moments[0]:
                raise RuntimeError("the twin Pico sent another frame before the press: the runs are not alike")
            return mine, max(m for m in moments if m <= at)
    return None, None  # nothing answered within ANSWER_MS


def answered(frames, twin, moments):
    """(sent, lit) of the frame that answers the press: ms from ``moments``; (None, None) if none does."""
    shown, since = answer(frames, twin, moments)
    return (shown["start_ms"] - since, shown["t_ms"] - since) if shown else (None, None)


def run(pico, code, lines=None):
    """The output of ``code`` run on the Pico by mpremote (a soft reset first),
    line by line; ``lines(line)`` sees each as it comes."""
    out = []
    with subprocess.Popen([str(MPREMOTE), "connect", pico.port, "exec", code], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        timer = threading.Timer(TIMEOUT_S, proc.kill)
        timer.start()
        for line in proc.stdout:
            out.append(line.strip())
            if lines:
                lines(out[-1])
        timer.cancel()
        error = proc.stderr.read()
    if proc.returncode or not out or not out[-1].startswith("{"):
        raise RuntimeError("on the Pico: %s failed:\n%s" % (code, "\n".join(out[-20:]) + error))
    return out


def worst_moment(pico, name, position):
    """The loop of bench_board at the worst position after its roll:
    the board is made to agree with it (pieces, wheels), and when the loop is
    ready the piece with the most destinations is lifted (a Tiddlee Snuka
    counter drops through a pocket instead)."""
    cls = find_game(name)
    game = cls.load(cls(read_board(name), 2, {}).board, position["save"])
    if position["outcome"] >= 0:
        game.play(game.chance_outcomes()[position["outcome"]][0])
    for w, quarters in enumerate(getattr(game, "wheels", ())):
        if quarters:
            pico.turn(w, quarters)  # from where a new game has them, as its wheels stand
    counts = game.occupancy()
    sensor_of = game.board.sensor_of
    reach = {}
    for s in range(len(counts or ())):
        (pico.place if counts[s] else pico.lift)(sensor_of[s])
    for _, f, t in game.moves() if counts else ():
        if counts[f] == 1:  # one piece taken off a stack is not seen
            reach.setdefault(f, set()).add(t)
    lift = max(sorted(reach), key=lambda f: len(reach[f])) if reach else None

    def act(line):
        if line == "lift" and lift is not None:
            pico.lift(sensor_of[lift])
        elif line == "lift" and counts is None:
            pico.beam(0)

    run(pico, "import bench_board; bench_board.keep('/positions.json', %r)" % name)
    figures = json.loads(run(pico, "import bench_board; bench_board.loop(%d)" % PERIOD_MS, act)[-1])
    figures["targets"] = len(reach[lift]) if lift is not None else 0
    return figures


def whole_game(pico):
    """The whole game of bench_board, with the largest free block
    (``mem_info``'s "max free sz", in blocks of 16 bytes) at its lowest
    point and after it; and the heap's true lowest, the fewest free blocks
    any collection left in the game (inside steps included: a hint's search,
    a save, an automatic collection), with its largest free block."""
    total = re.search(r"GC: total: (\d+)", "\n".join(run(pico, "import micropython, json; micropython.mem_info();"
                                                          " print(json.dumps({}))")))
    pico.watch_heap(GC_HEAP_START, int(total.group(1)) // (GC_BLOCKS_PER_BYTE * GC_BLOCK_BYTES), GC_COLLECT_END)
    out = run(pico, "import bench_board; bench_board.game(%d)" % GAME_SEED)
    figures = json.loads(out[-1])
    section = None
    for line in out:
        if line.startswith("lowest after step"):
            section = "lowest_block"
        elif line.startswith("after the game"):
            section = "free_block"
        found = re.search(r"max free sz: (\d+)", line)
        if found and section:
            figures[section] = 16 * int(found.group(1))
    low = pico.heap_low()
    if low is None or low["free"] > figures["lowest"]:
        raise RuntimeError("the heap's watch saw %s, more than gc.mem_free() after a step (%d): the allocation table"
                           " is not where the firmware's map puts it" % (low, figures["lowest"]))
    figures["true_lowest"], figures["true_lowest_block"] = low["free"], low["largest_block"]
    return figures


def link_cost(pico):
    """The USB link's share of main.py's ticks (bench_board's
    ``link``), no host and a host subscribed: mean and longest, us."""
    import serial

    subprocess.run([str(MPREMOTE), "connect", pico.port, "exec", "--no-follow", "import bench_board; bench_board.link()"],
                   check=True, capture_output=True, timeout=TIMEOUT_S)
    frames = 0
    with serial.Serial(pico.port, timeout=0.05) as port:
        pico.wait(LINK_MS)
        port.write(b"\n~sub 0\n")  # (a line of its own: mpremote leaves a byte or two on the port)
        now = pico.now()
        end, ping = now + LINK_MS, now + PING_MS
        while now < end:
            frames += port.read(1 << 16).count(b'~{"frame": ')
            if now >= ping:
                port.write(b"~ping\n")
                ping += PING_MS
            now = pico.now()
        port.write(b"\x03")  # Ctrl-C: the loop stops, bench_board keeps its figures
    out = subprocess.run([str(MPREMOTE), "connect", pico.port, "resume", "exec",
                          "import bench_board, json; print(json.dumps(bench_board.LINK + bench_board.LOAD_US))"],
                         capture_output=True, text=True, timeout=TIMEOUT_S).stdout.strip().splitlines()
    idle, sub, load_us, make_us = json.loads(out[-1])
    figures = {"idle_us": idle[1] / max(idle[0], 1), "sub_us": sub[1] / max(sub[0], 1), "longest_us": sub[2],
               "ticks": sub[0], "frames_per_s": frames * 1000 / LINK_MS, "load_us": load_us,
               "make_us": make_us}
    for name, (_, _, _, passes, first, last, longest) in (("idle", idle), ("sub", sub)):
        figures[name + "_pass_us"] = (last - first) / max(passes - 1, 1)  # (3 s: the Pico's us do not wrap meanwhile)
        figures[name + "_longest_pass_us"] = longest
    return figures


def progress(text):
    """A line on stderr on how far the bench is: it runs for half an hour and more."""
    print("bench: %s" % text, file=sys.stderr, flush=True)


def board_figures(name, positions, led=False):
    """Every Pico figure of board ``name`` (and the LED frame's and the polls', with ``led``)."""
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
        data = image(Path(tmp), name, positions)
        paths = (Path(tmp) / "pico.img", Path(tmp) / "other.img")
        twin = []

        def twin_run():
            (Path(tmp) / "twin.img").write_bytes(data)
            with VirtualPico(Path(tmp) / "twin.img", board=name) as other:
                twin.append(pressed(other, name, False)[2])

        progress("emulated Pico, %s: boot, and touch 1 of %d beside a twin" % (name, len(PHASES_MS)))
        thread = threading.Thread(target=twin_run)
        thread.start()
        paths[0].write_bytes(data)
        with VirtualPico(paths[0], board=name) as pico:
            try:
                runs = [pressed(pico, name, True) + (longest_pause(pico, pico.frames(0)),)]
            finally:
                thread.join()
            if not twin:
                raise RuntimeError("the twin Pico did not run")
            for k, phase in enumerate(PHASES_MS[1:], 2):
                progress("emulated Pico, %s: touch %d of %d" % (name, k, len(PHASES_MS)))
                paths[1].write_bytes(data)
                with VirtualPico(paths[1], board=name) as other:
                    runs.append(pressed(other, name, True, phase) + (longest_pause(other, other.frames(0)),))
            frames = runs[0][2]
            figures = {"boot_ms": frames[0]["t_ms"], "pixels": len(frames[0]["hex"]) // 6,
                       "press_phases": [answered(seen, twin[0], downs) for downs, _, seen, _ in runs],
                       "pause_ms": max(r[3] for r in runs)}
            worst = max(figures["press_phases"], key=lambda f: math.inf if f[1] is None else f[1])
            figures["press_sent_ms"], figures["press_lit_ms"] = worst
            if find_game(name)(read_board(name), 2, {}).occupancy() is None:  # button 1 picks on a click
                clicks = [click_answered(seen, ups) for _, ups, seen, _ in runs]
                figures["click_lit_ms"] = None if None in clicks else max(clicks)
            progress("emulated Pico, %s: resume, the loop, a whole game, the device figures, the link" % name)
            pico.power_cut()
            figures["resume_ms"] = first_frame(pico, 2)["t_ms"]
            figures["loop"] = worst_moment(pico, name, positions[name])
            figures["game"] = whole_game(pico)
            code = "import asyncio, bench_device; asyncio.run(bench_device.main(%r))"
            argv = ["bench_device", "/boards", "/positions.json", "--pico", name] + (["--led"] if led else [])
            figures["device"] = json.loads(run(pico, code % argv)[-1])
            figures["link"] = link_cost(pico)
        # the flash at the datasheet's maximum erase and program times: boot, resume, the press's pause
        progress("emulated Pico, %s: the flash at its maximum times" % name)
        paths[1].write_bytes(data)
        with VirtualPico(paths[1], board=name, flash_times="max") as slow:
            _, _, seen = pressed(slow, name, True)
            figures["max_flash"] = {"boot_ms": seen[0]["t_ms"], "pause_ms": longest_pause(slow, slow.frames(0))}
            slow.power_cut()
            figures["max_flash"]["resume_ms"] = first_frame(slow, 2)["t_ms"]
    return figures


def figures(positions, names=GAMES):
    """{board: its figures} for every board in ``names``, JOBS at a time; the LED frame's on the last."""
    start = time.time()
    with ThreadPoolExecutor(JOBS) as pool:
        jobs = {pool.submit(board_figures, name, positions, name == names[-1]): name for name in names}
        for n, job in enumerate(as_completed(jobs), 1):
            progress("emulated Pico, %s done (%d of %d boards, %.0f min)" % (jobs[job], n, len(names),
                                                                          (time.time() - start) / 60))
        return {name: job.result() for job, name in jobs.items()}


def main(argv=None):
    names = tuple(argv if argv is not None else sys.argv[1:]) or GAMES
    print(json.dumps(figures({name: worst_position(name) for name in GAMES}, names), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
