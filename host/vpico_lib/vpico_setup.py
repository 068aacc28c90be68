"""Run at every start of the virtual Pico's interpreter, before boot.py:
puts machine, neopixel and rp2 in place and fills the gaps of the WebAssembly
port that a Pico does not have: sleeps that really sleep and wake for Ctrl-C
(and run Timer callbacks), micropython.kbd_intr that the bridge sees,
os.urandom, and os.ilistdir with file sizes as LittleFS gives them."""

import os
import random
import sys
import time

import _vpico
import machine
import micropython

# imported now, from /.vpico, so the program finds them in sys.modules
__import__("neopixel")
__import__("rp2")


def _sleep_ms(ms):
    end = time.ticks_add(time.ticks_ms(), ms)
    while True:
        nearest = machine._service()
        left = time.ticks_diff(end, time.ticks_ms())
        if left <= 0:
            return
        if _vpico.sleep(left if nearest is None else min(left, max(nearest, 0))):
            raise KeyboardInterrupt


def _sleep(seconds):
    _sleep_ms(int(seconds * 1000))


_busy_sleep_us = time.sleep_us


def _sleep_us(us):
    if us >= 1000:
        _sleep_ms(us // 1000)
        us %= 1000
    _busy_sleep_us(us)


time.sleep_ms = _sleep_ms
time.sleep = _sleep
time.sleep_us = _sleep_us


class _Micropython:
    """micropython, with kbd_intr() reported to the bridge."""

    def __getattr__(self, name):
        return getattr(micropython, name)

    def kbd_intr(self, chr):
        _vpico.kbd_intr(chr)
        micropython.kbd_intr(chr)


sys.modules["micropython"] = _Micropython()


def _urandom(n):
    return bytes(random.getrandbits(8) for _ in range(n))


os.urandom = _urandom

_ilistdir = os.ilistdir


def _ilistdir_sized(path=""):
    # (name, type, inode, size) as LittleFS gives them; the port's VfsPosix leaves out the size
    for entry in _ilistdir(path):
        if len(entry) == 3:
            size = 0 if entry[1] == 0x4000 else os.stat(path + ("/" if path and path[-1] != "/" else "") + entry[0])[6]
            entry = entry + (size,)
        yield entry


os.ilistdir = _ilistdir_sized
