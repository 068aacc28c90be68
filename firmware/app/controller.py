"""The controller: one game on the physical board, stepped by time and input.

``Controller(game, ports, keeper)`` owns nothing but its own state; the
caller builds the game and the hardware ports and calls ``tick(now)`` every
few milliseconds with the time (ms ticks). A tick polls every input once,
acts on what happened, and sends a new LED frame when the picture changed.
The same object runs on the Pico (``main.py``), in the simulators and in the
tests, which drive it with a fake clock and simulated pins.

What the board awaits is published after each tick in one read-only
``Snapshot`` (``snapshot``): paint, the USB link, the simulators and the
bench read that and nothing else of the controller, and tell it what to do
only through its methods (``tick``, ``play``, ``new_game``, ``ask_hint``,
``fault``).

How the board is read. The rules say how many pieces stand on each space
(``game.occupancy()``); the sensors say where a piece is. While they agree
the board is at rest. A player lifts a piece that may move (its legal
destinations light up) and puts it down on one of them: that is the
decision, judged once every sensor has settled. To land on a space held by
another piece, lift that piece first and put yours in its place (from a
stack the board then looks as before: the button confirms). Anything else
the board shows and waits for: a piece lifted that may not move (amber: put
it back), a piece put where no legal move leads or a sensor that reads a
piece where none is (red), a wheel turned when no turn is due, or two
wheels (red on the wheel). The rules state never changes until the board
matches a legal decision.

Buttons: die button 1 or 2 rolls (Detour's pop-off: each player pops their
own roller). Where a decision is made with buttons (a board without sensors,
Tiddlee Snuka, two decisions that look the same on the board) button 1 clicks
through the candidates and a long press confirms (in Tiddlee Snuka a counter
dropping through a pocket's beam brings the pots to the front of them). A
long press on button 2 offers a new game: a second long press confirms it, a
click keeps the game. A long press on button 1 while a piece decision is
awaited lights a suggested move (the hint).

A game's own buttons on the 74HC165 chain (``panel``, wired in its board
file) pick what ``Game.button`` says they name: a step, played at once, or
part of one, which the next button completes (until PROMPT_MS has passed);
whether another button is held down meanwhile the game reads as it will. In
Tiddlee Snuka a colour, a miss or a safety is a step; a foul kind's button
waits for the button of the counter that fouled; a colour pressed while
another is held went down in the same flick. A button that names nothing
legal now changes nothing: what it names blinks red.
"""

from app import colours as C
from app.die import PopOff, rattling
from app.paint import Canvas, paint
from app.picker import ButtonPicker
from hal.buttons import CLICK, LONG, PRESS, RELEASE
from hal.ticks import add, diff
from rules.core import DECIDE, EMPTY, OVER, POPOFF, WHEEL
from rules.record import line

# redraw 50 times a second when nothing happened, at every multiple of 20 ms
# of the clock: an animation's frames do not drift with the loop's timing
FRAME_MS = 20
BUSY_MS = 8  # this near an animation frame's mark (its tick may be the next), what can wait waits
WHEEL_QUIET_MS = 600  # a wheel turn counts once no wheel has moved for this long
FLASH_SHOW_MS = 900  # how long an event's animation lasts
# a pass of main.py's loop while a die button's release settles (the polls,
# no frame): 1.2-1.9 ms on the emulated Pico with its XIP cache
PASS_US = 2000
PROMPT_MS = 5000  # the "new game?" offer lapses after this
HINT_MS = 1500  # the hint's search budget on the Pico (docs/budgets.md)


