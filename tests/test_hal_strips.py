"""The two pixel backends send the same wire bytes: ours for MicroPython
(machine.bitstream) and Adafruit's CircuitPython NeoPixel library."""

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
from hal.strip_micropython import TIMING_800KHZ, transmitter


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


@pytest.fixture
def machine_wire(monkeypatch):
    """A fake ``machine`` module: Pin and bitstream record what the Pico would do."""
    sent = []
    fake = types.ModuleType("machine")

    class Pin:
        OUT = 1

        def __init__(self, gpio, mode):
            self.gpio, self.mode = gpio, mode

    def bitstream(pin, encoding, timing, buf):
        sent.append((pin.gpio, pin.mode, encoding, timing, bytes(buf)))

    fake.Pin, fake.bitstream = Pin, bitstream
    monkeypatch.setitem(sys.modules, "machine", fake)
    return sent


def frames(count, seed):
    rng = random.Random(seed)
    yield bytes([255] * 3 * count)  # full white: the limiter must act
    yield bytes(3 * count)
    for _ in range(20):
        yield bytes(rng.choice((0, 30, 128, 255)) if rng.random() < 0.7 else rng.randrange(256) for _ in range(3 * count))


@pytest.mark.parametrize("order,brightness,budget", [("GRB", 1.0, 450), ("GRB", 0.3, 450), ("RGB", 0.8, 200), ("BRG", 0.5, 1000)])
def test_micropython_and_adafruit_backends_send_identical_bytes(adafruit_wire, machine_wire, order, brightness, budget):
    count = 105
    ours = Pixels(count, transmitter(2), order=order, brightness=brightness, budget_ma=budget)
    theirs_px = Pixels(count, None, order=order, brightness=brightness, budget_ma=budget)
    strip = neopixel.NeoPixel(object(), count, pixel_order=order, auto_write=False)
    theirs = AdafruitStrip(theirs_px, strip)
    limited = 0
    for frame in frames(count, 7):
        ours.frame[:] = frame
        theirs_px.frame[:] = frame
        ours.show()
        theirs.show()
        assert adafruit_wire[-1] == machine_wire[-1][4]
        limited += ours.scale < ours.brightness
    assert limited > 0  # some frames went through the current limiter
    assert machine_wire[0][:4] == (2, 1, 0, TIMING_800KHZ)
