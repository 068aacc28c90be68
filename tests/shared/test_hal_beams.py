"""Pocket beams: a counter dropping through breaks a beam for a few ms, less
than one pass of the loop; the pin interrupt latches it and the loop reads
the latch. The pins are the simulated board's, which model a GPIO with its
falling-edge interrupt."""

import gc
import sys

from hal.beams import Beams
from host.rig import BeamPin

POLL_MS = 20  # the loop comes round every 2-15 ms on a Pico; slower here, to be safe


def pulse(pin):
    """The beam broken and whole again: a low pulse on its line."""
    pin.value(0)
    pin.value(1)


def polls(beams, pins, pulses, until):
    """Poll every POLL_MS up to ``until`` ms, the line of beam ``i`` low from
    ``start`` to ``end`` for each (i, start, end) of ``pulses`` (1 ms steps);
    returns (ms, beam) of every report."""
    reports = []
    for t in range(until):
        for i, start, end in pulses:
            if t == start:
                pins[i].value(0)
            elif t == end:
                pins[i].value(1)
        if t % POLL_MS == 0:
            found = beams.poll(t)
            while found is not None:
                reports.append((t, found))
                found = beams.poll(t)
    return reports


def six():
    pins = tuple(BeamPin() for _ in range(6))
    return Beams(pins), pins


def test_a_pulse_shorter_than_a_poll_interval_is_seen_exactly_once():
    beams, pins = six()
    assert polls(beams, pins, [(2, 105, 108)], 300) == [(120, 2)]


def test_two_pockets_in_one_interval_are_both_reported_lowest_first_one_per_poll():
    beams, pins = six()
    pulse(pins[4])
    pulse(pins[1])
    assert [beams.poll(0), beams.poll(1), beams.poll(2)] == [1, 4, None]


def test_a_beam_broken_twice_between_polls_is_one_report():
    beams, pins = six()
    pulse(pins[0])
    pulse(pins[0])
    assert [beams.poll(0), beams.poll(1)] == [0, None]


def test_a_beam_held_broken_counts_once_and_its_restoring_counts_nothing():
    beams, pins = six()
    # a counter stuck in the pocket mouth for half a second, then taken out
    assert polls(beams, pins, [(5, 50, 550)], 1000) == [(60, 5)]


def test_nothing_is_reported_before_a_beam_breaks():
    beams, _ = six()
    assert [beams.poll(t) for t in range(100)] == [None] * 100


class Registering:
    """A pin that only notes how its interrupt is asked for."""

    IRQ_FALLING = 4

    def __init__(self):
        self.asked = None

    def irq(self, handler=None, trigger=0, hard=False):
        self.asked = (trigger, hard)


def test_each_pin_interrupts_on_its_falling_edge_in_the_interrupt_itself():
    pins = (Registering(), Registering())
    Beams(pins)
    assert [pin.asked for pin in pins] == [(Registering.IRQ_FALLING, True)] * 2


def test_polling_and_the_interrupt_allocate_nothing_on_micropython():
    if sys.implementation.name != "micropython":
        return
    beams, pins = six()
    start = gc.mem_alloc()
    seen = 0
    for t in range(800):
        if t % 50 == 3:
            pulse(pins[t % 6])
        if beams.poll(t) is not None:
            seen += 1
    assert gc.mem_alloc() - start == 0 and seen == 16
