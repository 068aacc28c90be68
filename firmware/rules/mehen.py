"""Mehen: race three marbles along a coiled snake from its tail to its head and
back, with throw sticks; in the hunt, shared lions eat marbles. Rules:
``boards/mehen.md``; the board: ``boards/mehen.json``.

The track is the squares 0 (the tail) .. H (the head) of the board, in the
order of the board file. A piece's state is one number, its *progress* along
the whole route: 0 on the tail, H on the head, 2H back on the tail again. Below
H it is on its way in; from H on it has visited the head and is on its way out.
A marble with progress 2H is home and out of play. The square under a progress
is ``board.route[progress]``.

A throw is three two-sided sticks; the outcome is a mask whose bit i is set when
stick i+1 fell flat side up. No flat side counts 6, else the number of flat sides.

Steps and their notation:
  throw   mask 0..7          "FRR" (stick 1 flat, sticks 2 and 3 round)   chance
  move    ("m", marble)      "a" "b" "c": that marble of the player moves the throw
  lion    ("l", lion)        "L1" "L2" ...: that shared lion moves the throw (the hunt)
"""

import math

from rules.board import Board
from rules.core import (
    DECIDE, EMPTY, LION, OVER, ROLL,
    BoardError, Game, RulesError, SaveError, check_options, field, save_int, save_ints,
)

KINDS = ("tail", "track", "head")
MARBLES = 3  # per player: "Каждый игрок начинает с 3 шариков"
MAX_LIONS = 6  # the most a set held: three lions and three lionesses
NO_THROW = -1
# squares of a throw by its mask: no flat side counts 6, else the flat sides
VALUE = bytes((6, 1, 1, 2, 1, 2, 2, 3))
_THROWS = tuple((mask, 1, 8) for mask in range(8))
_MARBLE = tuple(("m", i) for i in range(MARBLES))
_LION = tuple(("l", k) for k in range(MAX_LIONS))

DEFAULTS = {
    "hunt": False,  # the hunt, with shared lions; off: the classic race
    "lions": 3,  # how many lions in the hunt
    "lion_start": "tail",  # where the lions stand at the start: "tail" or "head"
    "lions_return": False,  # a lion back at the tail sets out again; off: it leaves play like a marble
    "exact_head": False,  # the head needs the exact throw; off: the surplus carries on outwards
    "exact_home": False,  # the tail needs the exact throw at the end; off: any surplus is dropped
    "extra_throw": 0,  # a throw of this value (1, 2, 3 or 6) earns another throw; 0: none
    "first_player": 1,  # who throws first, counting from 1
}


def sticks_text(mask):
    """A throw as the sticks lie: "F" flat side up, "R" round side up; stick 1 first."""
    if not 0 <= mask < 8:
        raise ValueError("a throw is a mask from 0 to 7")
    return "".join("F" if mask >> i & 1 else "R" for i in range(3))


def spiral(squares, turns, pitch):
    """Where the squares of a spiral track lie: ``(size, points)``.

    An Archimedean spiral whose coils are ``pitch`` apart, with the squares
    ``pitch`` apart along it, so ``turns`` coils hold exactly ``squares``
    squares: a chain of LEDs laid under the squares is a spiral of that pitch.
    ``points[0]`` is the tail (outside, at the bottom), ``points[-1]`` the head
    (innermost); whole units in a ``size`` x ``size`` square.
    """
    b = pitch / (2 * math.pi)  # radius gained per radian
    sweep = 2 * math.pi * turns
    # the arc from the head to the tail, (squares - 1) pitches, fixes the head's radius
    r0 = ((squares - 1) * pitch - b * sweep * sweep / 2) / sweep
    if r0 < pitch / 2:
        raise BoardError("spiral: %d squares cannot make %s turns of pitch %s" % (squares, turns, pitch))
    outer = r0 + b * sweep
    size = 2 * int(outer + pitch) + 1
    centre = size // 2
    points = []
    for n in range(squares):
        arc = (squares - 1 - n) * pitch  # measured from the head
        theta = (math.sqrt(r0 * r0 + 2 * b * arc) - r0) / b
        r = r0 + b * theta
        angle = math.pi / 2 + theta - sweep  # the tail at the bottom
        points.append((centre + round(r * math.cos(angle)), centre + round(r * math.sin(angle))))
    return size, points


