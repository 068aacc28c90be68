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
"""

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
        gam = self.gamma
        f = self.frame
        red = green = blue = 0
        for i in range(0, 3 * self.count, 3):
            red += gam[f[i]]
            green += gam[f[i + 1]]
            blue += gam[f[i + 2]]
        dynamic = red * RED_MA + green * GREEN_MA + blue * BLUE_MA  # mA x 255 at full scale
        idle = self.count * IDLE_MA
        scale = self.brightness
        if dynamic * scale > (self.budget_ma - idle) * 65280:  # 65280 = 256 * 255
            scale = (self.budget_ma - idle) * 65280 // dynamic
        self.draw_ma = idle + dynamic * scale // 65280
        return scale

    def encode(self):
        """Fill ``wire`` from ``frame``; return the scale used."""
        scale = self.limit()
        lut = self._lut
        if scale != self._lut_scale:
            gam = self.gamma
            for v in range(256):
                lut[v] = gam[v] * scale >> 8
            self._lut_scale = scale
        f = self.frame
        w = self.wire
        r, g, b = self._offsets
        for i in range(0, 3 * self.count, 3):
            w[i + r] = lut[f[i]]
            w[i + g] = lut[f[i + 1]]
            w[i + b] = lut[f[i + 2]]
        self.scale = scale
        return scale

    def show(self):
        self.encode()
        self._transmit(self.wire)
