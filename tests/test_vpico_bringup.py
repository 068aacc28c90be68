"""make bringup on the emulated Pico: the real firmware's bring-up names
each pixel and each input the board's models toggle, and says when two
chips of the 74HC165 chain are soldered in each other's place."""

import subprocess
import threading
import time

import pytest

from host.pico.vpico import VirtualPico
from test_vpico import MPREMOTE, SETTLED_MS, build_dir, image, read_board  # noqa: F401

pytestmark = pytest.mark.pico

BRINGUP = "from app import bringup\nbringup.run(5)\n"
WAIT_S = 120  # wall time for a line to come (a busy machine runs the emulator slowly)


class Console:
    """What the bring-up prints, read as it comes from an mpremote exec."""

    def __init__(self, port):
        self.text = ""
        self._run = subprocess.Popen([str(MPREMOTE), "connect", port, "exec", BRINGUP],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self._run.stdout:
            self.text += line

    def wait_for(self, words):
        deadline = time.monotonic() + WAIT_S
        while words not in self.text:
            assert time.monotonic() < deadline and self._run.poll() is None, "no %r in:\n%s" % (words, self.text[-2000:])
            time.sleep(0.1)

    def close(self):
        self._run.kill()


def bring_up(build_dir, tmp_path, swap=None):  # noqa: F811 (build_dir: a fixture)
    pico = VirtualPico(image(build_dir, tmp_path, "detour"), board="detour", swap_chips=swap)
    pico.__enter__()
    pico.wait(SETTLED_MS)
    return pico, Console(pico.port)


def test_each_pixel_and_each_input_is_named_by_what_the_board_file_puts_there(build_dir, tmp_path):  # noqa: F811
    board = read_board("detour")
    pico, console = bring_up(build_dir, tmp_path)
    try:
        console.wait_for("inputs: each change is named")
        assert "pixel 0: space " in console.text and "pixel 104: die2, pixel 7 of 7" in console.text
        lit = [lone(f["hex"]) for f in pico.frames()]
        in_turn = [n for n, after in zip(lit, lit[1:] + [None]) if n is not None and n != after]
        walked = len(in_turn) - in_turn[::-1].index(104)  # the first input's light may follow the walk
        assert in_turn[walked - 105:walked] == list(range(105))  # one pixel at a time, along the chain
        sensor, = [space["sensor"] for space in board["spaces"] if space["id"] == "l13"]
        pico.place(sensor)
        console.wait_for("reed l13 closed (chip 0 input F)")
        pico.click("die1")
        console.wait_for("die button 1 (GP3) released")
        pico.turn(0, 1, click=50)
        console.wait_for("wheel 1 latch")
    finally:
        console.close()
        pico.__exit__()


def lone(hexed):
    """The one pixel a frame lights, or None."""
    wire = bytes.fromhex(hexed)
    lit = [i // 3 for i in range(0, len(wire), 3) if any(wire[i:i + 3])]
    return lit[0] if len(lit) == 1 else None


def test_two_chips_soldered_in_each_others_place_are_named(build_dir, tmp_path):  # noqa: F811
    spaces = read_board("detour")["spaces"]
    pico, console = bring_up(build_dir, tmp_path, swap=(10, 11))
    try:
        console.wait_for("next: pass the magnet over space ")
        asked = console.text.split("next: pass the magnet over space ")[1].split()[0]
        sensor, = [space["sensor"] for space in spaces if space["id"] == asked]
        assert sensor >> 3 == 10  # the first space asked for is on chip 10
        pico.place(sensor)
        console.wait_for("chips 10 and 11 look swapped in the chain")
        assert "reed %s closed" % asked not in console.text  # the reed came in at chip 11's place
    finally:
        console.close()
        pico.__exit__()
