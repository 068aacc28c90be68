"""Millisecond ticks that work on both interpreters.

MicroPython's ``time.ticks_ms`` wraps around, so times are compared with
``diff`` only; on CPython a plain monotonic clock stands in. Hardware units
never read the clock themselves: the caller passes ``now`` in, so tests and
the simulator drive them with a fake clock."""

import time

try:
    # the CPython stand-ins below declare these names; MicroPython's are the same calls
    now = time.ticks_ms  # type: ignore
    diff = time.ticks_diff  # type: ignore
    add = time.ticks_add  # type: ignore
except AttributeError:  # CPython

    def now():
        return int(time.monotonic() * 1000)  # type: ignore  (MicroPython's time has no monotonic)

    def diff(a, b):
        return a - b

    def add(a, b):
        return a + b
