"""Pocket beams (Tiddlee Snuka): an IR break-beam across each pocket's mouth,
latched by a pin interrupt.

A counter dropping into a pocket breaks its beam for a few ms only, less
than one pass of the loop, so polling the level would miss it. Each beam's
receiver has an open-collector output on a GPIO of its own, read with the
Pico's pull-up (``Pin.IN, Pin.PULL_UP``): high while the beam is whole,
pulled low while something breaks it (its phototransistor holds an NPN
transistor off while it sees the light: ``hardware/README.md``). A counter
dropping through is a low pulse; its falling edge runs an interrupt handler
that only sets that beam's latch, and the loop reads the latch when it comes
round.

``Beams(pins)``: beam ``i`` is ``pins[i]``, the pocket whose board file
``sensor`` index is ``i`` (pin map role ``beam<i+1>``). A pin is anything
with ``irq(handler, trigger=..., hard=...)`` and the constant
``IRQ_FALLING``, as ``machine.Pin`` has; the handler gets the pin.
``poll(now)`` returns ``None`` or the index of one beam broken since it was
last reported (the lowest first) and clears its latch; nothing is allocated,
neither there nor in a handler.

Each beam's emitter and receiver draw from the 5 V supply that feeds the
pixels too: ``draw_ma`` is what they take, which the pixels' current budget
leaves to them (``hardware/power.md``).
"""

# one pocket at most: its IR emitter through 180 ohm from 5 V and its receiver's load and
# pull-up from 3.3 V, 22.6 mA by host/hardware/beams.py (make hardware), rounded up
BEAM_MA = 23


class Beams:
    def __init__(self, pins):
        self._latched = bytearray(len(pins))  # 1: broken since the last report
        self.draw_ma = BEAM_MA * len(pins)
        for i in range(len(pins)):
            # hard: the handler runs in the interrupt itself rather than queued
            # for the interpreter, which a hard handler allows as it allocates nothing
            pins[i].irq(self._catcher(i), trigger=pins[i].IRQ_FALLING, hard=True)

    def _catcher(self, i):
        """The handler of beam ``i``, made once: it knows its beam without a search."""
        latched = self._latched

        def caught(pin):
            latched[i] = 1

        return caught

    def poll(self, now):
        """One beam broken since its last report, or None. The latch needs no
        time; ``now`` is taken as every input port's ``poll`` takes it."""
        latched = self._latched
        for i in range(len(latched)):
            if latched[i]:
                # an edge between the test and the clear is the same counter
                latched[i] = 0
                return i
        return None
