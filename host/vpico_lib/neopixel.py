"""neopixel on the virtual Pico: MicroPython's NeoPixel API; write() sends
the bytes through machine.bitstream, so the bridge records each frame."""

from machine import Pin, bitstream

# high/low ns of a 0 bit and a 1 bit: 800 kHz (timing=1) and 400 kHz (timing=0) parts
_TIMINGS = ((800, 1700, 1600, 900), (400, 850, 800, 450))


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # colours are given as (r, g, b[, w]) and sent as g, r, b[, w]

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = _TIMINGS[timing] if isinstance(timing, int) else timing
        pin.init(Pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        at = i * self.bpp
        for k in range(self.bpp):
            self.buf[at + self.ORDER[k]] = colour[k]

    def __getitem__(self, i):
        at = i * self.bpp
        return tuple(self.buf[at + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self):
        bitstream(self.pin, 0, self.timing, self.buf)
