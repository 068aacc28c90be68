"""The LED frame: colours in, wire bytes out, within a milliamp budget.

The app paints ``frame`` (R, G, B per board pixel, as the board file numbers
them); ``show()`` turns it into wire bytes (gamma, brightness, byte order,
current limit) in a preallocated buffer and hands that to ``transmit`` in one
call. Nothing is allocated per frame.

Current model, per pixel, as FastLED's power manager estimates a WS2812B:
red 16 mA, green 11 mA, blue 15 mA at full (255), plus 1 mA idle. When the
estimated draw of a frame exceeds ``budget_ma`` every channel is scaled down
by one factor, so colours keep their hue and the estimate stays within the
budget. The default budget fits a 500 mA USB port: 50 mA are left for the
Pico, the level shifter and the sensors.

Where MicroPython has ``framebuf`` (the Pico, the WebAssembly port) the
per-byte work is done by its C code: the frame is seen as three columns (R,
G and B, every third byte) and ``FrameBuffer.blit`` through a palette maps a
column byte by byte through a 256-entry table, into another column (the
wire's, in the strip's byte order) or into a scratch column of 16-bit
milliamp weights that one ``sum`` adds up. Elsewhere (CPython,
CircuitPython) the same tables are applied by a Python loop; the bytes are
the same.
"""

from array import array

try:
    import framebuf
except ImportError:  # CPython, CircuitPython
    framebuf = None

RED_MA = 16
GREEN_MA = 11
BLUE_MA = 15
IDLE_MA = 1
USB_MA = 500
PICO_MA = 50
DEFAULT_BUDGET_MA = USB_MA - PICO_MA


def gamma_table(gamma):
    """Perceived brightness to PWM duty, 256 entries (1.0 = none)."""
    return bytes(int(255 * (v / 255) ** gamma + 0.5) for v in range(256))


class Pixels:
    """A strip of ``count`` pixels fed by ``transmit(wire_bytes)``."""

    def __init__(self, count, transmit, order="GRB", brightness=0.5, gamma=2.2, budget_ma=DEFAULT_BUDGET_MA):
        if sorted(order) != ["B", "G", "R"]:
            raise ValueError("pixel order must be an arrangement of R, G and B, not %r" % order)
        if not 0 <= brightness <= 1:
            raise ValueError("brightness must be from 0 to 1")
        if budget_ma < count * IDLE_MA:
            raise ValueError("a %d mA budget is less than %d idle pixels draw" % (budget_ma, count))
        self.count = count
        self.frame = bytearray(3 * count)
        self.wire = bytearray(3 * count)
        self._transmit = transmit
        self._offsets = (order.index("R"), order.index("G"), order.index("B"))
        self.gamma = gamma_table(gamma)
        self._lut = bytearray(256)  # gamma and scale together, rebuilt when the scale changes
        self._lut_scale = -1
        self.brightness = int(brightness * 256 + 0.5)  # of 256
        self.budget_ma = budget_ma
        self.scale = self.brightness  # what the last frame was sent at, of 256
        self.draw_ma = 0  # the last frame's estimated draw
        self._scaled(self.brightness)  # the table most frames use, made now rather than in the first
        # a channel's gamma-corrected value times its mA at full, by frame byte: R, G, B
        self._weights = tuple(array("H", (ma * g for g in self.gamma)) for ma in (RED_MA, GREEN_MA, BLUE_MA))
        self._blits = None
        if framebuf is not None and count:
            self._columns(framebuf)

    def _columns(self, framebuf):
        """The FrameBuffers the blits of ``limit`` and ``encode`` go through."""
        fb = framebuf.FrameBuffer
        gs8 = framebuf.GS8
        n = self.count
        frame = memoryview(self.frame)
        wire = memoryview(self.wire)
        # the weights of the last frame: n per channel, added up by limit()
        self._sum = array("H", bytes(6 * n))
        weights = memoryview(self._sum)
        self._blits = (
            tuple(fb(frame[c:], 1, n, gs8, 3) for c in range(3)),  # the frame's R, G, B columns
            tuple(fb(wire[o:], 1, n, gs8, 3) for o in self._offsets),  # where each goes on the wire
            tuple(fb(weights[c * n:], 1, n, framebuf.RGB565, 1) for c in range(3)),
            tuple(fb(w, 256, 1, framebuf.RGB565) for w in self._weights),
            fb(self._lut, 256, 1, gs8),
        )

    def set(self, i, r, g, b):
        f = self.frame
        f[3 * i] = r
        f[3 * i + 1] = g
        f[3 * i + 2] = b

    def fill(self, r, g, b):
        for i in range(self.count):
            self.set(i, r, g, b)

    def limit(self):
        """The scale (of 256) for the current frame: the brightness, or less to fit the budget."""
        blits = self._blits
        if blits is not None:
            columns, _, sums, weights, _ = blits
            for c in range(3):
                sums[c].blit(columns[c], 0, 0, -1, weights[c])
            dynamic = sum(self._sum)  # mA x 255 at full scale
        else:
            red, green, blue = self._weights
            f = self.frame
            dynamic = 0
            for i in range(0, 3 * self.count, 3):
                dynamic += red[f[i]] + green[f[i + 1]] + blue[f[i + 2]]
        idle = self.count * IDLE_MA
        scale = self.brightness
        if dynamic * scale > (self.budget_ma - idle) * 65280:  # 65280 = 256 * 255
            scale = (self.budget_ma - idle) * 65280 // dynamic
        self.draw_ma = idle + dynamic * scale // 65280
        return scale

    def encode(self):
        """Fill ``wire`` from ``frame``; return the scale used."""
        scale = self.limit()
        if scale != self._lut_scale:
            self._scaled(scale)
        blits = self._blits
        if blits is not None:
            columns, wire, _, _, table = blits
            for c in range(3):
                wire[c].blit(columns[c], 0, 0, -1, table)
        else:
            f = self.frame
            w = self.wire
            r, g, b = self._offsets
            lut = self._lut
            for i in range(0, 3 * self.count, 3):
                w[i + r] = lut[f[i]]
                w[i + g] = lut[f[i + 1]]
                w[i + b] = lut[f[i + 2]]
        self.scale = scale
        return scale

    def _scaled(self, scale):
        """The table of gamma and ``scale`` (of 256) together."""
        lut = self._lut
        gam = self.gamma
        for v in range(256):
            lut[v] = gam[v] * scale >> 8
        self._lut_scale = scale

    def show(self):
        self.encode()
        self._transmit(self.wire)