class Snapshot:
    """What the board awaits, as the controller published it at its last
    tick (``Controller.snapshot``): the one thing of the controller that
    paint, the USB link, the simulators and the bench read. It is made once
    and its fields are set again only when what they say changed, so a
    quiet tick costs nothing and allocates nothing. Its readers never write
    into it, nor into what its fields hold (the controller's own tuples,
    lists and numbers, replaced whole when they change, never changed in
    place)."""

    def __init__(self):
        self.game = None  # the rules' state: read only, for what the fields below do not say (text, scores)
        self.version = 0  # counts the controller's refreshes: a step played, a new game
        self.phase = OVER
        self.turn = 0  # whose turn it is
        self.actor = 0  # who decides now
        self.moves = ()  # (decision, from, to) of each decision a piece makes, in a decision phase
        self.expected = None  # how many pieces the rules have on each space; None: the game tracks none
        self.owners = None  # whose piece stands on each space, as the rules have it
        self.unseen = ()  # moves that end where they began: the sensors cannot see them, button 1 offers them
        self.offered = None  # type: tuple | None  # in button mode, the decisions button 1 steps through
        self.choice = ()  # decisions that look alike on the board, offered by button 1
        self.picked = None  # type: tuple | None  # the picker's ("pick", decision) button 1 shows now, or None
        self.holding = False  # button 1 is down on the pick: a long press takes it
        self.hint = None  # type: tuple | None  # (from, to) of the suggested move
        self.prompt = False  # "new game?" is offered
        self.roll = ()  # the dice (a tuple) or the sticks (a mask) thrown last
        self.thrown = None  # when they were thrown (ms), None before the first throw
        self.thrower = 0  # the player who threw them
        self.duel = None  # type: tuple | None  # a pop-off's two players, roller 1's first, or None
        self.duel_faces = (0, 0)  # type: tuple  # what each roller of the pop-off popped last
        self.flashes = ()  # (until, led, colour): the events' short animations
        self.named = -1  # part of a step a panel button named, until a second button completes it
        self.named_at = 0  # when it was named
        self.refused = None  # type: tuple | None  # (until, button): a panel button that named nothing legal
        self.extra = ()  # type: tuple | list  # spaces where a piece stands and none belongs
        self.missing = ()  # type: tuple | list  # spaces where a piece belongs and none stands, not lifted to move
        self.wrong_wheels = ()  # type: tuple | list  # wheels that stand elsewhere than the rules say
        self.disagrees = False  # any of the three: nothing is rolled or decided until the board is put right
        self.hand = -1  # the space of the movable piece now lifted, or -1
        self.settling = True  # the pieces standing at power-up are still being read
        self.steps = 0  # steps of this game played, saved or not yet
        self.failing = ""  # why the flash refuses the saves (the game is only in RAM), or ""
        self.faults = 0  # faults caught in the controller's tasks
        self.drew = False  # this tick sent a frame

    def rattling(self, now):
        """Whether the dice (or sticks) thrown last still tumble at ``now``."""
        return rattling(self.thrown, now)

    def busy(self, now):
        """Whether this tick (begun at ``now``) sent a frame, or the next
        frame's mark is within BUSY_MS: what can wait (app.link's pages and
        answers) waits, so that no pass of the loop holds both that and a
        frame's work."""
        return self.drew or FRAME_MS - now % FRAME_MS <= BUSY_MS


