"""make live: the physical board in a browser, followed over USB; make pull:
its record and save copied to the PC.

    python -m host.pico.live [--port /dev/ttyACM0] [--web-port 8000]
    python -m host.pico.live --pull [--port ...] [--out DIR]

The Pico answers the line protocol of hardware/usb-protocol.md. ``Follow``
keeps a connection to it in a thread: it subscribes, keeps the record's
lines as the board sends them and the last frame; when the port fails (the
cable pulled) or the board falls silent (a reset), it says so, opens the
port again until it answers, and asks for the record from the last line it
has; until a board answers, and after it went away, the page says why in
words of ours. ``LiveSession`` is what host/sim/web/server.py serves for it:
the page of ``make sim`` in its read-only live mode, for any number of
browsers. The page shows the board from the frames the Pico sent; whose
turn it is and the record's sentences come from replaying the record here.
"""

import argparse
import errno
import json
import os
import sys
import threading
import time

from app.keeper import VERSION
from hal import storage
from hal.pixels import BLUE_MA, GREEN_MA, IDLE_MA, RED_MA
from host.boardfile import read_board
from host.sim import views
from host.sim.screen import wire_colours
from host.sim.web import layout
from host.sim.web.session import Session, _shown, _told
from rules.core import OVER, PHASE_NAMES, POPOFF, RulesError
from rules.record import replay, start

PROTOCOL = 1  # the version of hardware/usb-protocol.md this side speaks
PING_S = 0.25  # a ping this often keeps the subscription (the board drops it after 750 ms without a line)
STALL_S = 1.0  # no record line for this long while the board has more: the last one was lost, asked again
SILENT_S = 4.0  # no line from the board for this long: it is gone (a reset, a hung port)
RETRY_S = 1.0  # between two tries to open the port again
FIND_S = 3.0  # make pull gives up when the port has not opened for this long
NOTES = 6  # the board's own log lines kept for the page
CHECKS = ("check the USB cable; a board without the firmware needs make flash; a terminal, make repl or Thonny "
          "holding the port keeps the board from answering")
GONE = "the USB cable was pulled or the board restarted"
# what the port's errors mean here, in words for the page
ERRNO_WORDS = {errno.ENOENT: "no such port: the board is not plugged in, or is on another port",
               errno.EBUSY: "another program holds the port",
               errno.EACCES: "this user may not open the port (Linux: sudo usermod -aG dialout $USER, then log in again)",
               errno.EIO: GONE, errno.ENXIO: GONE, errno.ENODEV: GONE}


