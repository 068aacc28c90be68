"""The board on a PC: a line protocol on the USB serial port
(hardware/usb-protocol.md, version PROTOCOL).

``Link(ctl, serial)``: ``tick(now)`` runs after each of the controller's
ticks. Of the controller it takes its snapshot (``Controller.snapshot``),
the pixels, the keeper (the record on the flash) and ``fault``, the way a
fault of the link is reported, and reads nothing else. It takes what the host sent only while bytes wait (never blocking),
at most READ_BYTES a tick, and answers only lines that begin with MARK:
everything else is dropped at its end of line, so the REPL, Ctrl-C (the USB
driver turns it into KeyboardInterrupt before stdin sees it), mpremote and
make flash work as before. A tick answers one request at most, so a flood
of lines costs the loop no more than a steady trickle.

The link only reads the game, never plays it: no line from the host can
change the rules state. A subscribed host gets each new record line and the
pixels' frame when it changed, at most one every FRAME_GAP_MS. A
subscription lapses after QUIET_MS without a line from the host: a host
that went away costs the loop nothing, and make repl run next shows no
frames.

What a tick costs stays small. Most ticks return at once: the port and a
subscriber's record are looked at every POLL_MS (while no line is half
read), and a tick on which the controller sends a frame or will soon
(``Snapshot.busy``: a frame is its longest work) leaves everything to a
later one. A tick answers one request, or opens the record's file, or
sends a page of it (the header alone: checking it as JSON takes a few ms),
or a piece of a frame, and all it writes goes out in one write that fits
in the USB port's buffer (256 bytes; a write beyond it waits for the wire):
a frame FRAME_CHUNK bytes a tick, nothing else being written until its
line is whole, a page PAGE_BYTES at most. Line N of the record is found from
the keeper's marks (``app.keeper``), reading STRIDE lines at most. A line
the flash holds damaged is never sent: its answer is an error naming it.
Each line is checked, a page's answers and a frame's hex digits written
into buffers of the link's own by loops (on the Pico compiled to machine
code, ``app.link_viper``): a subscriber's pages and frames allocate nothing.
"""

import json
from array import array

from app.keeper import STRIDE
from hal.ticks import diff
from rules.core import PHASE_NAMES
from rules.record import header

PROTOCOL = 1
FIRMWARE = "0.1.0"  # pyproject.toml's version (a test holds them equal)
MARK = 0x7E  # "~": the first byte of every request and of every answer
MAX_LINE = 64  # bytes of a request, the mark included
READ_BYTES = 16  # taken from the port in one tick at most
PAGE = 8  # record lines answered to one request (the host asks again for more)
PAGE_BYTES = 160  # and their bytes, but for a first line longer: the USB port buffers 256, a write beyond waits
OUT_BYTES = 256  # what a tick writes is gathered in a buffer this long and written at once (a write costs 0.1 ms)
READ_PAGE = 256  # bytes of the record read at once (a line longer is read on its own)
FRAME_GAP_MS = 100  # a subscribed host gets at most 10 frames a second
FRAME_CHUNK = 48  # wire bytes of a frame sent in one tick (96 characters)
POLL_MS = 20  # how often the port is looked at
QUIET_MS = 750  # a subscription lapses when the host has said nothing for this long: a host gone, a REPL clean
VERBS = ("hello", "ping", "frame", "state", "record", "sub", "unsub")


def hexed(src, start, end, out):
    """The bytes ``src[start:end]`` as lower-case hex digits into ``out`` from its start."""
    j = 0
    for i in range(start, end):
        high = src[i] >> 4
        low = src[i] & 15
        if high > 9:
            high += 39  # to "a": "0" is 48, "a" 97
        if low > 9:
            low += 39
        out[j] = high + 48
        out[j + 1] = low + 48
        j += 2


def decimal(dst, at, value):
    """Write ``value`` (0 or more) in decimal into ``dst`` from ``at``, digit
    by digit ("%d" would allocate); return where it ends."""
    d = 1
    while value // d >= 10:
        d *= 10
    while d:
        dst[at] = 48 + value // d % 10
        at += 1
        d //= 10
    return at


def put(dst, at, src, start, end):
    """Copy ``src[start:end]`` into ``dst`` from ``at``; return where it ends."""
    for i in range(start, end):
        dst[at] = src[i]
        at += 1
    return at


