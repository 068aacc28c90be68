"""Figures of the controller main.py runs, on the Pico itself: started by
``app.device`` as at every power-on, its ports on the board's real pins.
Run by host/bench/pico.py on the emulated Pico, where it is the module
bench_board, through mpremote, each call in a fresh interpreter (a soft
reset before it), so that the heap holds what it holds after a power-on;
kept small, as its own code is in it too::

    import bench_board; bench_board.keep("/positions.json", "sniggle")
    import bench_board; bench_board.loop(1000)
    import bench_board; bench_board.game(1)
    import bench_board; bench_board.link()        (mpremote exec --no-follow)

Each but ``link`` prints one JSON object on its last line.

``keep`` saves the worst position of a game (host/bench finds it), after
its roll, as the game main.py resumes. ``loop`` resumes it as main.py does
and runs the loop of ``app.device.play`` (a tick, the pause); once the
board agrees with the game it prints ``lift``, the host lifts the piece
with the most destinations (on Tiddlee Snuka a counter drops through a
pocket's beam), and the loop is timed from when the controller sees it, for
the ms given.

``game`` starts a new game as main.py does on a Pico without a saved game
and plays it to its end at random, every step through the controller
(``play``: the record line, the save on flash, the events, the refresh),
with one tick of the loop after it (the polls of the pins, a frame). The
first time a piece is to be moved, a hint is asked for as a long press of
button 1 asks for it: the search's code and tables stay loaded from then on.
The heap is read after a collection after every step; at each new lowest
point ``micropython.mem_info()`` prints the largest free block.

``link`` runs main.py's game as at power-on with the USB link's ticks
(``app.link``, loaded when a host first speaks) timed, until Ctrl-C:
``LINK`` holds, without a host subscribed and with one, the link's ticks,
the us they took and the longest, and the loop's passes (from the start of
a controller tick to the next): how many, when the first and the last
began, and the longest. The passes show what the link's own ticks do not:
the USB port's work in its interrupts and in the pause, and what the
link's allocations cost the controller's.
"""

import gc
import json
import time

import micropython
from app import device

SETTLE_MS = 3000  # at most this long for the sensors to read the pieces standing
LIFTED_MS = 3000  # at most this long for the lifted piece to be seen


def keep(positions, name):
    from app.keeper import Keeper
    from app.startup import new_game, read_config

    with open(positions) as f:
        position = json.load(f)[name]
    config = read_config()
    fresh = new_game(config)
    game = type(fresh).load(fresh.board, position["save"])
    if position["outcome"] >= 0:
        game.play(game.chance_outcomes()[position["outcome"]][0])
    Keeper("/", config["board"]).begin(game)
    print(json.dumps({"kept": name, "decisions": len(game.legal())}))


def _pass(ctl):
    """One pass of app.device.play's loop: (when it began, how long the tick took), in us."""
    start = time.ticks_us()
    ctl.tick(time.ticks_ms())
    took = time.ticks_diff(time.ticks_us(), start)
    time.sleep_ms(device.LOOP_MS)
    return start, took


def _until(ctl, done, ms):
    start = time.ticks_ms()
    while not done() and time.ticks_diff(time.ticks_ms(), start) < ms:
        _pass(ctl)


def loop(ms):
    ctl = device._started()
    snap = ctl.snapshot
    _until(ctl, lambda: not snap.settling and not snap.disagrees, SETTLE_MS)
    agreed = not snap.disagrees
    print("lift")
    lifting = snap.expected is not None
    if lifting:
        _until(ctl, lambda: snap.hand >= 0, LIFTED_MS)
    starts = []
    ticks = []
    begin = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), begin) < ms:
        start, took = _pass(ctl)
        starts.append(start)
        ticks.append(took)
    periods = [time.ticks_diff(starts[i + 1], starts[i]) for i in range(len(starts) - 1)]
    gc.collect()
    start = time.ticks_us()
    gc.collect()
    collect_us = time.ticks_diff(time.ticks_us(), start)
    print(json.dumps({"period_us": max(periods), "tick_us": max(ticks), "passes": len(starts), "agreed": agreed,
                      "lifting": lifting, "in_hand": snap.hand if lifting else -1, "moves": len(snap.moves),
                      "collect_us": collect_us}))


