"""Our wire bytes are the ones Adafruit's CircuitPython NeoPixel library
sends for the same frame (brightness, byte order, current limit). On the Pico
they go out through a PIO state machine: the emulated Pico's tests decode them
from the data pin (tests/test_vpico.py)."""

import random
import sys
import types

import pytest

# Blinka's transmit refuses a PC ("Board not supported"); the test replaces that
# one function, the boundary where the library hands bytes to the hardware.
if "neopixel_write" not in sys.modules:
    sys.modules["neopixel_write"] = types.SimpleNamespace(neopixel_write=None)
import neopixel  # noqa: E402  Adafruit's library (CircuitPython / Blinka)

from hal.pixels import Pixels
from hal.strip_circuitpython import AdafruitStrip


class FakePin:
    """Stands in for digitalio.DigitalInOut: the pin the library drives."""

    def __init__(self, pin):
        self.pin = pin
        self.direction = None

    def deinit(self):
        pass


@pytest.fixture
def adafruit_wire(monkeypatch):
    sent = []
    monkeypatch.setattr(neopixel.digitalio, "DigitalInOut", FakePin)
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append(bytes(buf)))
    return sent


def frames(count, seed):
    rng = random.Random(seed)
    yield bytes([255] * 3 * count)  # full white: the limiter must act
    yield bytes(3 * count)
    for _ in range(20):
        yield bytes(rng.choice((0, 30, 128, 255)) if rng.random() < 0.7 else rng.randrange(256) for _ in range(3 * count))


@pytest.mark.parametrize("order,brightness,budget", [("GRB", 1.0, 450), ("GRB", 0.3, 450), ("RGB", 0.8, 200), ("BRG", 0.5, 1000)])
def test_our_wire_bytes_are_adafruits(adafruit_wire, order, brightness, budget):
    count = 105
    sent = []
    ours = Pixels(count, lambda buf: sent.append(bytes(buf)), order=order, brightness=brightness, budget_ma=budget)
    theirs_px = Pixels(count, None, order=order, brightness=brightness, budget_ma=budget)
    strip = neopixel.NeoPixel(object(), count, pixel_order=order, auto_write=False)
    theirs = AdafruitStrip(theirs_px, strip)
    limited = 0
    for frame in frames(count, 7):
        ours.frame[:] = frame
        theirs_px.frame[:] = frame
        ours.show()
        theirs.show()
        assert adafruit_wire[-1] == sent[-1]
        limited += ours.scale < ours.brightness
    assert limited > 0  # some frames went through the current limiter
