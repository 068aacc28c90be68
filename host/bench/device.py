"""Figures measured inside one interpreter, CPython or MicroPython; prints one
JSON object on its last line. Run by the bench (``host.bench``) on CPython
and, as bench_device.py, on the WebAssembly port, and by ``host.bench.pico``
on the emulated Pico, where it is the module bench_device.

    bench_device.py BOARDS_DIR POSITIONS_JSON   every figure but the heap
    bench_device.py BOARDS_DIR --heap GAME MPY_JSON
                                                the heap after a whole game of GAME
    bench_device.py BOARDS_DIR POSITIONS_JSON --pico GAME [--led]
                                                on the Pico (host.bench.pico): the
                                                figures of GAME (and the LED frame and
                                                the polls), one sample each

On the Pico the clock is the emulated one, which counts cycles: a sample
comes out the same at every run, so one is taken (a whole game and a hint
there take seconds). Its die press is timed on the board itself.

The heap is measured in an interpreter of its own, with nothing loaded but
the firmware and the game. The firmware is loaded as the Pico loads it: the
build's .mpy files, handed over in MPY_JSON (device path -> hex, as the
runner copies no .mpy) and written to /mpy, first on ``sys.path``.

The MicroPython WebAssembly port reclaims garbage only between two entries
from JavaScript, never inside one synchronous run, so every figure runs
inside ``asyncio.run`` and pauses (``pause()``) before it
counts the heap: the ``gc.collect()`` after that pause really collects. (A
``sleep(0)`` is not enough: the port resumes the task without leaving the
interpreter; a 1 ms sleep goes back to JavaScript's event loop.)

The port's clock ticks in whole milliseconds, so a short action is timed
over enough repetitions to last at least SAMPLE_MS.
"""

import asyncio
import gc
import json
import sys
import time

try:
    clock, elapsed = time.ticks_us, time.ticks_diff
except AttributeError:  # CPython

    def clock():
        return int(time.perf_counter() * 1000000)

    def elapsed(a, b):
        return a - b


RUNS = 7  # samples per timed figure; the median is reported
SAMPLE_MS = 20  # each sample lasts at least this long
PLAYOUT_MS = 1000  # random playouts are counted for this long
PRESS_AT = 5  # ms into the simulated loop when the die button goes down
POLLS = 3000  # polls per input port in the allocation count
PICO_SENSOR_POLLS = 500  # on the Pico, where a poll of the sensor chain takes ms
WHITE = (255, 255, 255)
# the hal modules that stay loaded while a game runs (app.device unloads hal.pins
# with app.startup once the board has started)
HAL = ("beams", "buttons", "pixels", "sensors", "storage", "strip_micropython", "ticks", "viper", "wheels")
# and the controller's (app/): not app.startup, nor app.bringup, a tool of its own, nor the USB
# link, loaded when a host first speaks; a game's look (Game.look), which app.paint imports for
# that game alone, is counted with its game
APP = ("colours", "controller", "device", "die", "keeper", "paint", "picker", "watch")


async def pause():
    """Back to the event loop for a moment, so that the WebAssembly port can collect."""
    await (asyncio.sleep_ms(1) if hasattr(asyncio, "sleep_ms") else asyncio.sleep(0))


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def timed(fn, prepare=None, runs=RUNS):
    """Microseconds per call of ``fn(item)``, the median of ``runs`` samples. Each
    sample calls it on the items ``prepare(n)`` made (untimed), n large enough
    for the sample to last SAMPLE_MS; without ``prepare`` the items are None."""
    n = 1
    while True:
        items = prepare(n) if prepare else [None] * n
        start = clock()
        for item in items:
            fn(item)
        took = elapsed(clock(), start)
        if took >= SAMPLE_MS * 1000:
            break
        # under a tick nothing is known yet; else aim a fifth past the sample length
        n = n * 4 if took < 1000 else n * SAMPLE_MS * 1200 // took + 1
    times = [took / n]
    for _ in range(runs - 1):
        items = prepare(n) if prepare else [None] * n
        start = clock()
        for item in items:
            fn(item)
        times.append(elapsed(clock(), start) / n)
    return median(times)


def read_json(path):
    with open(path) as f:
        return json.load(f)


# -- LED frame ----------------------------------------------------------------


def largest_board(folder, names):
    best = None
    for name in names:
        pixels = read_json(folder + "/" + name + ".json")["pixels"]
        if best is None or pixels > best[1]:
            best = (name, pixels)
    return best


