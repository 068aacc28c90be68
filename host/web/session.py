"""One board in the browser: the firmware's controller on a simulated board
(``host.rig.Rig``), its clock following real time, and what stands on
the board around it.

The controller sees only pins: button levels, sensor bits, wheel codes, the
edges of the pocket beams. This module owns the physical side of the table,
which no firmware knows: which pieces stand on which space (a stack can stand
on a START or a tail), the pieces in the players' hand, the wheels. A click
on the page becomes what a hand does on a real board, and the controller
reacts to it as on the Pico. Computer seats play through the same hands: they
press the die buttons, lift and put pieces, turn wheels, press Tiddlee Snuka's
own buttons, and click through the button picker where nothing else says it.
They act on the board's clock, pausing after every step as long as the
session's speed says (``SPEEDS``), or, at speed ``step``, only when asked
(``next``); at ``instant`` with no person at the table the clock runs as fast
as the PC can.

What the page shows of the lights is the pixel port's last frame through
``host.screen.screen_colours``; nothing about the game is worked out twice.
"""

import json
import os
import shutil
import tempfile
import threading
import time

from app.keeper import Keeper
from hal.buttons import LONG_MS
from hal.sensors import LIFT_MS
from hal.ticks import diff
from host.boardfile import read_board
from host import views
from host.rig import Rig
from host.screen import screen_colours
from host.web import layout
from rules.core import DECIDE, LION, OVER, PHASE_NAMES, POPOFF, ROLL, WHEEL, RulesError
from rules.games import find_game, new_game
from rules.players import PLAYERS
from rules.playout import Rng
from rules.record import RecordError, apply, replay, start

BOX = -1  # a piece from the box: nobody's until the game says whose
LION_MARK = -2  # how the page is told a piece is one of Mehen's lions
CLICK_MS = 40  # the shortest press of a button (the firmware debounces 6 ms)
HOLD_MS = LONG_MS + 150  # a long press
SWAP_MS = 3 * LIFT_MS  # a piece taken off a space, then another set down there: both are sensed
PUBLISH_MS = 15  # how often news is gathered for the page
LOG_LINES = 40  # the controller's last log lines the page lists
CATCH_UP_MS = 250  # after a stall (a busy machine) the clock jumps rather than races
RETRY_MS = 3000  # a computer's move the board has not taken by then is tried again
UNWATCHED_S = 60  # a board nobody has watched for this long stands still (its clock stops)
# how long the board runs after each step before a computer seat takes its next
# one; at "step" a computer seat acts only when asked (``next``)
SPEEDS = {"slow": 1500, "normal": 500, "fast": 0, "instant": 0, "step": 0}
DEFAULT_SPEED = "fast"
HAND_MS = 40  # between the motions of one step (a piece lifted, then put down)
UP_MS = 4 * Rig.STEP_MS  # a button let go stays up this long before it is pressed again (the firmware debounces 6 ms)
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