def game(seed):
    from app.keeper import Keeper
    from app.startup import read_config
    from hal.storage import NEW, OLD, remove
    from rules.playout import Rng, random_step

    keeper = Keeper("/", read_config()["board"])
    for path in (keeper.save_path, keeper.save_path + NEW, keeper.save_path + OLD, keeper.record_path):
        remove(path)
    ctl = device._started()
    snap = ctl.snapshot
    rng = Rng(seed)
    steps = 0
    hint_us = -1
    lowest = None
    start = time.ticks_ms()
    while not snap.game.over():
        if hint_us < 0 and snap.moves:
            asked = time.ticks_us()
            ctl.ask_hint()  # what a long press on button 1 does
            hint_us = time.ticks_diff(time.ticks_us(), asked)
        ctl.play(random_step(snap.game, rng))
        ctl.tick(time.ticks_ms())
        steps += 1
        gc.collect()
        free = gc.mem_free()
        if lowest is None or free < lowest:
            lowest = free
            print("lowest after step", steps)
            micropython.mem_info()
    took = time.ticks_diff(time.ticks_ms(), start)
    gc.collect()
    print("after the game")
    micropython.mem_info()
    print(json.dumps({"steps": steps, "lowest": lowest, "free": gc.mem_free(), "hint_us": hint_us, "game_ms": took,
                      "faults": snap.faults}))


# no host subscribed, one subscribed: the link's ticks, the us they took and the longest; main.py's
# passes (from the start of a controller tick to the next): how many, when the first and the last began, the longest
LINK = [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]
SUBSCRIBED = [False]
# what main.py's loop does, a pass each, when a host first speaks: app.link loaded, the link made (us)
LOAD_US = [0, 0]
RESUMED = [False]  # the loop's first pass, which shows the game resumed, is over
MADE_LINK = [False]  # this pass made the link


def link():
    from app import controller, keeper  # noqa: F401  loaded, as a running game has them, before the link is
    from rules import record  # noqa: F401

    gc.collect()
    start = time.ticks_us()
    from app import link as usb

    LOAD_US[0] = time.ticks_diff(time.ticks_us(), start)

    make = usb.Link.__init__
    tick = usb.Link.tick
    ctl_tick = controller.Controller.tick

    def made(self, ctl, serial):
        start = time.ticks_us()
        make(self, ctl, serial)
        LOAD_US[1] = time.ticks_diff(time.ticks_us(), start)
        MADE_LINK[0] = True

    def timed(self, now):
        start = time.ticks_us()
        tick(self, now)
        us = time.ticks_diff(time.ticks_us(), start)
        SUBSCRIBED[0] = self.subscribed  # the tick that subscribes counts as subscribed: the frame starts there
        spent = LINK[1 if self.subscribed else 0]
        spent[0] += 1
        spent[1] += us
        if us > spent[2]:
            spent[2] = us

    def passed(self, now):
        if not RESUMED[0]:
            RESUMED[0] = True
            ctl_tick(self, now)  # the first pass shows the game resumed: a boot's, not the loop's
            return
        start = time.ticks_us()
        spent = LINK[1 if SUBSCRIBED[0] else 0]
        if spent[3] and not MADE_LINK[0]:
            spent[6] = max(spent[6], time.ticks_diff(start, spent[5]))
        elif not spent[3]:
            spent[4] = start
        MADE_LINK[0] = False  # a pass that made the link is not the loop's: LOAD_US shows it
        spent[5] = start
        spent[3] += 1
        ctl_tick(self, now)

    usb.Link.__init__ = made
    usb.Link.tick = timed
    controller.Controller.tick = passed
    device.run()
