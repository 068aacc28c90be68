"""The hands at a simulated board (``Hands``): the table around
``host.rig.Rig``, on the board's own clock, and the computer seats that
play there.

The clock goes on a tick at a time (5 ms, as the Pico's loop runs): what is
due then happens (a button let go, the second half of a capture), the
controller runs, and a computer seat whose turn it is makes its next
motion. Computer seats play as people do, one motion at a time: they press
the die buttons, lift and put pieces (all of a stack they land on first),
turn a wheel a quarter at a time, drop a counter through a pocket's beam and
press Tiddlee Snuka's own buttons, and click through the button picker where
nothing else says what they did; after their step they put the pieces where
the game has them now. They pause after every step as long as the speed
says (``SPEEDS``), or at speed ``step`` act only when asked.

The browser's session (``host.sim.web.session``) runs the clock with real
time, the terminal (``host.sim.terminal``) through one computer step at a time.
"""

from hal.buttons import LONG_MS
from hal.ticks import diff
from host.rig import Rig
from host.sim.table import BOX, Table
from rules.core import OVER, POPOFF, ROLL, WHEEL

CLICK_MS = 40  # the shortest press of a button (the firmware debounces 6 ms)
HOLD_MS = LONG_MS + 150  # a long press
HAND_MS = 40  # between the motions of one step (a piece lifted, then put down)
UP_MS = 4 * Rig.STEP_MS  # a button let go stays up this long before it is pressed again (the firmware debounces 6 ms)
RETRY_MS = 3000  # a computer's move the board has not taken by then is tried again
# how long the board runs after each step before a computer seat takes its next
# one; at "step" a computer seat acts only when asked (``asked``)
SPEEDS = {"slow": 1500, "normal": 500, "fast": 0, "instant": 0, "step": 0}
DEFAULT_SPEED = "fast"