def led_figures(folder, names):
    import adafruit_pixelbuf
    from hal.pixels import Pixels

    class Strip(adafruit_pixelbuf.PixelBuf):
        """Adafruit's pure-Python encoder with the transmit left out."""

        def _transmit(self, buffer):
            pass

    board, count = largest_board(folder, names)
    ours = Pixels(count, lambda buf: None, brightness=0.5, budget_ma=450)
    for i in range(3 * count):
        ours.frame[i] = (i * 53 + 17) % 256  # every pixel lit, the limiter at work
    colours = [(ours.frame[3 * i], ours.frame[3 * i + 1], ours.frame[3 * i + 2]) for i in range(count)]
    theirs = Strip(count, byteorder="GRB", brightness=0.5, auto_write=False)

    def adafruit_frame(_):
        for i in range(count):
            theirs[i] = colours[i]
        theirs.show()

    ours.show()
    allocated = -1
    if hasattr(gc, "mem_alloc"):
        before = gc.mem_alloc()
        ours.show()
        allocated = gc.mem_alloc() - before
    return {
        "board": board,
        "pixels": count,
        "encode_us": timed(lambda _: ours.show()),
        "adafruit_us": timed(adafruit_frame),
        "frame_bytes_allocated": allocated,
    }


# -- input polls --------------------------------------------------------------


def allocated_per_poll(poll, polls=POLLS):
    """Bytes allocated per call of ``poll(now)`` over ``polls`` calls (-1
    where ``gc.mem_alloc`` is missing, as on CPython). No collection runs
    inside a synchronous stretch on the WebAssembly port, so the count is
    exact; nor on the Pico, as long as it allocates nothing."""
    if not hasattr(gc, "mem_alloc"):
        return -1
    poll(0)  # anything made once, at the first call, is not per poll
    before = gc.mem_alloc()
    for now in range(1, polls + 1):
        poll(now)
    return (gc.mem_alloc() - before) / polls


