"""Piece sensors: a switch under every space, read through 74HC165 chips.

Reading the chain (``ShiftIn``): the 74HC165s are chained, the serial out
(Q7) of each feeding the serial in (DS) of the one before, and the Q7 of
chip 0 goes to the Pico's data pin; all share the latch (PL) and clock (CP)
pins, CE is tied low. Pulsing PL low copies the inputs D0..D7 of every chip
into its register, and Q7 then shows D7 of chip 0; every rising clock edge
shifts the chain by one. So the bits come out as

    D7, D6, ... D0 of chip 0, then D7 ... D0 of chip 1, and so on,

and land in ``buf`` as byte ``i`` = chip ``i``, bit ``k`` = input ``Dk``:
sensor ``n`` (the board file's sensor index) is input D(n % 8) of chip
n // 8. The pins are callables: ``pin(v)`` drives, ``pin()`` reads, as a
``machine.Pin`` does. The 74HC165 runs from 3.3 V so Q7 suits the Pico; its
pulse widths are tens of ns, far below one MicroPython call, so no delays.
On the Pico ``SpiShiftIn`` reads the same chain with the clock and data pins
driven by ``machine.SoftSPI``, whose loop is C: 0.4 ms for Sniggle's 23
chips, where ``ShiftIn``'s Python loop takes 2.3 ms.

Debouncing (``Sensors``): a space's state changes only once its switch has
read the new state without a break for a while: ``place_ms`` for a piece
put down, so a piece slid across spaces does not register on the spaces it
only passed over (it rests on none of them that long); the shorter
``lift_ms`` for a piece taken up, so the targets light promptly.
``poll(now)`` returns ``None`` or the sensor number of one settled change
(``occupied(n)`` says which way); nothing is allocated. All spaces start
empty, so pieces standing at power-up are reported as placed once settled.
"""

from hal.ticks import diff

# A piece set down stays put; one slid across the board rests on each space
# it passes for well under 300 ms, a pause a player does not notice.
PLACE_MS = 300
# A lifted piece leaves its switch open for good; 50 ms rides over contact
# bounce and a piece that rocks as it is gripped.
LIFT_MS = 50


class ShiftIn:
    """Reads ``chips`` chained 74HC165s into ``buf`` (one byte per chip)."""

    def __init__(self, latch, clock, data, chips):
        self._latch = latch
        self._clock = clock
        self._data = data
        self.buf = bytearray(chips)
        clock(0)
        latch(1)

    def read(self):
        latch = self._latch
        clock = self._clock
        data = self._data
        buf = self.buf
        latch(0)
        latch(1)
        for i in range(len(buf)):
            byte = 0
            for _ in range(8):
                byte = byte << 1 | data()
                clock(1)
                clock(0)
            buf[i] = byte
        return buf


class SpiShiftIn:
    """Reads ``chips`` chained 74HC165s into ``buf`` as ``ShiftIn`` does,
    through ``spi``: ``machine.SoftSPI(baudrate=SPI_HZ, polarity=1, phase=0,
    sck=clock, miso=data, mosi=latch)``. With the clock idle high, its loop
    drops the clock, reads the bit, and raises the clock, which shifts the
    chain: each bit is read before the edge that replaces it, a whole
    half-period after the last shift. SoftSPI insists on a MOSI pin: it is
    the latch pin, held high through the read by sending 0xFF."""

    def __init__(self, latch, spi, chips):
        self._latch = latch
        self._spi = spi
        self.buf = bytearray(chips)
        latch(1)

    def read(self):
        latch = self._latch
        latch(0)
        latch(1)
        self._spi.readinto(self.buf, 0xFF)
        return self.buf


# SoftSPI's fastest on the rp2 port: a half-period of 1 us, 2.3 us a bit
SPI_HZ = 500000


class Sensors:
    """Debounced occupancy of ``count`` spaces; ``read()`` returns the raw
    bits (``ShiftIn.read``). A switch closed by a piece reads 0 when
    ``active_low`` (reed switch to ground, pull-up resistor)."""

    def __init__(self, read, count, active_low=True, place_ms=PLACE_MS, lift_ms=LIFT_MS):
        self._read = read
        self.count = count
        self.place_ms = place_ms
        self.lift_ms = lift_ms
        size = (count + 7) // 8
        self._invert = 0xFF if active_low else 0
        # unused inputs of the last chip never count
        self._mask = bytearray([0xFF] * size)
        if count % 8:
            self._mask[-1] = (1 << count % 8) - 1
        self._seen = bytearray(size)  # occupancy read last time
        self._state = bytearray(size)  # settled occupancy
        self._since = [0] * count  # when each sensor last changed
        self._raw = bytearray(size)  # the raw bits read last time
        self._quiet = False  # whether they were read again unchanged and nothing waits to settle

    def occupied(self, n):
        return bool(self._state[n >> 3] >> (n & 7) & 1)

    def settling(self):
        """Whether a switch read at the last poll differs from its settled
        state: a change still waiting to count (a piece lifted or put down
        together with the one just reported)."""
        return self._seen != self._state

    def poll(self, now):
        raw = self._read()
        if self._quiet and raw == self._raw:
            return None  # (most polls: a comparison in C, not a loop in Python)
        self._raw[:] = raw
        found = -1
        for i in range(len(self._state)):
            bits = (raw[i] ^ self._invert) & self._mask[i]
            changed = bits ^ self._seen[i]
            if changed:
                self._seen[i] = bits
                for k in range(8):
                    if changed >> k & 1:
                        self._since[i * 8 + k] = now
            pending = (bits ^ self._state[i]) & ~changed
            if found >= 0 or not pending:
                continue
            for k in range(8):
                if pending >> k & 1:
                    wait = self.place_ms if bits >> k & 1 else self.lift_ms
                    if diff(now, self._since[i * 8 + k]) >= wait:
                        found = i * 8 + k
                        self._state[i] ^= 1 << k
                        break
        # quiet once the raw bits read again the same and every change has settled
        self._quiet = found < 0 and self._seen == self._state
        return None if found < 0 else found
