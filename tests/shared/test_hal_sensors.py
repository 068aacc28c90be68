"""Piece sensors: the 74HC165 chain read at the pin level, and the debounced
scan (a slid piece registers only where it rests)."""

import gc
import sys

from hal.sensors import LIFT_MS, PLACE_MS, Sensors, ShiftIn, SpiShiftIn
from hal.ticks import add


class Chain:
    """Chained 74HC165s as the pins see them. ``inputs[c]`` holds the levels
    of D0..D7 of chip c (bit k = Dk); chip c's Q7 feeds chip c-1's DS, chip
    0's Q7 is the data pin, the last chip's DS is tied to ``ds``."""

    def __init__(self, inputs, ds=0):
        self.inputs = inputs
        self.reg = bytearray(len(inputs))
        self.ds = ds
        self.pl = 1
        self.cp = 0
        self.loads = 0

    def latch(self, level):
        self.pl = level
        if level == 0:  # parallel load, asynchronous while PL is low
            self.loads += 1
            for c in range(len(self.reg)):
                self.reg[c] = self.inputs[c]

    def clock(self, level):
        rising = level and not self.cp
        self.cp = level
        if rising and self.pl:  # a rising edge shifts, unless PL holds the load
            n = len(self.reg)
            for c in range(n):
                serial_in = self.reg[c + 1] >> 7 if c + 1 < n else self.ds
                self.reg[c] = (self.reg[c] << 1 | serial_in) & 0xFF

    def data(self):
        return self.reg[0] >> 7


def reader(chain):
    return ShiftIn(chain.latch, chain.clock, chain.data, len(chain.inputs))


def test_the_chain_reads_into_one_byte_per_chip_bit_k_is_input_dk():
    chain = Chain([0b10110001, 0b00000000, 0b11111111, 0b01000010], ds=1)
    assert bytes(reader(chain).read()) == bytes([0b10110001, 0, 0xFF, 0b01000010])


