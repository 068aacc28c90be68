"""Debounced push buttons: press, click, long press, release.

A ``Button`` is a state machine: it never reads the clock, the caller passes
``now`` (ms ticks, ``hal.ticks``) to ``poll(now)``, and ``read()`` returns
the pin level (0 or 1; a ``machine.Pin`` is such a function). Every poll
returns ``None`` or one event, a constant string (nothing is allocated):

    PRESS    the button went down
    CLICK    it came up again before LONG_MS: a short press
    LONG     it has been held for LONG_MS; once per press, while still held
    RELEASE  it came up after a LONG

So every press gives PRESS, then either CLICK, or LONG and later RELEASE.
The die reacts to PRESS; the button mode (a board without piece sensors)
cycles on CLICK and confirms on LONG.

Debouncing. A press counts at its first contact (leading edge), as soon as
it is read: a button that has rested up for ``stable_ms`` is armed, and the
first read of it down is the press, with nothing to wait for. A release is
known ``stable_ms`` after the contact is first read open: the switches
hardware/bom.md names bounce for 5 ms at most, so by then the contact is at
rest, and its level says whether it opened (a release) or it was a drop-out
while held or the bounce of the press (still down; the next opening is
looked at afresh). The button is armed again only once it has read up,
unchanged, for ``stable_ms``. So a bounce never gives a second press, even
a bounce longer than the datasheet's, and neither does a glitch: a spike on
a released button's line is one press (and a click) at most, never two. (A
click is known at its release, and a step through the choices on a click
must be lit within 16 ms of it: docs/budgets.md.) The one case that waits:
a button already down when polling begins (held at power-up) is pressed
once it has read down for ``stable_ms``, as if pressed then.

Where ``read`` is a pin with an interrupt (``machine.Pin``: the die buttons
on their GPIOs), every edge of the contact also sets a latch from the
interrupt, so a poll that falls in a bounce, when the contact happens to
read as it rests, still knows it moved: an armed button that moved is read
down at that poll (a press), and a button held down that moved has opened,
if only for a moment, so its release is looked at from that poll. Polled
alone, a press or a release could wait for the end of its bounce: 5 ms more
of the 16 ms a throw or a step through the choices has to be lit in. Given
a microsecond ``clock`` (``time.ticks_us``), the interrupt also notes when
the first edge came, and a release is known at the first poll a bounce's
5 ms after that moment, rather than STABLE_MS after the poll that saw it: a
click is known a pass of the loop sooner, and up to 1 ms sooner again than
on the millisecond clock, whose 6 ms may be 5.
"""

from array import array

from hal.ticks import diff

PRESS = "press"
CLICK = "click"
LONG = "long"
RELEASE = "release"

# The buttons the BOM names bounce for 5 ms at most (Omron's B3F, B3FS and B3S
# datasheets: "bounce time 5 ms max"), so 5 ms after a contact first moves it
# is at rest; the clock counts whole ms, so 6 ms on it is 5 ms at least. It
# delays only a release (and the arming for the next press), never a press.
STABLE_MS = 6
# A hurried click lasts 100-300 ms; 700 ms is clearly deliberate without
# feeling slow (phones use 400-500 ms, but a board game is not in a hurry
# and a press-and-hold here confirms a move).
LONG_MS = 700