class Hands(Table):
    """A table on a simulated board. Its user gives ``rig`` (a Rig), ``sensors``
    (False: button mode), ``players`` ({seat: its rules.players player} for
    the computer seats), ``speed`` and ``asked`` (at speed step: the next step
    is asked for), and calls ``_hands_on(game)`` whenever ``rig`` is new."""

    def _hands_on(self, game):
        """Nothing held or pressed, every piece where ``game`` has it."""
        rig = self.rig
        self.down = [None] * len(rig.sim.levels)  # when each die button went down
        self.panel_down = [None] * len(self._panel(game))  # when each of the board's own buttons did
        self.later = []  # (sim time, action): button releases, the second half of a swap
        self.plans = {}  # (game, steps played): the decision of the computer seat that acts then
        self.carrying = None  # how far a computer seat's move has come (``_carry_out``)
        self.tidy_for = -1  # a computer seat that still puts the pieces right after its step
        self.due = rig.now  # no computer seat acts before this
        self.duel_turn = 0  # the computers' presses in pop-offs: they take turns
        self._game = game
        self._steps = rig.snap.steps  # played
        self._actor = game.actor
        self._set_up()

    def _panel(self, game):
        """The names of the board's own buttons (Tiddlee Snuka's); a board
        without sensors has only the die buttons (``Rig``)."""
        return [name for name, _ in game.board.buttons] if self.sensors else []

    # -- the clock ----------------------------------------------------------------

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
            if self._busy():
                self.due = rig.now + UP_MS
            elif self._computer_step():
                self.due = rig.now + HAND_MS

    def _busy(self):
        """Whether the hands are still at it: a button down, a piece about to be set down."""
        return bool(self.later) or any(d is not None for d in self.down) or any(d is not None for d in self.panel_down)

    def _later(self, ms, action):
        self.later.append((self.rig.now + ms, action))
        self.later.sort(key=lambda item: item[0])

    def _watch(self):
        """Notice a step the controller applied, or a new game it started."""
        snap = self.rig.snap
        if snap.game is not self._game:  # a new game from the board's own menu: set it up
            self._game = snap.game
            self.plans = {}
            self._set_up()
        elif snap.steps != self._steps:
            if self._actor in self.players:
                self.tidy_for = self._actor
            if not self.sensors:  # the players moved the pieces as the lights showed
                self._set_up()
            self.due = self.rig.now + SPEEDS[self.speed]
            self.asked = False
        self._steps = snap.steps
        self._actor = snap.actor

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
        return self.rig.snap.expected is not None

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

    # -- the computer seats ----------------------------------------------------------

    def _acting(self):
        """The computer seat that acts now (in a pop-off, the first computer in
        it), or -1: a person acts, or nobody (a new game offered, the game over)."""
        snap = self.rig.snap
        game = snap.game
        if snap.prompt or game.phase == OVER:
            return -1
        if game.phase == POPOFF:
            return next((p for p in (snap.duel or ()) if p in self.players), -1)
        return game.actor if game.actor in self.players else -1

    def _computer_step(self):
        """One motion of a computer seat's hands, if one is due: whether it made one."""
        snap = self.rig.snap
        game = snap.game
        if self.tidy_for >= 0:
            if self._tidy_one():
                return True
            self.tidy_for = -1
            return False  # the board agrees: the step is over, the next begins at the next tick
        seat = self._acting()
        if seat < 0:
            return False
        key = (id(game), snap.steps)
        if self.speed == "step" and not self.asked and (self.carrying is None or self.carrying[0] != key):
            return False  # a step once begun is finished; the next waits to be asked for
        if game.phase == POPOFF:
            poppers = [r for r in (0, 1) if snap.duel[r] in self.players]
            self.duel_turn += 1
            self._press(poppers[self.duel_turn % len(poppers)], CLICK_MS)
            return True
        if game.phase == ROLL:
            self._press(0, CLICK_MS)
            return True
        if key not in self.plans:
            self.plans = {key: self.players[seat].choose(game.copy())}
        self._carry_out(key, self.plans[key])
        return True

    def _carry_out(self, key, plan):
        snap = self.rig.snap
        game = snap.game
        if game.into_pocket(plan) and self.sensors and self.carrying != (key, "potted"):
            self.carrying = (key, "potted")  # a flicking game: the counter drops through a pocket's beam first
            self.click_space(game.board.pockets[0])
            return
        named = _naming(game, plan, snap.named) if self.rig.ports.panel is not None else -1
        if named >= 0:  # the board's own button that says it
            self._press(named, CLICK_MS, panel=True)
            return
        if snap.offered is not None or snap.choice or plan in snap.unseen:  # the picker: click to it, hold to confirm
            if snap.choice and plan not in snap.choice:
                plan = next((c for c in snap.choice if _looks(game, c) == _looks(game, plan)), snap.choice[0])
            self._press(0, HOLD_MS if snap.picked is not None and snap.picked[1] == plan else CLICK_MS)
            return
        if game.phase == WHEEL:
            if plan[1] < 0:  # passing up the wheel turn: a long press
                self._press(0, HOLD_MS)
                return
            target = (game.wheels[plan[1]] + plan[2]) & 3
            if self.rig.sim.positions[plan[1]] != target:
                self.turn_wheel(plan[1], -1 if plan[2] & 3 == 3 else 1)
            return
        for d, f, t in snap.moves:
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
        expected = self.rig.snap.expected
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


def _naming(game, plan, named):
    """The board's own button (its index in ``board.buttons``) that names
    ``plan`` now, after a button named part of a step, ``named`` (-1: none):
    the button of the step itself, or one naming a part that another button
    then completes to it; -1 where none does."""
    board = game.board
    codes = [board.button_names.index(name) for name, _ in board.buttons]
    for i in range(len(codes)):
        part = game.button(codes[i], named)
        if part == plan:
            return i
        if named < 0 and isinstance(part, int) and any(game.button(c, part) == plan for c in codes):
            return i
    return -1


def _looks(game, decision):
    """How the board looks after ``decision``: moving either of two marbles
    from one square to another looks the same, and the controller offers one."""
    after = game.copy()
    after.play(decision)
    return bytes(after.occupancy()), bytes(after.owners()), after.phase, after.turn