class Table:
    """What stands on a board's table, which no firmware knows: which pieces
    stand on which space (a stack can stand on a START or a tail), the pieces
    in the players' hands, and what a click does there. Its user gives the
    board (``_game``, ``sensors``, ``phys``, ``hand``) and the parts a hand
    touches: ``_switch(s, closed)`` (space ``s``'s reed), ``_beam(s)``,
    ``_turn(w, quarters)``, ``_later(ms, action)`` and ``_tracked()``
    (whether the game tracks pieces at all)."""

    def _set_up(self):
        """Every piece where the game has it, the hand empty: a board set up by hand.
        A piece is [owner, what is written on it, heading] (``layout.pieces``)."""
        where = layout.pieces(self._game)
        self.hand = []
        self.phys = where or [[] for _ in self._game.board.ids]
        for s in range(len(self.phys) if where else 0):
            self._sense(s)

    def _relabel(self):
        """Where the board agrees with the game, its pieces are the game's (the
        letter, the heading after a move, the owner of a piece from the box)."""
        where = layout.pieces(self._game)
        for s in range(len(where) if where else 0):
            if len(self.phys[s]) == len(where[s]):
                self.phys[s] = where[s]

    def _sense(self, s):
        """The space's sensor closes while any piece stands on it."""
        self._switch(s, bool(self.phys[s]))

    def _take(self, s):
        """Lift a piece off ``s``: from a stack, one of the player's whose move it is."""
        stack = self.phys[s]
        mine = [i for i in range(len(stack)) if stack[i][0] == self._game.actor]
        entry = [stack.pop(mine[-1] if mine else -1), s]
        self.hand.append(entry)
        self._sense(s)
        return entry

    def _place(self, s, entry):
        if entry in self.hand:
            self.hand.remove(entry)
        self.phys[s].append(entry[0])
        self._sense(s)

    def _swap(self, s, entry):
        """Take what stands on ``s`` off (all of a stack, so that its sensor
        opens), then set ``entry`` down there: how a capture is made."""
        if entry in self.hand:
            self.hand.remove(entry)
        while self.phys[s]:
            self._take(s)
        self._later(SWAP_MS, lambda: self._place(s, entry))

    def click_space(self, s):
        """What a click on a space does: lift a piece, put the one in hand, or both."""
        if not self.sensors:
            raise ValueError("this board has no piece sensors: button 1 shows the next move, a long press makes it")
        if not self._tracked():  # no pieces tracked: the space may be a pocket
            if self._game.board.kinds[s] == "pocket":
                self._beam(s)  # a counter drops through the beam
            return
        if not self.hand:
            if self.phys[s]:
                self._take(s)
            else:
                self._place(s, [[BOX, "", -1], -1])
            return
        held = self.hand[-1]
        if not self.phys[s] or held[1] == s:
            self._place(s, held)
        else:
            self._swap(s, held)

    def turn_wheel(self, w, quarters):
        """Turn a Detour wheel: the pieces standing on its disc go round with it
        (``_turn`` moves them over the sensors; here they keep who they are)."""
        from rules.detour import ROT_SLOT
        cells = self._game.board.wheel_cells[9 * w:9 * w + 9]
        for _ in range(quarters & 3):
            moved = [None] * 9
            for k in range(9):
                moved[ROT_SLOT[k]] = self.phys[cells[k]]
            for k in range(9):
                self.phys[cells[k]] = moved[k]
        self._turn(w, quarters)

    def table_act(self, what, n, request):
        """The page's actions on the table itself; whether ``what`` was one of them."""
        if what == "space" and 0 <= n < len(self.phys):
            self.click_space(n)
        elif what == "turn" and 0 <= n < len(getattr(self._game, "wheels", ())) and request.get("by") in (1, -1):
            self.turn_wheel(n, request["by"])
        elif what == "hand" and 0 <= n < len(self.hand):
            self.hand.append(self.hand.pop(n))  # this piece is the one to put down next
        elif what == "put_away" and self.hand:
            self.hand.pop()
        elif what == "set_up":
            self._set_up()
        else:
            return False
        return True