class MehenBoard(Board):
    """A Mehen board: one track from the tail to the head, the three sticks' pixels."""

    def __init__(self, data):
        super().__init__(data, "mehen", KINDS)
        n = len(self.ids)
        if not 3 <= n <= 256:  # the route table holds square numbers in bytes
            raise BoardError("board: needs 3 to 256 squares, found %d" % n)
        for s in range(n):
            kind = "tail" if s == 0 else "head" if s == n - 1 else "track"
            if self.kinds[s] != kind:
                raise BoardError("space %r: square %d of %d must be kind %r" % (self.ids[s], s + 1, n, kind))
        params = field(data, "spiral", dict, "board", BoardError)
        if field(params, "squares", int, "board: spiral", BoardError) != n:
            raise BoardError("board: spiral: squares is %d but the file lists %d spaces" % (params["squares"], n))
        for name in ("turns", "pitch"):
            value = params.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise BoardError("board: spiral: %r must be a number above 0" % name)
        self.max_players = field(data, "max_players", int, "board", BoardError)
        if not 2 <= self.max_players <= 6:
            raise BoardError("board: field 'max_players' must be from 2 to 6")
        if len(self.extras.get("sticks", ())) != 3:
            raise BoardError("extras 'sticks': needs one pixel for each of the 3 sticks")
        self.head = n - 1
        self.length = 2 * self.head  # the whole route, tail to head to tail
        # square under each progress: in along the track, then back out
        self.route = bytes(p if p <= self.head else self.length - p for p in range(self.length + 1))


