"""One board in the browser: the hands at a simulated board
(``host.sim.hands``: the firmware's controller on ``host.rig.Rig``, the
table around it, the computer seats), its clock following real time, and
the news the page is sent.

A click on the page becomes what a hand does on a real board, and the
controller reacts to it as on the Pico. The computer seats act on the
board's clock, pausing after every step as long as the session's speed says
(``SPEEDS``), or, at speed ``step``, only when asked (``next``); at
``instant`` with no person at the table the clock runs as fast as the PC can.

What the page shows of the lights is the pixel port's last frame through
``host.sim.screen.screen_colours``; nothing about the game is worked out twice.
"""

import json
import os
import shutil
import tempfile
import threading
import time

from app.keeper import Keeper
from host.boardfile import read_board
from host.rig import Rig
from host.sim import views
from host.sim.hands import DEFAULT_SPEED, SPEEDS, Hands
from host.sim.screen import screen_colours
from host.sim.waits import waits
from host.sim.web import layout
from rules.core import LION, OVER, PHASE_NAMES, POPOFF, RulesError
from rules.games import find_game, new_game
from rules.players import PLAYERS
from rules.playout import Rng
from rules.record import RecordError, apply, replay, start

LION_MARK = -2  # how the page is told a piece is one of Mehen's lions
PUBLISH_MS = 15  # how often news is gathered for the page
LOG_LINES = 40  # the controller's last log lines the page lists
CATCH_UP_MS = 250  # after a stall (a busy machine) the clock jumps rather than races
UNWATCHED_S = 60  # a board nobody has watched for this long stands still (its clock stops)
WARP_TICKS = 200  # at "instant" with computers only: ticks run per pass of the clock
_ORDER = ("board", "record", "state", "frame")  # the page needs the board before anything on it


def create(name, players, seats, options, sensors=True, speed=DEFAULT_SPEED, **kw):
    """A session with a fresh game (``sensors`` False: a board without piece
    sensors, played in button mode); RulesError says what is wrong with the settings."""
    find_game(name if isinstance(name, str) else repr(name))
    if not isinstance(speed, str) or speed not in SPEEDS:
        raise RulesError("speed: one of %s" % ", ".join(SPEEDS))
    if not isinstance(options, (dict, type(None))):
        raise RulesError("options: must be an object of rule options")
    if not isinstance(sensors, bool):
        raise RulesError("sensors: true for a board with piece sensors, false for one played with its buttons")
    game = new_game(name, read_board(name), players, options or {})
    seats = seats or ["human"] * game.players
    if not isinstance(seats, list) or len(seats) != game.players or any(s not in layout.SEATS for s in seats):
        raise RulesError("seats: one of %s for each of the %d players" % (", ".join(layout.SEATS), game.players))
    return Session(game, seats, sensors=sensors, speed=speed, **kw)


def load(text, **kw):
    """A session at the end of a game record (every seat human), which can be
    stepped through; RecordError names the first line that is wrong."""
    lines = [t.strip() for t in text.splitlines() if t.strip()]
    game = replay(lines, read_board)
    return Session(game, ["human"] * game.players, loaded=(lines[0], lines[1:]), **kw)


