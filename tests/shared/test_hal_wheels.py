"""The Detour wheel encoders: Gray codes in, settled turns out.

A fake encoder plays a timeline of (time, wheel, position) and shows the
Gray code of each wheel; the wheels are polled every millisecond."""

import gc
import sys

from hal.ticks import add
from hal.wheels import POSITION, SETTLE_MS, Wheels
from support import raises


class Encoders:
    """Codes of four wheels over time; ``changes`` is (time, wheel, position)."""

    def __init__(self, start, changes):
        self.codes = [POSITION[p] for p in start]
        self.changes = changes
        self.now = 0

    def advance(self, now):
        self.now = now
        for t, w, p in self.changes:
            if t == now:
                self.codes[w] = POSITION[p]

    def packed(self):
        return self.codes[0] | self.codes[1] << 2 | self.codes[2] << 4 | self.codes[3] << 6

    def reader(self, w):
        return lambda: self.codes[w]


def run(start, changes, until, per_wheel=False, begin=0):
    """Events as (ms, event) of wheels standing at ``start`` at power-up."""
    enc = Encoders(start, changes)
    wheels = Wheels([enc.reader(w) for w in range(4)] if per_wheel else enc.packed)
    events = []
    for t in range(until):
        enc.advance(t)
        event = wheels.poll(add(begin, t))
        if event:
            events.append((t, event))
    return events, wheels


def test_the_code_is_a_gray_code_and_its_own_inverse():
    for p in range(4):
        flipped = POSITION[p] ^ POSITION[(p + 1) % 4]
        assert flipped in (1, 2)  # one bit
        assert POSITION[POSITION[p]] == p
    assert [POSITION[p] for p in range(4)] == [0b00, 0b01, 0b11, 0b10]


def test_positions_are_known_after_the_first_settled_read_at_power_up():
    events, wheels = run((0, 1, 2, 3), [], 200)
    # one event per poll: the four wheels report on consecutive polls
    assert events == [(SETTLE_MS + w, ("wheel", w, w, -1)) for w in range(4)]
    assert [wheels.position(w) for w in range(4)] == [0, 1, 2, 3]


def test_before_the_first_settled_read_the_position_is_unknown():
    _, wheels = run((0, 1, 2, 3), [], SETTLE_MS - 1)
    assert [wheels.position(w) for w in range(4)] == [-1, -1, -1, -1]


def test_a_quarter_turn_either_way_and_across_position_zero():
    changes = [(100, 2, 3), (300, 2, 2), (500, 0, 3), (700, 0, 0), (900, 1, 0)]
    events, wheels = run((0, 1, 2, 3), changes, 1100)
    assert events[4:] == [
        (100 + SETTLE_MS, ("wheel", 2, 3, 2)),
        (300 + SETTLE_MS, ("wheel", 2, 2, 3)),
        (500 + SETTLE_MS, ("wheel", 0, 3, 0)),
        (700 + SETTLE_MS, ("wheel", 0, 0, 3)),
        (900 + SETTLE_MS, ("wheel", 1, 0, 1)),
    ]
    assert [wheels.position(w) for w in range(4)] == [0, 0, 2, 3]


def test_flicker_at_the_edge_of_a_detent_is_no_turn():
    # the wheel is nudged: the code shows the next position for under the settle time, 3 times
    changes = [(100, 1, 2), (120, 1, 1), (130, 1, 2), (140, 1, 1), (200, 1, 2), (200 + SETTLE_MS - 1, 1, 1)]
    events, wheels = run((0, 1, 2, 3), changes, 600)
    assert events[4:] == [] and wheels.position(1) == 1


def test_a_steady_half_turn_reads_as_two_quarter_turns():
    events, _ = run((0, 0, 0, 0), [(100, 3, 1), (200, 3, 2)], 400)
    assert events[4:] == [(100 + SETTLE_MS, ("wheel", 3, 1, 0)), (200 + SETTLE_MS, ("wheel", 3, 2, 1))]


def test_a_skipped_code_is_an_error_never_a_turn():
    # too fast: the middle position shows for less than the settle time
    changes = [(100, 3, 1), (100 + SETTLE_MS - 1, 3, 2), (400, 3, 3)]
    events, wheels = run((0, 0, 0, 0), changes, 600)
    assert events[4:] == [
        (100 + 2 * SETTLE_MS - 1, ("wheel_error", 3, 2, 0)),
        # the encoder is absolute: the next turn counts from where the wheel really is
        (400 + SETTLE_MS, ("wheel", 3, 3, 2)),
    ]
    assert wheels.position(3) == 3


def test_both_bits_flipping_at_once_is_an_error():
    events, _ = run((1, 1, 1, 1), [(100, 0, 3)], 300)
    assert events[4:] == [(100 + SETTLE_MS, ("wheel_error", 0, 3, 1))]


def test_one_reader_per_wheel_gives_the_same_events():
    changes = [(100, 2, 3), (150, 1, 0), (300, 0, 2), (301, 0, 1)]
    assert run((0, 1, 2, 3), changes, 600, per_wheel=True)[0] == run((0, 1, 2, 3), changes, 600)[0]


def test_two_wheels_settling_together_are_reported_on_consecutive_polls():
    events, _ = run((0, 0, 0, 0), [(100, 1, 1), (100, 2, 3)], 300)
    assert events[4:] == [(100 + SETTLE_MS, ("wheel", 1, 1, 0)), (101 + SETTLE_MS, ("wheel", 2, 3, 0))]


def test_times_across_the_tick_wrap_around():
    events, _ = run((0, 0, 0, 0), [(100, 0, 1)], 300, begin=add(0, -120))
    assert events[4:] == [(100 + SETTLE_MS, ("wheel", 0, 1, 0))]


def test_the_number_of_readers_must_match():
    err = raises(ValueError, Wheels, [lambda: 0] * 3)
    assert "4 wheels" in str(err)


def test_polling_allocates_nothing_on_micropython():
    if sys.implementation.name != "micropython":
        return
    for per_wheel in (False, True):
        enc = Encoders((0, 1, 2, 3), [(500, 1, 2), (900, 1, 0), (1200, 2, 3)])
        wheels = Wheels([enc.reader(w) for w in range(4)] if per_wheel else enc.packed)
        start = gc.mem_alloc()
        seen = 0
        for t in range(1500):
            enc.advance(t)
            if wheels.poll(t):
                seen += 1
        assert gc.mem_alloc() - start == 0 and seen == 7
