"""Debounced push buttons: press, click, long press, release.

A ``Button`` is a state machine: it never reads the clock, the caller passes
``now`` (ms ticks, ``hal.ticks``) to ``poll(now)``, and ``read()`` returns
the pin level (0 or 1; a ``machine.Pin`` is such a function). Every poll
returns ``None`` or one event, a constant string (nothing is allocated):

    PRESS    the button went down (reported once the level held STABLE_MS)
    CLICK    it came up again before LONG_MS: a short press
    LONG     it has been held for LONG_MS; once per press, while still held
    RELEASE  it came up after a LONG

So every press gives PRESS, then either CLICK, or LONG and later RELEASE.
The die reacts to PRESS; the button mode (``hal.sensors.ButtonPicker``)
cycles on CLICK and confirms on LONG.

Debouncing: a change of level counts only once the new level has been read
unchanged for ``stable_ms``; contact bounce flips the level back and forth
faster than that, so it restarts the wait and is never seen as a second
press. A button held down at power-up reports PRESS once it has been down
``stable_ms``, as if pressed then.
"""

from hal.ticks import diff

PRESS = "press"
CLICK = "click"
LONG = "long"
RELEASE = "release"

# Tactile switches stop bouncing within about 1-6 ms (Ganssle's measurements
# in "A Guide to Debouncing"); 8 ms clears that with margin and leaves room in
# the 16 ms from a press to the first lit pixel for the largest board's frame
# on the wire (195 pixels: 5.9 ms).
STABLE_MS = 8
# A hurried click lasts 100-300 ms; 700 ms is clearly deliberate without
# feeling slow (phones use 400-500 ms, but a board game is not in a hurry
# and a press-and-hold here confirms a move).
LONG_MS = 700


class Button:
    """One debounced button on ``read()``; pressed reads 0 when ``active_low``
    (a switch to ground with the pin's pull-up), 1 otherwise."""

    def __init__(self, read, active_low=True, stable_ms=STABLE_MS, long_ms=LONG_MS):
        if stable_ms < 0 or long_ms <= stable_ms:
            raise ValueError("need 0 <= stable_ms < long_ms")
        self._read = read
        self._down_level = 0 if active_low else 1
        self.stable_ms = stable_ms
        self.long_ms = long_ms
        self.down = False  # the debounced state
        self._raw = False  # the level read last time, as pressed/not
        self._since = 0  # when the raw level last changed
        self._pressed_at = 0  # when the level went down for the current press
        self._long_sent = False

    def poll(self, now):
        raw = self._read() == self._down_level
        if raw != self._raw:
            self._raw = raw
            self._since = now
            return None
        if raw != self.down:
            if diff(now, self._since) < self.stable_ms:
                return None
            self.down = raw
            if raw:
                self._pressed_at = self._since
                self._long_sent = False
                return PRESS
            return RELEASE if self._long_sent else CLICK
        # counted from the press itself: a drop-out too short to be a release
        # does not restart it
        if raw and not self._long_sent and diff(now, self._pressed_at) >= self.long_ms:
            self._long_sent = True
            return LONG
        return None
