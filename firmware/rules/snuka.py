"""Tiddlee Snuka: snooker played with winks. The players flick the counters by
hand; the board is the referee. It knows whose shot it is and which counter is
"on", keeps the score and says where a counter must go back. Rules:
``boards/snuka.md``; the board: ``boards/snuka.json``.

There is no chance: every step is something the board senses (a pocket's beam
and the colour buttons, the foul buttons) or a player confirms.

Counters (``c``): 0 red R, 1 yellow Y, 2 green G, 3 mauve M, 4 blue B,
5 pink P, 6 black K; a counter is worth c + 1 points.

Steps (tuples) and their notation:
  pot        ("pot", c)          "Y"        the shot sent counter c into a pocket
  also       ("also", c)         "+R"       the same flick sent c down as well
  foul       ("foul", c, k)      "Y!off"    counter c went off the cloth / "onto"
                                            another counter / was left "stuck"
  miss       ("miss",)           "miss"     the shot is over, nothing potted
  safe       ("safe",)           "safe"     a deliberate safety shot
  nominate   ("nominate", c)     "=Y"       the colour chosen after a red (option)
  respotted  ("respotted", c)    "@Y"       the counter is back on its spot (option)

The board's buttons (``BUTTONS``, wired in the board file's ``buttons``) name
steps directly: ``button(b, named)`` says what button ``b`` picks now.
"""

from rules.board import Board
from rules.core import DECIDE, OVER, BoardError, Game, RulesError, SaveError, check_options, field, save_int, save_ints

RED, YELLOW, GREEN, MAUVE, BLUE, PINK, BLACK = range(7)
COLOURS = ("red", "yellow", "green", "mauve", "blue", "pink", "black")
LETTERS = "RYGMBPK"
FOULS = ("off", "onto", "stuck")
KINDS = ("pocket",) + tuple("spot_" + name for name in COLOURS)
ANY = -1  # ``on`` after a red: any colour
# where a colour is (index 0, red, unused: reds are counted)
UP = 0  # on the cloth
DOWN = 1  # potted for good (the rotation)
OUT = 2  # the black, removed by a foul when it was the last counter
MISS = ("miss",)
SAFE = ("safe",)
_ALSO = tuple(("also", c) for c in range(7))
# the shots at counter c: potted, or one of the fouls
_SHOTS = tuple((("pot", c),) + tuple(("foul", c, k) for k in range(3)) for c in range(7))
_NOMINATE = tuple(("nominate", c) for c in range(7))
_RESPOTTED = tuple(("respotted", c) for c in range(7))
_PREFIX = {"+": "also", "=": "nominate", "@": "respotted"}
# the board's buttons: a colour's button names its counter, a foul kind's the foul
# of the counter whose button follows it, then the miss and the safety
BUTTONS = COLOURS + tuple("foul_" + kind for kind in FOULS) + ("miss", "safe")
FOUL_BUTTON = len(COLOURS)  # the first foul kind's button
_BY_COUNTER = ("respotted", "nominate", "pot", "also")  # what a colour's button alone may name

DEFAULTS = {
    "first_player": 1,  # who shoots first, counting from 1
    "nominate": False,  # after a red the shooter names the colour with a button; only it is on
    "colour_after_last_red": True,  # the last red still earns a colour (re-spotted) before the rotation
    "wrong_pot_penalty": False,  # a counter potted when it was not on also costs its value
    "confirm_respot": True,  # wait for a button press once a counter is back on its spot
}


class SnukaBoard(Board):
    """The cloth: pockets, one spot per colour, the red spots, a score bar per player."""

    def __init__(self, data):
        super().__init__(data, "snuka", KINDS, buttons=BUTTONS)
        self.pockets = tuple(s for s in range(len(self.ids)) if self.kinds[s] == "pocket")
        if not self.pockets:
            raise BoardError("board: needs at least one pocket")
        spots = []
        for c in range(7):
            found = tuple(s for s in range(len(self.ids)) if self.kinds[s] == KINDS[c + 1])
            if not found or (c != RED and len(found) > 1):
                raise BoardError("board: needs %s spot_%s space, found %d"
                                 % ("at least one" if c == RED else "exactly one", COLOURS[c], len(found)))
            spots.append(found)
        self.spots = tuple(spots)  # where a counter goes back: every red spot, one spot per colour
        bars = []
        while "score%d" % (len(bars) + 1) in self.extras:
            bar = self.extras["score%d" % (len(bars) + 1)]
            if not bar:
                raise BoardError("extras 'score%d': a score bar needs at least one pixel" % (len(bars) + 1))
            bars.append(bar)
        if not bars:
            raise BoardError("board: extras need a score bar per player: 'score1', 'score2', ...")
        self.bars = tuple(bars)