class Mehen(Game):
    """One game of Mehen; see the module notes for the steps."""

    name = "mehen"
    tactics = "rules.mehen_tactics"
    space_events = ("eaten",)
    dice_events = ("extra_throw",)
    special_kinds = ("tail", "head")
    min_players = 2
    max_players = 6

    def __init__(self, board, players=2, options=None):
        if not isinstance(board, MehenBoard):
            board = MehenBoard(board)
        if not isinstance(players, int) or not 2 <= players <= board.max_players:
            raise RulesError("Mehen on this board is for 2 to %d players" % board.max_players)
        opts = check_options(options, DEFAULTS)
        if not 1 <= opts["lions"] <= MAX_LIONS:
            raise RulesError("option 'lions' must be from 1 to %d" % MAX_LIONS)
        if opts["lion_start"] not in ("tail", "head"):
            raise RulesError("option 'lion_start' is \"tail\" or \"head\"")
        if opts["extra_throw"] not in (0, 1, 2, 3, 6):
            raise RulesError("option 'extra_throw' is 0 (none) or a throw: 1, 2, 3 or 6")
        if not 1 <= opts["first_player"] <= players:
            raise RulesError("option 'first_player' must be from 1 to %d" % players)
        super().__init__(board, players, opts)
        self.marbles = [0] * (players * MARBLES)
        start = board.head if opts["lion_start"] == "head" else 0
        self.lions = [start] * opts["lions"] if opts["hunt"] else []
        self.turn = opts["first_player"] - 1
        self.actor = self.turn
        self.sticks = NO_THROW  # the throw waiting to be moved
        self._moves = None  # the legal moves, worked out once per step (None: not yet)

    # -- reading the state -------------------------------------------------

    def home(self, player):
        """How many of the player's marbles are home."""
        end = self.board.length
        return sum(1 for p in self.marbles[player * MARBLES:(player + 1) * MARBLES] if p == end)

    def target(self, progress, value):
        """Progress after moving ``value`` squares, or -1 if that piece cannot move."""
        board = self.board
        end, to = board.length, progress + value
        if progress >= end:
            return -1  # home, out of play
        if progress < board.head < to and self.options["exact_head"]:
            return -1
        if to > end:
            return -1 if self.options["exact_home"] else end
        return to

    def occupancy(self):
        board = self.board
        counts = bytearray(len(board.ids))
        for progress in self.marbles + self.lions:
            if progress < board.length:  # home pieces have left play
                counts[board.route[progress]] += 1
        return counts

    def owners(self):
        board = self.board
        owner = bytearray([EMPTY] * len(board.ids))
        for progress in self.lions:
            if progress < board.length:
                owner[board.route[progress]] = LION
        for m in range(len(self.marbles)):
            if self.marbles[m] < board.length:
                owner[board.route[self.marbles[m]]] = m // MARBLES
        return owner

    def moves(self):
        board = self.board
        out = []
        for d in self.legal():
            value = VALUE[self.sticks]
            progress = self.marbles[self.turn * MARBLES + d[1]] if d[0] == "m" else self.lions[d[1]]
            out.append((d, board.route[progress], board.route[self.target(progress, value)]))
        return tuple(out)

    # -- the protocol hooks ------------------------------------------------

    def _outcomes(self):
        return _THROWS

    def _decisions(self):
        if self._moves is None:
            self._moves = self._find_moves()
        return self._moves

    def _find_moves(self):
        value, target, marbles, lions = VALUE[self.sticks], self.target, self.marbles, self.lions
        base = self.turn * MARBLES
        out = []
        for i in range(MARBLES):
            if target(marbles[base + i], value) >= 0:
                out.append(_MARBLE[i])
        for k in range(len(lions)):
            if target(lions[k], value) >= 0:
                out.append(_LION[k])
        return tuple(out)

    def _apply(self, step):
        self._moves = None  # the state changes
        if self.phase == ROLL:
            return self._throw(step)
        if step[0] == "m":
            return self._move_marble(step[1])
        return self._move_lion(step[1])

    def _throw(self, mask):
        self.sticks = mask
        events = [("threw", self.turn, mask, VALUE[mask])]  # type: list
        self._moves = self._find_moves()
        if self._moves:
            self.phase = DECIDE
            return events
        events.append(("no_move", self.turn))  # the throw is lost
        return events + self._next()

    def _move_marble(self, i):
        board, player, m = self.board, self.turn, self.turn * MARBLES + i
        was = self.marbles[m]
        now = self.target(was, VALUE[self.sticks])
        self.marbles[m] = now
        events = [("moved", player, i, tuple(board.route[was:now + 1]))]  # type: list
        if was < board.head <= now:
            events.append(("head", player, i))
        if now == board.length:
            events.append(("home", player, i))
            if self.home(player) == MARBLES:
                self.winner = player
                self.phase = OVER
                self.sticks = NO_THROW
                events.append(("won", player))
                return events
        return events + self._next()

    def _move_lion(self, k):
        board = self.board
        was = self.lions[k]
        now = self.target(was, VALUE[self.sticks])
        events = [("lion", self.turn, k, tuple(board.route[was:now + 1]))]  # type: list
        if was < board.head <= now:
            events.append(("lion_head", k))
        if now == board.length:
            # the tail holds only marbles that have not set out: nothing to eat
            self.lions[k] = 0 if self.options["lions_return"] else now
            events.append(("lion_home", k))
            return events + self._next()
        self.lions[k] = now
        square = board.route[now]
        for m in range(len(self.marbles)):
            p = self.marbles[m]
            if m // MARBLES != self.turn and 0 < p < board.length and board.route[p] == square:
                self.marbles[m] = 0
                events.append(("eaten", m // MARBLES, m % MARBLES, square))
        return events + self._next()

    def _next(self):
        """After a throw is used or lost: another throw, or the next player."""
        value = VALUE[self.sticks]
        self.sticks = NO_THROW
        self.phase = ROLL
        if value == self.options["extra_throw"]:
            return [("extra_throw", self.turn)]
        self.turn = (self.turn + 1) % self.players
        self.actor = self.turn
        return [("turn", self.turn)]

    # -- notation ----------------------------------------------------------

    def notation(self, step):
        if self.phase == ROLL:
            return sticks_text(step)
        if step[0] == "l":
            return "L%d" % (step[1] + 1)
        return "abc"[step[1]]

    def _parse(self, text):
        if self.phase == ROLL:
            text = text.upper()
            if len(text) != 3 or text.strip("FR"):
                return None
            return sum(1 << i for i in range(3) if text[i] == "F")
        if text.lower() in ("a", "b", "c"):
            return _MARBLE["abc".index(text.lower())]
        if text[:1] in "Ll" and text[1:].isdigit():
            return ("l", int(text[1:]) - 1)
        return None

    # -- copy, save and load -----------------------------------------------

    def _copy_own(self, other):
        """``copy``: this game's own attributes; the lists a step changes are copied."""
        other.sticks = self.sticks
        other._moves = self._moves
        other.marbles = self.marbles[:]
        other.lions = self.lions[:]

    def _save_own(self):
        return {
            "sticks": self.sticks, "marbles": self.marbles[:], "lions": self.lions[:],
            "winner": self.winner,
        }

    @classmethod
    def load(cls, board, data):
        """The state saved by ``save()``; a SaveError names the first bad field."""
        game = cls._fresh(board, data)
        end = game.board.length
        game.actor = game.turn
        game.sticks = save_int(data, "sticks", NO_THROW, 7)
        game.marbles = save_ints(data, "marbles", len(game.marbles), 0, end)
        # a lion that comes home either sets out again (progress 0) or leaves play (the end)
        game.lions = save_ints(data, "lions", len(game.lions), 0, end - 1 if game.options["lions_return"] else end)
        game._check()
        game._goes_on()
        return game

    def _check(self):
        """Reject a loaded state that no game could reach."""
        if self.phase not in (ROLL, DECIDE, OVER):
            raise SaveError("save: field 'phase' is %d, not a Mehen phase" % self.phase)
        if (self.phase == DECIDE) != (self.sticks >= 0):
            raise SaveError("save: field 'sticks' does not fit the phase")
        done = [p for p in range(self.players) if self.home(p) == MARBLES]
        if done != ([self.winner] if self.phase == OVER else []) or (self.phase != OVER and self.winner >= 0):
            raise SaveError("save: the winner does not fit the marbles at home")

