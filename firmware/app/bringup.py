"""Bring-up of a freshly soldered board: every pixel, then every input, by name.

``make bringup`` runs ``run()`` on the Pico (with mpremote, after ``make
flash``), on the board and pin map config.json names. First each pixel is
lit alone, dim, in the order of the chain, and the console names what the
board file puts there::

    pixel 12: space c3
    pixel 91: die1, pixel 1 of 7

A pixel lit out of turn, or none, is a data line or a pixel to check.

Then every input is read in a loop, and each change is named once it has
held for SETTLE_MS (contacts bounce): a reed by its space, a button on the
chain by its name, both with the 74HC165 chip and input letter they are
wired to; a die button; a wheel's latch by its GPIO; a pocket's beam,
latched by an interrupt as the game does. One space at a time is lit as
the next to pass the magnet over (on a board whose chain carries buttons
only, the next button is named): when the reed that closes is another
chip's at the same input letter, two chips of the chain look swapped,
and the console says which. The chain is read one chip longer than the
board file's: that byte comes from the last chip's SER, tied to 3.3 V,
and reads 0xFF unless the chain is longer than the file says or its
data line is stuck.

Ctrl-C ends it; the board plays again after a reset (``make bringup``
resets it as it leaves).
"""

import time

from app import startup

SETTLE_MS = 20  # a change counts once it has held this long: contacts bounce for 5 ms at most
LOOP_MS = 2
STEP_MS = 500  # how long each pixel stays lit
DIM = 64  # a lit pixel's level (of 255, before gamma and brightness): visible, never glaring
LETTERS = "ABCDEFGH"  # a 74HC165's inputs, D0..D7
TAIL = 0xFF  # what the byte past the last chip reads: its SER is tied high


def place(n):
    """Where chain input ``n`` is wired: its chip and input letter."""
    return "chip %d input %s" % (n >> 3, LETTERS[n & 7])


def chain_name(board, n):
    """What the board file puts on chain input ``n``: ("reed", space id), ("button", name) or None."""
    for s in range(len(board.sensor_of)):
        if board.sensor_of[s] == n:
            return "reed", board.ids[s]
    for name, wired in board.buttons:
        if wired == n:
            return "button", name
    return None


def pixel_name(board, i):
    """What the board file lights with pixel ``i``."""
    for s in range(len(board.leds)):
        if board.leds[s] == i:
            return "space %s" % board.ids[s]
    for name in sorted(board.extras):
        block = board.extras[name]
        for k in range(len(block)):
            if block[k] == i:
                return "%s, pixel %d of %d" % (name, k + 1, len(block))
    return "nothing in the board file"


def chain_change(board, n, closed):
    """The console line of chain input ``n`` closing (or opening)."""
    named = chain_name(board, n)
    if named is None:
        return "chain input %d %s (%s): no space or button is wired there" % (
            n, "closed" if closed else "open", place(n))
    kind, name = named
    if kind == "reed":
        return "reed %s %s (%s)" % (name, "closed" if closed else "open", place(n))
    return "button %s %s (%s)" % (name, "pressed" if closed else "released", place(n))


def swapped(expected, got):
    """The two chips that look swapped when input ``got`` closes where
    ``expected`` was due: the same letter on another chip; else None."""
    if expected & 7 == got & 7 and expected >> 3 != got >> 3:
        return min(expected >> 3, got >> 3), max(expected >> 3, got >> 3)
    return None


def targets(board):
    """The chain inputs to visit in turn, as (input, how to close it, pixel or -1)."""
    if board.buttons:
        return tuple((n, "press button %s" % name, -1) for name, n in board.buttons)
    return tuple((board.sensor_of[s], "pass the magnet over space %s" % board.ids[s], board.leds[s])
                 for s in range(len(board.ids)))