class Session(Table):
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
        self.news = {}  # kind -> (version, the event as the streams send it): the latest of each
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
        self.hand = []  # pieces in the players' hands: [piece, space it came from]
        self.down = [None] * len(self.rig.sim.levels)  # when each die button went down
        self.panel_down = [None] * len(self._panel(game))  # when each of the board's own buttons did
        self.later = []  # (sim time, action): button releases, the second half of a swap
        self.plans = {}
        self.carrying = None
        self.tidy_for = -1  # a computer seat that still puts the pieces right after its step
        self.due = self.rig.now  # no computer seat acts before this
        self.duel_turn = 0
        self._game = game
        self._steps = self.rig.ctl.steps()  # played
        self._saved = self.keeper.steps  # and in the record (a throw is saved once the dice settle)
        self._actor = game.actor
        self._shown = None  # what the last frame sent showed
        self.frame_sent = -1  # the firmware's count of frames at the last frame sent
        self._state_sent = None
        self._story_head = None
        self.story = []
        self._set_up()
        self._post("board", dict(layout.board_layout(game), buttons=self._panel(game), sensors=self.sensors))
        self._record_news()

    def _panel(self, game):
        """The names of the board's own buttons (Tiddlee Snuka's); a board
        without sensors has only the die buttons (``Rig``)."""
        return [name for name, _ in game.board.buttons] if self.sensors else []

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

    def _run(self, ticks):
        for _ in range(ticks):
            self._tick()

    def _tick(self):
        rig = self.rig
        rig.now += Rig.STEP_MS
        while self.later and self.later[0][0] <= rig.now:
            self.later.pop(0)[1]()
        rig.ctl.tick(rig.now)
        self._watch()
        if self.players and diff(rig.now, self.due) >= 0:
            if self.later or any(d is not None for d in self.down) or any(d is not None for d in self.panel_down):
                self.due = rig.now + UP_MS  # the hands are busy
            elif self._computer_step():
                self.due = rig.now + HAND_MS

    def _warping(self):
        """Whether the clock runs as fast as it can: at speed instant, with computers only."""
        ctl = self.rig.ctl
        return (self.speed == "instant" and len(self.players) == len(self.seats)
                and ctl.game.phase != OVER and ctl.prompt < 0)

    def _later(self, ms, action):
        self.later.append((self.rig.now + ms, action))
        self.later.sort(key=lambda item: item[0])

    def _watch(self):
        """Notice a step the controller applied, or a new game it started."""
        ctl = self.rig.ctl
        if ctl.game is not self._game:  # a new game from the board's own menu: set it up
            self._game = ctl.game
            self.plans = {}
            self._set_up()
            self._record_news()
        else:
            if ctl.steps() != self._steps:
                if self._actor in self.players:
                    self.tidy_for = self._actor
                if not self.sensors:  # the players moved the pieces as the lights showed
                    self._set_up()
                self.due = self.rig.now + SPEEDS[self.speed]
                self.asked = False
            if self.keeper.steps != self._saved:
                if self.loaded and self._record_lines()[1:] != self.loaded[1][:self.keeper.steps]:
                    self.loaded = None  # played on differently: no longer a replay
                self._record_news()
        self._steps = ctl.steps()
        self._saved = self.keeper.steps
        self._actor = ctl.game.actor

    def _note(self, text):
        self.notes = (self.notes + [text])[-LOG_LINES:]

    # -- what a hand does on the board ------------------------------------------------

    def _switch(self, s, closed):
        if closed:
            self.rig.sim.put(s)
        else:
            self.rig.sim.lift(s)

    def _beam(self, s):
        self.rig.sim.beam(s)

    def _turn(self, w, quarters):
        self.rig.sim.turn(w, quarters)  # (the pieces on the disc go over other sensors)

    def _tracked(self):
        return self.rig.ctl.expected is not None

    def button(self, i, down, panel=False):
        """A die button (``panel``: the board's own button ``i``) goes down or
        up; a press lasts at least a click."""
        since = self.panel_down if panel else self.down
        if down:
            if since[i] is None:
                since[i] = self.rig.now
                self._level(i, panel, 0)
        elif since[i] is not None:
            self._later(max(0, since[i] + CLICK_MS - self.rig.now), lambda: self._release(i, panel))

    def _release(self, i, panel=False):
        (self.panel_down if panel else self.down)[i] = None
        self._level(i, panel, 1)
        self.due = max(self.due, self.rig.now + UP_MS)  # it must read as up before the next press

    def _level(self, i, panel, level):
        """Button ``i``'s line: 0 pressed, 1 let go."""
        if panel:
            self.rig.sim.set_input(self._game.board.buttons[i][1], level)
        elif level:
            self.rig.sim.release(i)
        else:
            self.rig.sim.press(i)

    def _press(self, i, ms, panel=False):
        self.button(i, True, panel)
        self._later(ms, lambda: self._release(i, panel))

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
                self.rig.ctl.ports.pixels.brightness = (n * 256 + 50) // 100
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

    # -- the computer seats ----------------------------------------------------------

    def _computer_step(self):
        """One motion of a computer seat's hands, if one is due: whether it made one."""
        ctl = self.rig.ctl
        game = ctl.game
        if self.tidy_for >= 0:
            if self._tidy_one():
                return True
            self.tidy_for = -1
        if ctl.prompt >= 0 or game.phase == OVER:
            return False
        key = (id(game), ctl.steps())
        if self.speed == "step" and not self.asked and (self.carrying is None or self.carrying[0] != key):
            return False  # a step once begun is finished; the next waits to be asked for
        if game.phase == POPOFF:
            poppers = [r for r in (0, 1) if ctl.duel is not None and ctl.duel.players[r] in self.players]
            if not poppers:
                return False
            self.duel_turn += 1
            self._press(poppers[self.duel_turn % len(poppers)], CLICK_MS)
            return True
        seat = game.actor
        if seat not in self.players:
            return False
        if game.phase == ROLL:
            self._press(0, CLICK_MS)
            return True
        if key not in self.plans:
            self.plans = {key: self.players[seat].choose(game.copy())}
        self._carry_out(key, self.plans[key])
        return True

    def _carry_out(self, key, plan):
        ctl = self.rig.ctl
        game = ctl.game
        if plan[0] in ("pot", "also") and self.sensors and self.carrying != (key, "potted"):
            self.carrying = (key, "potted")  # Tiddlee Snuka: the counter drops through a pocket's beam first
            self.click_space(game.board.pockets[0])
            return
        named = _naming(game, plan, ctl.foul) if ctl.ports.panel is not None else -1
        if named >= 0:  # Tiddlee Snuka: the board's own button that says it
            self._press(named, CLICK_MS, panel=True)
            return
        if ctl.offered is not None or ctl.choice or plan in ctl.unseen:  # the picker: click to it, hold to confirm
            if ctl.choice and plan not in ctl.choice:
                plan = next((c for c in ctl.choice if _looks(game, c) == _looks(game, plan)), ctl.choice[0])
            self._press(0, HOLD_MS if ctl.picked is not None and ctl.picked[1] == plan else CLICK_MS)
            return
        if game.phase == WHEEL:
            if plan[1] < 0:  # passing up the wheel turn: a long press
                self._press(0, HOLD_MS)
                return
            target = (game.wheels[plan[1]] + plan[2]) & 3
            if self.rig.sim.positions[plan[1]] != target:
                self.turn_wheel(plan[1], -1 if plan[2] & 3 == 3 else 1)
            return
        for d, f, t in ctl.moves:
            if d != plan:
                continue
            # (key, piece in hand) after the lift, (key, None, when) after the put
            stage = self.carrying if self.carrying is not None and self.carrying[0] == key else None
            if stage is not None and stage[1] is None:
                if diff(self.rig.now, stage[2]) > RETRY_MS:  # the move was not taken: set the board right, try again
                    self.carrying = None
                    self.tidy_for = game.actor
            elif stage is None or stage[1] not in self.hand:
                if self.phys[f]:
                    self.carrying = (key, self._take(f))
            else:
                if self.phys[t] and t != f:
                    self._swap(t, stage[1])
                else:
                    self._place(t, stage[1])
                self.carrying = (key, None, self.rig.now)
            return

    def _tidy_one(self):
        """One piece put where the game now has it (pieces sent back, placed
        at the start, taken in a capture); False once the board agrees."""
        expected = self.rig.ctl.expected
        if expected is None:
            return False
        for s in range(len(expected)):
            if len(self.phys[s]) > expected[s]:
                self._take(s)
                return True
        for s in range(len(expected)):
            if len(self.phys[s]) < expected[s]:
                self._place(s, self.hand[-1] if self.hand else [[BOX, "", -1], -1])
                return True
        if self.hand:
            self.hand.pop()  # a piece out of play goes back in the box
            return True
        return False

    # -- news for the page ------------------------------------------------------------

    def _post(self, kind, payload):
        """News for the page, encoded once as the event every stream sends."""
        self.version += 1
        self.news[kind] = (self.version, ("event: %s\ndata: %s\n\n" % (kind, json.dumps(payload))).encode())
        self.lock.notify_all()

    def _publish(self):
        """Post what changed: the frame only when it shows something new (the
        firmware sends one every 20 ms, mostly the same), the state likewise."""
        pixels = self.rig.ctl.ports.pixels
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
        up to ``wait`` s, or until ``ended()`` says the stream is over: [(kind, version, event bytes)]."""
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
        view = __import__("host.views." + self._game.name, None, None, ("say",))
        game = self._story_game
        for number in range(len(self.story) + 1, len(lines)):
            who = -1 if game.phase == POPOFF else game.actor
            try:
                events = apply(game, lines[number], number + 1)
            except RecordError as err:  # cannot happen with the controller's own record; say so if it does
                self.story.append({"who": -1, "step": "?", "says": [str(err)]})
                continue
            step = list(json.loads(lines[number]).values())[0]
            self.story.append({"who": who, "step": step, "says": [view.say(game, e) for e in events if e[0] != "turn"]})
        replaying = {"at": self.keeper.steps, "of": len(self.loaded[1])} if self.loaded else None
        self._post("record", {"steps": self.story, "replay": replaying})

    def state(self):
        """What the panel shows, and what stands on the board."""
        ctl = self.rig.ctl
        game = ctl.game
        pieces = [[s, [_shown(piece) for piece in stack]] for s, stack in enumerate(self.phys) if stack]
        rolled = ctl.roll != () and not ctl.tumble.rattling(ctl.now)
        picked = ctl.picked[1] if ctl.picked is not None else None
        winners = views.winners(game)
        return {
            "phase": PHASE_NAMES[game.phase], "turn": game.turn, "actor": game.actor, "seats": self.seats,
            "winners": list(winners) if game.phase == OVER else [],
            "say": self._instruction(), "dice": layout.roll_text(ctl.roll) if rolled else "",
            "standings": layout.standings(game), "pieces": pieces,
            "hand": [_shown(piece) + [came] for piece, came in self.hand],
            "wheels": list(self.rig.sim.positions), "buttons": [d is not None for d in self.down],
            "picked": self._describe(picked) if picked is not None else "", "paused": self.paused,
            "speed": self.speed,
            "duel": list(ctl.duel.players) if game.phase == POPOFF and ctl.duel is not None else [],
            "notes": self.notes, "lights": self._lights(),
        }

    def _lights(self):
        """What each lit space asks for, in the words of the colour language
        (README): [[space, meaning], ...], the layers in the order
        ``app.paint`` paints them, the last one said winning."""
        ctl = self.rig.ctl
        if ctl.game.phase == OVER or ctl.prompt >= 0:
            return []
        extra, missing, _, hand = ctl.view()
        said = {}
        if ctl.offered is None:
            for _, f, t in ctl.moves:
                said[f] = "a piece that may move (breathing)"
            for _, f, t in ctl.moves:
                if f == hand or (hand < 0 and ctl.expected[f] >= 2):
                    said[t] = "the lifted piece may go here (white)"
            if hand >= 0:
                said[hand] = "the lifted piece came from here"
            for s in ctl.hint or ():
                said[s] = "the suggested move (white, slow blink)"
        if ctl.picked is not None and (ctl.offered is not None or ctl.choice or ctl.unseen):
            for d, f, t in ctl.moves:
                if d == ctl.picked[1]:
                    said[f] = "the piece of the move button 1 shows (breathing)"
                    said[t] = "where the move button 1 shows leads (white, quick flashes)"
        for s in missing:
            said[s] = "put a piece here (amber, blinking)"
        for s in extra:
            said[s] = "wrong: no piece belongs here (red, fast blink)"
        return [[s, said[s]] for s in sorted(said)]

    def _describe(self, decision):
        """A decision offered on the buttons, and what it would do."""
        game = self.rig.ctl.game.copy()
        text = game.notation(decision)
        view = __import__("host.views." + game.name, None, None, ("say",))
        try:
            says = [view.say(game, e) for e in game.play(decision) if e[0] != "turn"]
        except RulesError:
            return text
        return "%s: %s" % (text, "; ".join(says[:2])) if says else text

    def _who(self, p):
        return "Player %d%s" % (p + 1, "" if p not in self.players else " (computer)")

    def _instruction(self):
        """One sentence: what the board waits for now."""
        ctl = self.rig.ctl
        game = ctl.game
        names = game.board.ids
        if ctl.prompt >= 0:
            return "New game? Hold button 2 again to start one; a click keeps this game."
        if game.phase == OVER:
            winners = views.winners(game)
            return " and ".join("Player %d" % (p + 1) for p in winners) + " won!" if winners else "A tie."
        if ctl.ports.wheels is not None and ctl.ports.wheels.settling():
            return "A wheel is turning: the board follows it once the wheel rests."
        extra, missing, wheels = ctl.mismatch()
        if missing and not extra and not wheels and all(game.board.kinds[s] == "start" for s in missing):
            # pieces the rules have just brought into play (or a board still to be set up)
            return "Put the pieces on their START: %s (click the space)." % ", ".join(names[s] for s in missing)
        if extra or missing or wheels:
            parts = []
            if missing:
                parts.append("put a piece on " + ", ".join(names[s] for s in missing) + " (click the space)")
            if extra:
                parts.append("take the piece off " + ", ".join(names[s] for s in extra) + " (click it)")
            if wheels:
                parts.append("turn wheel " + ", ".join(game.board.wheel_ids[w] for w in wheels) + " back")
            return "The board differs from the game: " + "; ".join(parts) + "."
        who = self._who(game.actor)
        if game.actor in self.players and game.phase != POPOFF:  # a computer seat acts by itself: nobody is told to click
            if self.speed == "step":
                return "%s waits for Next step." % who
            return "%s is %s\u2026" % (who, "choosing" if game.phase != ROLL else "throwing the sticks" if ctl.sticks else "rolling")
        if game.phase == ROLL:
            return "%s: press a die button to %s." % (who, "throw the sticks" if ctl.sticks else "roll")
        if game.phase == POPOFF and ctl.duel is not None:
            a, b = ctl.duel.players
            return "Pop-off! Player %d presses button 1, player %d button 2: the first 6 wins." % (
                a + 1, b + 1)
        if ctl.offered is not None or ctl.choice:
            return "%s: click button 1 for the next choice, hold it to confirm this one." % who
        if game.phase == WHEEL:
            return "%s landed on a star: turn one wheel a quarter turn." % who
        if game.phase == DECIDE:
            hint = ""
            if ctl.hint:
                hint = " Hint: the piece on %s to %s (blinking white)." % (names[ctl.hint[0]], names[ctl.hint[1]])
            if ctl.in_hand() >= 0:
                return "%s: put the piece down on a white space.%s" % (who, hint)
            return "%s: lift a glowing piece (click it), then click a white space.%s" % (who, hint)
        return ""


def _shown(piece):
    """A piece as the page draws it: Mehen's lions by a mark of their own."""
    return [LION_MARK if piece[0] == LION else piece[0], piece[1], piece[2]]


def _naming(game, plan, foul):
    """The board's own button (its index in ``board.buttons``) that names
    ``plan`` now, after a foul kind's button named ``foul``: the button of the
    step itself, or the foul kind's whose counter's button then names it; -1
    where none does (a counter down in the same flick as one still held)."""
    board = game.board
    codes = [board.button_names.index(name) for name, _ in board.buttons]
    for i in range(len(codes)):
        named = game.button(codes[i], foul)
        if named == plan:
            return i
        if foul < 0 and isinstance(named, int) and any(game.button(c, named) == plan for c in codes):
            return i
    return -1


def _looks(game, decision):
    """How the board looks after ``decision``: moving either of two marbles
    from one square to another looks the same, and the controller offers one."""
    after = game.copy()
    after.play(decision)
    return bytes(after.occupancy()), bytes(after.owners()), after.phase, after.turn
