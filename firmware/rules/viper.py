"""The walk through Sniggle's main area (``rules.sniggle.walk_main``),
compiled to the Pico's machine code by MicroPython's viper emitter.

Interpreted, it takes about 2 ms a piece on a Pico, 8 of the 10 ms the
legal moves after a roll may take with four pieces to move; compiled, about
0.4 ms. It does what the interpreted one does, which other interpreters
run: on CPython importing this is an ImportError; on a port without the
emitter (WebAssembly) a SyntaxError from source, a ValueError from the
Pico's .mpy.
"""

import micropython


@micropython.viper
def walk_main(rows, under, cells, width: int, rooms, x: int, y: int, t0: int, values, out) -> int:
    row = ptr32(rows)  # noqa: F821  ptr8, ptr32: viper's built-ins
    up = ptr32(under)  # noqa: F821
    cell = ptr8(cells)  # noqa: F821
    room = ptr32(rooms)  # noqa: F821
    bottom = y
    top = y
    room[3 * y] = 1 << x
    room[3 * y + 1] = 0
    room[3 * y + 2] = 0
    marks = 0
    depth = int(values[int(len(values)) - 1])
    if depth < t0:
        return 0
    n = 0  # values[n]: the next walk length whose ends are wanted
    while int(values[n]) < t0:
        n += 1
    t = t0
    while True:
        if t == int(values[n]):
            spaces = out[n]
            y = top
            while y <= bottom:
                m = room[3 * y] | room[3 * y + 1] | room[3 * y + 2]
                c = 0
                while m:
                    if m & 1:
                        spaces.append(cell[y * width + c])
                    m >>= 1
                    c += 1
                y += 1
            n += 1
        if t == depth:
            break
        if top > 0:
            top -= 1
            room[3 * top] = 0
            room[3 * top + 1] = 0
            room[3 * top + 2] = 0
        below = 0
        y = bottom
        while y >= top:
            f = room[3 * y]
            lf = room[3 * y + 1]
            rt = room[3 * y + 2]
            here = f | lf | rt
            if here & up[y]:
                marks |= 1 << t
            r = row[y]
            room[3 * y] = below & r
            room[3 * y + 1] = ((f | lf) >> 1) & r
            room[3 * y + 2] = ((f | rt) << 1) & r
            below = here
            y -= 1
        t += 1
    return marks
