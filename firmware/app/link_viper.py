"""The per-byte loops of ``app.link``, compiled to the Pico's machine code by
MicroPython's viper emitter: the hex digits of a frame, and the checks and
copies of the record's lines a page sends.

Interpreted, checking one line of the record takes 0.7 ms on a Pico (a page
of eight lines, 5 ms); compiled, about 0.1 ms. They do what the interpreted
ones in ``app.link`` do, which other interpreters run: on CPython importing
this is an ImportError; on a port without the emitter (WebAssembly) a
SyntaxError from source, a ValueError from the Pico's .mpy. They are a
module of their own, not part of ``hal.viper``, so that their machine code
(2.8 KB of heap) is loaded only with the link.
"""
import micropython


@micropython.viper
def hexed(src, start: int, end: int, out):
    s = ptr8(src)  # noqa: F821
    o = ptr8(out)  # noqa: F821
    i = start
    j = 0
    while i < end:
        high = s[i] >> 4
        low = s[i] & 15
        if high > 9:
            high += 39
        if low > 9:
            low += 39
        o[j] = high + 48
        o[j + 1] = low + 48
        i += 1
        j += 2


@micropython.viper
def step_line(data, start: int, end: int) -> int:
    d = ptr8(data)  # noqa: F821
    if end - start < 8 or d[start] != 123 or d[end - 1] != 125:
        return 0
    quotes = 0
    key_end = 0
    i = start
    while i < end:
        b = d[i]
        if b < 32 or b > 126 or b == 92:
            return 0
        if b == 34:
            quotes += 1
            if quotes == 2:
                key_end = i
        i += 1
    if quotes != 4 or d[start + 1] != 34 or d[end - 2] != 34 or key_end <= start + 2:
        return 0
    if d[key_end + 1] != 58 or d[key_end + 2] != 32 or d[key_end + 3] != 34:
        return 0
    return 1


@micropython.viper
def put(dst, at: int, src, start: int, end: int) -> int:
    d = ptr8(dst)  # noqa: F821
    s = ptr8(src)  # noqa: F821
    i = start
    while i < end:
        d[at] = s[i]
        at += 1
        i += 1
    return at


LINE_OPEN = b'~{"n": '
LINE_MIDDLE = b', "line": '


@micropython.viper
def record_lines(page, got: int, out, state):
    p = ptr8(page)  # noqa: F821
    o = ptr8(out)  # noqa: F821
    st = ptr32(state)  # noqa: F821
    opening = ptr8(LINE_OPEN)  # noqa: F821
    middle = ptr8(LINE_MIDDLE)  # noqa: F821
    room = int(len(out))
    i = st[0]
    n = st[1]
    size = st[4]
    k = st[5]
    while 0 < n and n < st[3]:
        j = i
        while j < got and p[j] != 10:
            j += 1
        if j >= got:
            break
        if n >= st[2]:
            grow = j - i + 22
            if size + grow > st[6] and n > st[2]:
                break
            if k + grow + 4 > room or int(step_line(page, i, j)) == 0:
                break
            m = 0
            while m < 7:
                o[k] = opening[m]
                k += 1
                m += 1
            d = 1
            while n // d >= 10:
                d *= 10
            while d:
                o[k] = 48 + n // d % 10
                k += 1
                d //= 10
            m = 0
            while m < 10:
                o[k] = middle[m]
                k += 1
                m += 1
            m = i
            while m < j:
                o[k] = p[m]
                k += 1
                m += 1
            o[k] = 125
            o[k + 1] = 10
            k += 2
            size += grow
        n += 1
        i = j + 1
    st[0] = i
    st[1] = n
    st[4] = size
    st[5] = k