class Follow:
    """The connection to the board on serial port ``port`` (None: found by
    itself, again at each reconnection). ``on_change()`` is called, under
    no lock, whenever something new came in; read the fields under ``lock``."""

    def __init__(self, port=None, on_change=lambda: None, opener=None):
        self.port = port
        self.on_change = on_change
        self.opener = opener or _open
        self.lock = threading.RLock()
        self.hello = None  # the board's hello answer
        self.lines = []  # the record as text, line k at [k]
        self.frame = None  # (wire bytes, the board's ms)
        self.frames = 0
        self.notes = []  # the board's own lines (its log)
        self.connected = False
        self.why = ""  # why it is not connected, in words for the page
        self.opened = False  # whether the port ever opened
        self.refused = ""  # why the board's answers cannot be followed (make pull stops on it)
        self.last = b""  # the last line the board sent
        self.unread = b""  # the last line from the board that was not JSON
        self._kept = -1  # the lines kept at the last pong
        self._since = 0.0  # since when (time.monotonic()) that many are kept
        self._cut = False  # the next line may be the tail of a line cut short: not the board's log
        self._raw = ""  # the last unforeseen error, as told on stderr
        self.closed = False
        self._serial = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def close(self):
        """Stop following: the board is told so (~unsub) and stops sending at once."""
        self.closed = True
        if self._thread.ident:
            self._thread.join(5)

    def _run(self):
        while not self.closed:
            try:
                self._serial = self.opener(self.port)
                self.opened = True
                self._follow()
            except Exception as err:  # the port failed (serial.SerialException, a read of a port closed under it), or Lost
                self._lost(err)
            finally:
                if self._serial is not None:
                    try:
                        self._serial.close()
                    except OSError:
                        pass
                    self._serial = None
            if not self.closed:
                time.sleep(RETRY_S)

    def _lost(self, err):
        """The port failed or the board fell silent: the page says why."""
        why = self._reason(err)
        with self.lock:
            was, old = self.connected, self.why
            if was or self.hello is None:  # after a loss, the loss's reason stays, not each try's since
                self.why = why
            self.connected = False
        if was or self.why != old:
            self.on_change()

    def _reason(self, err):
        """``err`` in words for the page; one not foreseen is told on stderr as it is."""
        import serial

        if isinstance(err, Lost):
            return str(err)
        if isinstance(err, serial.PortNotOpenError):
            return "the port was closed on this PC"
        if isinstance(err, serial.SerialTimeoutException):
            return "the board stopped reading what this PC sends"
        if getattr(err, "errno", None) in ERRNO_WORDS:
            return ERRNO_WORDS[err.errno]
        if isinstance(err, serial.SerialException):  # (a read of a port whose device is gone)
            return GONE
        raw = "%s: %s" % (type(err).__name__, err)
        if raw != self._raw:
            self._raw = raw
            print("make live: the port failed: %s" % raw, file=sys.stderr)
        return "the port failed in a way this program does not know"

    def _send(self, text):
        self._serial.write(("~%s\n" % text).encode())

    def _follow(self):
        """Read the board's lines until the port fails or the board falls silent."""
        self._serial.write(b"\n")  # whatever was typed on the port before ends here: the hello is a line of its own
        self._send("hello")
        heard = pinged = time.monotonic()
        buffer = b""
        self._cut = True  # the port may open in the middle of a line
        while not self.closed:
            data = self._serial.read(4096)
            now = time.monotonic()
            if data:
                buffer += data
                *lines, buffer = buffer.split(b"\n")
                for text in lines:
                    heard = now
                    self._line(text.strip(b"\r"))
            if now - pinged >= PING_S:
                pinged = now
                self._send("ping" if self.connected else "hello")
            if now - heard > SILENT_S:
                raise Lost("it stopped answering: it restarted, or another program took the port" if self.connected
                           else "the port opened, but nothing on it answers")
        self._send("unsub")  # stopped here: the board stops sending now, not when the subscription lapses

    def _line(self, text):
        self.last = text[:SHOWN]  # (as a wait that times out names it)
        try:
            self._answer(text)
        except Malformed as err:
            with self.lock:
                self.refused = self.why = str(err)
                self.connected = False
            self.on_change()
            raise Lost(str(err))

    def _answer(self, text):
        cut, self._cut = self._cut, False
        if not text.startswith(b"~"):
            if text.strip() and not cut:
                with self.lock:
                    self.notes = (self.notes + [text.decode("utf-8", "replace")])[-NOTES:]
                self.on_change()
            return
        try:
            answer = json.loads(text[1:])
        except ValueError:
            self.unread = text[:SHOWN]
            self._cut = True  # its tail, after the board's own text printed into it, is not the board's log
            return  # a line cut short: the next frame or ping puts it right
        if not isinstance(answer, dict):
            return
        if "hello" in answer:
            self._hello(answer)
        elif isinstance(answer.get("n"), int) and "error" in answer:
            raise Malformed("the board's record line %d is damaged on its flash (%s): restart the board, which "
                            "cuts it away, then try again" % (answer["n"], str(answer["error"])[:SHOWN]))
        elif "line" in answer and isinstance(answer.get("n"), int):
            at = text.find(b'"line": ')
            try:
                raw = text[at + 8:-1].decode()  # the line as the board's file holds it
            except UnicodeDecodeError:
                raise Malformed("the board sent record line %d not as UTF-8 text" % answer["n"])
            if at < 0 or not isinstance(answer["line"], dict):
                raise Malformed("the board sent record line %d not as a JSON object" % answer["n"])
            self._record_line(answer["n"], raw)
        elif "frame" in answer:
            try:
                wire = bytes.fromhex(answer["frame"])
            except (TypeError, ValueError):
                return  # a frame cut short: the next one puts it right
            with self.lock:
                self.frame = (wire, answer.get("t"))
                self.frames += 1
        elif "pong" in answer:
            if not answer.get("sub"):
                raise Lost("it restarted")  # its subscription went with it: follow it again
            self._pong(answer.get("steps"))
            return
        else:
            return
        self.on_change()

    def _hello(self, answer):
        if answer["hello"] != PROTOCOL:
            raise Malformed("the board speaks protocol version %r; this PC speaks %d: flash the firmware again "
                            "(make flash)" % (answer["hello"], PROTOCOL))
        for name, kind in HELLO:
            value = answer.get(name)
            if not isinstance(value, kind) or isinstance(value, bool) or (kind is int and value < 0):
                got = "no field %r" % name if name not in answer else "field %r as %s" % (name, json.dumps(value)[:40])
                raise Malformed("the board's hello has %s: flash the firmware again (make flash)" % got)
        with self.lock:
            # another board or game: its record is another (a game with the same header has fewer steps)
            if self.hello is None or not _same_board(self.hello, answer) or answer["steps"] < len(self.lines) - 1:
                self.lines = []
            self.hello = answer
            self.connected = True
            self.refused = self.why = ""
            last = len(self.lines) - 1
        self._send("sub %d" % max(last, 0))

    def _pong(self, steps):
        """The board's count of steps: fewer than the lines here, a new game began; more, with no line
        come for STALL_S, the last line sent was lost."""
        if not isinstance(steps, int) or isinstance(steps, bool):
            return
        now = time.monotonic()
        with self.lock:
            kept = len(self.lines)
            new_game = steps < kept - 1
            if new_game:
                self.lines = []
                kept = 0
            if kept != self._kept or steps < kept:  # a line came, or none is missing: the wait starts again
                self._kept = kept
                self._since = now
            stalled = steps >= kept and now - self._since >= STALL_S
        if new_game or stalled:
            self._since = now  # (the board's answer takes its time: asked again only after as long)
            self._send("sub %d" % max(kept - 1, 0))

    def _record_line(self, n, raw):
        """Line ``n`` of the record; the first one after a subscription is the
        last line kept here: if it differs, a new game began meanwhile."""
        with self.lock:
            lines = self.lines
            if n < len(lines):
                if json.loads(lines[n]) == json.loads(raw):
                    return
                if n == 0:
                    self.lines = [raw]
                else:
                    self.lines = []
                    self._send("sub 0")
            elif n == len(lines):
                lines.append(raw)
            else:
                self._send("sub %d" % max(len(lines) - 1, 0))  # a line was lost: ask from the last one kept

    def record_text(self):
        with self.lock:
            return "".join(text + "\n" for text in self.lines)


