"""The board on a PC: a line protocol on the USB serial port
(hardware/usb-protocol.md, version PROTOCOL).

``Link(ctl, serial)``: ``tick(now)`` runs after each of the controller's
ticks. It takes what the host sent only while bytes wait (never blocking),
at most READ_BYTES a tick, and answers only lines that begin with MARK:
everything else is dropped at its end of line, so the REPL, Ctrl-C (the USB
driver turns it into KeyboardInterrupt before stdin sees it), mpremote and
make flash work as before. A tick answers one request at most, so a flood
of lines costs the loop no more than a steady trickle.

The link only reads the game, never plays it: no line from the host can
change the rules state. A subscribed host gets each new record line and the
pixels' frame when it changed, at most one every FRAME_GAP_MS. A
subscription lapses after QUIET_MS without a line from the host: a host
that went away costs the loop nothing.

What a tick costs stays small: the port is looked at every POLL_MS (while
no line is half read), and a frame goes out FRAME_CHUNK bytes a tick (the
USB port's buffer is small: a whole frame at once would wait for the wire),
nothing else being written until its line is whole.
"""

from binascii import hexlify
import json

from hal.ticks import diff
from rules.core import PHASE_NAMES
from rules.record import header

PROTOCOL = 1
FIRMWARE = "0.1.0"  # pyproject.toml's version (a test holds them equal)
MARK = 0x7E  # "~": the first byte of every request and of every answer
MAX_LINE = 64  # bytes of a request, the mark included
READ_BYTES = 16  # taken from the port in one tick at most
PAGE = 8  # record lines answered to one request (the host asks again for more)
FRAME_GAP_MS = 100  # a subscribed host gets at most 10 frames a second
FRAME_CHUNK = 48  # wire bytes of a frame sent in one tick (96 characters)
POLL_MS = 20  # how often the port is looked at
QUIET_MS = 5000  # a subscription lapses when the host has said nothing for this long
VERBS = ("hello", "ping", "frame", "state", "record", "sub", "unsub")


class UsbSerial:
    """The Pico's USB serial port as the link uses it: ``read()`` one waiting
    byte or -1, ``write(bytes)``. MicroPython only."""

    def __init__(self):
        import select
        import sys

        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._byte = bytearray(1)

    def read(self):
        for _ in self._poll.ipoll(0):
            self._in.readinto(self._byte)
            return self._byte[0]
        return -1

    def write(self, data):
        self._out.write(data)


