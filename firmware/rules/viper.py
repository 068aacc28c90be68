"""Sniggle's inner loops, compiled to the Pico's machine code by
MicroPython's viper emitter: the walk through its main area
(``rules.sniggle.walk_main``), the spaces it marked (``collect``), the moves
onto them (``fill_moves``) and the search's rating of every player
(``rules.sniggle_tactics.sniggle_rate``).

The legal moves after a roll may number 144 with four pieces to move, and the
budget for them is 10 ms. Interpreted, the walk took about 2 ms a piece on a
Pico; compiled, with its ends marked in a byte per space rather than appended
to lists and sorted, 0.23 ms, and reading them back 0.11 ms a die. Filling in
the moves takes 1.3 ms compiled, 1.9 ms interpreted. The rating, which the
hint's search works out for every state it makes, takes about 0.7 ms
interpreted with four players (2 ms with the next throw's risk). Each does what
the interpreted one does, which other interpreters run: on CPython importing
this is an ImportError; on a port without the emitter (WebAssembly) a
SyntaxError from source, a ValueError from the Pico's .mpy.
"""

import micropython


@micropython.viper
def walk_main(rows, under, cells, width: int, rooms, x: int, y: int, t0: int, values, ends, off: int) -> int:
    row = ptr32(rows)  # noqa: F821  ptr8, ptr32: viper's built-ins
    up = ptr32(under)  # noqa: F821
    cell = ptr8(cells)  # noqa: F821
    room = ptr32(rooms)  # noqa: F821
    end = ptr8(ends)  # noqa: F821
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
            bit = 1 << n
            y = top
            while y <= bottom:
                m = room[3 * y] | room[3 * y + 1] | room[3 * y + 2]
                c = 0
                while m:
                    if m & 1:
                        end[off + cell[y * width + c]] |= bit
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


@micropython.viper
def collect(ends, off: int, n: int, bit: int, blocked, out) -> int:
    end = ptr8(ends)  # noqa: F821
    block = ptr8(blocked)  # noqa: F821
    found = ptr8(out)  # noqa: F821
    k = 0
    s = 0
    while s < n:
        if end[off + s] & bit and block[s] == 0:
            found[k] = s
            k += 1
        s += 1
    return k


@micropython.viper
def fill_moves(lands, keys, moves):
    j = 0
    g = 0
    groups = int(len(lands))
    while g < groups:
        land = lands[g]
        spaces = ptr8(land)  # noqa: F821
        key = int(keys[g])
        count = int(len(land))
        i = 0
        while i < count:
            moves[j] = ("m", key | spaces[i])
            j += 1
            i += 1
        g += 1


@micropython.viper
def sniggle_rate(pos, lanes, mine, kind, colour, left, place, entry, start, reaches, attacker: int, out):
    kinds = ptr8(kind)  # noqa: F821
    colours = ptr8(colour)  # noqa: F821
    togo_off = ptr8(left)  # noqa: F821
    starts = ptr8(start)  # noqa: F821
    count = int(len(reaches))
    players = int(len(mine))
    player = 0
    while player < players:
        c = int(mine[player])
        total = 0
        risk = 0
        p = 4 * player
        while p < 4 * player + 4:
            s = int(pos[p])
            k = 4 * c + (p & 3)
            if kinds[s] == 3:
                lane = int(lanes[p])
                togo = int(ptr8(entry[lane])[k]) - int(ptr8(place[lane])[s]) + 1  # noqa: F821
            else:
                togo = int(togo_off[16 * s + k])
            total -= togo
            if colours[s] == c + 1:
                total += 2
            elif player != attacker and kinds[s] != 1 and kinds[s] != 4:
                dice = 0
                r = 0
                while r < count:
                    dice |= int(ptr8(reaches[r])[s])  # noqa: F821
                    r += 1
                if dice:
                    n = 0
                    while dice:
                        n += dice & 1
                        dice >>= 1
                    lost = int(togo_off[16 * int(starts[k]) + k]) - togo
                    if lost > 0:
                        risk += (12 * n - n * n) * lost
            p += 1
        out.append(total * 100 - risk * 100 // 36)
        player += 1
