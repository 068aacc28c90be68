"""Debounced buttons: tables of (time, pin level) in, timed events out.

A fake pin plays a timeline; the button is polled every millisecond (or as
a test says) and the events are collected with the time they came."""

import gc
import sys

from hal.buttons import CLICK, LONG, LONG_MS, PRESS, RELEASE, STABLE_MS, Button, ChainButtons
from hal.ticks import add
from rules.playout import Rng
from support import raises


class Pin:
    """Plays ``levels``: (time, level) pairs in time order, each level
    holding until the next; ``now`` only moves forward."""

    def __init__(self, levels):
        self.levels = levels
        self.next = 0
        self.level = levels[0][1]
        self.now = 0

    def __call__(self):
        while self.next < len(self.levels) and self.levels[self.next][0] <= self.now:
            self.level = self.levels[self.next][1]
            self.next += 1
        return self.level


def run(levels, until, step=1, start=0, **options):
    """Events of a button on a pin playing ``levels``, as (ms, event)."""
    pin = Pin(levels)
    button = Button(pin, **options)
    events = []
    for t in range(0, until, step):
        pin.now = t
        event = button.poll(add(start, t))
        if event:
            events.append((t, event))
    return events


def chatter(t, first, count):
    """``count`` 1 ms flips starting at ``t`` with level ``first``."""
    return [(t + k, (first + k) & 1) for k in range(count)]


def test_a_clean_short_press_gives_press_then_click():
    # active low: 1 is up, 0 is down; the press counts at once, the release once the bounce is over
    assert run([(0, 1), (100, 0), (250, 1)], 500) == [(100, PRESS), (250 + STABLE_MS, CLICK)]


def test_contact_bounce_never_gives_a_double_press():
    # the datasheet's 5 ms of bounce: the release is known STABLE_MS after the contact first opened
    levels = [(0, 1)] + chatter(100, 0, 5) + [(105, 0)] + chatter(300, 1, 5) + [(305, 1)]
    assert run(levels, 600) == [(100, PRESS), (300 + STABLE_MS, CLICK)]


def test_a_long_press_fires_once_while_held_then_release():
    events = run([(0, 1), (100, 0), (3000, 1)], 3200)
    assert events == [(100, PRESS), (100 + LONG_MS, LONG), (3000 + STABLE_MS, RELEASE)]


def test_a_release_just_before_the_long_time_is_a_click():
    events = run([(0, 1), (100, 0), (100 + LONG_MS - 1, 1)], 1500)
    assert [e for _, e in events] == [PRESS, CLICK]


def test_a_glitch_is_one_press_at_most_never_two():
    # a spike on a released button's line is taken for a touch: one press, one click
    assert run([(0, 1), (50, 0), (51, 1)], 200) == [(50, PRESS), (51 + STABLE_MS, CLICK)]
    # a burst of them, or a spike in the bounce of a release, is still one
    levels = [(0, 1), (50, 0), (51, 1), (54, 0), (55, 1), (57, 0), (58, 1)]
    assert run(levels, 200) == [(50, PRESS), (58 + STABLE_MS, CLICK)]
    levels = [(0, 1), (50, 0), (150, 1), (153, 0), (154, 1), (150 + STABLE_MS + 3, 0), (150 + STABLE_MS + 4, 1)]
    assert [e for _, e in run(levels, 400)] == [PRESS, CLICK]
    # and a drop-out while held does not end the press, nor restart the long press time
    events = run([(0, 1), (10, 0), (200, 1), (205, 0), (400, 1)], 600)
    assert events == [(10, PRESS), (400 + STABLE_MS, CLICK)]
    events = run([(0, 1), (10, 0), (500, 1), (505, 0), (2000, 1)], 2100)
    assert events == [(10, PRESS), (10 + LONG_MS, LONG), (2000 + STABLE_MS, RELEASE)]


def test_the_next_press_needs_the_button_up_and_quiet_first():
    # up for less than the stable time after a press: still the same press
    levels = [(0, 1), (100, 0), (200, 1), (200 + STABLE_MS - 1, 0), (300, 1)]
    assert run(levels, 500) == [(100, PRESS), (300 + STABLE_MS, CLICK)]
    # up and quiet that long: armed, so the next touch is a press at once
    levels = [(0, 1), (100, 0), (200, 1), (200 + 2 * STABLE_MS, 0), (300, 1)]
    assert run(levels, 500) == [(100, PRESS), (200 + STABLE_MS, CLICK), (200 + 2 * STABLE_MS, PRESS),
                                (300 + STABLE_MS, CLICK)]


