"""The hardware ports: each part of the board in a module of its own
(``pixels``, ``buttons``, ``sensors``, ``wheels``, ``beams``, ...), and here
the two things the controller is handed beside them: the die's random source
(``Chance``) and the bundle of all the ports (``Ports``). They sit in the
package itself, which is loaded anyway: as modules of their own they took
a few hundred bytes more of the Pico's heap, which Sniggle's whole game
cannot spare (docs/budgets.md).

The die's randomness comes from ``urandom(n)``. On the Pico that is
``os.urandom``, which MicroPython's rp2 port makes from hardware noise, not
from a seeded generator: each byte is eight reads of the ring oscillator's
RANDOMBIT, 1 us apart, shifted through an 8-bit register with feedback. The
RP2040 datasheet (2.17.5) calls that bit fit for uses less critical than
security, which a die is. A byte is reduced to an outcome by rejection
sampling, so every face is exactly equally likely: a byte of 252 or more is
thrown away for a d6, since 256 is not a multiple of 6. Three throw sticks
take three bits of one byte, which is exact as 8 divides 256.
"""


class Chance:
    """Fair outcomes from a source of random bytes. With ``ahead``, that many
    bytes are drawn before they are needed and ``refill()`` draws a new
    pool once some are used: a byte of ``os.urandom`` cost the emulated Pico
    about 0.45 ms, so drawn at the press a throw of two dice held its first
    frame back by a ms; drawn after the throw's frame is sent, nobody waits.
    (Bytes left in the pool are dropped unseen, which keeps every outcome
    equally likely.)"""

    def __init__(self, urandom, ahead=0):
        self.urandom = urandom
        self._pool = urandom(ahead)
        self._used = 0  # bytes of the pool taken

    def refill(self):
        if self._used:
            self._pool = self.urandom(len(self._pool))
            self._used = 0

    def _byte(self):
        if self._used == len(self._pool):
            return self.urandom(1)[0]  # (more taken since the last refill than were drawn ahead)
        self._used += 1
        return self._pool[self._used - 1]

    def below(self, n):
        """A uniform integer in 0..n-1 (n up to 256), without modulo bias."""
        limit = 256 - 256 % n
        while True:
            byte = self._byte()
            if byte < limit:
                return byte % n

    def d6(self):
        return self.below(6) + 1

    def dice(self, count):
        """``count`` dice as a tuple, the way the rules core takes a roll."""
        return tuple(self.d6() for _ in range(count))

    def sticks(self):
        """Three throw sticks as Mehen takes them: bit i set where stick i+1 fell flat side up."""
        return self._byte() & 7


class Ports:
    """The hardware the controller drives: ``pixels`` (hal.pixels.Pixels),
    ``buttons`` (one or two hal.buttons.Button: die rollers 1 and 2),
    ``chance`` (``Chance``), and where the board has them ``sensors``
    (hal.sensors.Sensors; None for button mode), ``wheels`` (hal.wheels.Wheels),
    a flicking game's pocket ``beams`` (hal.beams.Beams) and its buttons on the
    sensor chain, ``panel`` (hal.buttons.ChainButtons; button i is the board
    file's ``buttons[i]``)."""

    def __init__(self, pixels, buttons, chance, sensors=None, wheels=None, beams=None, panel=None):
        self.pixels = pixels
        self.buttons = buttons
        self.chance = chance
        self.sensors = sensors
        self.wheels = wheels
        self.beams = beams
        self.panel = panel