class Lost(Exception):
    """The board went away, or cannot be followed."""


class Malformed(Lost):
    """The board's answers cannot be followed: firmware to flash again, a damaged record."""


# the fields of a hello this side reads, and their kinds
HELLO = (("record", int), ("game", str), ("board", str), ("players", int), ("options", dict), ("steps", int))
SHOWN = 160  # the most of a line the board sent that a message repeats


def _same_board(a, b):
    return all(a.get(k) == b.get(k) for k in ("game", "board", "players", "options"))


def _open(port):
    import serial
    from serial.tools import list_ports

    from host.pico.build import PICO_VID

    if not port:
        picos = [p.device for p in list_ports.comports() if p.vid == PICO_VID]
        if len(picos) != 1:
            raise Lost("several Picos are plugged in (%s): name one: PORT=%s" % (", ".join(picos), picos[0])
                       if picos else "no Pico running MicroPython is plugged in")
        port = picos[0]
    return serial.Serial(port, timeout=0.05, write_timeout=2)


# ---- the page's session ------------------------------------------------------------------

class LiveSession:
    """The board on the USB port as host/sim/web/server.py serves a session: the
    same news (board, record, state, frame), nothing the page may change."""

    listeners = 0
    loaded = None

    def __init__(self, follow):
        self.id = "live"
        self.lock = threading.Condition(threading.RLock())
        self.idle_since = time.monotonic()  # (the server never puts the board itself away)
        self.closed = False
        self.version = 0
        self.news = {}
        self.follow = follow
        self.game = None
        self._story = []  # the record as the page lists it
        self._story_game = None
        self._told = []  # the lines it tells
        self._hello = None  # the hello and the count of frames last published
        self._frames = -1
        self._state = None
        follow.on_change = self.publish
        self.publish()  # a page opened before any board answers reads where it is looked for

    @property
    def rig(self):
        return self  # what the server names the record download after: ``rig.game.name``

    @property
    def lines(self):
        return self.follow.lines

    _post = Session._post
    updates = Session.updates
    record_text = Session.record_text

    def act(self, request):
        raise ValueError("this is the board itself, followed live: play on the board")

    def close(self):
        with self.lock:
            self.closed = True
            self.lock.notify_all()
        self.follow.closed = True

    def publish(self):
        """Post what changed since the last call."""
        f = self.follow
        with f.lock, self.lock:
            hello, lines, frame, frames = f.hello, list(f.lines), f.frame, f.frames
            if hello is not None and hello is not self._hello:
                self._hello = hello
                try:
                    fresh = start(json.dumps(_header(hello)), read_board)
                except RulesError as err:
                    f.why = "the board's game cannot be shown here: %s" % err
                    return
                if self.game is None or fresh.board.name != self.game.board.name or fresh.name != self.game.name:
                    self.game = fresh  # until the record is read
                    self._told = []
                    self._post("board", layout.board_layout(fresh))
            if lines and lines != self._told:
                self._replay(lines)
            if hello is not None and frames != self._frames and frame is not None:
                self._frames = frames
                self._post("frame", _frame(frame[0], hello, frames))
            state = self.state()
            if self.news.get("state") is None or state != self._state:
                self._state = state
                self._post("state", state)

    def _replay(self, lines):
        """The game after ``lines``, and each step's sentences for the record."""
        told = self._told
        if not told or told != lines[:len(told)]:  # the first lines, or another game's
            self._story = []
            try:
                self._story_game = start(lines[0], read_board)
            except RulesError as err:
                self._post("record", {"steps": [{"who": -1, "step": "?", "says": [str(err)]}], "replay": None})
                return
            told = lines[:1]
        for number in range(len(told), len(lines)):
            self._story.append(_told(self._story_game, lines[number], number))
        self._told = list(lines)
        self.game = self._story_game
        self._post("record", {"steps": self._story, "replay": None})

    def state(self):
        """What the panel shows: whose turn, what stands where as the record has it, the connection."""
        f = self.follow
        game = self.game
        if game is None:
            return {"phase": "roll", "turn": 0, "actor": 0, "seats": [], "winners": [], "say": self._say(None),
                    "dice": "", "standings": [], "pieces": [], "hand": [], "wheels": [], "buttons": [False, False],
                    "picked": "", "paused": False, "duel": [], "notes": f.notes, "lights": []}
        where = layout.pieces(game) or []
        winners = views.winners(game)
        duel = [p for p, _, _ in game.chance_outcomes()] if game.phase == POPOFF else []
        return {
            "phase": PHASE_NAMES[game.phase], "turn": game.turn, "actor": game.actor,
            "seats": ["human"] * game.players, "winners": list(winners) if game.phase == OVER else [],
            "say": self._say(game), "dice": "", "standings": layout.standings(game),
            "pieces": [[s, [_shown(p) for p in stack]] for s, stack in enumerate(where) if stack],
            "hand": [], "wheels": list(getattr(game, "wheels", ())), "buttons": [False, False],
            "picked": "", "paused": False, "duel": duel, "notes": f.notes, "lights": [], "connected": f.connected,
        }

    def _say(self, game):
        f = self.follow
        if not f.connected:
            if f.refused:
                return "The board answers, but cannot be followed: %s. Trying again every %g s." % (f.refused, RETRY_S)
            if f.hello is None:
                return "Looking for the board on %s%s … trying again every %g s. If it does not answer: %s." % (
                    f.port or "USB", " (%s)" % f.why if f.why else "", RETRY_S, CHECKS)
            return "The board went away (%s): trying again every %g s." % (f.why, RETRY_S)
        if game is None:
            return "Connected: reading the record."
        return "Live from the board: %s. Step %d." % (_waits(game), max(len(f.lines) - 1, 0))


