"""The virtual Pico: the stock MicroPython firmware for the Raspberry Pi Pico
on an emulated RP2040, on an emulated board, behind a pseudo-terminal that
stock mpremote talks to as to a real Pico.

    python -m host.pico.vpico [--fs IMAGE] [--board NAME] [--web-port PORT]

The emulator (``rp2040js``, node) runs the same UF2 a maker puts on a Pico
(MicroPython v1.28.0, ``RPI_PICO``) from its own boot ROM; the parts around
it (host/pico/vpico/parts.mjs) follow their datasheets and hardware/README.md.
``pico_files()`` finds the UF2 and the ROM; ``VirtualPico`` runs one for
tests and scripts; its filesystem is a littlefs image file (``flash.py``).

Code and data in flash are read through the RP2040's XIP cache (xip.mjs):
a miss holds the CPU for the QSPI transfer the SSI's registers describe. A
flash write takes the datasheet's typical time, or its maximum with
``flash_times="max"`` (a sector erase 400 ms instead of 45). What the
emulator does not model: analogue levels and the pads' electrical limits,
the second core's timing against the first, contention between the CPU and
the DMA on the bus, the time a USB host takes to answer.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
UF2_NAME = "RPI_PICO-v1.28.0.uf2"
ROM_NAME = "rp2040-bootrom-b1.bin"
# ../shared/pico beside this repository (or beside a folder it sits in)
SHARED = [folder / "shared" / "pico" for folder in ROOT.parents]
WHERE = {
    "PICO_UF2": (UF2_NAME, "MicroPython v1.28.0 for the Raspberry Pi Pico (board RPI_PICO), the .uf2 file from "
                           "micropython.org/download/RPI_PICO"),
    "PICO_ROM": (ROM_NAME, "the RP2040 boot ROM, revision B1 (16 KiB, b1.bin of Raspberry Pi's pico-bootrom-rp2040)"),
}


class MissingPicoFiles(RuntimeError):
    """The emulated Pico cannot start: a file it runs is not on this machine."""


def pico_files():
    """(UF2, ROM) paths: where PICO_UF2 and PICO_ROM point, else ../shared/pico/."""
    found = []
    for variable, (name, what) in WHERE.items():
        if os.environ.get(variable):
            places = [Path(os.environ[variable])]
        else:
            places = [folder / name for folder in SHARED]
        path = next((p for p in places if p.is_file()), None)
        if path is None:
            raise MissingPicoFiles("the emulated Pico needs %s: get it and put it in %s, or set %s=/path/to/%s"
                                   % (what, SHARED[0], variable, name))
        found.append(path)
    return tuple(found)


class VirtualPico:
    """A virtual Pico in a child process, for tests and scripts::

        with VirtualPico(image, board="sniggle") as pico:
            subprocess.run(["mpremote", "connect", pico.port, "fs", "ls"])
            pico.click("die1")

    ``image`` is the filesystem image file (``flash.image(build_dir)``
    makes one; a missing file is a blank flash the firmware formats).
    Times given to and read from it are the Pico's own milliseconds since it
    last started (``time.ticks_ms()`` on it), so a script of actions is
    timed by the emulated clock and comes out the same at every run.
    ``swap_chips=(j, k)`` miswires the board: chips j and k of the 74HC165
    chain in each other's place. ``web_port`` (0: any free port) serves the
    board's page too, as make vpico does: its address is ``url``."""

    def __init__(self, image, board="detour", pins=ROOT / "hardware" / "pins.json", flash_times="typical",
                 swap_chips=None, web_port=None):
        self.swap_chips = swap_chips
        self.web_port = web_port
        self.url = None
        self.image = Path(image)
        self.board = board
        self.flash_times = flash_times
        self.pins = Path(pins)
        self._dir = None
        self.control = None
        self.port = None
        self._proc = None

    def __enter__(self):
        uf2, rom = pico_files()
        self._dir = tempfile.TemporaryDirectory(prefix="vpico-")
        self.control = os.path.join(self._dir.name, "control.sock")
        command = [sys.executable, "-m", "host.pico.vpico", "--fs", str(self.image), "--board", self.board,
                   "--pins", str(self.pins), "--control", self.control, "--flash-times", self.flash_times,
                   "--with-parent"]
        if self.swap_chips:
            command += ["--swap-chips", "%d,%d" % tuple(self.swap_chips)]
        if self.web_port is not None:
            command += ["--web-port", str(self.web_port)]
        self._proc = subprocess.Popen(command, cwd=ROOT,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            for line in self._proc.stdout:
                if line.startswith("device:"):
                    self.port = line.split()[1]
                if line.startswith("page:"):
                    self.url = line.split()[1]
                if line.startswith("try:"):
                    break
            if not self.port:
                raise RuntimeError("the virtual Pico did not start")
            deadline = time.monotonic() + 20
            while not self._listening():
                if time.monotonic() > deadline:
                    raise RuntimeError("the virtual Pico did not start")
                time.sleep(0.02)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _listening(self):
        try:
            self.status()
            return True
        except (FileNotFoundError, ConnectionRefusedError):  # the socket is not there, or not yet listening
            return False

    def __exit__(self, *_):
        if self._proc:
            self._proc.terminate()
            self._proc.wait(20)
            self._proc.stdin.close()
            self._proc.stdout.close()
            self._proc = None
        if self._dir:
            self._dir.cleanup()
            self._dir = None

    def request(self, op, **args):
        """One request on the control socket (host/pico/vpico/main.mjs lists them); the answer."""
        return request(self.control, op, **args)

    def status(self):
        return self.request("status")

    def now(self):
        """The Pico's clock: ms since it last started."""
        return self.request("status")["now_ms"]

    def wait(self, ms):
        """Until ``ms`` more of the Pico's milliseconds have passed."""
        return self.request("wait", ms=ms)

    def frames(self, since=0):
        return self.request("frames", since=since)["frames"]

    def wait_frame(self, since=0, timeout=120.0):
        """The first frame numbered ``since`` or later, or None after ``timeout`` s of wall time."""
        return self.request("wait_frame", since=since, timeout_ms=int(timeout * 1000))["frame"]

    def press(self, role, at=None):
        """Press a die button (it bounces); ``at``: the Pico's ms, else now. Returns when it is still."""
        return self.request("press", role=role, **_at(at))["until_ms"]

    def release(self, role, at=None):
        return self.request("release", role=role, **_at(at))["until_ms"]

    def click(self, role, at=None, hold=100):
        at = self.now() if at is None else at
        self.press(role, at)
        return self.release(role, at + hold)

    def holds(self, since=0):
        """[start, end] in the Pico's ms of each stretch of 5 ms or more its
        core ran without a pause, ending at ``since`` or later (its loop
        sleeps between two ticks: a hold is a tick, a save, a collection)."""
        return self.request("holds", since_ms=since)["holds"]

    def watch_heap(self, start, length, collect_end):
        """Follow the garbage collector's allocation table (``length`` bytes
        at RAM address ``start``) from now on, and count its free blocks each
        time a collection ends (the firmware returns from ``collect_end``)."""
        self.request("heap_watch", start=start, length=length, collect_end=collect_end)

    def heap_low(self):
        """The watched heap at its fewest free blocks after a collection:
        {free, largest_block} in bytes and at_ms; None before one ended."""
        return self.request("heap_low")["low"]

    def place(self, sensor, at=None):
        """A piece set down on the space whose switch is ``sensor`` (the board file's sensor index)."""
        self.request("sensor", index=sensor, closed=True, **_at(at))

    def lift(self, sensor, at=None):
        self.request("sensor", index=sensor, closed=False, **_at(at))

    def turn(self, wheel, quarters, at=None, click=150):
        """Turn Detour wheel ``wheel`` (0-3) by ``quarters`` clicks, one every ``click`` ms."""
        return self.request("turn", wheel=wheel, quarters=quarters, click_ms=click, **_at(at))["until_ms"]

    def beam(self, pocket, at=None, width=3):
        """A counter dropping through pocket ``pocket``'s beam, breaking it for ``width`` ms."""
        return self.request("beam", pocket=pocket, width_ms=width, **_at(at))["until_ms"]

    def reset(self):
        """The reset button."""
        self.request("reset")

    def power_cut(self, off=100, after_writes=None, torn=None):
        """Switch the board off for ``off`` ms and on again: now, or just before
        the flash write ``after_writes`` from now (0: the next one); with
        ``torn`` (0 to 1), inside that write, that fraction of its bytes done."""
        args = {} if after_writes is None else {"after_writes": after_writes}
        if torn is not None:
            args["torn"] = torn
        self.request("power_cut", off_ms=off, **args)

    def files(self):
        """{path: bytes} of every file on the Pico now."""
        from host.pico.vpico.flash import read

        self.request("save_fs")
        return read(self.image.read_bytes())


def request(control, op, **args):
    """One request on the control socket at path ``control``; the answer as a dict."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(control)
        s.sendall((json.dumps(dict(args, op=op)) + "\n").encode())
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                raise RuntimeError("the virtual Pico stopped")
            answer += chunk
    reply = json.loads(answer)
    if "error" in reply:
        raise ValueError(reply["error"])
    return reply


def _at(at):
    return {} if at is None else {"at_ms": at}