def test_a_touch_before_the_button_was_seen_at_rest_waits_until_it_is_steady():
    # polling began 3 ms before: not yet known to be at rest, so no leading edge to trust
    assert run([(0, 1), (3, 0), (200, 1)], 400) == [(3 + STABLE_MS, PRESS), (200 + STABLE_MS, CLICK)]


def test_quick_separate_presses_all_count():
    # the pop-off duel: players hammer their button; every real press is a roll
    levels = [(0, 1)]
    for k in range(10):
        levels += [(100 + 40 * k, 0), (120 + 40 * k, 1)]
    events = run(levels, 700)
    assert [e for _, e in events] == [PRESS, CLICK] * 10


def test_active_high_button():
    events = run([(0, 0), (100, 1), (200, 0)], 400, active_low=False)
    assert events == [(100, PRESS), (200 + STABLE_MS, CLICK)]


def test_held_at_power_up_counts_as_a_press_then():
    assert run([(0, 0), (300, 1)], 400) == [(STABLE_MS, PRESS), (300 + STABLE_MS, CLICK)]


def test_slow_polling_still_debounces():
    # polled every 7 ms, the bounce is sampled at random phases
    levels = [(0, 1)] + chatter(100, 0, 5) + [(105, 0)] + chatter(400, 1, 5) + [(405, 1)]
    events = run(levels, 800, step=7)
    assert [e for _, e in events] == [PRESS, CLICK]
    assert 100 <= events[0][0] < 100 + 7  # the first poll that reads the contact closed
    assert 400 + STABLE_MS <= events[1][0] < 400 + STABLE_MS + 2 * 7


def test_times_across_the_tick_wrap_around():
    # on MicroPython add(0, -150) is just below the wrap of ticks_ms
    events = run([(0, 1), (100, 0), (1000, 1)], 1200, start=add(0, -150))
    assert events == [(100, PRESS), (100 + LONG_MS, LONG), (1000 + STABLE_MS, RELEASE)]


def bounce(rng, at, level, flips=3):
    """A contact closing or opening at ``at``: it flips between ``level``
    and back up to ``flips - 1`` times, in pieces of 1-2 ms (with 3, for up to
    5 ms: the datasheet's most, as a clock of whole ms sees it), then stays
    at ``level``. Returns the (time, level) pairs and when the level stays."""
    levels = []
    for _ in range(rng.below(flips)):
        levels += [(at, level), (at + 1 + rng.below(2), 1 - level)]
        at = levels[-1][0] + 1
    levels.append((at, level))
    return levels, at


def test_random_bounce_patterns_give_one_event_pair_per_press():
    rng = Rng(6)
    for _ in range(25):
        levels = [(0, 1)]
        expected = []
        t = 50
        for _ in range(4):
            pressed, settled = bounce(rng, t, 0)
            up = settled + 30 + rng.below(1200)
            # the long press is timed from the first touch
            expected += [PRESS, LONG, RELEASE] if up - t > LONG_MS else [PRESS, CLICK]
            released, t = bounce(rng, up, 1)
            levels += pressed + released
            t += 40 + rng.below(200)
        assert [e for _, e in run(levels, t + 50)] == expected


def test_a_bounce_longer_than_the_datasheets_never_gives_a_second_press():
    # a worn switch bouncing for up to 9 ms: a press may end early, but every press is one press
    rng = Rng(7)
    for _ in range(25):
        levels = [(0, 1)]
        t = 50
        for _ in range(4):
            pressed, settled = bounce(rng, t, 0, flips=4)
            released, t = bounce(rng, settled + 30 + rng.below(300), 1, flips=4)
            levels += pressed + released
            t += 40 + rng.below(200)
        assert [e for _, e in run(levels, t + 50)].count(PRESS) == 4


def test_bad_timing_options_are_refused():
    raises(ValueError, Button, lambda: 1, stable_ms=800, long_ms=700)


def test_polling_allocates_nothing_on_micropython():
    if sys.implementation.name != "micropython":
        return
    level = [1]

    def read():
        return level[0]

    button = Button(read)
    button.poll(0)
    start = gc.mem_alloc()
    seen = 0
    for t in range(1, 2000):
        level[0] = 0 if 100 <= t < 1500 else 1
        if button.poll(t):
            seen += 1
    assert gc.mem_alloc() - start == 0 and seen == 3


# -- buttons on the 74HC165 chain ---------------------------------------------------