def _waits(game):
    """What the game waits for, in words."""
    if game.phase == OVER:
        winners = views.winners(game)
        return " and ".join("player %d" % (p + 1) for p in winners) + " won" if winners else "a tie"
    what = {"roll": "rolls", "decide": "moves", "wheel": "turns a wheel", "popoff": "is in a pop-off"}
    return "player %d %s" % (game.actor + 1, what[PHASE_NAMES[game.phase]])


def _header(hello):
    return {"record": hello["record"], "game": hello["game"], "board": hello["board"],
            "players": hello["players"], "options": hello["options"]}


def _frame(wire, hello, n):
    """The frame news the page draws: screen colours of the wire bytes, the estimated draw."""
    offsets = hello.get("offsets", (1, 0, 2))
    colours = wire_colours(wire, offsets)
    r, g, b = offsets
    dynamic = sum(wire[i + r] * RED_MA + wire[i + g] * GREEN_MA + wire[i + b] * BLUE_MA
                  for i in range(0, len(wire) - 2, 3))
    return {"pixels": "".join("%02x%02x%02x" % c for c in colours), "n": n,
            "ma": len(colours) * IDLE_MA + dynamic // 255, "budget": hello.get("budget", 0),
            "brightness": 0, "limited": False}


# ---- make pull -----------------------------------------------------------------------------

