"""Millisecond ticks that work on both interpreters.

MicroPython's ``time.ticks_ms`` wraps around, so times are compared with
``diff`` only; on CPython a plain monotonic clock stands in. Hardware units
never read the clock themselves: the caller passes ``now`` in, so tests and
the simulator drive them with a fake clock."""

import time

try:
    now = time.ticks_ms
    diff = time.ticks_diff
    add = time.ticks_add
except AttributeError:  # CPython

    def now():
        return int(time.monotonic() * 1000)

    def diff(a, b):
        return a - b

    def add(a, b):
        return a + b