class Button:
    """One debounced button on ``read()``; pressed reads 0 when ``active_low``
    (a switch to ground with the pin's pull-up), 1 otherwise."""

    def __init__(self, read, active_low=True, stable_ms=STABLE_MS, long_ms=LONG_MS, clock=None):
        if stable_ms < 0 or long_ms <= stable_ms:
            raise ValueError("need 0 <= stable_ms < long_ms")
        self._read = read
        self._down_level = 0 if active_low else 1
        self.stable_ms = stable_ms
        self.long_ms = long_ms
        self.down = False  # the debounced state
        self._raw = False  # the level read last time, as pressed/not
        self._since = None  # when the raw level last changed (None: never read yet)
        self._armed = False  # up and quiet for stable_ms: the next contact is a press
        self._rested = False  # armed once: down before that is a button held at power-up
        self._opened = None  # when the contact of a press was first read open (on ``clock``, if any), until its level is known
        # how long after that it is at rest: stable_ms on the ms clock is 1 ms less at least
        self._bounce = (stable_ms - 1) * 1000 if clock else stable_ms
        self._pressed_at = 0  # when the current press began
        self._long_sent = False
        # set by the pin's interrupt at an edge, with the µs clock's time of the first (0 without
        # a clock), cleared by a poll
        self._moved = array("i", (0, 0))
        self._clock = clock
        if hasattr(read, "irq"):
            # hard: it runs in the interrupt itself, as a handler that allocates nothing may
            read.irq(self._catcher(), trigger=read.IRQ_FALLING | read.IRQ_RISING, hard=True)

    def _catcher(self):
        moved = self._moved
        clock = self._clock

        def caught(pin):
            if not moved[0]:
                moved[0] = 1
                if clock:
                    moved[1] = clock()

        return caught

    def poll(self, now):
        moved = self._moved[0]
        self._moved[0] = 0
        # the time before the level: the level read once the bounce's time is up is the one at rest
        at = self._clock() if self._clock else now
        raw = self._read() == self._down_level
        if moved and self._armed:
            raw = True  # touched since the last poll: a press, though the bounce may have it open now
        elif self.down and self._opened is None and (moved or not raw):
            # opening, or bouncing (read open, or moved as the interrupt saw): its level once the bounce is over says
            self._opened = self._moved[1] if moved and self._clock else at
        if self._since is None:  # the first read: nothing is known of the level before it
            self._raw = raw
            self._since = now
            return None
        if raw != self._raw:
            self._raw = raw
            self._since = now
            if raw and self._armed:  # the first contact of a press: at once
                self._armed = False
                return self._press(now)
        event = None
        if self._opened is not None and diff(at, self._opened) >= self._bounce:
            self._opened = None
            if not raw:
                self.down = False
                event = RELEASE if self._long_sent else CLICK
        steady = diff(now, self._since) >= self.stable_ms
        if not raw:
            if steady and not self.down:  # (quiet since it opened: the next touch is a press at once)
                self._armed = self._rested = True
            return event
        if not self.down:
            if steady and not self._rested:  # down since before the first read: a press once steady
                return self._press(self._since)
            return None  # (down again before it rested up: a bounce past the datasheet's, not a press)
        # counted from the press itself: a drop-out too short to be a release
        # does not restart it
        if not self._long_sent and diff(now, self._pressed_at) >= self.long_ms:
            self._long_sent = True
            return LONG
        return None

    def due_us(self):
        """The µs until an event on its way is known (0: at the next poll),
        so the loop can poll then rather than a pass later: a press its
        interrupt caught at once, a release under way once its bounce is
        over; -1 if none is (a release: or without a µs clock)."""
        if self.caught():
            return 0
        if self._opened is None or not self._clock:
            return -1
        return max(0, self._bounce - diff(self._clock(), self._opened))

    def settling(self):
        """Whether a release may be under way: the contact was read open
        less than ``stable_ms`` ago, and its level then will say."""
        return self._opened is not None

    def caught(self):
        """Whether its interrupt caught a press that no poll has read yet:
        the next poll gives it."""
        return self._armed and self._moved[0] != 0

    def resting(self):
        """Up and armed: until its level changes, a poll changes nothing."""
        return self._armed and not self.down

    def _press(self, at):
        self.down = True
        self._pressed_at = at
        self._long_sent = False
        return PRESS


class ChainButtons:
    """Buttons on the 74HC165 chain (``hal.sensors``), each a switch from its
    input to GND with a pull-up, so pressed reads 0. ``read()`` returns the
    chain's bytes (``SpiShiftIn.read``: input n is bit n % 8 of byte n // 8);
    button ``i`` is chain input ``inputs[i]`` and a ``Button`` of its own,
    debounced as the die buttons are. ``poll(now)`` reads the chain once and
    returns ``None`` or the index of one button pressed: a press is reported
    once however long it is held, and two pressed between two polls are
    both reported, the lower index first. Nothing is allocated. While every
    button rests, a poll that reads the same bytes again ends there (a
    comparison in C): most polls, where twelve buttons' polls would each cost
    the Pico tens of microseconds."""

    def __init__(self, read, inputs):
        self._read = read
        self._bits = b""  # the chain's bytes, read at each poll
        self._last = bytearray()  # and as the buttons last saw them
        self._resting = False  # every button up and armed then
        self.buttons = tuple(Button(self._level(n)) for n in inputs)
        self._pressed = 0  # bit i: button i pressed and not reported yet

    def _level(self, n):
        """The reader of chain input ``n`` in the bytes read last, made once."""
        byte, bit = n >> 3, n & 7
        return lambda: self._bits[byte] >> bit & 1

    def poll(self, now):
        bits = self._bits = self._read()
        if self._resting and bits == self._last:
            return None
        if len(self._last) != len(bits):
            self._last = bytearray(len(bits))
        self._last[:] = bits
        buttons = self.buttons
        pressed = self._pressed
        resting = True
        for i in range(len(buttons)):
            if buttons[i].poll(now) is PRESS:
                pressed |= 1 << i
            resting = resting and buttons[i].resting()
        self._resting = resting and not pressed
        if not pressed:
            return None
        i = 0
        while not pressed >> i & 1:
            i += 1
        self._pressed = pressed & ~(1 << i)
        return i

    def held(self, i):
        """Whether a button other than button ``i`` is down now."""
        buttons = self.buttons
        for j in range(len(buttons)):
            if j != i and buttons[j].down:
                return True
        return False
