"""``make bench``: the budgets of DESIGN §6 measured on CPython and on the
MicroPython WebAssembly port, side by side.

    python -m host.bench [--check]

``--check`` exits 1 when a figure is over its budget.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from host import BOARDS, FIRMWARE, ROOT

HOST = os.path.join(ROOT, "host")


def adafruit_source():
    """The folder holding Adafruit's adafruit_pixelbuf.py in this environment."""
    import adafruit_pixelbuf

    return os.path.dirname(adafruit_pixelbuf.__file__)


def on_cpython():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FIRMWARE, adafruit_source()]))
    out = subprocess.run([sys.executable, os.path.join(HOST, "bench_device.py"), BOARDS],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.splitlines()[-1])


def on_micropython():
    with tempfile.TemporaryDirectory() as lib:
        shutil.copy(os.path.join(adafruit_source(), "adafruit_pixelbuf.py"), lib)
        shutil.copy(os.path.join(HOST, "bench_device.py"), lib)
        command = ["node", os.path.join(HOST, "mpy_run.mjs"), "--path", FIRMWARE + "=/firmware",
                   "--path", BOARDS + "=/boards", "--path", lib + "=/lib",
                   os.path.join(lib, "bench_device.py"), "/boards"]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def rows(cpy, mpy):
    """(figure, CPython, MicroPython, budget, within?) for the table."""
    yield ("LED frame encode, %s (%d pixels), us" % (cpy["board"], cpy["pixels"]),
           "%.0f" % cpy["encode_us"], "%.0f" % mpy["encode_us"], "faster than Adafruit", None)
    yield ("  adafruit_pixelbuf encode of the same frame, us",
           "%.0f" % cpy["adafruit_us"], "%.0f" % mpy["adafruit_us"], "", None)
    yield ("  ratio Adafruit / ours", "%.1fx" % (cpy["adafruit_us"] / cpy["encode_us"]),
           "%.1fx" % (mpy["adafruit_us"] / mpy["encode_us"]), "> 1",
           cpy["encode_us"] < cpy["adafruit_us"] and mpy["encode_us"] < mpy["adafruit_us"])
    yield ("LED frame: bytes allocated (MicroPython)", "-", str(mpy["frame_bytes_allocated"]), "0",
           mpy["frame_bytes_allocated"] == 0)
    yield ("the wire itself, us (30 us per pixel + 50 us latch)", "", "%d" % (30 * cpy["pixels"] + 50),
           "physical limit", None)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is over its budget")
    args = parser.parse_args(argv)
    cpy, mpy = on_cpython(), on_micropython()
    table = list(rows(cpy, mpy))
    widths = [max(len(str(r[i])) for r in table) for i in range(4)]
    head = ("figure", "CPython", "MicroPython", "budget")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  verdict")
    over = 0
    for row in table:
        verdict = "" if row[4] is None else ("within" if row[4] else "OVER")
        over += row[4] is False
        print("  ".join(str(c).ljust(w) for c, w in zip(row[:4], widths)) + "  " + verdict)
    print("each time is the median of 7 runs; MicroPython here is the WebAssembly port under node,"
          " several times faster than a Pico")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