class Link:
    def __init__(self, ctl, serial):
        self.ctl = ctl
        self.serial = serial
        self._line = bytearray(MAX_LINE)
        self._len = 0
        self._skip = False  # the line is not a request: dropped at its end
        self._bad = None  # what is wrong with the request being read, said at its end
        self._heard = 0  # when the host last sent a line
        self.subscribed = False
        self._next = 0  # the record line a subscriber gets next
        self._pushed = 0  # when the last frame was pushed
        self._sent = bytearray(len(ctl.ports.pixels.wire))  # the frame pushed last
        self._view = memoryview(self._sent)
        self._at = -1  # the next byte of the frame on its way, -1 for none
        self._frame_t = 0  # when it was taken
        self._polled = 0
        self._game = ctl.game
        self._mark = (0, 0)  # (line number, byte offset) in the record, where the last read stopped

    def tick(self, now):
        try:
            self._tick(now)
        except Exception as err:  # a fault of the link must not stop the game: it starts listening afresh
            self._len = 0
            self._at = -1
            self._skip = False
            self._bad = None
            self.ctl._fault("link", err)

    def _tick(self, now):
        if self._at >= 0:
            self._more()  # the rest of a frame first: no line goes out in the middle of it
            return
        if self._len or diff(now, self._polled) >= POLL_MS:
            self._polled = now
            self._listen(now)
        if not self.subscribed or self._at >= 0:
            return
        if diff(now, self._heard) > QUIET_MS:
            self.subscribed = False
            return
        ctl = self.ctl
        if ctl.game is not self._game:
            self._next = 0  # a new game: its record begins again
        if self._next <= self._steps():
            sent = self._record(self._next)
            # a record that stops short (lines lost to a failing flash) is not asked for again and again
            self._next = sent if sent > self._next else self._steps() + 1
        if ctl.ports.pixels.wire != self._sent and diff(now, self._pushed) >= FRAME_GAP_MS:
            self._pushed = now
            self._frame(now)

    # -- what the host sends -------------------------------------------------------

    def _listen(self, now):
        serial = self.serial
        line = self._line
        for _ in range(READ_BYTES):
            b = serial.read()
            if b < 0:
                return
            if b == 10 or b == 13:  # the end of a line
                n = self._len
                bad = self._bad
                skip = self._skip
                self._len = 0
                self._skip = False
                self._bad = None
                if bad or n and not skip:
                    self._heard = now
                    if bad:
                        self._error(bad)
                    else:
                        self._answer(bytes(line[1:n]).decode(), now)
                    return  # one answer a tick
            elif self._skip:
                continue
            elif self._len == 0 and b != MARK:
                self._skip = True
            elif self._len == MAX_LINE or b < 32 or b > 126:
                if 32 <= b <= 126:
                    self._bad = "a request is at most %d bytes" % MAX_LINE
                else:
                    self._bad = "a request is printable ASCII: byte %d is not" % b
                self._skip = True  # the rest is dropped as it comes, POLL_MS apart
                self._len = 0
            else:
                line[self._len] = b
                self._len += 1

    def _answer(self, text, now):
        words = text.split()
        verb = words[0] if words else ""
        if verb not in VERBS:
            self._error("unknown request %r (known: %s)" % (verb[:16], ", ".join(VERBS)))
            return
        first = 0
        if verb in ("record", "sub"):
            if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 6:
                self._error("%s takes the number of a record line, such as ~%s 0" % (verb, verb))
                return
            first = int(words[1])
        elif len(words) != 1:
            self._error("%s takes nothing after it" % verb)
            return
        if verb == "hello":
            self._hello()
        elif verb == "ping":  # the cheap answer a subscriber keeps its subscription with
            self.serial.write(b'~{"pong": %d, "steps": %d, "sub": %d}\n' % (now, self._steps(), self.subscribed))
        elif verb == "frame":
            self._frame(now)
        elif verb == "state":
            self._state()
        elif verb == "record":
            self._record(first)
        elif verb == "sub":
            self._send({"sub": first})
            self.subscribed = True
            self._next = first
            self._pushed = now
            self._frame(now)  # what the board shows now, before anything changes it
        else:
            self.subscribed = False
            self._send({"unsub": True})

    # -- answers ---------------------------------------------------------------------

    def _send(self, obj):
        self.serial.write(b"~" + json.dumps(obj).encode() + b"\n")

    def _error(self, message):
        self._send({"error": message})

    def _steps(self):
        keeper = self.ctl.keeper
        return keeper.steps if keeper else 0

    def _hello(self):
        game = self.ctl.game
        pixels = self.ctl.ports.pixels
        answer = header(game)
        answer.update(hello=PROTOCOL, firmware=FIRMWARE, pixels=pixels.count, offsets=list(pixels.offsets),
                      budget=pixels.budget_ma, steps=self._steps(), sub=self.subscribed)
        self._send(answer)

    def _frame(self, now):
        """Start sending the frame last sent to the pixels, taken now."""
        self._sent[:] = self.ctl.ports.pixels.wire
        self._frame_t = now
        self._at = 0
        self.serial.write(b'~{"frame": "')
        self._more()

    def _more(self):
        at = self._at
        end = min(at + FRAME_CHUNK, len(self._sent))
        self.serial.write(hexlify(self._view[at:end]))
        if end < len(self._sent):
            self._at = end
        else:
            self._at = -1
            self.serial.write(b'", "t": %d}\n' % self._frame_t)

    def _state(self):
        game = self.ctl.game
        self._send({"state": game.save(), "phase": PHASE_NAMES[game.phase], "turn": game.turn,
                    "actor": game.actor, "steps": self._steps()})

    def _record(self, first):
        """Send the record's lines from ``first``, PAGE at most, then where it
        stopped; return the number of the next line to send."""
        keeper = self.ctl.keeper
        if keeper is None:
            self._error("this board keeps no record")
            return first
        if self.ctl.game is not self._game:  # a new game's record: the place kept was in the old one
            self._game = self.ctl.game
            self._mark = (0, 0)
        n, at = self._mark
        if first < n:
            n, at = 0, 0
        last = min(first + PAGE, self._steps() + 1)  # the record's lines: the header and one a step
        try:
            with open(keeper.record_path, "rb") as f:
                f.seek(at)
                while n < last:
                    text = f.readline()
                    if not text.endswith(b"\n"):
                        break  # (a line still being written)
                    if n >= first:
                        self.serial.write(b'~{"n": %d, "line": %s}\n' % (n, text.rstrip()))
                    n += 1
                    at += len(text)
        except OSError:
            pass  # no record yet: nothing to send
        self._mark = (n, at)
        nxt = max(n, first)
        self._send({"record": nxt, "steps": self._steps()})
        return nxt
