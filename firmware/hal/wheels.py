"""The Detour wheel encoders: where each turning wheel stands.

Each wheel has four positions and two sensors (hall sensors or contacts),
read as a 2-bit code ``a << 1 | b``. The code is an absolute Gray code, so
the position is known from the first reading after power-up, and a turn
from one position to the next flips exactly one bit (a read taken halfway
through a step shows the old or the new position, never a third one):

    position   0    1    2    3
    a b        0 0  0 1  1 1  1 0     (code 0, 1, 3, 2)

The position rises by one per quarter turn in the wheel's positive sense;
swapping the two sensor wires reverses the sense.

``Wheels(read, count)`` is a state machine: ``read()`` returns the codes of
all wheels packed in one int (wheel ``w`` in bits ``2w`` and ``2w+1``), or
``read`` is a list or tuple of one function per wheel returning its code. The
caller passes ``now`` (ms ticks) to ``poll(now)``, which returns ``None`` or
one event, a tuple built at construction (nothing is allocated per poll):

    ("wheel", w, new, old)        wheel w is now at position new (from old);
                                  old is -1 at the first reading
    ("wheel_error", w, new, old)  the wheel jumped two positions between two
                                  settled readings: a skipped code, so the
                                  direction is unknown; never a turn

A code counts only after it has been read unchanged for ``settle_ms``.
After a ``wheel_error`` the wheel's position is the new one (the encoder is
absolute); what to make of it is the controller's call. When several wheels
settle in the same poll, the lowest-numbered is reported and the others on
the following polls.
"""

from hal.ticks import diff

# code -> position (00, 01, 11, 10 are positions 0, 1, 2, 3); the table is
# its own inverse, so POSITION[p] is also the code of position p
POSITION = bytes((0, 1, 3, 2))
# Contacts stop bouncing within a few ms and a wheel drops into its detent
# at once. By our estimate a brisk half turn by hand (about a third of a
# second) shows the middle position for some 100 ms, twice 50 ms, so it
# reads as two quarter turns, not a skip; only a flick faster than that or
# a sensor fault skips a code.
SETTLE_MS = 50
_UNKNOWN = 255


def _packer(readers):
    """One read of all wheels from one reader per wheel."""

    def read():
        packed = 0
        for w in range(len(readers)):
            packed |= (readers[w]() & 3) << (2 * w)
        return packed

    return read


class Wheels:
    """The positions of ``count`` wheels; ``position(w)`` is -1 until known."""

    def __init__(self, read, count=4, settle_ms=SETTLE_MS):
        if isinstance(read, (tuple, list)):
            if len(read) != count:
                raise ValueError("%d wheels need %d readers, got %d" % (count, count, len(read)))
            read = _packer(tuple(read))
        self._read = read
        self.count = count
        self.settle_ms = settle_ms
        self._pos = bytearray([_UNKNOWN] * count)  # settled position
        self._seen = bytearray([_UNKNOWN] * count)  # code read last time
        self._since = [0] * count  # when that code was first read
        # event of wheel w going from old to new: _events[w * 20 + new * 5 + old + 1]
        events = []
        for w in range(count):
            for new in range(4):
                for old in range(-1, 4):
                    step = (new - old) & 3
                    if old < 0 or step in (1, 3):
                        events.append(("wheel", w, new, old))
                    elif step == 2:
                        events.append(("wheel_error", w, new, old))
                    else:
                        events.append(None)
        self._events = tuple(events)

    def position(self, w):
        p = self._pos[w]
        return -1 if p == _UNKNOWN else p

    def settling(self):
        """Whether a wheel reads a code that has not counted yet: a turn still under way."""
        for w in range(self.count):
            code = self._seen[w]
            if code != _UNKNOWN and POSITION[code] != self._pos[w]:
                return True
        return False

    def poll(self, now):
        packed = self._read()
        found = -1
        for w in range(self.count):
            code = packed >> (2 * w) & 3
            if code != self._seen[w]:
                self._seen[w] = code
                self._since[w] = now
            elif found < 0 and POSITION[code] != self._pos[w] and diff(now, self._since[w]) >= self.settle_ms:
                found = w
        if found < 0:
            return None
        old = self._pos[found]
        new = POSITION[self._seen[found]]
        self._pos[found] = new
        return self._events[found * 20 + new * 5 + (0 if old == _UNKNOWN else old + 1)]