def step_line(data, start, end) -> int:
    """Whether ``data[start:end]`` is a step's record line as the record
    writes it, {"key": "text"} in printable ASCII: 1 or 0, checked byte by
    byte (nothing allocated)."""
    if end - start < 8 or data[start] != 123 or data[end - 1] != 125:  # {...}
        return 0
    quotes = 0
    key_end = 0  # where the key's closing quote is
    for i in range(start, end):
        b = data[i]
        if b < 32 or b > 126 or b == 92:  # (92: a backslash, which no step's notation has)
            return 0
        if b == 34:
            quotes += 1
            if quotes == 2:
                key_end = i
    # {"key": "text"}: the quotes at the ends, and ": " between the key and the text
    if quotes != 4 or data[start + 1] != 34 or data[end - 2] != 34 or key_end <= start + 2:
        return 0
    if data[key_end + 1] != 58 or data[key_end + 2] != 32 or data[key_end + 3] != 34:
        return 0
    return 1


LINE_OPEN = b'~{"n": '  # a record line's answer: LINE_OPEN, its number, LINE_MIDDLE, the line, "}\n"
LINE_MIDDLE = b', "line": '


def record_lines(page, got, out, state):
    """Answer the step lines ``page[:got]`` holds from ``state``'s place on,
    into ``out``: state is [where the next line starts in page, its number,
    the first line asked for, the line to stop before, the answer's bytes so
    far (a line's count with its wrapper, 22), the bytes in out, the most an
    answer holds], the first, second, fifth and sixth brought up to date. It
    stops at a line not whole in the page, one that is not a step's
    (the header, a damaged line) or that would not fit: the caller takes
    that one."""
    i = state[0]
    n = state[1]
    size = state[4]
    k = state[5]
    while 0 < n < state[3]:
        j = i
        while j < got and page[j] != 10:
            j += 1
        if j >= got:
            break
        if n >= state[2]:
            grow = j - i + 22
            if size + grow > state[6] and n > state[2]:
                break
            if k + grow + 4 > len(out) or not step_line(page, i, j):
                break
            k = decimal(out, put(out, k, LINE_OPEN, 0, 7), n)
            k = put(out, k, LINE_MIDDLE, 0, 10)
            k = put(out, k, page, i, j)
            out[k] = 125  # }
            out[k + 1] = 10
            k += 2
            size += grow
        n += 1
        i = j + 1
    state[0] = i
    state[1] = n
    state[4] = size
    state[5] = k


try:
    from app.link_viper import hexed, put, record_lines, step_line  # noqa: F811  the same loops, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass


def whole(data, start, end, n):
    """Whether ``data[start:end]`` is record line ``n`` as the record writes
    it: the header a JSON object, a step ``step_line``'s shape."""
    if n == 0:
        try:
            return isinstance(json.loads(bytes(data[start:end])), dict)
        except (ValueError, RuntimeError):  # (RuntimeError: nested too deep)
            return False
    return step_line(data, start, end) == 1


class UsbSerial:
    """The Pico's USB serial port as the link uses it: ``read()`` one waiting
    byte or -1, ``write(data, start, end)`` the bytes ``data[start:end]``
    (``end`` None: to the end of ``data``). MicroPython only."""

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

    def write(self, data, start=0, end=None):
        # (a stream's write takes where to start and how many, and makes no copy)
        self._out.write(data, start, (len(data) if end is None else end) - start)