class Chain:
    """The bytes a 74HC165 chain of ``chips`` reads: every input high (the
    pull-ups) until ``set`` pulls one low; ``reads`` counts the reads."""

    def __init__(self, chips):
        self.buf = bytearray([0xFF] * chips)
        self.reads = 0

    def set(self, n, level):
        if level:
            self.buf[n >> 3] |= 1 << (n & 7)
        else:
            self.buf[n >> 3] &= ~(1 << (n & 7)) & 0xFF

    def __call__(self):
        self.reads += 1
        return self.buf


def presses(chain, panel, timeline, until):
    """(ms, button) of every press reported while ``timeline`` ((ms, input, level)) plays."""
    out = []
    at = 0
    for t in range(until):
        while at < len(timeline) and timeline[at][0] <= t:
            chain.set(timeline[at][1], timeline[at][2])
            at += 1
        i = panel.poll(t)
        if i is not None:
            out.append((t, i))
    return out


def test_a_chain_button_is_one_press_however_long_it_is_held():
    chain = Chain(5)
    panel = ChainButtons(chain, (27, 38))
    # input 38: bit 6 of the fifth chip; held 2 s, then pressed again
    got = presses(chain, panel, ((100, 38, 0), (2100, 38, 1), (2300, 27, 0), (2350, 27, 1)), 3000)
    assert got == [(100, 1), (2300, 0)]
    assert chain.reads == 3000  # once a poll, however many buttons


def test_a_bouncing_chain_button_is_one_press():
    chain = Chain(5)
    panel = ChainButtons(chain, (30,))
    bounce = [(200 + k, 30, k & 1) for k in range(5)] + [(260 + k, 30, (k + 1) & 1) for k in range(5)]
    assert presses(chain, panel, bounce, 600) == [(200, 0)]


def test_two_chain_buttons_pressed_together_are_both_reported_lowest_first():
    chain = Chain(5)
    panel = ChainButtons(chain, (27, 33, 36))
    got = presses(chain, panel, ((100, 36, 0), (100, 27, 0), (200, 36, 1), (200, 27, 1)), 400)
    assert got == [(100, 0), (101, 2)]


def test_a_chain_button_pressed_while_another_is_held_knows_it():
    chain = Chain(5)
    panel = ChainButtons(chain, (27, 33))
    got = []
    for t, n, level in ((0, 27, 1), (100, 27, 0), (300, 33, 0), (400, 33, 1), (400, 27, 1), (600, 33, 0)):
        chain.set(n, level)
        i = panel.poll(t)
        if i is not None:
            got.append((i, panel.held(i)))
        panel.poll(t + 50)
    assert got == [(0, False), (1, True), (1, False)]


def test_polling_chain_buttons_allocates_nothing_on_micropython():
    if sys.implementation.name != "micropython":
        return
    chain = Chain(5)
    panel = ChainButtons(chain, tuple(range(27, 39)))
    panel.poll(0)
    start = gc.mem_alloc()
    seen = 0
    for t in range(1, 1000):
        chain.set(31, 0 if 100 <= t < 300 else 1)
        if panel.poll(t) is not None:
            seen += 1
    assert gc.mem_alloc() - start == 0 and seen == 1


