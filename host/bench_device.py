"""Figures measured inside one interpreter, CPython or MicroPython; prints one
JSON object per line. Run by ``host/bench.py`` on both.

    bench_device.py BOARDS_DIR
"""

import gc
import json
import os
import sys
import time

import adafruit_pixelbuf
from hal.pixels import Pixels

try:
    clock, elapsed = time.ticks_us, time.ticks_diff
except AttributeError:  # CPython

    def clock():
        return int(time.perf_counter() * 1000000)

    def elapsed(a, b):
        return a - b


RUNS = 7
FRAMES = 20


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def timed(fn):
    """Median over RUNS of the mean time of FRAMES calls, in microseconds."""
    times = []
    for _ in range(RUNS):
        start = clock()
        for _ in range(FRAMES):
            fn()
        times.append(elapsed(clock(), start) / FRAMES)
    return median(times)


class Strip(adafruit_pixelbuf.PixelBuf):
    """Adafruit's pure-Python encoder with the transmit left out."""

    def _transmit(self, buffer):
        pass


def largest_board(folder):
    best = None
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(folder + "/" + name) as f:
                pixels = json.load(f)["pixels"]
            if best is None or pixels > best[1]:
                best = (name[:-5], pixels)
    return best


def main(argv):
    board, count = largest_board(argv[1])
    ours = Pixels(count, lambda buf: None, brightness=0.5, budget_ma=450)
    for i in range(3 * count):
        ours.frame[i] = (i * 53 + 17) % 256  # every pixel lit, the limiter at work
    colours = [(ours.frame[3 * i], ours.frame[3 * i + 1], ours.frame[3 * i + 2]) for i in range(count)]
    theirs = Strip(count, byteorder="GRB", brightness=0.5, auto_write=False)

    def adafruit_frame():
        for i in range(count):
            theirs[i] = colours[i]
        theirs.show()

    ours.show()
    allocated = -1
    if hasattr(gc, "mem_alloc"):
        gc.collect()
        before = gc.mem_alloc()
        ours.show()
        allocated = gc.mem_alloc() - before
    figures = {
        "board": board,
        "pixels": count,
        "encode_us": timed(ours.show),
        "adafruit_us": timed(adafruit_frame),
        "frame_bytes_allocated": allocated,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv)
