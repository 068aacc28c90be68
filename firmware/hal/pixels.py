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
Pico, the level shifter and the sensors; ``config.json``'s ``led_ma`` sets
another (hardware/power.md).

The per-byte work is three loops, ``weigh`` (the estimate), ``scale_table``
(gamma and scale together, when the scale changes) and ``remap`` (frame to
wire bytes): on the Pico compiled to machine code (``hal.viper``),
elsewhere interpreted as written here; the figures and bytes are the same.
"""

from array import array

RED_MA = 16
GREEN_MA = 11
BLUE_MA = 15
IDLE_MA = 1
USB_MA = 500
PICO_MA = 50
DEFAULT_BUDGET_MA = USB_MA - PICO_MA
FULL_WHITE_MA = RED_MA + GREEN_MA + BLUE_MA
SUPPLY_MAX_MA = 3000  # a 5 V 3 A supply: the most the wiring of hardware/README.md is meant to carry


def budget_range(count):
    """The budgets (mA) ``count`` pixels can be given: at least their idle
    draw and one pixel at full white, at most the largest supply less the
    Pico's share."""
    return count * IDLE_MA + FULL_WHITE_MA, SUPPLY_MAX_MA - PICO_MA


def gamma_table(gamma):
    """Perceived brightness to PWM duty, 256 entries (1.0 = none)."""
    return bytes(int(255 * (v / 255) ** gamma + 0.5) for v in range(256))


def weigh(frame, red, green, blue):
    """The sum of ``red[r] + green[g] + blue[b]`` over the R, G, B bytes of ``frame``."""
    total = 0
    for i in range(0, len(frame), 3):
        total += red[frame[i]] + green[frame[i + 1]] + blue[frame[i + 2]]
    return total


def remap(frame, wire, lut, order):
    """Each R, G, B byte of ``frame`` through ``lut`` into ``wire`` at the offsets
    packed in ``order`` (R's in bits 0-1, G's in 2-3, B's in 4-5)."""
    r = order & 3
    g = order >> 2 & 3
    b = order >> 4
    for i in range(0, len(frame), 3):
        wire[i + r] = lut[frame[i]]
        wire[i + g] = lut[frame[i + 1]]
        wire[i + b] = lut[frame[i + 2]]


def scale_table(gamma, lut, scale):
    """``lut[v]`` = ``gamma[v]`` at ``scale`` (of 256), for every byte value ``v``."""
    for v in range(256):
        lut[v] = gamma[v] * scale >> 8


try:
    from hal.viper import remap, scale_table, weigh  # noqa: F811  the same loops, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass


class Pixels:
    """A strip of ``count`` pixels fed by ``transmit(wire_bytes)``."""

    def __init__(self, count, transmit, order="GRB", brightness=0.5, gamma=2.2, budget_ma=DEFAULT_BUDGET_MA):
        if sorted(order) != ["B", "G", "R"]:
            raise ValueError("pixel order must be an arrangement of R, G and B, not %r" % order)
        if not 0 <= brightness <= 1:
            raise ValueError("brightness must be from 0 to 1")
        low, high = budget_range(count)
        if not low <= budget_ma <= high:
            raise ValueError("a %d mA budget for %d pixels is outside %d..%d (idle draw and one lit white, "
                             "to the largest supply)" % (budget_ma, count, low, high))
        self.count = count
        self.frame = bytearray(3 * count)
        self.wire = bytearray(3 * count)
        self._transmit = transmit
        self.offsets = (order.index("R"), order.index("G"), order.index("B"))  # of R, G, B in a pixel's wire bytes
        self._order = self.offsets[0] | self.offsets[1] << 2 | self.offsets[2] << 4  # as remap() takes them
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
        dynamic = weigh(self.frame, *self._weights)  # mA x 255 at full scale
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
        remap(self.frame, self.wire, self._lut, self._order)
        self.scale = scale
        return scale

    def _scaled(self, scale):
        """The table of gamma and ``scale`` (of 256) together."""
        scale_table(self.gamma, self._lut, scale)
        self._lut_scale = scale

    def show(self):
        self.encode()
        self._transmit(self.wire)