class Session(Hands):
    """``running=False`` leaves the clock still: ``advance(ms)`` moves it."""

    def __init__(self, game, seats, urandom=os.urandom, speed=DEFAULT_SPEED, loaded=None, sensors=True, running=True):
        self.id = os.urandom(8).hex()
        self.folder = tempfile.mkdtemp(prefix="board-sim-")
        self.keeper = Keeper(self.folder + os.sep)  # a save and a record, kept as on the Pico
        self.urandom = urandom
        self.seats = seats
        self.sensors = sensors  # False: button mode, the pieces are moved by hand where the lights say
        self.players = {p: PLAYERS[kind](Rng(int.from_bytes(urandom(4), "little") | 1))
                        for p, kind in enumerate(seats) if kind != "human"}
        self.speed = speed
        self.asked = False  # at speed "step": a person asked the computer seats for their next step
        self.lock = threading.Condition(threading.RLock())
        self.closed = False
        self.paused = False
        self.version = 0
        self.news = {}  # kind -> (version, the event as the streams send it, what it shows): the latest of each
        self.notes = []  # what the controller logged
        self.listeners = 0
        self.idle_since = time.monotonic()
        self.loaded = loaded  # (header line, step lines) of a record loaded to replay
        self.lines = []  # the game record so far
        with self.lock:
            self._begin(game, loaded[1] if loaded else ())
        if running:
            threading.Thread(target=self._clock, daemon=True).start()

    # -- setting up -------------------------------------------------------------

    def _begin(self, game, steps=()):
        """Put ``game`` on the board, its record so far being ``steps``."""
        self.keeper.begin(game, steps)
        self.rig = Rig(game, self.urandom, sensors=self.sensors, keeper=self.keeper, log=self._note)
        self._saved = self.keeper.steps  # steps in the record (a throw is saved once the dice settle)
        self._shown = None  # what the last frame sent showed
        self.frame_sent = -1  # the firmware's count of frames at the last frame sent
        self._state_sent = None
        self._story_head = None
        self.story = []
        self._hands_on(game)
        self._post("board", dict(layout.board_layout(game), buttons=self._panel(game), sensors=self.sensors))
        self._record_news()

    def close(self):
        with self.lock:
            self.closed = True
            self.lock.notify_all()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- the clock ----------------------------------------------------------------

    def _clock(self):
        """Advance the controller's clock with real time, 5 ms a tick as on the Pico."""
        last = published = time.monotonic()
        while not self.closed:
            time.sleep(0.004)
            now = time.monotonic()
            if self.listeners == 0 and now - self.idle_since > UNWATCHED_S:
                time.sleep(0.25)
                last = now
                continue
            ticks = int((now - last) * 1000) // Rig.STEP_MS
            if ticks * Rig.STEP_MS > CATCH_UP_MS:
                ticks, last = CATCH_UP_MS // Rig.STEP_MS, now
            else:
                last += ticks * Rig.STEP_MS / 1000
            with self.lock:
                if self.closed:
                    return
                if not self.paused:
                    if self._warping():
                        ticks, last = WARP_TICKS, now
                    self._run(ticks)
                if now - published >= PUBLISH_MS / 1000:
                    published = now
                    self._publish()

    def advance(self, ms):
        """Run the board ``ms`` on, the computer seats acting as they would."""
        with self.lock:
            self._run(ms // Rig.STEP_MS)

    def _warping(self):
        """Whether the clock runs as fast as it can: at speed instant, with computers only."""
        snap = self.rig.snap
        return (self.speed == "instant" and len(self.players) == len(self.seats)
                and snap.phase != OVER and not snap.prompt)

    def _watch(self):
        """Notice a step the controller applied or saved, or a new game it started: the record's news."""
        fresh = self.rig.snap.game is not self._game
        super()._watch()
        if fresh:
            self._record_news()
        elif self.keeper.steps != self._saved:
            if self.loaded and self._record_lines()[1:] != self.loaded[1][:self.keeper.steps]:
                self.loaded = None  # played on differently: no longer a replay
            self._record_news()
        self._saved = self.keeper.steps

    def _note(self, text):
        self.notes = (self.notes + [text])[-LOG_LINES:]

    # -- what the page does ---------------------------------------------------------

    def act(self, request):
        """Apply one action from the page; ValueError says what was wrong with it."""
        what = request.get("do")
        n = request.get("n", 0)
        if not isinstance(n, int):
            raise ValueError("n must be a whole number")
        with self.lock:
            if what == "button" and 0 <= n < len(self.down):
                self.button(n, bool(request.get("down")))
            elif what == "panel" and 0 <= n < len(self.panel_down):
                self.button(n, bool(request.get("down")), panel=True)
            elif what == "pause":
                self.paused = bool(request.get("on"))
            elif what == "speed":
                speed = request.get("to")
                if not isinstance(speed, str) or speed not in SPEEDS:
                    raise ValueError("to: the speed is one of %s" % ", ".join(SPEEDS))
                self.speed = speed
                self.asked = False
                self.due = min(self.due, self.rig.now + SPEEDS[speed])
            elif what == "next":
                self.asked = True
            elif what == "brightness" and 1 <= n <= 100:
                self.rig.ports.pixels.brightness = (n * 256 + 50) // 100
            elif what == "goto" and self.loaded:
                self._goto(n)
            elif not self.table_act(what, n, request):
                raise ValueError("cannot do %r with n=%r now" % (what, n))
            self._publish()

    def _goto(self, k):
        """The loaded record's game after its first ``k`` steps."""
        head, steps = self.loaded
        k = max(0, min(k, len(steps)))
        game = start(head, read_board)
        for number, text in enumerate(steps[:k]):
            apply(game, text, number + 2)
        self._begin(game, steps[:k])

    # -- news for the page ------------------------------------------------------------

    def _post(self, kind, payload):
        """News for the page, encoded once as the event every stream sends,
        with what it shows (a frame's count aside): a stream that fell behind
        skips news that shows what it sent last (breathing pieces back at the
        level it saw)."""
        self.version += 1
        event = ("event: %s\ndata: %s\n\n" % (kind, json.dumps(payload))).encode()
        self.news[kind] = (self.version, event, json.dumps({k: v for k, v in payload.items() if k != "n"}))
        self.lock.notify_all()

    def _publish(self):
        """Post what changed: the frame only when it shows something new (the
        firmware sends one every 20 ms, mostly the same), the state likewise."""
        pixels = self.rig.ports.pixels
        shown = {"pixels": "".join("%02x%02x%02x" % c for c in screen_colours(pixels)),
                 "ma": pixels.draw_ma, "budget": pixels.budget_ma,
                 "brightness": pixels.brightness * 100 // 256, "limited": pixels.scale < pixels.brightness}
        if shown != self._shown:
            self._shown = shown
            self.frame_sent = self.rig.sim.frames
            self._post("frame", dict(shown, n=self.frame_sent))
        self._relabel()
        state = self.state()
        if state != self._state_sent:
            self._state_sent = state
            self._post("state", state)

    def updates(self, seen, wait=15, ended=lambda: False):
        """The news the page has not seen (``seen``: kind -> version), waiting
        up to ``wait`` s, or until ``ended()`` says the stream is over: [(kind, version, event bytes, what it shows)]."""
        with self.lock:
            deadline = time.monotonic() + wait
            while not self.closed and not ended():
                fresh = [(kind,) + self.news[kind] for kind in _ORDER if kind in self.news
                         and seen.get(kind) != self.news[kind][0]]
                left = deadline - time.monotonic()
                if fresh or left <= 0:
                    return fresh
                self.lock.wait(left)
            return []

    def _record_lines(self):
        """The record as the controller wrote it, read after each step and
        kept here: a download needs no file (the folder goes with the session)."""
        try:
            with open(self.keeper.record_path) as f:
                self.lines = [text.strip() for text in f if text.strip()]
        except FileNotFoundError:  # the session was closed, its folder removed
            pass
        return self.lines

    def record_text(self):
        with self.lock:
            return "".join(text + "\n" for text in self.lines)

    def _record_news(self):
        """The record as the page lists it: each step, who took it, what happened;
        of a record loaded to replay, every step, the page marking where it stands."""
        lines = self._record_lines()
        if self.loaded:
            lines = [self.loaded[0]] + self.loaded[1]
        if not lines:
            return
        if lines[0] != self._story_head or len(lines) - 1 < len(self.story):
            self._story_head = lines[0]
            self._story_game = start(lines[0], read_board)
            self.story = []
        for number in range(len(self.story) + 1, len(lines)):
            self.story.append(_told(self._story_game, lines[number], number))
        replaying = {"at": self.keeper.steps, "of": len(self.loaded[1])} if self.loaded else None
        self._post("record", {"steps": self.story, "replay": replaying})

    def state(self):
        """What the panel shows, and what stands on the board."""
        snap = self.rig.snap
        game = snap.game
        pieces = [[s, [_shown(piece) for piece in stack]] for s, stack in enumerate(self.phys) if stack]
        rolled = snap.roll != () and not snap.rattling(self.rig.now)
        picked = snap.picked[1] if snap.picked is not None else None
        winners = views.winners(game)
        return {
            "phase": PHASE_NAMES[game.phase], "turn": game.turn, "actor": game.actor, "seats": self.seats,
            "winners": list(winners) if game.phase == OVER else [],
            "say": self._instruction(), "dice": layout.roll_text(game, snap.roll) if rolled else "",
            "standings": layout.standings(game), "pieces": pieces,
            "hand": [_shown(piece) + [came] for piece, came in self.hand],
            "wheels": list(self.rig.sim.positions), "buttons": [d is not None for d in self.down],
            "picked": self._describe(picked) if picked is not None else "", "paused": self.paused,
            "speed": self.speed,
            "duel": list(snap.duel) if game.phase == POPOFF and snap.duel is not None else [],
            "notes": self.notes, "lights": self._lights(),
        }

    def _lights(self):
        """What each lit space asks for, in the words of the colour language
        (README): [[space, meaning], ...], the layers in the order
        ``app.paint`` paints them, the last one said winning."""
        snap = self.rig.snap
        if snap.phase == OVER or snap.prompt:
            return []
        hand = snap.hand
        said = {}
        if snap.offered is None:
            for _, f, t in snap.moves:
                said[f] = "a piece that may move (breathing)"
            for _, f, t in snap.moves:
                if f == hand or (hand < 0 and snap.expected[f] >= 2):
                    said[t] = "the lifted piece may go here (white)"
            if hand >= 0:
                said[hand] = "the lifted piece came from here"
            for s in snap.hint or ():
                said[s] = "the suggested move (white, slow blink)"
        if snap.picked is not None and (snap.offered is not None or snap.choice or snap.unseen):
            for d, f, t in snap.moves:
                if d == snap.picked[1]:
                    said[f] = "the piece of the move button 1 shows (breathing)"
                    said[t] = "where the move button 1 shows leads (white, quick flashes)"
        for s in snap.missing:
            said[s] = "put a piece here (amber, blinking)"
        for s in snap.extra:
            said[s] = "wrong: no piece belongs here (red, fast blink)"
        return [[s, said[s]] for s in sorted(said)]

    def _describe(self, decision):
        """A decision offered on the buttons, and what it would do."""
        game = self.rig.snap.game.copy()
        text = game.notation(decision)
        view = views.find(game.name)
        try:
            says = [view.say(game, e) for e in game.play(decision) if e[0] != "turn"]
        except RulesError:
            return text
        return "%s: %s" % (text, "; ".join(says[:2])) if says else text

    def _who(self, p):
        return "Player %d%s" % (p + 1, "" if p not in self.players else " (computer)")

    def _instruction(self):
        """One sentence: what the board waits for now (``host.sim.waits``)."""
        snap = self.rig.snap
        board = snap.game.board
        names = board.ids
        what, who, detail = waits(snap, self.rig.ports)
        if what == "new_game":
            return "New game? Hold button 2 again to start one; a click keeps this game."
        if what == "over":
            return " and ".join("Player %d" % (p + 1) for p in detail) + " won!" if detail else "A tie."
        if what == "popoff":
            return "Pop-off! Player %d presses button 1, player %d button 2: the first 6 wins." % (
                detail[0] + 1, detail[1] + 1)
        if what == "turning":
            return "A wheel is turning: the board follows it once the wheel rests."
        if what == "board":
            extra, missing, wheels = detail
            if missing and not extra and not wheels and all(board.kinds[s] == "start" for s in missing):
                # pieces the rules have just brought into play (or a board still to be set up)
                return "Put the pieces on their START: %s (click the space)." % ", ".join(names[s] for s in missing)
            parts = []
            if missing:
                parts.append("put a piece on " + ", ".join(names[s] for s in missing) + " (click the space)")
            if extra:
                parts.append("take the piece off " + ", ".join(names[s] for s in extra) + " (click it)")
            if wheels:
                parts.append("turn wheel " + ", ".join(board.wheel_ids[w] for w in wheels) + " back")
            return "The board differs from the game: " + "; ".join(parts) + "."
        name = self._who(who)
        if who in self.players:  # a computer seat acts by itself: nobody is told to click
            if self.speed == "step":
                return "%s waits for Next step." % name
            doing = "choosing" if what != "throw" else "throwing the sticks" if detail else "rolling"
            return "%s is %s\u2026" % (name, doing)
        if what == "throw":
            return "%s: press a die button to %s." % (name, "throw the sticks" if detail else "roll")
        if what in ("choice", "offered"):
            return "%s: click button 1 for the next choice, hold it to confirm this one." % name
        if what == "named":
            return "%s: %s." % (name, views.buttons_words(snap.game.name)[0])
        if what == "wheel":
            return "%s landed on a star: turn one wheel a quarter turn." % name
        hint = ""
        if snap.hint:
            hint = " Hint: the piece on %s to %s (blinking white)." % (names[snap.hint[0]], names[snap.hint[1]])
        if detail >= 0:
            return "%s: put the piece down on a white space.%s" % (name, hint)
        return "%s: lift a glowing piece (click it), then click a white space.%s" % (name, hint)

def _told(game, text, number):
    """Line ``number`` of a record (``text``) played on ``game``, as the page
    lists it: who took the step, the step, and what happened in words."""
    who = -1 if game.phase == POPOFF else game.actor
    try:
        events = apply(game, text, number + 1)
    except RecordError as err:  # cannot happen with a controller's own record; say so if it does
        return {"who": -1, "step": "?", "says": [str(err)]}
    view = views.find(game.name)
    return {"who": who, "step": list(json.loads(text).values())[0],
            "says": [view.say(game, e) for e in events if e[0] != "turn"]}


def _shown(piece):
    """A piece as the page draws it: Mehen's lions by a mark of their own."""
    return [LION_MARK if piece[0] == LION else piece[0], piece[1], piece[2]]
