"""Dash: race two pieces each along a line of spaces, from START to FINISH,
with one die; a piece landing on another player's sends it back to START.
The first player with both pieces on FINISH wins.

A piece's place is its space number (0 START, the last FINISH). A move may
not end on the player's own other piece, except on FINISH; a roll that moves
no piece is lost.

Steps and their notation:
  roll   (4,)          "4"        chance
  move   ("m", piece)  "a" "b"    that piece of the player moves the roll
"""

from rules.board import Board
from rules.core import (
    DECIDE, EMPTY, OVER, ROLL,
    BoardError, Game, RulesError, SaveError, check_options, save_int, save_ints,
)

KINDS = ("start", "track", "finish")
PIECES = 2  # per player
NO_ROLL = 0
_ROLLS = tuple(((v,), 1, 6) for v in range(1, 7))
_MOVES = tuple(("m", i) for i in range(PIECES))

DEFAULTS = {
    "exact_finish": False,  # FINISH needs the exact roll; off: a roll past it ends there
}


class DashBoard(Board):
    """A line of spaces: START, the track, FINISH, in the order of the file; one die."""

    def __init__(self, data):
        Board.__init__(self, data, "dash", KINDS, dice=1)
        n = len(self.ids)
        if n < 3:
            raise BoardError("board: needs 3 spaces or more, found %d" % n)
        for s in range(n):
            kind = "start" if s == 0 else "finish" if s == n - 1 else "track"
            if self.kinds[s] != kind:
                raise BoardError("space %r: space %d of %d must be kind %r" % (self.ids[s], s + 1, n, kind))
        self.finish = n - 1


class Dash(Game):
    """One game of Dash; see the module notes for the steps."""

    name = "dash"
    space_events = ("sent_back",)
    special_kinds = ("start", "finish")
    min_players = 2
    max_players = 4

    def __init__(self, board, players=2, options=None):
        if not isinstance(board, DashBoard):
            board = DashBoard(board)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise RulesError("Dash is for 2 to 4 players")
        super().__init__(board, players, check_options(options, DEFAULTS))
        self.pos = [0] * (players * PIECES)
        self.roll = NO_ROLL

    def home(self, player):
        """How many of the player's pieces stand on FINISH."""
        return sum(1 for p in self.pos[player * PIECES:(player + 1) * PIECES] if p == self.board.finish)

    def target(self, piece):
        """Where ``piece`` (of the player whose turn it is) ends with the roll, or -1."""
        finish, at = self.board.finish, self.pos[piece]
        to = at + self.roll
        if at == finish or to > finish and self.options["exact_finish"]:
            return -1
        to = min(to, finish)
        own = self.turn * PIECES
        if to != finish and any(self.pos[own + i] == to for i in range(PIECES) if own + i != piece):
            return -1
        return to

    # -- what the sensors see --------------------------------------------------

    def occupancy(self):
        counts = bytearray(len(self.board.ids))
        for at in self.pos:
            counts[at] += 1
        return counts

    def owners(self):
        owner = bytearray([EMPTY] * len(self.board.ids))
        for p in range(len(self.pos)):
            owner[self.pos[p]] = p // PIECES
        return owner

    def moves(self):
        own = self.turn * PIECES
        return tuple((d, self.pos[own + d[1]], self.target(own + d[1])) for d in self.legal())

    # -- the protocol's hooks ----------------------------------------------------

    def _outcomes(self):
        return _ROLLS

    def _decisions(self):
        own = self.turn * PIECES
        return tuple(_MOVES[i] for i in range(PIECES) if self.target(own + i) >= 0)

    def _apply(self, step):
        if self.phase == ROLL:
            self.roll = step[0]
            events = [("rolled", self.turn, step)]  # type: list
            if self._decisions():
                self.phase = DECIDE
                return events
            return events + [("no_move", self.turn)] + self._next()
        player, i = self.turn, step[1]
        piece = player * PIECES + i
        was, to = self.pos[piece], self.target(piece)
        self.pos[piece] = to
        events = [("moved", player, i, was, to)]
        for other in range(len(self.pos)):
            if other // PIECES != player and self.pos[other] == to and to != self.board.finish:
                self.pos[other] = 0
                events.append(("sent_back", other // PIECES, other % PIECES, to))
        if to == self.board.finish and self.home(player) == PIECES:
            self.winner, self.phase, self.roll = player, OVER, NO_ROLL
            return events + [("won", player)]
        return events + self._next()

    def _next(self):
        self.roll = NO_ROLL
        self.phase = ROLL
        self.turn = self.actor = (self.turn + 1) % self.players
        return [("turn", self.turn)]

    def notation(self, step):
        if self.phase == ROLL:
            return str(step[0])
        return "ab"[step[1]]

    def _parse(self, text):
        if self.phase == ROLL:
            return (int(text),) if text in ("1", "2", "3", "4", "5", "6") else None
        return _MOVES["ab".index(text.lower())] if text.lower() in ("a", "b") else None

    # -- copy, save and load -------------------------------------------------------

    def _copy_own(self, other):
        other.pos = self.pos[:]
        other.roll = self.roll

    def _save_own(self):
        return {"pos": self.pos[:], "roll": self.roll, "winner": self.winner}

    @classmethod
    def load(cls, board, data):
        """The state saved by ``save()``; a SaveError names the first bad field."""
        game = cls._fresh(board, data)
        game.actor = game.turn
        game.pos = save_ints(data, "pos", len(game.pos), 0, game.board.finish)
        game.roll = save_int(data, "roll", NO_ROLL, 6)
        if (game.phase == DECIDE) != (game.roll != NO_ROLL) or game.phase not in (ROLL, DECIDE, OVER):
            raise SaveError("save: field 'roll' does not fit the phase")
        game._goes_on()
        return game