class Controller:
    def __init__(self, game, ports, keeper=None, log=print, hint_ms=HINT_MS, settings=None):
        """``settings``: the players and options a new game takes (by default the game's)."""
        self.ports = ports
        self.settings = settings or (game.players, game.options)
        self.keeper = keeper
        self.log = log
        self.hint_ms = hint_ms
        self.snapshot = Snapshot()  # what the board awaits: the one thing of the controller others read
        self._dirty = True  # something the snapshot says changed since it was last published
        self.faults = 0
        self.now = 0
        self._woke = None  # the first tick: the sensors read nothing settled before it
        self._settled = ports.sensors is None
        self._last_draw = None
        self._saved = False  # a step was saved since the loop last collected the garbage (app.device)
        self._shown = bytearray(len(ports.pixels.frame))
        self._view = None
        self._later = False  # draw on the next pass, not this one
        self._unsaved = []  # record lines of steps played but not yet saved
        self._throw_waits = False  # they end with a throw, saved once the dice settle
        self._polls = (self._poll_buttons, self._poll_sensors, self._poll_wheels, self._poll_beams, self._poll_panel)
        self.version = 0  # counts the refreshes: what paint keeps of the game is good for one
        extras = game.board.extras
        rollers = tuple(extras[k] for k in ("die1", "die2") if k in extras)
        self._rollers = rollers
        self.thrown = None  # when the dice (or sticks) were last thrown: they tumble a while from then (app.die)
        self.thrower = 0  # by whom
        self.picker = ButtonPicker(ports.buttons[0])
        board = game.board
        self._sensor_space = bytearray([EMPTY] * max(1, board.sensors))
        for s in range(len(board.ids)):
            self._sensor_space[board.sensor_of[s]] = s
        self.start(game)
        self._publish()
        # what app.paint keeps between frames (of this board): made now, not in the first frame
        self._canvas = Canvas(game, ports.pixels, rollers)
        self._canvas.update(self.snapshot)

    # -- the game ----------------------------------------------------------------

    def start(self, game):
        """Take over ``game`` (new or resumed): forget everything in flight."""
        self.game = game
        self.here = bytearray(len(game.board.ids))  # what the sensors say, by space
        if self.ports.sensors:
            for s in range(len(game.board.ids)):
                self.here[s] = self.ports.sensors.occupied(game.board.sensor_of[s])
        self.roll = ()  # the dice (or sticks mask) shown
        self.duel = None  # the pop-off in progress
        self.duel_faces = (0, 0)
        self.flashes = ()  # (until, led, colour): short animations
        self.prompt = -1  # when "new game?" was offered, -1 for none
        self.choice = ()  # decisions that look the same on the board, offered by the picker
        self.picked = None
        self.hint = None  # (from, to) of the suggested move
        self.wheel_moved = None  # when a wheel last moved, None when quiet
        self.landed = []  # spaces a piece was put on while other sensors still settled: judged once all have
        self.offered = None  # the decisions the picker offers in button mode
        self.holding = False  # button 1 is down on the pick: a long press takes it
        self.named = -1  # part of a step a panel button named, until a second button completes it
        self.named_at = 0  # when it was named
        self.refused = None  # (until, button): a panel button that named nothing legal, blinking red
        self._next = None  # a chance step thrown, played once the frame that shows it is sent
        self._refresh()

    def new_game(self):
        self.log("new game")
        if self._unsaved:
            self._save()  # the old game's last steps, before its record is started again
        fresh = type(self.game)(self.game.board, self.settings[0], self.settings[1])
        if self.keeper:
            self.keeper.begin(fresh)
        self.start(fresh)

    def _refresh(self):
        """Recompute what the board should look like after the game changed."""
        game = self.game
        self._view = None
        self._dirty = True
        self.version += 1
        self.expected = game.occupancy()
        self.owners = game.owners()
        self._await()
        self.moves = game.moves() if game.phase == DECIDE else ()
        # moves that end where they began: the sensors cannot see them (a piece
        # of a stack lifted and put back), so the button offers them
        self.unseen = tuple(d for d, f, t in self.moves if f == t) if self.ports.sensors else ()
        self.choice = ()
        self.hint = None
        if game.phase == POPOFF:
            # roller 1 is the attacker's (whose turn it is), roller 2 the defender's
            self.duel = PopOff(self.ports.chance, (game.turn, self._defender()))
            self.duel_faces = (0, 0)
        self._offer()

    def _defender(self):
        """The other player in the pop-off (the chance outcomes name both)."""
        for outcome, _, _ in self.game.chance_outcomes():
            if outcome != self.game.turn:
                return outcome
        return self.game.turn

    def _by_buttons(self):
        """Whether the decision now is made with the picker rather than the sensors."""
        game = self.game
        if game.phase == WHEEL:
            return self.ports.wheels is None
        if game.phase != DECIDE:
            return False
        return self.ports.sensors is None or self.expected is None or len(self.moves) < len(game.legal())

    def _offer(self):
        self._held = self.ports.buttons[0].down
        if self._by_buttons():
            self.offered = self.game.legal()
            self.picked = self.picker.offer(self.offered)
        else:
            self.offered = None
            # a question the board asked stays open (a new game offered and declined meanwhile)
            self.picked = self.picker.offer(self.choice or self.unseen)

    def _picking(self):
        """Whether button 1 now steps through candidates rather than rolling."""
        return self.offered is not None or bool(self.choice) or bool(self.unseen)

    def play(self, step):
        """Apply one step, show its events; the tick saves it once the frame
        that shows it is sent (a flash write holds the CPU for tens of ms)."""
        game = self.game
        text = line(game, step)  # the record line names the step as the phase before it saw it
        events = game.play(step)
        self._unsaved.append(text)
        self._throw_waits = False
        self._show_events(events)
        self._refresh()
        self._event_now()
        return events

    def _save(self):
        """Save the steps played since the last save, in order."""
        lines = self._unsaved
        self._unsaved = []
        if self.keeper:
            for k in range(len(lines)):
                # (a full or failing flash: the game goes on in RAM)
                self.keeper.played(lines[k], self.game, k == len(lines) - 1)
        self._saved = True
        self._dirty = True  # the flash may have refused it

    # -- the loop ----------------------------------------------------------------

    def tick(self, now):
        """Poll every input once, act, and send a frame if it changed.

        What answers an input goes out first: after a button's event the
        inputs not read yet wait for the next pass, and the frame is sent
        before the rules take a throw of the dice (they tumble in it,
        ``_apply``) and before a step is saved (a flash write holds the CPU
        for tens of ms); both follow in the same tick. At rest a tick
        allocates nothing."""
        self.now = now
        self.snapshot.drew = False
        if self._woke is None:
            self._woke = now
        if self.prompt >= 0 and diff(now, self.prompt) > PROMPT_MS:
            self.prompt = -1  # the offer of a new game lapses
            self._dirty = True
        for part in self._polls:
            try:
                answered = part(now)
            except Exception as err:  # one failing part must not stop the others
                answered = False
                self.fault(part, err)
            if answered or self._next is not None:
                break  # a button's event (a throw too): its frame goes out first, the other parts are read on the next pass
        if self._later:
            self._later = False  # this pass worked out a new offer: its frame goes out on the next
        elif self._frame_due(now) and not self._caught():
            self._draw(now)
        if self._next is not None:
            try:
                self._apply()
            except Exception as err:
                self.fault("play", err)
        # a throw is saved once the dice settle, so no frame of theirs waits on the
        # flash; a step played on before then is saved at once, with the throw
        if self._unsaved and not (self._throw_waits and rattling(self.thrown, now)):
            self._save()
        if self._dirty:
            self._publish()

    def _frame_due(self, now):
        """Whether a frame is due: the picture changed, or an animation's next
        frame is (never while a die button's release may be under way)."""
        last = self._last_draw
        if last is None:
            return True
        return diff(now, last) >= FRAME_MS - last % FRAME_MS and not self._settling()

    def collect_due(self, now):
        """Whether the garbage a saved step left is to be collected now
        (``app.device``): once after a save, on a pass that sends no frame
        and is not near the next one. A yes counts as collected."""
        if not self._saved or self.snapshot.busy(now):
            return False
        self._saved = False
        return True

    def _draw(self, now):
        try:
            self.draw(now, True)
        except Exception as err:
            self.fault("draw", err)

    def animate(self, now, erase=False):
        """Between two flash writes of a save (``hal.flash``): the
        animation's frame goes out if one is due; before an ``erase`` (it
        holds the CPU for 45 ms) the next one, painted a frame ahead, so
        the picture moves on just before the erase and again after it. A
        fault here is counted, not logged: the log is a file, and the
        filesystem is in the middle of a write."""
        try:
            if erase and not self._settling():
                self.draw(now + FRAME_MS)
            elif self._frame_due(now):
                self.draw(now)
        except Exception:
            self.faults += 1
            self._dirty = True

    def _settling(self):
        """Whether a die button's release may be under way. An animation's
        frame waits until it is known: painted and sent, it held off the
        next read of the button by a few ms, and the release is known at the
        first read STABLE_MS after the contact opened."""
        for button in self.ports.buttons:
            if button.settling():
                return True
        return False

    def _caught(self):
        """Whether a die button's press came since its last read. The
        tick's frame is then left to the next pass, which reads the press
        and answers it: sent, the frame held the wire for its 6 ms, and the
        answer waited for it."""
        for button in self.ports.buttons:
            if button.caught():
                return True
        return False

    def pause_us(self, longest):
        """How long the loop sleeps before the next tick: ``longest`` µs, or
        until a die button's release is known, if that comes before a pass
        begun after ``longest`` would have read it (PASS_US): the pass after
        the pause knows the click at once."""
        soonest = -1
        for button in self.ports.buttons:
            due = button.due_us()
            if due >= 0 and (soonest < 0 or due < soonest):
                soonest = due
        return soonest if 0 <= soonest < longest + PASS_US else longest

    def fault(self, where, err):
        """A fault in one of the board's tasks (``where``: its name or
        function): counted and logged; the others go on."""
        self.faults += 1
        self._dirty = True
        if self.faults <= 20:  # a fault that repeats every tick must not flood the log
            self.log("fault in %s: %r" % (getattr(where, "__name__", where), err))

    def _event_now(self):
        self._last_draw = None  # an input changed the picture: draw on this tick
        self._dirty = True

    def _changed(self):
        """An input changed what the board shows of the game: draw it on this
        tick, and work out again what the sensors say (``_board_view``)."""
        self._last_draw = None
        self._view = None
        self._dirty = True

    # -- buttons -----------------------------------------------------------------

    def _poll_buttons(self, now):
        """Read the die buttons; whether one's event changed the picture."""
        buttons = self.ports.buttons
        answered = False
        for i in range(len(buttons)):
            if i == 0 and self._held:
                # the press that led to this offer is still down: its release is not a pick
                if buttons[0].poll(now) in (CLICK, RELEASE):
                    self._held = False
            elif i == 0 and self._picking():
                event = self.picker.poll(now)
                if event is not None:
                    self._picker_event(event)
                    answered = True
            else:
                event = buttons[i].poll(now)
                if event is not None:
                    self._button(i, event, now)
                    answered = True
        return answered

    def _button(self, i, event, now):
        game = self.game
        self._event_now()
        if self.prompt >= 0:
            if i == len(self.ports.buttons) - 1 and event == LONG:
                self.prompt = -1
                self.new_game()
            elif event == CLICK or event == LONG:
                self.prompt = -1
            return
        if event == LONG and (i == 1 or len(self.ports.buttons) == 1 and game.phase in (OVER,)):
            self.prompt = now
            return
        if game.phase == OVER:
            return
        if event != PRESS and not (event == LONG and i == 0):
            return
        if game.phase == POPOFF:
            if event == PRESS:
                self._pop(i, now)
        elif game.is_chance():
            if event == PRESS and self._next is None and self._agrees():
                self._roll(now)
        elif event == LONG and i == 0 and game.phase == WHEEL:
            for d in game.legal():
                if game.is_pass(d) and self._agrees_now():  # where the wheel turn may be declined
                    self.play(d)
        elif event == LONG and i == 0:
            self.ask_hint()

    def _roll(self, now):
        """Throw the dice (or sticks): they tumble in this tick's frame, and the
        rules take the throw once that frame is sent (``_apply``)."""
        game = self.game
        outcomes = game.chance_outcomes()
        first = outcomes[0][0]
        chance = self.ports.chance
        outcome = chance.dice(len(first)) if isinstance(first, tuple) else chance.sticks()
        self.roll = outcome
        self.thrown = now
        self.thrower = game.turn
        self._next = outcome

    def _pop(self, roller, now):
        duel = self.duel
        if duel is None or roller >= 2 or self._next is not None:
            return
        value = duel.press(roller)
        self.duel_faces = (value, self.duel_faces[1]) if roller == 0 else (self.duel_faces[0], value)
        if duel.winner >= 0:
            self._next = duel.winner  # the winning 6 shows first

    def _apply(self):
        """The chance step thrown in this tick, now that its frame is sent."""
        step = self._next
        self._next = None
        duel = self.duel is not None and self.game.phase == POPOFF
        self.play(step)
        self._throw_waits = True
        if duel:
            self.duel = None
        self.ports.chance.refill()  # the random bytes of the next throw, drawn while nobody waits

    def _picker_event(self, event):
        self._changed()
        kind, candidate = event
        self.holding = kind == "hold"
        if self.holding:
            return  # the pick shows held until the click or the long press is known
        if self.prompt >= 0:
            self.prompt = -1
            self._offer()
            return
        if kind == "pick":
            self.picked = event
            return
        if self.choice:
            self.choice = ()
        self.play(candidate)

    def ask_hint(self):
        """Light a suggested move, as a long press of button 1 asks for one
        while a piece decision is awaited (the search loads at the first)."""
        game = self.game
        if not self.moves:
            return
        self._dirty = True
        from hal.ticks import now
        asked = now()  # the hint's time counts from here, loading the search included
        from rules.players import SearchPlayer  # only when asked: it is the largest module
        from rules.playout import Rng
        player = SearchPlayer(Rng(1 + (self.now & 0xFFFF)), ms=self.hint_ms, clock=now, diff=diff, since=asked)
        decision = player.pick(game)
        for d, f, t in self.moves:
            if d == decision:
                self.hint = (f, t)

    # -- the board's own buttons (``Game.button``) --------------------------------------

    def _poll_panel(self, now):
        panel = self.ports.panel
        if panel is None:
            return
        i = panel.poll(now)
        named = self.named
        if named >= 0 and (i is not None or diff(now, self.named_at) > PROMPT_MS):
            self.named = -1  # used by this press, or lapsed
            self._changed()
        if i is None:
            return
        self._changed()
        if self.prompt >= 0:
            self.prompt = -1  # any button keeps the game
            return
        board = self.game.board
        b = board.button_names.index(board.buttons[i][0])
        step = None if self.game.phase == OVER else self.game.button(b, named, panel.held(i))
        if step is None:
            self.refused = (add(now, FLASH_SHOW_MS), b)
        elif isinstance(step, int):
            self.named = step
            self.named_at = now
        else:
            self.play(step)

    # -- piece sensors -------------------------------------------------------------

    def _poll_sensors(self, now):
        sensors = self.ports.sensors
        if sensors is None:
            return
        n = sensors.poll(now)
        if n is None:
            # the pieces standing at power-up have all been reported once the
            # sensors' settling time has passed and none is left to report
            if not self._settled and diff(now, self._woke) > sensors.place_ms:
                self._settled = True
                self._await()
                self._changed()
                self._later = True  # its frame on the next pass: with this one's work it would hold the loop too long
            if self.landed and not sensors.settling():
                self._judge()
            return
        s = self._sensor_space[n] if n < len(self._sensor_space) else EMPTY
        if s == EMPTY:
            return
        self._changed()
        self.here[s] = 1 if sensors.occupied(n) else 0
        if self.here[s]:
            self.awaited[s] = 0
        if self._settling_pieces():
            return  # the pieces standing at power-up are still being read: nothing was moved
        if self.choice:
            self.choice = ()  # a piece lifted or put down again: the player is not done moving
            self._offer()
        if self.here[s] and self.moves:
            # a move is judged on the whole board: with pieces lifted or put
            # down at once, only once every one of them has settled
            self.landed.append(s)
            if not sensors.settling():
                self._judge()

    def _judge(self):
        """Judge the pieces put down since the board last settled, in turn, until one makes a move."""
        landed = self.landed
        self.landed = []
        version = self.version
        for s in landed:
            if self.version != version or self.choice:
                break
            if self.here[s] and self.moves:
                self._placed(s)

    # -- pocket beams --------------------------------------------------------------

    def _poll_beams(self, now):
        beams = self.ports.beams
        if beams is not None and beams.poll(now) is not None:
            self._changed()
            self._pocket()
            self._later = True

    def _pocket(self):
        """A flicking game's pocket beam saw a counter drop: offer the pots first."""
        if self.offered is None:
            return
        game = self.game
        pots, rest = [], []
        for d in game.legal():  # one pass: each decision asked once, never searched for among the pots
            (pots if game.into_pocket(d) else rest).append(d)
        if pots:
            self.offered = tuple(pots + rest)
            self.picked = self.picker.offer(self.offered)

    def _await(self):
        """Mark the spaces where the rules have just put a piece that is not on
        the board yet (on its START, back after a capture): until it is put
        there it is asked for, never shown as a piece in the hand, and its
        absence does not stop another piece's move. (Moved straight from the
        hand to where it may go, it still makes its move.)"""
        exp = self.expected
        self.awaited = bytearray(len(self.here))
        if exp is not None and self._settled and self.ports.sensors:
            for s in range(len(exp)):
                self.awaited[s] = 1 if exp[s] and not self.here[s] else 0

    def _lifted(self):
        """Spaces where a piece is expected but none is sensed."""
        exp = self.expected
        return [s for s in range(len(exp)) if exp[s] and not self.here[s]]

    def _extra(self):
        """Spaces where a piece is sensed but none is expected."""
        exp = self.expected
        return [s for s in range(len(exp)) if self.here[s] and not exp[s]]

    def _placed(self, t):
        """A piece was put down on ``t``: is that a legal move?"""
        lifted = self._lifted()
        extra = self._extra()
        if extra and extra != [t]:
            return  # another piece is out of place: the board shows it, nothing is decided
        capture = self.expected[t] > 0
        found = []
        for move in self.moves:
            d, f, to = move
            if to != t:
                continue
            if f == t:
                # a move that ends where it began (a Mehen lion round the head):
                # lifted and put back, it is offered for the button to confirm
                if not lifted and not extra:
                    found.append(d)
                continue
            # the piece came from f: f is empty now, or f holds a stack of which one was taken
            if f in lifted:
                rest = [s for s in lifted if s != f and not self.awaited[s]]
            elif self.expected[f] >= 2:
                rest = [s for s in lifted if not self.awaited[s]]
            else:
                continue
            if rest or (not capture and not extra):
                continue
            found.append(d)
        found = self._distinct(found)
        # a board that looks as the rules have it (a piece put back, or one of
        # a stack put onto the piece it takes) shows no move: the button says
        if len(found) == 1 and (lifted or extra):
            self.play(found[0])
        elif found:
            self._dirty = True
            self.choice = tuple(found)
            self._held = self.ports.buttons[0].down
            self.picked = self.picker.offer(self.choice)

    def _distinct(self, decisions):
        """One decision per different outcome: moving either of two marbles on
        one square to the same square is the same thing on the board."""
        seen = []
        out = []
        for d in decisions:
            after = self.game.copy()
            after.play(d)
            key = (bytes(after.occupancy()), bytes(after.owners()), after.phase, after.turn,
                   sorted((m[1], m[2]) for m in after.moves()))
            if key not in seen:
                seen.append(key)
                out.append(d)
        return out

    def _movable(self):
        """The spaces with a piece that may move now."""
        return [f for _, f, _ in self.moves]

    # -- wheels ------------------------------------------------------------------

    def _poll_wheels(self, now):
        wheels = self.ports.wheels
        if wheels is None:
            return
        event = wheels.poll(now)
        if event is not None:
            self._changed()
            self.wheel_moved = now
            return
        if self.wheel_moved is None or diff(now, self.wheel_moved) < WHEEL_QUIET_MS or wheels.settling():
            return  # a wheel turned back within the quiet time counts once it has settled
        self.wheel_moved = None
        if self.game.phase != WHEEL:
            return
        turned = self._turned()
        if len(turned) != 1:
            return
        w, q = turned[0]
        step = self.game.turning(w, q)
        if step is not None:
            self.play(step)

    def _turned(self):
        """(wheel, quarters 1..3) of every wheel that stands elsewhere than the rules say."""
        wheels = self.ports.wheels
        rules = self.game.wheels  # where the rules have them; none for a game without wheels
        out = []
        if wheels is None or not rules:
            return out
        for w in range(wheels.count):
            p = wheels.position(w)
            if p >= 0 and p != rules[w]:
                out.append((w, (p - rules[w]) & 3))
        return out

    # -- what to light -------------------------------------------------------------

    def _show_events(self, events):
        now = self.now
        until = add(now, FLASH_SHOW_MS)
        game = self.game
        board = game.board
        added = []
        for event in events:
            # an event on a space names its player at index 1, the space at index 3
            if event[0] in game.space_events and len(event) > 3 and isinstance(event[3], int) \
                    and 0 <= event[3] < len(board.ids):
                added.append((until, board.leds[event[3]], C.player(game, event[1])))
            elif event[0] in game.dice_events:
                for leds in self._rollers:
                    for led in leds:
                        added.append((until, led, C.WHITE))
            elif event[0] == "won":
                self.log("player %d wins" % (event[1] + 1))
        if added:
            # a new tuple, the animations over left out: what paint holds of the last one stays as it was
            self.flashes = tuple(f for f in self.flashes if diff(f[0], now) > 0) + tuple(added)

    def draw(self, now, yielding=False):
        """Paint the frame; send it only if it differs from the last one sent
        (and, ``yielding``, no die button's press came while it was painted)."""
        last = self._last_draw
        self._last_draw = now
        if self._dirty:
            self._publish()
        paint(self._canvas, self.snapshot, now)
        pixels = self.ports.pixels
        if pixels.frame != self._shown:
            if yielding and self._caught():
                self._last_draw = last  # not sent: the next pass paints it again
                return
            self._shown[:] = pixels.frame
            pixels.show()
            self.snapshot.drew = True

    def _publish(self):
        """Set the snapshot's fields to what the controller has now: after a
        tick that changed something, and before the frame that shows it.
        What the board shows of the sensors (``_board_view``) is worked out
        for a frame: a pass that left its frame to the next (``_later``, a
        throw played once its frame was sent) leaves it to that pass too."""
        snap = self.snapshot
        game = self.game
        snap.game = game
        snap.version = self.version
        snap.phase = game.phase
        snap.turn = game.turn
        snap.actor = game.actor
        snap.moves = self.moves
        snap.expected = self.expected
        snap.owners = self.owners
        snap.unseen = self.unseen
        snap.offered = self.offered
        snap.choice = self.choice
        snap.picked = self.picked
        snap.holding = self.holding
        snap.hint = self.hint
        snap.prompt = self.prompt >= 0
        snap.roll = self.roll
        snap.thrown = self.thrown
        snap.thrower = self.thrower
        snap.duel = self.duel.players if self.duel is not None else None
        snap.duel_faces = self.duel_faces
        snap.flashes = self.flashes
        snap.named = self.named
        snap.named_at = self.named_at
        snap.refused = self.refused
        snap.settling = not self._settled
        snap.steps = (self.keeper.steps if self.keeper else 0) + len(self._unsaved)
        snap.failing = self.keeper.failing if self.keeper else ""
        snap.faults = self.faults
        if self._last_draw is None:
            return
        self._dirty = False
        extra, missing, wheels, hand = self._board_view()
        snap.extra = extra
        snap.missing = missing
        snap.wrong_wheels = wheels
        snap.disagrees = bool(extra or missing or wheels)
        snap.hand = hand

    def _board_view(self):
        """``_mismatch()`` and ``_in_hand()`` as one tuple: (wrong spaces, missing
        spaces, wrong wheels, the space in the hand), kept from one input or
        step to the next."""
        if self._view is None:
            extra, missing, wheels = self._mismatch()
            self._view = (extra, missing, wheels, self._in_hand())
        return self._view

    def _settling_pieces(self):
        """Whether the pieces standing at power-up are still being read."""
        return not self._settled

    def _mismatch(self):
        """What disagrees with the rules now: (wrong spaces, missing spaces, wrong wheels)."""
        if self._settling_pieces():
            return (), (), ()
        if self.expected is None or self.ports.sensors is None:
            return (), (), self._wrong_wheels()
        lifted = self._lifted()
        extra = self._extra()
        if self.choice:
            # the piece is down; the button is still to say which decision that was
            lifted = [s for s in lifted if not any(m[1] == s and m[0] in self.choice for m in self.moves)]
            extra = [s for s in extra if not any(m[2] == s and m[0] in self.choice for m in self.moves)]
        elif self.moves and self._moving([s for s in lifted if not self.awaited[s]]):
            lifted = [s for s in lifted if self.awaited[s]]
        return extra, lifted, self._wrong_wheels()

    def _moving(self, lifted):
        """Whether the pieces off the board are a move under way: a movable
        piece in the hand, and perhaps the piece it will land on."""
        if len(lifted) > 2:
            return False
        for _, f, t in self.moves:
            if self.awaited[f] or f == t:
                continue  # a piece not yet on the board is asked for, not in the hand
            taken = [f] if f in lifted else []  # from a stack, the lift is not seen
            if not taken and self.expected[f] < 2:
                continue
            if t in lifted and self.expected[t]:
                taken.append(t)
            if sorted(taken) == sorted(lifted):
                return True
        return False

    def _agrees(self):
        """Whether the board matches the rules everywhere: no roll until it
        does (as the frames show it, ``_board_view``)."""
        extra, missing, wheels, _ = self._board_view()
        return not (extra or missing or wheels)

    def _agrees_now(self):
        """``_agrees()``, worked out afresh."""
        extra, missing, wheels = self._mismatch()
        return not (extra or missing or wheels)

    def _wrong_wheels(self):
        turned = self._turned()
        if self.game.phase == WHEEL and len(turned) == 1:
            w, q = turned[0]
            if self.game.turning(w, q) is not None:
                return ()
        return tuple(w for w, _ in turned)

    def _in_hand(self):
        """The space of the movable piece now lifted, or -1."""
        if not self.moves or self.ports.sensors is None or self._settling_pieces():
            return -1
        movable = self._movable()
        for f in self._lifted():
            if f in movable and not self.awaited[f]:
                return f
        return -1
