"""A simulated board at the pin level, for the simulators and the tests.

``SimBoard(board)`` holds the levels a real board would present to the Pico
(the die buttons, the 74HC165 chain's bits, the wheel encoder codes, the
pocket beams' pins) and catches the pixel wire bytes; ``ports()`` builds the
same hal objects the Pico uses (``Button``, ``Sensors``, ``Wheels``,
``Beams``, ``ChainButtons``, ``Pixels``) on top of them, so everything
above the pins runs unchanged. ``Rig`` is the controller on such a board,
driven by a fake clock: what it does goes in through the pins, what it reads
of the controller is its snapshot (``Controller.snapshot``). ``cut(action, steps)`` runs ``action`` with the
power cut after a given number of steps of writing the flash
(``hal.storage``). Beside them, a scripted random source (``Bytes``) and
the USB serial port's board end (``SerialPort``).

PC only: it stays off the Pico (host/pico/build.py copies firmware/ alone). The
MicroPython gate runs it too, as the shared tests drive the controller with
it, so it keeps to the Python MicroPython has.
"""

import os

from hal import Chance, Ports, storage
from hal.beams import Beams
from hal.buttons import Button, ChainButtons
from hal.pins import BEAMS
from hal.pixels import DEFAULT_BUDGET_MA, Pixels
from hal.sensors import Sensors
from hal.wheels import POSITION, Wheels


