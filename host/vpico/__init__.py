"""A virtual Pico: MicroPython behind a pseudo-terminal that mpremote talks to
as to a real board.

    python -m host.vpico [--flash DIR] [--control SOCKET]

prints the device path (``/dev/pts/N``) and runs until Ctrl-C. The device's
files are kept in the flash folder (default ``.vpico/flash``), so they stay
across resets and restarts. A program on it finds ``machine``, ``neopixel``
and ``rp2``; what it drives (pins, pixel frames) and what it reads (buttons,
wheel contacts, piece sensors, BOOTSEL) go through the control socket, a JSON
line protocol described in host/vpico.mjs; ``VirtualPico`` below speaks it.
Each pixel frame carries the program's last reading of ``time.ticks_ms()``
before it went out: the moment a loop that reads the clock once a frame
painted it for.
Until driven from outside, the wheel contacts the pin map names are closed
(every wheel at position 0, as a new game has them) and no piece stands on
a sensor.

Files changed in the flash folder from the host are seen at the next reset.

This process owns the pseudo-terminal and relays bytes between it and the
node bridge (host/vpico.mjs), which runs the interpreter in a worker thread.

Where it differs from a Pico (the WebAssembly port's limits, or not modelled):
- Ctrl-C reaches a program only when it reads the clock or sleeps; a loop
  that does neither cannot be stopped (and mpremote then waits for ever).
- garbage is only collected between calls into the interpreter, never while
  main.py loops: its heap grows instead of hitting the Pico's ~190 KB.
- asyncio is bound to node's event loop: no asyncio.run(), so a main.py
  built on asyncio does not run here; a plain loop does.
- the watchdog, like Ctrl-C, bites only when the program reads the clock or
  sleeps (it does keep running across soft resets, as the RP2040's does).
- Timer callbacks and Pin.irq handlers run while the program sleeps; PIO,
  UART, I2C, SPI and PWM are not there; ADC reads mid-scale; machine.mem32
  knows only the watchdog's CTRL (its enable bit can be cleared) and REASON.
- the banner and sys.implementation name the WebAssembly port; the 1408 KiB
  filesystem size is reported, not enforced; a hard reset does not drop the
  USB connection; mpremote's romfs does not work.
"""

import argparse
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "host" / "vpico.mjs"
DEFAULT_FLASH = ROOT / ".vpico" / "flash"
# output kept while nobody reads the serial port; beyond it the oldest is dropped
BACKLOG = 1 << 20


def relay(master, node, parent=None):
    """Copy bytes between the pseudo-terminal and the bridge until the bridge
    ends (or ``parent``, a pipe from the process that started us, closes)."""
    sel = selectors.DefaultSelector()
    sel.register(node.stdout, selectors.EVENT_READ)
    sel.register(master, selectors.EVENT_READ)
    if parent is not None:
        sel.register(parent, selectors.EVENT_READ)
    backlog = bytearray()
    while True:
        for key, events in sel.select():
            if key.fileobj is parent:
                if not os.read(parent, 1024):
                    return
            elif key.fileobj is node.stdout:
                data = os.read(node.stdout.fileno(), 65536)
                if not data:
                    return
                backlog += data
                del backlog[:-BACKLOG]
            elif events & selectors.EVENT_READ:
                try:
                    data = os.read(master, 4096)
                    node.stdin.write(data)
                    node.stdin.flush()
                except BrokenPipeError:
                    return
                except OSError:
                    pass  # nobody has the port open
        if backlog:
            try:
                del backlog[: os.write(master, backlog)]
            except BlockingIOError:
                pass  # the port is not being read: keep it for later
        sel.modify(master, selectors.EVENT_READ | (selectors.EVENT_WRITE if backlog else 0))


