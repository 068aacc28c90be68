"""Pixels through Adafruit's CircuitPython NeoPixel library (also on a PC or a
Linux board with Blinka). The library encodes the bytes itself; we give it
gamma-corrected colours and a brightness of exactly scale/256, which it applies
the same way our encoder does, so the wire bytes are identical."""


class AdafruitStrip:
    """Shows ``pixels.frame`` through an ``adafruit neopixel.NeoPixel``."""

    def __init__(self, pixels, strip):
        self.pixels = pixels
        self.strip = strip  # NeoPixel(pin, count, pixel_order=..., auto_write=False)

    def show(self):
        px = self.pixels
        scale = px.limit()
        self.strip.brightness = scale / 256
        gam = px.gamma
        f = px.frame
        for i in range(px.count):
            self.strip[i] = (gam[f[3 * i]], gam[f[3 * i + 1]], gam[f[3 * i + 2]])
        px.scale = scale
        self.strip.show()
