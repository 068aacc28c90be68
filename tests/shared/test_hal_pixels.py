"""The LED frame encoder: byte order, gamma, brightness and the milliamp budget."""

import gc

from hal.pixels import BLUE_MA, GREEN_MA, IDLE_MA, RED_MA, Pixels, gamma_table
from support import raises


class Wire:
    """The transmit boundary: remembers what went down the wire."""

    def __init__(self):
        self.sent = []

    def __call__(self, buf):
        self.sent.append(bytes(buf))


def estimate(pixels, wire):
    """Draw in mA of wire bytes by the same model, counted independently."""
    total = pixels.count * IDLE_MA * 255
    r, g, b = pixels.offsets
    for i in range(0, len(wire), 3):
        total += wire[i + r] * RED_MA + wire[i + g] * GREEN_MA + wire[i + b] * BLUE_MA
    return total / 255


def test_colours_go_out_in_the_strip_byte_order():
    wire = Wire()
    px = Pixels(2, wire, order="GRB", brightness=1.0, gamma=1.0)
    px.set(0, 10, 20, 30)
    px.set(1, 1, 2, 3)
    px.show()
    assert wire.sent == [bytes([20, 10, 30, 2, 1, 3])]
    rgb = Pixels(1, wire, order="RGB", brightness=1.0, gamma=1.0)
    rgb.set(0, 10, 20, 30)
    rgb.show()
    assert wire.sent[-1] == bytes([10, 20, 30])


def test_brightness_scales_every_channel():
    wire = Wire()
    px = Pixels(1, wire, brightness=0.5, gamma=1.0)
    px.set(0, 200, 100, 7)
    px.show()
    assert wire.sent[-1] == bytes([50, 100, 3])


def test_gamma_darkens_the_middle_and_keeps_the_ends():
    table = gamma_table(2.2)
    assert table[0] == 0 and table[255] == 255 and table[128] < 64
    assert list(gamma_table(1.0)) == list(range(256))


def test_a_frame_within_the_budget_is_not_dimmed():
    wire = Wire()
    px = Pixels(10, wire, brightness=1.0, gamma=1.0, budget_ma=450)
    px.fill(255, 0, 0)  # 10 x 16 mA + idle
    px.show()
    assert px.scale == 256 and wire.sent[-1][1] == 255
    assert px.draw_ma == 10 * (RED_MA + IDLE_MA)


def test_full_white_everywhere_is_scaled_to_the_budget():
    wire = Wire()
    px = Pixels(105, wire, brightness=1.0, gamma=2.2, budget_ma=450)
    px.fill(255, 255, 255)
    px.show()
    draw = estimate(px, wire.sent[-1])
    assert draw <= 450 and draw > 430  # uses the budget, not far below it
    assert px.scale < 256 and px.draw_ma <= 450
    out = wire.sent[-1]
    assert out[0] == out[1] == out[2] > 0  # one factor for all channels: white stays white


def test_the_budget_holds_for_any_frame():
    wire = Wire()
    for budget in (120, 300, 450):
        px = Pixels(40, wire, brightness=0.8, budget_ma=budget)
        for seed in range(20):
            for i in range(120):
                px.frame[i] = (seed * 37 + i * 101) % 256
            px.show()
            assert estimate(px, wire.sent[-1]) <= budget


def test_impossible_settings_are_refused():
    assert "order" in str(raises(ValueError, Pixels, 3, print, order="RGX"))
    assert "brightness" in str(raises(ValueError, Pixels, 3, print, brightness=2))
    assert "idle" in str(raises(ValueError, Pixels, 300, print, budget_ma=100))
    assert "largest supply" in str(raises(ValueError, Pixels, 3, print, budget_ma=5000))


def test_showing_a_frame_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return  # CPython has no allocation counter; this is a MicroPython figure

    def transmit(buf):
        pass

    px = Pixels(105, transmit, budget_ma=450)
    px.fill(255, 255, 255)
    px.show()
    before = gc.mem_alloc()
    for _ in range(5):
        px.show()
    assert gc.mem_alloc() - before == 0, "%d bytes allocated" % (gc.mem_alloc() - before)
