"""The emulated Pico's board in the browser page of ``make sim``, played by
clicks (``make vpico``).

The page is ``make live``'s: the lights are the frames the Pico sent over its
USB link, and the record and whose turn it is come from the Pico's own
record (``host.pico.live.Follow``, ``LiveSession``). What differs is that clicks
act: each becomes what a hand does to the emulated board's parts, through
the control socket of host/pico/vpico/main.mjs (a die button that bounces, a
piece lifted off or set onto a reed of the 74HC165 chain, a wheel clicked
through its Gray code, a counter through a pocket's beam). What stands on
the table is ``host.sim.table.Table``'s, as in ``make sim``.

The Pico has one USB serial port, and mpremote, ``make flash PORT=`` and
``make repl`` reach it through the pseudo-terminal as before. ``Share``
decides who talks to it: the page's link only while the game runs (no REPL
prompt since the Pico last started) and the port's program has been quiet
for QUIET_S; anything sent on the port takes the Pico back at once, and the
page says the board went away until the game runs again.
"""

import copy
import select
import socket
import threading
import time

from host.pico.live import Follow, LiveSession
from host.pico.vpico import request
from host.sim.hands import CLICK_MS
from host.sim.table import Table
from host.sim.web.session import _shown

QUIET_S = 2.0  # the port's program (mpremote, make repl) keeps the Pico until it has been quiet this long
LOOK_S = 0.2  # how often the Pico's starts are counted
PROMPTS = (b">>> ", b"raw REPL")  # the REPL waits for a line: main.py's game is not running
RESTART = b"soft reboot"  # a soft reset: main.py runs again (unless mpremote asked for its raw REPL)
WHERE = "the emulated Pico's USB port"


class Share:
    """The Pico's USB output split between the port's program and the page's
    link (``sock``), and whether what the page sends reaches the Pico: only
    while the game runs (no REPL prompt since the Pico last started) and the
    port's program has been quiet for QUIET_S. At the REPL, the page's
    requests would be typed in as Python."""

    def __init__(self, sock, control):
        self.sock = sock
        self.control = control
        self.heard = float("-inf")  # when the port's program last sent something
        self.repl = False  # whether the REPL waits (as it does on a Pico without main.py)
        self.boots = None
        self.looked = float("-inf")
        self.tail = b""  # the output's last bytes: a prompt may come in two reads
        self.partial = b""  # the start of a line, while the page holds the link

    def from_port(self):
        """The port's program sent something: it has the Pico. What the page's
        link held of a line goes to the port after all."""
        self.heard = time.monotonic()
        held, self.partial = self.partial, b""
        return held

    def page_talks(self):
        now = time.monotonic()
        if now - self.looked >= LOOK_S:
            self.looked = now
            try:
                boots = len(request(self.control, "status")["boots"])
            except (OSError, ValueError, RuntimeError):  # (the emulator is starting or stopping)
                boots = self.boots
            if boots != self.boots:
                self.boots, self.repl = boots, False  # a reset: main.py runs
        return now - self.heard >= QUIET_S and not self.repl

    def _scan(self, data):
        seen = self.tail + data
        self.tail = seen[-16:]
        prompt = max(seen.rfind(p) for p in PROMPTS)
        restart = seen.rfind(RESTART)
        if prompt != restart:  # (both -1: neither came)
            self.repl = prompt > restart

    def split(self, data):
        """(bytes for the port, bytes for the page) of the Pico's output ``data``:
        while the page holds the link, its answers (lines that begin with ``~``)
        go to the page only and the board's own lines to both; otherwise all
        goes to the port, as it comes."""
        self._scan(data)
        data = self.partial + data
        self.partial = b""
        if not self.page_talks():
            return data, b""
        *lines, self.partial = data.split(b"\n")
        port, page = [], []
        for text in lines:
            page.append(text + b"\n")
            if not text.startswith(b"~"):
                port.append(text + b"\n")
        return b"".join(port), b"".join(page)


class Link:
    """The page's end of the USB link, read and written as ``Follow`` does a serial port."""

    def __init__(self, sock):
        self.sock = sock

    def read(self, size):
        ready, _, _ = select.select([self.sock], [], [], 0.05)
        return self.sock.recv(size) if ready else b""

    def write(self, data):
        self.sock.sendall(data)

    def close(self):
        pass  # the link stays for the next connection: the Pico's port does not go away with it