class EdgePin(Pin):
    """A ``Pin`` with the Pico's pin interrupt: ``at(t)`` moves the time on,
    and each edge on the way runs the handler, as between two polls."""

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def irq(self, handler=None, trigger=IRQ_FALLING, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard

    def at(self, t):
        while self.next < len(self.levels) and self.levels[self.next][0] <= t:
            edge = self.IRQ_FALLING if self.level > self.levels[self.next][1] else self.IRQ_RISING
            changed = self.level != self.levels[self.next][1]
            self.now, self.level = self.levels[self.next]
            self.next += 1
            if changed and self.trigger & edge:
                self.handler(self)
        self.now = t


def run_latched(levels, until, step, clock=False):
    """``run`` on a pin with the interrupt; with ``clock``, it notes when the first edge came (µs)."""
    pin = EdgePin(levels)
    button = Button(pin, clock=(lambda: pin.now * 1000) if clock else None)  # the µs clock
    assert pin.trigger == EdgePin.IRQ_FALLING | EdgePin.IRQ_RISING and pin.hard
    events = []
    for t in range(0, until, step):
        pin.at(t)
        event = button.poll(t)
        if event:
            events.append((t, event))
    return events


def test_a_touch_between_two_polls_is_a_press_though_the_bounce_has_the_contact_open():
    # polled every 4 ms, the contact touches at 101 and is open again at the poll of 104
    levels = [(0, 1), (101, 0), (102, 1), (103, 0), (104, 1), (106, 0)] + chatter(300, 1, 5) + [(305, 1)]
    assert run(levels, 600, step=4) == [(108, PRESS), (308, CLICK)]  # a poll alone waits for the next read down
    assert run_latched(levels, 600, 4) == [(104, PRESS), (308, CLICK)]


def test_an_opening_between_two_polls_starts_the_release_though_the_bounce_has_the_contact_closed():
    # polled every 4 ms, the contact opens at 301 and is closed again at the poll of 304
    levels = [(0, 1), (100, 0), (301, 1), (302, 0), (303, 1), (304, 0), (306, 1)]
    assert run(levels, 600, step=4) == [(100, PRESS), (316, CLICK)]  # a poll alone waits for the next read open
    assert run_latched(levels, 600, 4) == [(100, PRESS), (312, CLICK)]
    # the moment of the first edge, from the interrupt: known at the first poll STABLE_MS after 301
    assert run_latched(levels, 600, 4, clock=True) == [(100, PRESS), (308, CLICK)]


def test_what_the_interrupt_sees_never_gives_a_second_press_nor_a_release_while_held():
    held = [(0, 1), (100, 0)] + chatter(101, 1, 4) + [(105, 0), (200, 1), (200, 0)]  # a drop-out while held
    levels = held + chatter(300, 1, 5) + [(305, 1), (500, 0), (600, 1)]
    assert run_latched(levels, 700, 1) == [(100, PRESS), (300 + STABLE_MS, CLICK), (500, PRESS), (600 + STABLE_MS, CLICK)]
    assert run_latched(levels, 700, 3) == [(102, PRESS), (306, CLICK), (501, PRESS), (606, CLICK)]
    # knowing when the first edge came moves no event but a release's, and that only sooner
    assert run_latched(levels, 700, 3, clock=True) == [(102, PRESS), (306, CLICK), (501, PRESS), (606, CLICK)]
    assert run_latched(levels, 700, 7, clock=True) == [(105, PRESS), (308, CLICK), (504, PRESS), (609, CLICK)]


def test_on_the_microsecond_clock_a_release_is_known_the_bounce_s_5_ms_after_its_first_edge():
    levels = [(0, 1), (100, 0)] + chatter(301, 1, 4) + [(305, 1)]
    # on the millisecond clock 6 ms, as a reading of 6 may be 5 ms
    assert run_latched(levels, 600, 1) == [(100, PRESS), (301 + STABLE_MS, CLICK)]
    assert run_latched(levels, 600, 1, clock=True) == [(100, PRESS), (306, CLICK)]


def test_a_release_under_way_says_when_it_will_be_known():
    levels = [(0, 1), (100, 0)] + chatter(301, 1, 4) + [(305, 1)]
    pin = EdgePin(levels)
    button = Button(pin, clock=lambda: pin.now * 1000)
    due = []
    for t in range(310):
        pin.at(t)
        event = button.poll(t)
        due.append((t, event, button.due_us()))
    due = due[295:]
    assert due[:6] == [(t, None, -1) for t in range(295, 301)]  # held: nothing under way
    assert due[6:11] == [(301 + k, None, 5000 - 1000 * k) for k in range(5)]  # from the first edge on
    assert due[11] == (306, CLICK, -1)
    assert Button(EdgePin(levels)).due_us() == -1  # without a µs clock, never


def test_a_release_is_judged_by_a_level_read_once_the_bounce_s_time_is_up():
    # time runs on while a poll runs (2 µs a clock reading); the contact opens at
    # 300 ms and its last bounce closes it from 305.9 ms to 305.999 ms
    us = [0]

    def clock():
        us[0] += 2
        return us[0]

    def level():
        t = us[0]
        if 99000 <= t < 300000 or 305900 <= t < 305999:
            return 0
        return 1

    button = Button(level, clock=clock)
    events = []
    for t in range(400):
        us[0] = t * 1000 - 3
        event = button.poll(t)
        if event:
            events.append((t, event))
    # first read open by the poll at 301 ms, whose clock read 300.999 ms: the poll at
    # 306 ms, whose clock reads 305.999 ms, reads the level after that, at rest
    assert events == [(100, PRESS), (306, CLICK)]


def test_a_press_the_interrupt_caught_is_due_at_once_until_a_poll_reads_it():
    levels = [(0, 1), (100, 0), (101, 1), (102, 0)]
    pin = EdgePin(levels)
    button = Button(pin)
    for t in range(100):
        pin.at(t)
        button.poll(t)
    assert not button.caught() and button.due_us() == -1  # armed, untouched
    pin.at(100.5)  # touched between two polls
    assert button.caught() and button.due_us() == 0
    assert button.poll(100.5) == PRESS
    pin.at(101.5)  # the press's own bounce: held, not a press to come
    assert not button.caught()