def pull(port, out, wait_s=30.0, opener=None):
    """Copy the board's record and save into folder ``out``; returns their paths."""
    follow = Follow(port, opener=opener).start()
    try:
        began = time.monotonic()
        deadline = began + wait_s
        while True:
            with follow.lock:
                hello, lines = follow.hello, list(follow.lines)
                refused, why, opened = follow.refused, follow.why, follow.opened
                sent = "the last line it sent that was not JSON: %r" % follow.unread if follow.unread else \
                    "the last line it sent: %r" % follow.last if follow.last else "it sent nothing"
            if refused:
                raise Lost(refused)
            if not opened and time.monotonic() > began + FIND_S:
                raise Lost("no board on %s (%s): %s" % (port or "USB", why, CHECKS))
            if hello is not None and len(lines) >= hello["steps"] + 1 and follow.connected:  # (steps played meanwhile)
                break
            if time.monotonic() > deadline:
                had = "%d of its %d record lines came" % (len(lines), hello["steps"] + 1) if hello else "no hello came"
                raise Lost("the board did not send its record within %g s: %s%s; %s"
                           % (wait_s, had, " (%s)" % why if why else "", sent))
            time.sleep(0.05)
    finally:
        follow.close()
    game = replay(lines, read_board)  # what the record holds is the game the save must hold
    name = "game-%s" % hello["board"]
    record = os.path.join(out, name + ".jsonl")
    with open(record, "w") as f:
        f.write("".join(text + "\n" for text in lines))
    save = os.path.join(out, name + ".sav")
    storage.save(save, json.dumps({"version": VERSION, "steps": len(lines) - 1, "state": game.save()}))  # as app.keeper saves it
    return record, save


def main(argv=None):
    from host.sim.web.server import serve

    parser = argparse.ArgumentParser(prog="python -m host.pico.live", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", help="the Pico's serial port (default: found by itself)")
    parser.add_argument("--web-port", type=int, default=8000, help="the page's port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this PC only)")
    parser.add_argument("--pull", action="store_true", help="copy the record and the save to --out, then stop")
    parser.add_argument("--out", default=".", help="where --pull puts them (default: here)")
    args = parser.parse_args(argv)
    if args.pull:
        try:
            for path in pull(args.port, args.out):
                print("wrote %s" % path)
        except (Lost, RulesError, OSError, ValueError) as err:
            print("error: %s" % err, file=sys.stderr)
            return 1
        return 0

    if args.port and args.port.isdigit():  # make sim's PORT= is the page's: not the board's
        print("error: PORT= is the board's serial port (e.g. /dev/ttyACM0); the web page's port is WEB_PORT=%s"
              % args.port, file=sys.stderr)
        return 1
    follow = Follow(args.port)

    def begin(server):
        server.follow_live(LiveSession(follow))
        follow.start()
        return "Following the board live: open %s in a browser (Ctrl-C stops)" % server.url

    try:
        return serve(args.host, args.web_port, "make live WEB_PORT=8001", begin)
    finally:
        follow.close()  # (Ctrl-C and SIGTERM too) the board stops sending now, not once the subscription lapses


if __name__ == "__main__":
    sys.exit(main())