class Bringup:
    """The board's parts on the Pico's pins, and what was last reported of them."""

    def __init__(self, config, pins, game):
        from machine import Pin, SoftSPI

        from hal.pins import BEAMS
        from hal.pixels import Pixels
        from hal.sensors import SPI_HZ, SpiShiftIn
        from hal.strip_micropython import Transmitter

        board = self.board = game.board
        self.pixels = Pixels(board.pixels, Transmitter(pins["pixels"], 3 * board.pixels), budget_ma=config["led_ma"])
        self.chips = 0
        self.chain = None
        if board.sensors and all(role in pins for role in startup.SENSOR_ROLES):
            self.chips = (board.sensors + 7) // 8
            latch = Pin(pins["sensor_latch"], Pin.OUT, value=1)
            spi = SoftSPI(baudrate=SPI_HZ, polarity=1, phase=0, sck=Pin(pins["sensor_clock"], Pin.OUT),
                          mosi=latch, miso=Pin(pins["sensor_data"], Pin.IN))
            self.chain = SpiShiftIn(latch, spi, self.chips + 1)  # one more: the tail byte
        # the GPIO inputs: (name, low, high, pin)
        roles = [("die button 1", "die1"), ("die button 2", "die2")]
        for w in range(1, startup.wheel_count(game, pins, config["pins"]) + 1):
            roles += [("wheel %d latch A" % w, "wheel%d_a" % w), ("wheel %d latch B" % w, "wheel%d_b" % w)]
        self.gpios = tuple(("%s (GP%d)" % (name, pins[role]), Pin(pins[role], Pin.IN, Pin.PULL_UP))
                           for name, role in roles)
        self.beams = None
        self.pockets = ()
        if game.occupancy() is None and all(role in pins for role in BEAMS):
            from hal.beams import Beams

            self.beams = Beams(tuple(Pin(pins[role], Pin.IN, Pin.PULL_UP) for role in BEAMS))
            self.pockets = tuple("beam %s broken (beam%d, GP%d)" % (self._pocket(i), i + 1, pins[BEAMS[i]])
                                 for i in range(len(BEAMS)))
        size = self.chips + 1 + len(self.gpios)
        self.read = bytearray(size)  # the levels read now: the chain's bytes, its tail, a byte per GPIO
        self.seen = bytearray(size)  # read last time
        self.told = bytearray(size)  # as last reported
        self.since = 0
        self.targets = targets(board) if self.chain else ()
        self.target = 0

    def _pocket(self, i):
        board = self.board
        for s in range(len(board.ids)):
            if board.sensor_of[s] == i:
                return board.ids[s]
        return "%d" % (i + 1)

    def light(self, i, r=DIM, g=DIM, b=DIM):
        """Pixel ``i`` alone lit (none for -1)."""
        pixels = self.pixels
        pixels.fill(0, 0, 0)
        if i >= 0:
            pixels.set(i, r, g, b)
        pixels.show()

    def pixels_in_turn(self, step_ms=STEP_MS):
        board = self.board
        print("pixels: each lit in turn, %d ms each" % step_ms)
        for i in range(board.pixels):
            self.light(i)
            print("pixel %d: %s" % (i, pixel_name(board, i)))
            time.sleep_ms(step_ms)
        self.light(-1)

    def sample(self):
        """Fill ``read`` with the levels now."""
        read = self.read
        if self.chain:
            read[:self.chips + 1] = self.chain.read()
        k = self.chips + 1
        for _, pin in self.gpios:
            read[k] = pin.value()
            k += 1

    def next_target(self):
        """Light the next chain input to visit and say so; False when every one was visited."""
        if self.target >= len(self.targets):
            self.light(-1)
            print("every %s was visited" % ("button" if self.board.buttons else "space"))
            return False
        n, how, led = self.targets[self.target]
        self.light(led, 0, DIM, 0)
        print("next: %s (%s)" % (how, place(n)))
        return True

    def start(self):
        print("inputs: each change is named; Ctrl-C ends")
        self.sample()
        self.seen[:] = self.read
        self.told[:] = self.read
        if self.chain:
            for i in range(self.chips):
                if self.read[i] != TAIL:
                    for k in range(8):
                        if not self.read[i] >> k & 1:
                            print("at the start: " + chain_change(self.board, i * 8 + k, True))
            self._tail(self.read[self.chips])
            self.next_target()

    def _tail(self, byte):
        if byte != TAIL:
            print("the chain reads 0x%02X past its %d chips, where the last chip's SER (tied to 3.3 V) gives 0xFF: "
                  "more chips than the board file's %d sensors need, or the data line or SER is not wired"
                  % (byte, self.chips, self.board.sensors))

    def poll(self, now):
        if self.beams:
            i = self.beams.poll(now)
            if i is not None:
                print(self.pockets[i])
        self.sample()
        read, seen = self.read, self.seen
        if read != seen:
            seen[:] = read
            self.since = now
            return
        if read == self.told or time.ticks_diff(now, self.since) < SETTLE_MS:
            return
        told = self.told
        for i in range(len(read)):
            if read[i] == told[i]:
                continue
            if i < self.chips:
                changed = read[i] ^ told[i]
                for k in range(8):
                    if changed >> k & 1:
                        self._chain(i * 8 + k, not read[i] >> k & 1)
            elif i == self.chips:
                self._tail(read[i])
            else:
                name = self.gpios[i - self.chips - 1][0]
                if name.startswith("die"):
                    print("%s %s" % (name, "released" if read[i] else "pressed"))
                else:
                    print("%s %s" % (name, "high" if read[i] else "low"))
        told[:] = read

    def _chain(self, n, closed):
        print(chain_change(self.board, n, closed))
        if not closed or self.target >= len(self.targets):
            return
        expected, how, _ = self.targets[self.target]
        if n != expected:
            pair = swapped(expected, n)
            if pair is None:
                return
            print("  %s was next (%s): if that is where the magnet or finger is, chips %d and %d look swapped "
                  "in the chain" % (how[how.rfind(" ") + 1:], place(expected), pair[0], pair[1]))
        self.target += 1
        self.next_target()


def run(step_ms=STEP_MS):
    """Bring-up on the board config.json names, until Ctrl-C."""
    config = startup.read_config()
    pins = startup.read_pins(config)
    game = startup.new_game(config)
    print("bring-up of board %s: %d pixels, %d chain inputs" % (config["board"], game.board.pixels, game.board.sensors))
    up = Bringup(config, pins, game)
    try:
        up.pixels_in_turn(step_ms)
        up.start()
        while True:
            up.poll(time.ticks_ms())
            time.sleep_ms(LOOP_MS)
    except KeyboardInterrupt:
        up.light(-1)
        print("bring-up ended")