class Bytes:
    """A scripted random source: ``urandom(n)`` hands out the given bytes in
    turn (then starts again), so tests choose every die."""

    def __init__(self, values):
        self.values = bytes(values)
        self.at = 0

    def __call__(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self.values[self.at % len(self.values)]
            self.at += 1
        return bytes(out)


class BeamPin:
    """The GPIO of a pocket's beam receiver: held high by the pull-up, pulled
    low while a counter breaks the beam. ``value(level)`` sets the line, and
    a falling edge calls the handler registered with ``irq()``, as the Pico's
    pin interrupt does."""

    IRQ_FALLING = 4  # as machine.Pin.IRQ_FALLING on the rp2 port; the only edge modelled

    def __init__(self):
        self.level = 1
        self._handler = None
        self._trigger = 0

    def irq(self, handler=None, trigger=IRQ_FALLING, hard=False):
        self._handler = handler
        self._trigger = trigger

    def value(self, level=None):
        if level is None:
            return self.level
        fell = self.level and not level
        self.level = level
        if fell and self._handler and self._trigger & self.IRQ_FALLING:
            self._handler(self)


class SimBoard:
    def __init__(self, board, wheels=0, sensors=True, buttons=2, beams=0, panel=False):
        self.board = board
        self.has_panel = panel  # the board file's buttons on the chain are read
        self.levels = [1] * buttons  # active low: 1 is up
        self.bits = bytearray([0xFF] * ((board.sensors + 7) // 8))
        self.has_sensors = sensors
        self.codes = 0
        self.wheel_count = wheels
        self.positions = [0] * wheels
        self.beam_pins = tuple(BeamPin() for _ in range(beams))
        self.wire = b""
        self.frames = 0  # frames sent

    # -- what the player does ----------------------------------------------

    def press(self, i):
        self.levels[i] = 0

    def release(self, i):
        self.levels[i] = 1

    def set_input(self, n, level):
        """Chain input ``n`` reads ``level``: a board button pressed reads 0."""
        if level:
            self.bits[n >> 3] |= 1 << (n & 7)
        else:
            self.bits[n >> 3] &= ~(1 << (n & 7)) & 0xFF

    def put(self, space):
        """A piece stands on ``space`` (a space index) from now on."""
        self.set_input(self.board.sensor_of[space], 0)

    def lift(self, space):
        self.set_input(self.board.sensor_of[space], 1)

    def occupied(self, space):
        n = self.board.sensor_of[space]
        return not self.bits[n >> 3] >> (n & 7) & 1

    def turn(self, w, quarters):
        """Turn wheel ``w`` by ``quarters`` clockwise; the pieces standing on
        it turn with it, onto the sensors of the spaces they now lie over."""
        board = self.board
        cells = board.wheel_cells[9 * w:9 * w + 9]
        star = cells[4]  # the middle of the 3x3 block, which the wheel turns about
        x0, y0 = board.xs[star], board.ys[star]
        at = {(board.xs[s], board.ys[s]): s for s in cells}
        for _ in range(quarters & 3):
            standing = [s for s in cells if self.occupied(s)]
            for s in cells:
                self.lift(s)
            for s in standing:
                # a quarter clockwise (y grows downwards) takes (dx, dy) from the star to (-dy, dx)
                self.put(at[(x0 - (board.ys[s] - y0), y0 + board.xs[s] - x0)])
        self.set_wheel(w, self.positions[w] + quarters)

    def beam(self, pocket):
        """A counter drops into ``pocket`` (a space index): it breaks the
        pocket's beam (``beam_pins[sensor index]``) for a moment, shorter
        than any pass of the loop."""
        pin = self.beam_pins[self.board.sensor_of[pocket]]
        pin.value(0)
        pin.value(1)

    def set_wheel(self, w, position):
        self.positions[w] = position & 3
        self.codes &= ~(3 << 2 * w)
        self.codes |= POSITION[position & 3] << 2 * w

    # -- what the Pico reads and writes --------------------------------------

    def transmit(self, wire):
        self.wire = bytes(wire)
        self.frames += 1

    def _bits(self):
        return self.bits

    def _codes(self):
        return self.codes

    def ports(self, urandom):
        """The hal ports on these pins."""
        buttons = tuple(Button(self._reader(i)) for i in range(len(self.levels)))
        sensors = Sensors(self._bits, self.board.sensors) if self.has_sensors else None
        wheels = Wheels(self._codes, self.wheel_count) if self.wheel_count else None
        beams = Beams(self.beam_pins) if self.beam_pins else None
        budget = DEFAULT_BUDGET_MA - (beams.draw_ma if beams else 0)  # the beams draw from the same 5 V
        pixels = Pixels(self.board.pixels, self.transmit, budget_ma=budget)
        panel = ChainButtons(self._bits, tuple(n for _, n in self.board.buttons)) if self.has_panel else None
        return Ports(pixels, buttons, Chance(urandom), sensors, wheels, beams, panel)

    def _reader(self, i):
        levels = self.levels
        return lambda: levels[i]


def offers(snap):
    """The decisions button 1 steps through now (``snap``: the controller's snapshot)."""
    return snap.offered if snap.offered is not None else snap.choice or snap.unseen


def _strict(text):
    """A Rig's log when it is given none (a test's): a fault fails whoever drives
    the Rig, unless it asked for the log to look at; other lines are dropped."""
    if text.startswith("fault in"):
        raise AssertionError("the controller caught a fault: " + text)


class Rig:
    """A controller on a simulated board, driven by a fake clock: what the
    terminal and browser simulators and the scenario tests play with.

    The board starts as the rules say it stands (every piece on its space,
    every wheel in place), so the first frame shows a board at rest. A
    flicking game (no pieces tracked) has pocket beams instead of piece
    sensors, and the buttons its board file wires on the chain, as on the
    Pico; ``sensors=False`` is button mode, with none of them."""

    STEP_MS = 5  # the Pico's loop runs about this often

    def __init__(self, game, urandom, sensors=True, keeper=None, log=None, buttons=2, hint_ms=None):
        from app.controller import HINT_MS, Controller

        wheels = len(getattr(game, "wheels", ()))  # as the Pico counts them (app.startup)
        flicking = game.occupancy() is None
        beams = len(BEAMS) if sensors and flicking else 0  # every beam role, as the Pico reads them
        panel = bool(sensors and flicking and game.board.buttons)
        self.sim = SimBoard(game.board, wheels, sensors and not flicking, buttons, beams, panel)
        self.now = 1000
        for w in range(wheels):
            self.sim.set_wheel(w, game.wheels[w])
        if sensors:
            self.match(game)
        self.ports = self.sim.ports(urandom)
        self.ctl = Controller(game, self.ports, keeper, log or _strict, HINT_MS if hint_ms is None else hint_ms)
        self.snap = self.ctl.snapshot
        self.run(400)  # the sensors settle on the pieces standing at power-up

    def match(self, game):
        """Put the simulated pieces where ``game`` has them."""
        counts = game.occupancy()
        if counts is None:
            return
        for s in range(len(counts)):
            if counts[s]:
                self.sim.put(s)
            else:
                self.sim.lift(s)

    @property
    def game(self):
        return self.snap.game

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += self.STEP_MS
            self.ctl.tick(self.now)

    def space(self, sid):
        return self.game.board.space(sid)

    def press(self, i=0, hold=60):
        """A press, and a look at the dice until they settle (a throw is saved then)."""
        self.sim.press(i)
        self.run(hold)
        self.sim.release(i)
        self.run(40)
        while self.snap.rattling(self.now):
            self.run(self.STEP_MS)

    def hold(self, i=0):
        """A long press."""
        self.press(i, 800)

    def lift(self, sid, wait=100):
        self.sim.lift(self.space(sid))
        self.run(wait)

    def put(self, sid, wait=400):
        self.sim.put(self.space(sid))
        self.run(wait)

    def move(self, start, end):
        self.lift(start)
        self.put(end)

    def beam(self, pocket, wait=100):
        """A counter drops into the pocket ``pocket`` (its id)."""
        self.sim.beam(self.space(pocket))
        self.run(wait)

    def button(self, *names, hold=60):
        """Press the board's buttons ``names`` (as its board file names them),
        each while the ones before it are still held, then let them all go."""
        wired = dict(self.game.board.buttons)
        for name in names:
            if name not in wired:
                raise ValueError("board %r has no button %r" % (self.game.board.name, name))
        for name in names:
            self.sim.set_input(wired[name], 0)
            self.run(hold)
        for name in names:
            self.sim.set_input(wired[name], 1)
        self.run(40)

    def turn(self, w, quarters, wait=800):
        self.sim.turn(w, quarters)
        self.run(wait)

    # -- a player who knows what they want: the computer seats ----------------------

    def act(self, decision):
        """Do on the board what a person does for the rules' ``decision``
        (a chance step is a press of the die), then tidy up."""
        game = self.game
        snap = self.snap
        if game.is_chance():
            if game.phase == 3:  # the pop-off: both press until one pops a 6
                turn = game.turn
                while self.game.phase == 3 and self.game.turn == turn:
                    self.press(0)
                    if self.game.phase == 3:
                        self.press(1)
            else:
                self.press(0)
        elif snap.offered is not None:
            self._pick(decision)
        elif decision[0] == "w":
            if decision[1] < 0:
                self.hold(0)  # pass
            else:
                self.turn(decision[1], decision[2])
        elif decision in snap.unseen:
            self._pick(decision)
        else:
            for d, f, t in snap.moves:
                if d == decision:
                    if snap.expected[t] and f != t:
                        self.sim.lift(t)  # the piece landed on comes off first
                    if snap.expected[f] < 2:
                        self.sim.lift(f)
                    self.run(100)
                    self.sim.put(t)
                    self.run(400)
                    break
            if snap.choice:
                self._pick(decision)
        self.tidy()

    def _pick(self, decision):
        """Click through the picker's candidates to ``decision``, then confirm."""
        snap = self.snap
        for _ in range(len(offers(snap))):
            if snap.picked is not None and snap.picked[1] == decision:
                break
            self.press(0)
        self.hold(0)

    def tidy(self):
        """Put pieces where the board asks for them, take them off where it
        says none belongs (a captured piece to its start, a finished one off)."""
        extra, missing = self.snap.extra, self.snap.missing
        for s in missing:
            self.sim.put(s)
        for s in extra:
            self.sim.lift(s)
        if extra or missing:
            self.run(400)


# -- the USB serial port, and a file whose reads are counted --------------------------


class SerialPort:
    """The board's end of the USB serial port as ``app.link`` uses it: bytes
    the host sent (``waiting``), what the board wrote (``written``)."""

    def __init__(self):
        self.waiting = bytearray()
        self.written = bytearray()

    def read(self):
        if not self.waiting:
            return -1
        b = self.waiting[0]
        self.waiting[:1] = b""
        return b

    def write(self, data, start=0, end=None):
        self.written += data[start:end]


class CountedFile:
    """A file opened for reading whose bytes read are added up in ``read[0]``."""

    def __init__(self, f, read):
        self.f = f
        self.read = read

    def seek(self, at):
        self.f.seek(at)

    def readinto(self, buffer):
        n = self.f.readinto(buffer)
        self.read[0] += n
        return n

    def readline(self):
        text = self.f.readline()
        self.read[0] += len(text)
        return text

    def close(self):
        self.f.close()


# -- a power cut while the flash is written --------------------------------------


class Cut(Exception):
    """The power went."""


class Power:
    """Allows ``steps`` steps of writing the flash (any number with -1), then
    cuts the power; ``taken`` counts the steps taken."""

    def __init__(self, steps=-1):
        self.steps = steps
        self.taken = 0

    def spend(self):
        if self.taken == self.steps:
            raise Cut()
        self.taken += 1


class Full(Power):
    """Allows ``steps`` steps of writing the flash (any number with -1), then
    fails every write as a full flash does (OSError ENOSPC); what was written
    stays. Setting ``steps`` to -1 makes room again."""

    def spend(self):
        if self.taken == self.steps:
            raise OSError(28)  # ENOSPC
        self.taken += 1


class CutFile:
    """A real file that writes one byte per step; what was written stays."""

    def __init__(self, f, power):
        self.f = f
        self.power = power

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()

    def read(self, n=-1):
        return self.f.read(n)

    def seek(self, at):
        self.f.seek(at)

    def write(self, data):
        for i in range(len(data)):
            self.power.spend()
            self.f.write(data[i:i + 1])


class CutOs:
    """The file operations ``hal.storage`` uses, one step each. With
    ``refuse``, a rename onto an existing file fails, as on Windows."""

    def __init__(self, power, refuse=False):
        self.power = power
        self.refuse = refuse

    def stat(self, path):
        return os.stat(path)

    def rename(self, old, new):
        if self.refuse and storage.exists(new):
            raise OSError("file exists")
        self.power.spend()
        os.rename(old, new)

    def remove(self, path):
        self.power.spend()
        os.remove(path)

    def mkdir(self, path):
        self.power.spend()
        os.mkdir(path)


def cut(action, steps, refuse=False):
    """``action()`` with the power cut after ``steps`` steps of ``hal.storage``
    (a byte written, a rename, a remove, a folder made; the bytes already
    written stay, as a cut write leaves them); True if it finished."""
    return powered(action, Power(steps), refuse)


def powered(action, power, refuse=False):
    """``action()`` on the flash of ``power``; True if it finished."""
    storage.os = CutOs(power, refuse)
    # storage opens its files with the builtin open: one of its own shadows it meanwhile
    setattr(storage, "open", lambda name, mode="r": CutFile(open(name, mode), power))
    try:
        action()
        return True
    except Cut:
        return False
    finally:
        storage.os = os
        delattr(storage, "open")
