"""The per-byte loops of ``hal.pixels`` and ``app.paint``, compiled to the
Pico's machine code by MicroPython's viper emitter.

Interpreted, they take about 2.5 ms of a 195-pixel frame on a Pico, a
quarter of the loop's 10 ms, and as much again to make the brightness table
or light every space of a board; compiled, about 0.1 ms each. They do what
the interpreted ones in ``hal.pixels`` and ``app.paint`` do, which other
interpreters run: on CPython importing this is an ImportError; on a port
without the emitter (WebAssembly) a SyntaxError from source, a ValueError
from the Pico's .mpy. The USB link's loops are in ``app.link_viper``, loaded
with the link when a host speaks.
"""

import micropython


@micropython.viper
def weigh(frame, red, green, blue) -> int:
    f = ptr8(frame)  # noqa: F821  ptr8, ptr16: viper's built-ins
    r = ptr16(red)  # noqa: F821
    g = ptr16(green)  # noqa: F821
    b = ptr16(blue)  # noqa: F821
    n = int(len(frame))
    total = 0
    i = 0
    while i < n:
        total += r[f[i]] + g[f[i + 1]] + b[f[i + 2]]
        i += 3
    return total


@micropython.viper
def remap(frame, wire, lut, order: int):
    f = ptr8(frame)  # noqa: F821
    w = ptr8(wire)  # noqa: F821
    t = ptr8(lut)  # noqa: F821
    r = order & 3
    g = order >> 2 & 3
    b = order >> 4
    n = int(len(frame))
    i = 0
    while i < n:
        w[i + r] = t[f[i]]
        w[i + g] = t[f[i + 1]]
        w[i + b] = t[f[i + 2]]
        i += 3


@micropython.viper
def scale_table(gamma, lut, scale: int):
    g = ptr8(gamma)  # noqa: F821
    t = ptr8(lut)  # noqa: F821
    v = 0
    while v < 256:
        t[v] = (g[v] * scale) >> 8
        v += 1


@micropython.viper
def spread(frame, at, owners, rgb: int):
    f = ptr8(frame)  # noqa: F821
    a = ptr16(at)  # noqa: F821
    o = ptr8(owners)  # noqa: F821
    every = int(len(owners)) == 0
    r = (rgb >> 16) & 255
    g = (rgb >> 8) & 255
    b = rgb & 255
    n = int(len(at))
    k = 0
    while k < n:
        if every or o[k] == 255:
            i = a[k]
            f[i] = r
            f[i + 1] = g
            f[i + 2] = b
        k += 1
