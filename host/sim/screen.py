"""What a lit NeoPixel looks like on a PC screen.

The simulators show exactly what the pixel port sends: the wire bytes, after
brightness and the current limit. A wire byte is a PWM duty, linear in light;
a screen value is gamma-encoded (sRGB, about 2.2), so each duty is mapped
through the inverse gamma. Without that a dim pixel would look black on the
screen although it glows on the board. At a terminal ``ansi`` paints text
on a pixel's colour."""

_SCREEN = bytes(round(255 * (v / 255) ** (1 / 2.2)) for v in range(256))


def screen_colours(pixels):
    """The colour of every pixel of ``pixels`` (hal.pixels.Pixels) on a
    screen, as (r, g, b) tuples, from its last sent frame."""
    return wire_colours(pixels.wire, pixels.offsets)


def wire_colours(wire, offsets=(1, 0, 2)):
    """The screen colour of every pixel of ``wire`` bytes, whose red, green
    and blue sit at ``offsets`` in each pixel's three (a WS2812B's: G, R, B)."""
    r, g, b = offsets
    return [(_SCREEN[wire[i + r]], _SCREEN[wire[i + g]], _SCREEN[wire[i + b]])
            for i in range(0, len(wire) - 2, 3)]


def ansi(colour, text):
    """``text`` on a 24-bit background of ``colour``, in black or white, whichever reads."""
    r, g, b = colour
    ink = "0;0;0" if 299 * r + 587 * g + 114 * b > 128000 else "235;235;235"
    return "\x1b[48;2;%d;%d;%d;38;2;%sm%s\x1b[0m" % (r, g, b, ink, text)