def test_each_sensor_is_input_n_mod_8_of_chip_n_div_8():
    for n in range(24):
        chain = Chain([0, 0, 0])
        chain.inputs[n // 8] = 1 << n % 8
        buf = reader(chain).read()
        assert [buf[i] >> k & 1 for i in range(3) for k in range(8)] == [int(m == n) for m in range(24)]


def test_every_read_latches_the_inputs_afresh():
    chain = Chain([0x0F, 0xF0])
    shift = reader(chain)
    assert bytes(shift.read()) == b"\x0f\xf0"
    chain.inputs = [0x81, 0x00]
    assert bytes(shift.read()) == b"\x81\x00" and chain.loads == 2
    # the buffer is reused, not a new one per read
    assert shift.read() is shift.buf


def test_a_long_chain_of_twelve_chips():
    inputs = [(37 * c + 11) & 0xFF for c in range(12)]
    assert list(reader(Chain(inputs)).read()) == inputs


class SoftSPI:
    """``machine.SoftSPI(polarity=1, phase=0, sck=clock, mosi=mosi, miso=data)``
    as MicroPython's C loop (drivers/bus/softspi.c) drives the pins: idle
    high, then for every bit, MSB first: MOSI set, the clock to its active
    level (low), MISO read, the clock back to idle (a rising edge)."""

    def __init__(self, clock, mosi, miso):
        self.clock, self.mosi, self.miso = clock, mosi, miso
        clock(1)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            data_in = 0
            for j in range(8):
                self.mosi(write >> (7 - j) & 1)
                self.clock(0)
                data_in = data_in << 1 | self.miso()
                self.clock(1)
            buf[i] = data_in


def test_the_chain_reads_the_same_through_soft_spi_with_the_latch_held_high():
    for inputs in ([0b10110001, 0, 0xFF, 0b01000010], [(37 * c + 11) & 0xFF for c in range(25)]):
        chain = Chain(list(inputs), ds=1)
        levels = []

        def latch(level):
            levels.append(level)
            chain.latch(level)

        spi = SpiShiftIn(latch, SoftSPI(chain.clock, latch, chain.data), len(inputs))
        for _ in range(2):
            del levels[:]
            assert list(spi.read()) == list(inputs) == list(reader(Chain(list(inputs), ds=1)).read())
            # latched once, then MOSI (the latch pin) only ever sends 1s: no second load mid-read
            assert levels[:2] == [0, 1] and set(levels[2:]) == {1} and chain.loads >= 1
        chain.inputs[1] ^= 0xFF
        assert spi.read()[1] == inputs[1] ^ 0xFF


class Spaces:
    """Raw sensor bytes over time, active low: a piece reads 0.
    ``changes`` is (time, sensor, occupied)."""

    def __init__(self, count, changes, start=()):
        self.raw = bytearray([0xFF] * ((count + 7) // 8))
        self.changes = changes
        for n in start:
            self.set(n, True)

    def set(self, n, occupied):
        if occupied:
            self.raw[n >> 3] &= ~(1 << (n & 7)) & 0xFF
        else:
            self.raw[n >> 3] |= 1 << (n & 7)

    def advance(self, now):
        for t, n, occupied in self.changes:
            if t == now:
                self.set(n, occupied)

    def read(self):
        return self.raw


def scan(count, changes, until, start=(), begin=0, **options):
    """Settled changes as (ms, sensor, occupied)."""
    spaces = Spaces(count, changes, start)
    sensors = Sensors(spaces.read, count, **options)
    events = []
    for t in range(until):
        spaces.advance(t)
        n = sensors.poll(add(begin, t))
        if n is not None:
            events.append((t, n, sensors.occupied(n)))
    return events, sensors


def test_a_piece_put_down_counts_after_it_stays_put():
    events, sensors = scan(20, [(100, 13, True)], 600)
    assert events == [(100 + PLACE_MS, 13, True)]
    assert sensors.occupied(13) and not sensors.occupied(12)


def test_a_lifted_piece_counts_sooner():
    events, _ = scan(20, [(500, 4, False)], 800, start=(4,))
    assert events == [(PLACE_MS, 4, True), (500 + LIFT_MS, 4, False)]


def test_a_piece_slid_across_spaces_registers_only_where_it_rests():
    # lifted from 3, slid over 4, 5 and 6 (the magnet overlaps two switches
    # for a moment, and pauses 250 ms on 5), comes to rest on 7
    changes = [
        (1000, 3, False), (1080, 4, True), (1100, 4, False), (1110, 4, True),
        (1190, 5, True), (1220, 4, False), (1420, 6, True), (1440, 5, False),
        (1600, 7, True), (1620, 6, False),
    ]
    events, sensors = scan(16, changes, 2500, start=(3, 12))
    assert events == [
        (PLACE_MS, 3, True), (PLACE_MS + 1, 12, True),  # the board at power-up
        (1000 + LIFT_MS, 3, False),
        (1600 + PLACE_MS, 7, True),
    ]
    assert [n for n in range(16) if sensors.occupied(n)] == [7, 12]


def test_a_lift_and_put_back_quicker_than_the_lift_time_is_nothing():
    events, _ = scan(8, [(1000, 2, False), (1000 + LIFT_MS - 1, 2, True)], 2000, start=(2,))
    assert events == [(PLACE_MS, 2, True)]


def test_a_chattering_switch_counts_once_it_is_steady():
    changes = [(100 + k, 9, k % 2 == 0) for k in range(7)]
    events, _ = scan(16, changes, 800)
    assert events == [(106 + PLACE_MS, 9, True)]


def test_many_pieces_at_once_come_one_per_poll():
    changes = [(100, n, True) for n in (0, 5, 8, 15, 16)]
    events, _ = scan(17, changes, 600)
    assert events == [(100 + PLACE_MS + k, n, True) for k, n in enumerate((0, 5, 8, 15, 16))]


def test_unused_inputs_of_the_last_chip_never_count():
    # 10 sensors on two chips: inputs 2..7 of chip 1 are unused (wired low here, like a piece)
    spaces = Spaces(16, [], start=range(10, 16))
    sensors = Sensors(spaces.read, 10)
    assert [sensors.poll(t) for t in range(1000)] == [None] * 1000


def test_active_high_switches():
    def read():
        return raw

    raw = bytearray(1)
    sensors = Sensors(read, 8, active_low=False)
    raw[0] = 0b100
    assert [sensors.poll(t) for t in range(PLACE_MS + 1)][-1] == 2 and sensors.occupied(2)


def test_times_across_the_tick_wrap_around():
    events, _ = scan(8, [(100, 1, True), (600, 1, False)], 800, begin=add(0, -300))
    assert events == [(100 + PLACE_MS, 1, True), (600 + LIFT_MS, 1, False)]


def test_the_scan_reads_through_the_shift_registers():
    chain = Chain([0xFF, 0xFF, 0xFF])  # active low: nothing on the board
    sensors = Sensors(reader(chain).read, 20)
    events = []
    for t in range(1000):
        if t == 200:
            chain.inputs[2] = 0xFF & ~(1 << 3)  # a piece on sensor 19
        n = sensors.poll(t)
        if n is not None:
            events.append((t, n, sensors.occupied(n)))
    assert events == [(200 + PLACE_MS, 19, True)]


def test_polling_allocates_nothing_on_micropython():
    if sys.implementation.name != "micropython":
        return
    chain = Chain([0xFF] * 12)
    sensors = Sensors(reader(chain).read, 91)
    start = gc.mem_alloc()
    seen = 0
    for t in range(800):
        if t == 100:
            chain.inputs[5] = 0xF7
        if sensors.poll(t) is not None:
            seen += 1
    assert gc.mem_alloc() - start == 0 and seen == 1