def serve(flash, control, with_parent=False):
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
    os.set_blocking(master, False)
    port = os.ttyname(slave)
    node = subprocess.Popen(
        ["node", str(BRIDGE), "--flash", str(flash), "--control", str(control)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )

    def stop(*_):
        node.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("device:  %s" % port)
    print("control: %s" % control)
    print("flash:   %s" % flash)
    print("try:     %s/bin/mpremote connect %s fs ls   (Ctrl-C here ends the virtual Pico)" % (ROOT / ".venv", port))
    sys.stdout.flush()
    try:
        relay(master, node, sys.stdin.fileno() if with_parent else None)
    finally:
        node.terminate()
        node.wait()
        os.close(slave)
        os.close(master)
    return node.returncode if node.returncode and node.returncode > 0 else 0


class VirtualPico:
    """A virtual Pico in a child process, for tests and scripts::

        with VirtualPico(flash_dir) as pico:
            subprocess.run(["mpremote", "connect", pico.port, "fs", "ls"])
            pico.press("die1")
    """

    def __init__(self, flash, *, python=sys.executable):
        self.flash = Path(flash)
        self._python = python
        self._dir = tempfile.TemporaryDirectory(prefix="vpico-")
        self.control = os.path.join(self._dir.name, "control.sock")
        self.port = None
        self._proc = None

    def __enter__(self):
        # --with-parent: it ends when this process does, even if this one is killed
        self._proc = subprocess.Popen(
            [self._python, "-m", "host.vpico", "--flash", str(self.flash), "--control", self.control, "--with-parent"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            for line in self._proc.stdout:
                if line.startswith("device:"):
                    self.port = line.split()[1]
                if line.startswith("try:"):
                    break
            if not self.port:
                raise RuntimeError("the virtual Pico did not start")
            deadline = time.monotonic() + 10
            while not os.path.exists(self.control) or not self.status()["boots"]:
                if time.monotonic() > deadline:
                    raise RuntimeError("the virtual Pico did not boot")
                time.sleep(0.02)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        if self._proc:
            self._proc.terminate()
            self._proc.wait(10)
            self._proc.stdin.close()
            self._proc.stdout.close()
        self._dir.cleanup()

    def request(self, op, **args):
        """One request on the control socket; the answer as a dict."""
        with socket.socket(socket.AF_UNIX) as s:
            for _ in range(100):
                try:
                    s.connect(self.control)
                    break
                except (FileNotFoundError, ConnectionRefusedError):
                    time.sleep(0.02)
            s.sendall((json.dumps(dict(args, op=op)) + "\n").encode())
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
        reply = json.loads(answer)
        if "error" in reply:
            raise ValueError(reply["error"])
        return reply

    def status(self):
        return self.request("status")

    def frames(self, since=0):
        return self.request("frames", since=since)["frames"]

    def wait_frame(self, since=0, timeout=5.0):
        """The first frame numbered ``since`` or later, or None after ``timeout`` s."""
        return self.request("wait_frame", since=since, timeout_ms=int(timeout * 1000))["frame"]

    def gpio(self, role):
        """The GPIO of a pin-map role (``"die1"``), as the device's hardware/pins.json says; or a number."""
        if isinstance(role, int):
            return role
        with open(self.flash / "hardware" / "pins.json") as f:
            return json.load(f)[role]

    def set_pin(self, role, level):
        """Drive a pin from outside: 0, 1, or None to let it float."""
        self.request("set_pin", gpio=self.gpio(role), level=level)

    def press(self, role):
        """Hold a button that closes to ground (the die rollers)."""
        self.set_pin(role, 0)

    def release(self, role):
        self.set_pin(role, None)

    def click(self, role, ms=100):
        self.press(role)
        time.sleep(ms / 1000)
        self.release(role)

    def place(self, sensor):
        """A piece on the space whose switch is ``sensor`` (the board file's sensor index)."""
        self.request("set_sensor", index=sensor, level=0)

    def lift(self, sensor):
        self.request("set_sensor", index=sensor, level=1)

    def reset(self):
        """Press the reset button: a hard reset, boot.py and main.py run."""
        self.request("reset")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.vpico", description=__doc__.split("\n\n")[0])
    parser.add_argument("--flash", type=Path, default=DEFAULT_FLASH, help="host folder holding the device's files (default %(default)s)")
    parser.add_argument("--control", help="path of the control socket (default: in a temporary folder)")
    parser.add_argument("--with-parent", action="store_true", help="end when standard input closes (for a parent process)")
    args = parser.parse_args(argv)
    args.flash.mkdir(parents=True, exist_ok=True)
    if args.control:
        return serve(args.flash.resolve(), Path(args.control).resolve(), args.with_parent)
    with tempfile.TemporaryDirectory(prefix="vpico-") as tmp:
        return serve(args.flash.resolve(), Path(tmp) / "control.sock", args.with_parent)


if __name__ == "__main__":
    sys.exit(main())