class Snuka(Game):
    """One frame of Tiddlee Snuka; see the module notes for the steps."""

    name = "snuka"
    look = "app.snuka_look"
    tactics = "rules.snuka_tactics"
    special_kinds = ("pocket",)
    min_players = 1
    max_players = 6  # the score bars of boards/snuka.json; a board file sets its own limit

    def __init__(self, board, players=2, options=None):
        if not isinstance(board, SnukaBoard):
            board = SnukaBoard(board)
        limit = len(board.bars)
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= limit:
            raise RulesError("Tiddlee Snuka on this board is for 1 to %d players (one score bar each)" % limit)
        opts = check_options(options, DEFAULTS)
        if not 1 <= opts["first_player"] <= players:
            raise RulesError("option 'first_player' must be from 1 to %d" % players)
        self.board = board
        self.players = players
        self.options = opts
        self.scores = [0] * players
        self.reds = len(board.spots[RED])  # reds in play: on the cloth or going back
        self.colours = bytearray(7)  # UP/DOWN/OUT of each colour
        self.pending = []  # counters to be put back before the next shot (confirm_respot)
        self.flick = -1  # who made the last flick that potted or fouled: "also" may follow
        self.good = False  # that flick potted the counter on, so the turn went on
        self.sent = 0  # bit c: that flick already sent colour c down
        self.phase = DECIDE
        self.winner = -1
        self.winners = ()
        self.turn = opts["first_player"] - 1
        self.actor = self.turn
        self.on = RED
        self.free = False  # the colour on was earned by a red: it goes back when potted

    # -- reading the state -------------------------------------------------

    def in_play(self, c):
        """Whether counter ``c`` lies on the cloth, ready to be played."""
        if c == RED:
            return self.reds > self.pending.count(RED)
        return self.colours[c] == UP and c not in self.pending

    def on_now(self):
        """The counters that are on: the spots the board lights."""
        if self.on == ANY:
            return tuple(c for c in range(1, 7) if self.colours[c] == UP)
        return (self.on,)

    def into_pocket(self, decision):
        return decision[0] == "pot" or decision[0] == "also"

    def lowest(self):
        """The colour the rotation asks for: the lowest still on the cloth, or -1."""
        for c in range(1, 7):
            if self.colours[c] == UP:
                return c
        return -1

    def button(self, b, named=-1, held=False):
        """What the board's button ``b`` (an index of ``BUTTONS``) picks now,
        after a foul kind's button named kind ``named`` (-1: none), pressed
        while another button is held (``held``) or alone: a legal step; for
        a foul kind's button the kind (an int), which the next counter's
        button completes; None when it names nothing legal now. A colour's
        button pressed with another held says its counter went down in the
        same flick; alone it names the first legal step of its counter: put
        back, nominated, potted, or else (no shot can be judged while a
        counter waits to be put back) down in the same flick."""
        legal = self.legal()
        if b < FOUL_BUTTON:
            if named >= 0 or held:
                step = _SHOTS[b][1 + named] if named >= 0 else _ALSO[b]
                return step if step in legal else None
            for step in legal:
                if step[0] in _BY_COUNTER and step[1] == b:
                    return step
            return None
        if b < FOUL_BUTTON + len(FOULS):
            kind = b - FOUL_BUTTON
            for step in legal:
                if step[0] == "foul" and step[2] == kind:
                    return kind
            return None
        step = MISS if BUTTONS[b] == "miss" else SAFE
        return step if step in legal else None

    # -- the protocol hooks ------------------------------------------------

    def _outcomes(self):
        return ()

    def _decisions(self):
        # the counters in_play(), all at once: the frame asks at every step
        pending, colours = self.pending, self.colours
        playable = [c for c in range(1, 7) if colours[c] == UP and c not in pending]
        if self.reds > pending.count(RED):
            playable.insert(0, RED)
        if pending:
            out = [_RESPOTTED[c] for c in range(7) if c in pending]
        elif self.on == ANY and self.options["nominate"]:
            out = [_NOMINATE[c] for c in playable if c != RED]
        else:
            out = []
            for c in playable:
                out.extend(_SHOTS[c])
            out.append(MISS)
            out.append(SAFE)
        if self.flick >= 0:
            sent = self.sent
            out.extend([_ALSO[c] for c in playable if not sent >> c & 1])
        return tuple(out)

    def _apply(self, step):
        kind = step[0]
        if kind == "also":
            events = self._also(step[1])
        elif kind == "respotted":
            self.pending.remove(step[1])
            events = [("respotted", step[1])]
        elif kind == "nominate":
            self.on = step[1]
            events = [("nominated", self.turn, step[1])]
        else:
            self.flick, self.good, self.sent = -1, False, 0  # a new shot: the last flick is settled
            if kind == "pot":
                events = self._pot(step[1])
            elif kind == "foul":
                events = self._foul(step[1], step[2])
            else:
                events = [("missed" if kind == "miss" else "safety", self.turn)] + self._pass_turn()
        if self.phase != OVER:
            events.append(("on", self.on_now()))
        return events

    def _pot(self, c):
        player = self.turn
        on = c == self.on or (self.on == ANY and c != RED)
        self.flick, self.good, self.sent = player, on, 1 << c & 126
        events = [("potted", player, c, c + 1 if on else 0)]
        if on:
            self.scores[player] += c + 1
            events.append(("score", player, self.scores[player]))
        elif self.options["wrong_pot_penalty"]:
            events += self._penalise(player, c)
        if c == RED:
            self.reds -= 1  # "All reds remain in the pockets"
        elif on and not self.free:
            self.colours[c] = DOWN  # the rotation: it stays down
        else:
            events += self._respot(c)
        if not on:
            return events + self._pass_turn()
        if c == RED:
            if self.reds or self.options["colour_after_last_red"]:
                self.on, self.free = ANY, True
            else:
                self.on = self.lowest()
        else:
            self.free = False
            self.on = RED if self.reds else self.lowest()
            if self.on < 0:
                return events + self._finish()
        return events

    def _also(self, c):
        """One more counter down in the last flick: never on, it scores nothing."""
        shooter = self.flick
        self.sent |= 1 << c & 126  # reds are alike: any number may follow
        events = [("also", shooter, c)]
        if self.options["wrong_pot_penalty"]:
            events += self._penalise(shooter, c)
        if c == RED:
            self.reds -= 1
        else:
            events += self._respot(c)
        if self.good:  # the shot has failed after all
            self.good = False
            return events + self._pass_turn()
        self._start_turn()  # the next player has not shot yet; the last red may have gone
        return events

    def _foul(self, c, kind):
        player = self.turn
        events = [("foul", player, c, FOULS[kind])] + self._penalise(player, c)
        if c == BLACK and self.reds == 0 and self.lowest() == BLACK:
            self.colours[BLACK] = OUT  # "it is not returned to its starting position"
            return events + [("removed", BLACK)] + self._finish()
        self.flick, self.good, self.sent = player, False, 1 << c & 126
        return events + self._respot(c) + self._pass_turn()

    def _penalise(self, player, c):
        self.scores[player] -= c + 1
        return [("penalty", player, c, c + 1), ("score", player, self.scores[player])]

    def _respot(self, c):
        if self.options["confirm_respot"]:
            self.pending.append(c)
        return [("respot", c, self.board.spots[c])]

    def _start_turn(self):
        """A turn begins on a red while reds remain, else on the rotation's colour."""
        self.free = False
        self.on = RED if self.reds else self.lowest()

    def _pass_turn(self):
        self.turn = (self.turn + 1) % self.players
        self.actor = self.turn
        self._start_turn()
        return [("turn", self.turn)]

    def _finish(self):
        best = max(self.scores)
        self.winners = tuple(p for p in range(self.players) if self.scores[p] == best)
        self.winner = self.winners[0] if len(self.winners) == 1 else -1  # -1: a shared win
        self.phase = OVER
        self.flick, self.good, self.sent = -1, False, 0
        return [("won", p) for p in self.winners]

    # -- notation ----------------------------------------------------------

    def notation(self, step):
        kind = step[0]
        if kind == "pot":
            return LETTERS[step[1]]
        if kind == "foul":
            return "%s!%s" % (LETTERS[step[1]], FOULS[step[2]])
        for prefix in _PREFIX:
            if _PREFIX[prefix] == kind:
                return prefix + LETTERS[step[1]]
        return kind

    def _parse(self, text):
        if text == "miss" or text == "safe":
            return (text,)
        letter, _, foul = text.partition("!")
        kind = "pot"
        if letter[:1] in _PREFIX and not foul:
            kind, letter = _PREFIX[letter[0]], letter[1:]
        c = LETTERS.find(letter.upper()) if len(letter) == 1 else -1
        if c < 0:
            return None
        if foul:
            return ("foul", c, FOULS.index(foul)) if foul in FOULS else None
        return (kind, c)

    # -- copy, save and load -----------------------------------------------

    def _copy_own(self, other):
        """``copy``: this game's own attributes; the lists a step changes are copied."""
        other.winners = self.winners
        other.reds = self.reds
        other.on = self.on
        other.free = self.free
        other.flick = self.flick
        other.good = self.good
        other.sent = self.sent
        other.scores = self.scores[:]
        other.colours = self.colours[:]
        other.pending = self.pending[:]

    def _save_own(self):
        return {
            "actor": self.actor,
            "scores": self.scores[:], "reds": self.reds, "colours": list(self.colours[1:]),
            "on": self.on, "free": self.free, "pending": self.pending[:], "flick": self.flick,
            "good": self.good, "sent": self.sent, "winner": self.winner, "winners": list(self.winners),
        }

    @classmethod
    def load(cls, board, data):
        """The state saved by ``save()``; a SaveError names the first bad field."""
        game = cls._fresh(board, data)
        last = game.players - 1
        if game.phase not in (DECIDE, OVER):
            raise SaveError("save: field 'phase' is %d, Tiddlee Snuka only decides or is over" % game.phase)
        game.actor = save_int(data, "actor", 0, last)
        game.scores = save_ints(data, "scores", game.players, -999999, 999999)
        game.reds = save_int(data, "reds", 0, len(game.board.spots[RED]))
        game.colours = bytearray([UP] + save_ints(data, "colours", 6, UP, OUT))
        game.on = save_int(data, "on", ANY, BLACK)
        game.free = field(data, "free", bool, "save")
        game.pending = save_ints(data, "pending", None, RED, BLACK)
        game.flick = save_int(data, "flick", -1, last)
        game.good = field(data, "good", bool, "save")
        game.sent = save_int(data, "sent", 0, 126)
        game.winners = tuple(save_ints(data, "winners", None, 0, last))
        game._check()
        game._goes_on()
        return game

    def _check(self):
        """Reject a loaded state that no frame could reach."""
        colours = self.colours
        down = 0
        while down < 6 and colours[down + 1] != UP:
            down += 1
        if any(colours[c] != UP for c in range(down + 1, 7)) or (down and self.reds):
            raise SaveError("save: colours go down only in rotation, once the reds are gone")
        if any(colours[c] == OUT for c in range(1, 6)) or (colours[BLACK] == OUT and self.phase != OVER):
            raise SaveError("save: only the black can be removed, and that ends the frame")
        # a red potted scores 1 and earns a colour (7 at most); a colour down in the rotation scored once.
        # Penalties only take points away: what the players' scores above 0 add up to was potted
        most = 8 * (len(self.board.spots[RED]) - self.reds) + sum(c + 1 for c in range(1, 7) if colours[c] == DOWN)
        if sum(s for s in self.scores if s > 0) > most:
            raise SaveError("save: field 'scores' is more than the counters potted give")
        if self.actor != self.turn:
            raise SaveError("save: the actor must be the player whose turn it is")
        for c in self.pending:
            count = self.pending.count(c)
            if (c == RED and count > self.reds) or (c != RED and (colours[c] != UP or count > 1)):
                raise SaveError("save: pending counter %s is not in play" % COLOURS[c])
        if self.pending and not self.options["confirm_respot"]:
            raise SaveError("save: counters wait to be put back without the option confirm_respot")
        if (self.good and self.flick != self.turn) or (self.flick < 0 and self.sent) or self.sent & 1:
            raise SaveError("save: fields 'flick', 'good' and 'sent' disagree")
        if self.phase == OVER:
            best = max(self.scores)
            winners = tuple(p for p in range(self.players) if self.scores[p] == best)
            if self.reds or down < 6 or self.winners != winners \
                    or self.winner != (winners[0] if len(winners) == 1 else -1):
                raise SaveError("save: the winners do not fit the scores or the frame is not over")
            return
        if self.winners or self.winner >= 0:
            raise SaveError("save: a winner while the frame goes on")
        on = self.on
        if self.free:
            fits = not down and (self.reds or self.options["colour_after_last_red"]) and (
                on == ANY or (on > RED and colours[on] == UP and self.options["nominate"]))
        else:
            fits = on == (RED if self.reds else self.lowest())
        if not fits:
            raise SaveError("save: field 'on' is %d, which cannot be on now" % on)