class Link:
    def __init__(self, ctl, serial):
        self.snap = ctl.snapshot
        self.pixels = ctl.ports.pixels
        self.keeper = ctl.keeper
        self._fault = ctl.fault
        self.serial = serial
        self._line = bytearray(MAX_LINE)
        self._len = 0
        self._skip = False  # the line is not a request: dropped at its end
        self._bad = None  # what is wrong with the request being read, said at its end
        self._heard = 0  # when the host last sent a line
        self.subscribed = False
        self._next = 0  # the record line a subscriber gets next
        self._pushed = 0  # when the last frame was pushed
        self._sent = bytearray(len(self.pixels.wire))  # the frame pushed last
        self._at = -1  # the next byte of the frame on its way, -1 for none
        self._turn = 0  # whose turn was last: 0 a frame, 1 a request, 2 the record's news
        self._hex = bytearray(2 * FRAME_CHUNK)  # a frame's hex digits, a chunk at a time
        self._out = bytearray(OUT_BYTES)  # what this tick writes
        self._n = 0  # bytes of it
        self._page = bytearray(READ_PAGE)  # record lines as read from the file
        self._lines = array("i", (0, 0, 0, 0, 0, 0, PAGE_BYTES))  # record_lines' state
        self._frame_t = 0  # when it was taken
        self._polled = 0
        self._game = self.snap.game
        # where the last read of the record stopped: the number of the line, its byte (a tuple would allocate)
        self._mark_n = self._mark_at = 0
        self._file = None  # the record, kept open from one page to the next while a subscriber catches up
        self._opened = 0  # the steps when it was opened

    def tick(self, now):
        if self._at < 0 and not self._len and diff(now, self._polled) < POLL_MS:
            if not self.subscribed or diff(now, self._pushed) < FRAME_GAP_MS:
                return  # most ticks: nothing to send, and the port and the record were looked at just now
        try:
            self._tick(now)
            self._flush()
        except Exception as err:  # a fault of the link must not stop the game: it starts listening afresh
            self._n = 0  # (half an answer is never written)
            self._len = 0
            self._at = -1
            self._skip = False
            self._bad = None
            self._file = None
            self._fault("link", err)

    def _tick(self, now):
        if self._at >= 0:
            self._more()  # the rest of a frame first: no line goes out in the middle of it
            return
        if self.snap.busy(now):
            # the controller's frame is on this tick or the next: a request or a page beside it would hold the
            # loop too long, but a frame of the link's own may start (a piece costs a fraction of a ms)
            self._push(now)
            return
        # a changed picture, a request and the record's news take turns, one a tick, so that none starves the
        # others (pings answered at every look at the port would hold a subscriber's record back for ever)
        for _ in range(3):
            self._turn = turn = (self._turn + 1) % 3
            if turn == 0:
                if self._push(now):
                    return
            elif turn == 1:
                if self._len or diff(now, self._polled) >= POLL_MS:
                    self._polled = now
                    if self._listen(now):
                        return
            elif self.subscribed and self._news(now):
                return

    def _push(self, now):
        """Start sending a subscriber the picture, when it changed and
        FRAME_GAP_MS passed since the last; whether it did."""
        if self.subscribed and diff(now, self._pushed) >= FRAME_GAP_MS and self.pixels.wire != self._sent:
            self._pushed = now
            self._frame(now)
            return True
        return False

    def _news(self, now):
        """Send a subscriber the record lines it has not had, as many as a
        page holds; whether there were any."""
        if diff(now, self._heard) > QUIET_MS:
            self.subscribed = False
            self._close()
            return False
        if self.snap.game is not self._game:
            self._next = 0  # a new game: its record begins again
        if self._next > self._steps():
            return False
        if self._reopen():
            return True  # opening the record (3.5 ms on the Pico) is a tick's work of its own
        sent = self._record(self._next, True)
        # a record that stops short (lines lost to a failing flash) is not asked for again and again
        self._next = sent if sent > self._next else self._steps() + 1
        return True

    # -- what the host sends -------------------------------------------------------

    def _listen(self, now):
        """Read what the host sent; whether a line was answered."""
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
                    return True  # one answer a tick
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
            self._put(b'~{"pong": ')  # (in pieces: four times a second, nothing allocated)
            self._number(now)
            self._put(b', "steps": ')
            self._number(self._steps())
            self._put(b', "sub": 1}\n' if self.subscribed else b', "sub": 0}\n')
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
            self._close()
            self._send({"unsub": True})

    # -- answers ---------------------------------------------------------------------

    def _put(self, data, start=0, end=None):
        """Add ``data[start:end]`` to what this tick writes (a piece longer
        than the buffer is written at once, after what the buffer holds)."""
        if end is None:
            end = len(data)
        if self._n + end - start > OUT_BYTES:
            self._flush()
            if end - start > OUT_BYTES:
                self.serial.write(data, start, end)
                return
        self._n = put(self._out, self._n, data, start, end)

    def _flush(self):
        if self._n:
            n, self._n = self._n, 0
            self.serial.write(self._out, 0, n)

    def _send(self, obj):
        self._put(b"~" + json.dumps(obj).encode() + b"\n")

    def _error(self, message):
        self._send({"error": message})

    def _steps(self):
        keeper = self.keeper
        return keeper.steps if keeper else 0

    def _hello(self):
        game = self.snap.game
        pixels = self.pixels
        answer = header(game)
        answer.update(hello=PROTOCOL, firmware=FIRMWARE, pixels=pixels.count, offsets=list(pixels.offsets),
                      budget=pixels.budget_ma, steps=self._steps(), sub=self.subscribed)
        self._send(answer)

    def _frame(self, now):
        """Start sending the frame last sent to the pixels, taken now."""
        self._sent[:] = self.pixels.wire
        self._frame_t = now
        self._at = 0
        self._put(b'~{"frame": "')
        self._more()

    def _more(self):
        at = self._at
        end = min(at + FRAME_CHUNK, len(self._sent))
        hexed(self._sent, at, end, self._hex)
        self._put(self._hex, 0, 2 * (end - at))
        if end < len(self._sent):
            self._at = end
        else:
            self._at = -1
            self._put(b'", "t": ')
            self._number(self._frame_t)
            self._put(b"}\n")

    def _number(self, value):
        """Add ``value`` (0 or more) in decimal to what this tick writes."""
        if self._n + 10 > OUT_BYTES:
            self._flush()
        self._n = decimal(self._out, self._n, value)

    def _record_line(self, n, data, start, end):
        """Write record line ``n``, ``data[start:end]``, as its answer."""
        self._put(b'~{"n": ')
        self._number(n)
        self._put(b', "line": ')
        self._put(data, start, end)
        self._put(b"}\n")

    def _state(self):
        game = self.snap.game
        self._send({"state": game.save(), "phase": PHASE_NAMES[game.phase], "turn": game.turn,
                    "actor": game.actor, "steps": self._steps()})

    def _reopen(self):
        """Open the record for a subscriber's pages, when it is not open or
        a step was appended since it was; whether it was opened."""
        keeper = self.keeper
        steps = self._steps()
        if keeper is None or self._file and self._opened == steps:
            return False
        self._close()
        try:
            self._file = open(keeper.record_path, "rb")
        except OSError:
            return False  # no record yet: the page says so
        self._opened = steps
        return True

    def _close(self):
        if self._file:
            self._file.close()
            self._file = None

    def _record(self, first, hold=False):
        """Send the record's lines from ``first``, a page at most, then where
        it stopped; return the number of the next line to send. With ``hold``
        the file stays open for the next page (opening it takes about 2 ms
        of the Pico's), while no step is played."""
        keeper = self.keeper
        if keeper is None:
            self._error("this board keeps no record")
            return first
        steps = self._steps()
        if self.snap.game is not self._game:  # a new game's record: the place kept was in the old one
            self._game = self.snap.game
            self._mark_n = self._mark_at = 0
            self._close()
        elif self._opened != steps:
            self._close()  # a step was appended since, through another file: the blocks this one read may be reused
        n = self._mark_n
        at = self._mark_at
        if first < n or first > n + STRIDE:
            n, at = keeper.mark(first)  # a line at most STRIDE before ``first``: never the whole record read at once
        last = min(first + PAGE, steps + 1)  # the record's lines: the header and one a step
        size = 0
        f = self._file
        self._file = None
        try:
            if f is None:
                f = open(keeper.record_path, "rb")
                self._opened = steps
            # read into a buffer of the link's own, the lines written from it: nothing allocated (but for a line
            # longer than the buffer), so that the loop's own allocations do not slow down in a heap cut up small
            page = self._page
            i = got = 0
            state = self._lines
            while n < last:
                if n:  # as many step lines as the page holds at once (compiled on the Pico), the others one by one
                    state[0] = i  # (one by one: a tuple would allocate)
                    state[1] = n
                    state[2] = first
                    state[3] = last
                    state[4] = size
                    state[5] = self._n
                    record_lines(page, got, self._out, state)
                    at += state[0] - i
                    i = state[0]
                    n = state[1]
                    size = state[4]
                    self._n = state[5]
                    if n >= last:
                        break
                j = page.find(b"\n", i, got)
                if j < 0 and n <= first and (i or not got):
                    # no line sent yet (those before ``first`` are passed over): the next page, from line n
                    f.seek(at)
                    got = f.readinto(page)
                    i = 0
                    j = page.find(b"\n", 0, got)
                data = page
                if j < 0 and i == 0 and got == len(page):
                    f.seek(at)
                    data = f.readline()
                    j = len(data) - 1
                if j < 0 or data[j] != 10:
                    break  # the end of the page, or a line still being written
                if n >= first:
                    size += j - i + 22  # (with ~{"n": , "line": })
                    if size > PAGE_BYTES and n > first:
                        break  # the rest for the next request
                    if whole(data, i, j, n):
                        self._record_line(n, data, i, j)
                    else:
                        self._send({"n": n, "error": "record line %d is damaged (not a whole line as the record "
                                                     "writes it): it is cut away when the board next starts" % n})
                n += 1
                at += j + 1 - i
                i = j + 1
                if data is not page:
                    i = got = 0  # (the page after a long line is read again)
                if n == 1 and first == 0:
                    break  # the header goes alone: checking it (JSON) is the longest work of a page
            if hold and n <= steps:
                self._file, f = f, None
        except OSError:
            pass  # no record yet: nothing to send
        if f:
            f.close()
        self._mark_n = n
        self._mark_at = at
        nxt = max(n, first)
        self._put(b'~{"record": ')
        self._number(nxt)
        self._put(b', "steps": ')
        self._number(steps)
        self._put(b"}\n")
        return nxt