def poll_figures(sensors, sensor_polls=POLLS):
    """Every input port polled through presses, placements and wheel turns;
    the piece sensors ``sensor_polls`` times (each of 500 sees a piece put
    down and lifted)."""
    from app.picker import ButtonPicker
    from hal.buttons import Button
    from hal.sensors import Sensors, ShiftIn
    from hal.wheels import Wheels

    level = bytearray([1])  # the button pin: active low

    def pin():
        return level[0]

    def press_pattern(now):
        # down for 900 ms of every 1200: a press, a long press, a release; bounce at the edges
        level[0] = 0 if now % 1200 < 900 and now % 1200 not in (3, 5, 902) else 1

    button = Button(pin)

    def poll_button(now):
        press_pattern(now)
        button.poll(now)

    picker = ButtonPicker(Button(pin))
    picker.offer((1, 2, 3))

    def poll_picker(now):
        # three clicks step through the candidates, then a long press confirms one
        phase = now % 1500
        level[0] = 0 if (phase < 600 and phase % 200 < 60) or 600 <= phase < 1400 else 1
        picker.poll(now)

    chips = (sensors + 7) // 8
    raw = bytearray([0xFF] * (8 * chips))  # one entry per input, in shift order; 1: empty
    at = bytearray(1)

    def latch(v):
        if not v:
            at[0] = 0

    def tick(v):
        if v:
            at[0] = (at[0] + 1) % len(raw)

    def data():
        return raw[at[0]]

    shift = ShiftIn(latch, tick, data, chips)
    board = Sensors(shift.read, sensors)

    def poll_sensors(now):
        # a piece put down and lifted again on a different space every 500 ms
        k = now // 500 % (8 * chips)
        raw[k] = 0 if now % 500 < 400 else 1
        board.poll(now)

    code = bytearray(1)

    def wheel_codes():
        return code[0]

    wheels = Wheels(wheel_codes, 4)
    gray = bytes((0, 1, 3, 2))

    def poll_wheels(now):
        # one wheel a quarter turn on every 200 ms
        code[0] = gray[now // 200 % 4] << (2 * (now // 800 % 4))
        wheels.poll(now)

    return {
        "button": allocated_per_poll(poll_button),
        "picker": allocated_per_poll(poll_picker),
        "sensors": allocated_per_poll(poll_sensors, sensor_polls),
        "wheels": allocated_per_poll(poll_wheels),
    }


# -- the rules ------------------------------------------------------------------


def new_game(folder, name, players, options):
    from rules.games import find_game

    cls = find_game(name)
    return cls(read_json(folder + "/" + name + ".json"), players, options)


def decide_figure(folder, name, position, runs=RUNS):
    """All legal decisions after the roll in the worst position: play the roll
    and list the decisions, on copies made beforehand. And the search
    player's pick there, the hint the controller would light: with the
    player's default node budget, and as the controller asks for it."""
    from rules.games import find_game

    start = new_game(folder, name, position["players"], position["options"])
    game = find_game(name).load(start.board, position["save"])
    index = position["outcome"]
    outcome = game.chance_outcomes()[index][0] if index >= 0 else None

    def prepare(n):
        return [game.copy() for _ in range(n)]

    def decide(g):
        if outcome is not None:
            g.play(outcome)
        g.legal()

    from rules.players import SearchPlayer
    from rules.playout import Rng

    after = game.copy()
    decide(after)
    hint = SearchPlayer(Rng(1))  # its default budget
    figures = {"decide_us": timed(decide, prepare, runs), "decisions": len(after.legal()),
               "hint_us": timed(lambda _: hint.pick(after), runs=runs), "hint_nodes": hint.nodes}
    figures.update(budget_hint(after))
    return figures


def budget_hint(game):
    """The hint as the controller asks for it: the search player's node
    budget and the controller's time budget on this interpreter's clock.
    Returns how many nodes it reached (the search counts down ``_left``
    from its budget), how many of the plans its first look rated, and how
    long it took."""
    from app.controller import HINT_MS
    from hal.ticks import diff, now
    from rules.players import SearchPlayer, plans
    from rules.playout import Rng

    hint = SearchPlayer(Rng(1), ms=HINT_MS, clock=now, diff=diff)
    start = clock()
    hint.pick(game)
    took = elapsed(clock(), start)
    return {"budget_nodes": min(hint.nodes, hint.nodes - hint._left), "budget_us": took, "budget_passes": hint.reached,
            "budget_rated": hint.rated, "plans": len(plans(game))}


def game_figures(folder, name, seed, runs=RUNS, playout_ms=PLAYOUT_MS):
    """One whole random game (the median of ``runs``), and random playouts
    per second: whole games from the start, counted for ``playout_ms`` (at
    least one)."""
    from rules.playout import Rng, random_game

    fresh = new_game(folder, name, 2, None)
    times = []
    steps = 0
    for _ in range(runs):
        g = fresh.copy()
        start = clock()
        steps = random_game(g, Rng(seed))
        times.append(elapsed(clock(), start))
    playouts = total_steps = 0
    start = clock()
    while not playouts or elapsed(clock(), start) < playout_ms * 1000:
        total_steps += random_game(fresh.copy(), Rng(1000 + playouts))
        playouts += 1
    took = elapsed(clock(), start) / 1000000
    return {"game_us": median(times), "game_steps": steps,
            "playouts_per_s": playouts / took, "steps_per_s": total_steps / took}


def press_figures(folder, name):
    """The die button pressed in a simulated loop stepped 1 ms at a time: a
    debounced ``Button``, the die's ``Tumble`` (or Mehen's sticks) and the
    board's ``Pixels``. Returns the ms from the press to the first pass that
    hands the strip a changed frame, and what one such pass costs here."""
    from app.die import Faces, Tumble
    from hal import Chance
    from hal.buttons import PRESS, Button
    from hal.pixels import Pixels

    data = read_json(folder + "/" + name + ".json")
    extras, count = data["extras"], data["pixels"]
    rollers = tuple(tuple(extras[k]) for k in ("die1", "die2") if k in extras)
    sticks = extras.get("sticks")
    if not rollers and not sticks:
        return None
    shown = bytearray(3 * count)
    changed = bytearray(1)

    def transmit(wire):
        if wire != shown:
            changed[0] = 1
            shown[:] = wire

    pixels = Pixels(count, transmit)
    faces = Faces(pixels, rollers)
    tumble = Tumble(faces, WHITE)
    level = bytearray([1])
    button = Button(lambda: level[0])
    chance = Chance(lambda n: bytes([77] * n))

    def loop_pass(now):
        """One pass of the loop: poll the button, draw, send a drawn frame."""
        if button.poll(now) == PRESS:
            if rollers:
                tumble.start(now, chance.dice(len(rollers)))
            else:
                faces.show_sticks(sticks, chance.sticks(), WHITE, (40, 40, 40))
                pixels.show()
        if tumble.values:
            tumble.draw(now)
            pixels.show()

    pixels.show()
    changed[0] = 0
    latency = -1
    for now in range(200):
        if now == PRESS_AT:
            level[0] = 0
        loop_pass(now)
        if changed[0]:
            latency = now - PRESS_AT
            break
    moment = [now]

    def again(_):
        moment[0] += 1
        loop_pass(moment[0])

    return {"press_ms": latency, "pass_us": timed(again), "pixels": count}


# -- main -----------------------------------------------------------------------


async def heap_in_use():
    """``gc.mem_alloc()`` after a collection, the least of a few: the port's
    collector is conservative, and a stale word that looks like a pointer
    now and then keeps garbage alive for one collection."""
    least = None
    for _ in range(5):
        await pause()
        gc.collect()
        used = gc.mem_alloc()
        least = used if least is None or used < least else least
    return least


def unpack(path, root):
    """Write the .mpy files of ``path`` (device path -> hex) under ``root``."""
    import os

    files = read_json(path)
    for rel in files:
        folder = ""
        for part in (root + "/" + rel).split("/")[1:-1]:
            folder += "/" + part
            try:
                os.mkdir(folder)
            except OSError:
                pass  # made for an earlier file
        with open(root + "/" + rel, "wb") as f:
            f.write(bytes.fromhex(files[rel]))


def play_to_the_end(game, seed):
    """Random steps through the public protocol, as the controller plays
    them, until the game ends. Not rules.playout: the device loads that only
    for a hint."""
    x = seed
    while not game.over():
        steps = [o for o, _, _ in game.chance_outcomes()] if game.is_chance() else game.legal()
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        game.play(steps[(x >> 16) % len(steps)])


async def heap_after_game(folder, name, compiled):
    """Heap in use by the firmware a game runs on, and a finished game,
    beyond what the interpreter and this script held before they were
    loaded: after the imports (the code), and after a whole random game
    (code and data). Then what a hint adds: the computer players, which the
    controller imports only when a hint is asked for, and their tables."""
    root = "/mpy"
    unpack(compiled, root)
    sys.path.insert(0, root)
    modules = ["hal." + m for m in HAL] + ["app." + m for m in APP]
    base = await heap_in_use()
    skipped = []
    for module in modules:
        try:
            __import__(module)
        except (ImportError, SyntaxError, ValueError):  # a backend for hardware (or a CPU) this port lacks
            skipped.append(module)
    from rules.games import find_game

    look = find_game(name).look
    if look:
        __import__(look)
        modules.append(look)
    code = await heap_in_use() - base
    game = new_game(folder, name, 2, None)
    play_to_the_end(game, 1)
    heap = await heap_in_use() - base
    from rules.players import evaluate  # and rules.playout, which it imports

    evaluate(type(game)(game.board, 2, None), 0)  # a game in play on the same board: its tables are made
    hint = await heap_in_use() - base - heap
    return {"game": name, "heap": heap, "code": code, "base": base, "hint": hint, "over": game.over(),
            "mpy": sys.modules["rules.core"].__file__.endswith(".mpy"),
            "modules": [m for m in modules if m not in skipped], "skipped": skipped}


async def measure(argv):
    folder = argv[1]
    if argv[2] == "--heap":
        if not hasattr(gc, "mem_alloc"):
            return {"game": argv[3], "heap": -1}
        return await heap_after_game(folder, argv[3], argv[4])
    positions = read_json(argv[2])
    names = sorted(positions)
    pico = "--pico" in argv
    figures = {}
    if not pico or "--led" in argv:
        figures["led"] = led_figures(folder, names)
        await pause()
        sensors = max(read_json(folder + "/" + n + ".json")["sensors"] for n in names)
        figures["polls"] = poll_figures(sensors, PICO_SENSOR_POLLS if pico else POLLS)
        await pause()
    runs = 1 if pico else RUNS
    for name in [argv[argv.index("--pico") + 1]] if pico else names:
        one = decide_figure(folder, name, positions[name], runs)
        await pause()
        one.update(game_figures(folder, name, 1, runs, 0 if pico else PLAYOUT_MS))
        await pause()
        if not pico:
            one["press"] = press_figures(folder, name)
            await pause()
        figures[name] = one
    return figures


async def main(argv):
    print(json.dumps(await measure(argv)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