class PicoSession(LiveSession, Table):
    """``make live``'s session of the board, with the table of ``make sim``:
    each click is done to the emulated board over the control socket."""

    played = True  # what tells the page (GET /api/live) that its clicks act
    sensors = True

    def __init__(self, follow, control):
        self.control = control
        self.phys = None  # set up once the Pico's game is known
        self.hand = []
        self.positions = []  # each wheel's quarter, as the hands left it
        self.down = [None, None]  # the Pico's ms when each die button went down
        self.panel_down = []
        self._at = None  # the Pico's ms at which what a hand does now happens (``_later``); None: at once
        self._table = None  # the board the table was set up for
        super().__init__(follow)

    @property
    def _game(self):
        return self.game

    def _pico(self, op, **args):
        """One request on the control socket; ValueError says why it failed."""
        try:
            return request(self.control, op, **args)
        except (OSError, RuntimeError) as err:
            raise ValueError("the emulated Pico does not answer (%s): is make vpico still running?" % err)

    def _when(self):
        return {} if self._at is None else {"at_ms": self._at}

    # -- the parts a hand touches (Table) ---------------------------------------------

    def _switch(self, s, closed):
        sensor = self.game.board.sensor_of[s]
        if sensor >= 0:
            self._pico("sensor", index=sensor, closed=closed, **self._when())

    def _beam(self, s):
        self._pico("beam", pocket=self.game.board.sensor_of[s], **self._when())

    def _turn(self, w, quarters):
        end = self._pico("turn", wheel=w, quarters=quarters, **self._when())["until_ms"]
        self.positions[w] = (self.positions[w] + quarters) & 3
        self._at = end  # the pieces on the disc come over other reeds as it stops
        try:
            for s in self.game.board.wheel_cells[9 * w:9 * w + 9]:
                self._sense(s)
        finally:
            self._at = None

    def _later(self, ms, action):
        """``action`` done ``ms`` from now on the Pico's clock (the emulator may run slower than this PC's)."""
        self._at = self._pico("status")["now_ms"] + ms
        try:
            action()
        finally:
            self._at = None

    def _tracked(self):
        return self.game.occupancy() is not None

    def _set_up(self):
        Table._set_up(self)
        for w, quarter in enumerate(getattr(self.game, "wheels", ())):
            if (quarter - self.positions[w]) & 3:
                self._turn(w, ((quarter - self.positions[w] + 1) & 3) - 1)  # the short way round

    # -- the page --------------------------------------------------------------------

    def button(self, i, down, panel=False):
        """A die button (``panel``: the board's own button ``i``, on the sensor
        chain) goes down or up; a press lasts at least a click of the Pico's time."""
        since = self.panel_down if panel else self.down
        if down == (since[i] is not None):
            return  # (already down, or already up)
        at = self._pico("status")["now_ms"]
        if not down:
            at = max(at, since[i] + CLICK_MS)
        if panel:
            self._pico("sensor", index=self.game.board.buttons[i][1], closed=down, at_ms=at)
        else:
            self._pico("press" if down else "release", role="die%d" % (i + 1), at_ms=at)
        since[i] = at if down else None

    def act(self, request):
        what = request.get("do")
        n = request.get("n", 0)
        if not isinstance(n, int) or isinstance(n, bool):
            raise ValueError("n must be a whole number")
        with self.lock:
            if self.phys is None:
                raise ValueError("the emulated Pico's game is not read yet: wait until the page shows it")
            kept = copy.deepcopy((self.phys, self.hand, self.positions, self.down, self.panel_down))
            try:
                if what == "button" and 0 <= n < len(self.down):
                    self.button(n, bool(request.get("down")))
                elif what == "panel" and 0 <= n < len(self.panel_down):
                    self.button(n, bool(request.get("down")), panel=True)
                elif not self.table_act(what, n, request):
                    raise ValueError("cannot do %r with n=%r on the emulated Pico's board (it is played by its "
                                     "spaces, die buttons%s)" % (what, n, self._parts()))
            except ValueError:
                # the table as it was: a click the Pico did not take is not half done on the page
                self.phys, self.hand, self.positions, self.down, self.panel_down = kept
                raise
            self.publish()

    def _parts(self):
        return "".join((", wheels" if self.positions else "", ", the board's own buttons" if self.panel_down else ""))

    def publish(self):
        with self.lock:
            LiveSession.publish(self)
            hello = self.follow.hello
            if self.phys is not None and self.game.board.name != self._table:
                self.phys = None  # the Pico took another board's build: its table is set up anew
            if self.phys is None and hello is not None and len(self._told) > hello["steps"]:
                # the table as the Pico's game has it, once its record is read to the step it was at
                self.positions = [0] * len(getattr(self.game, "wheels", ()))
                self.panel_down = [None] * len(self.game.board.buttons)
                self._table = self.game.board.name
                try:
                    self._set_up()
                except ValueError:
                    self.phys = None  # tried again at the next news
                    return
                LiveSession.publish(self)

    def state(self):
        shown = LiveSession.state(self)
        if self.phys is not None:
            self._relabel()
            shown.update(pieces=[[s, [_shown(p) for p in stack]] for s, stack in enumerate(self.phys) if stack],
                         hand=[_shown(piece) + [came] for piece, came in self.hand], wheels=list(self.positions),
                         buttons=[d is not None for d in self.down])
        return shown


class Page:
    """The page's server and its link to the Pico: ``start()`` once the
    emulator runs, ``close()`` when it stops."""

    def __init__(self, host, port, control):
        from host.sim.web.server import make_server

        self.server = make_server(host, port)  # (OSError: the port is taken)
        ours, self.sock = socket.socketpair()
        self.sock.setblocking(False)  # (the relay's end: it never waits on the page)
        self.share = Share(self.sock, control)
        self.follow = Follow(WHERE, opener=lambda _: Link(ours))
        self.server.follow_live(PicoSession(self.follow, control))
        self.url = self.server.url

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.follow.start()

    def close(self):
        self.follow.close()
        self.server.shutdown()
        self.server.server_close()
