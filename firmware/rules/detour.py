"""Detour: race both arrow pieces along a path through four turning wheels to
FINISH. Rules: ``boards/detour.md``; the board: ``boards/detour.json``.

A piece is (space, heading); the heading is the side it will leave by. A step
goes to the neighbour on that side; a space with two exits sends the piece out
by the other one, a crossing (four exits) sends it straight on. A wheel is the
3x3 block of spaces around its star: turning it rotates the block's exits and
the pieces standing on it by 90 degrees a step.

Steps (tuples) and their notation:
  roll     (3, 5) "3,5"  or (4,) "4"          chance
  pop-off  winner player index  "P2"          chance (players count from 1)
  move     ("m", piece, die, heading) "a5"   "a5N" picks the heading on the centre star
  wheel    ("w", wheel, quarter turns) "W1+" "W1-" "W1+2";  ("w", -1, 0) "pass"
  start    ("s", start) "S1" "S2"  where the pop-off loser goes back
"""

from rules.board import Board, cell
from rules.core import (
    DECIDE, EMPTY, OVER, POPOFF, ROLL, WHEEL,
    BoardError, Game, RulesError, SaveError, check_options, field, save_int, save_ints,
)

KINDS = ("path", "start", "finish", "star", "wheel", "wheel_star", "centre")
STARS = ("star", "wheel_star", "centre")
DIRS = "NESW"
_DX = (0, 1, 0, -1)
_DY = (-1, 0, 1, 0)
_NONE = 255
UNPLACED = -1  # before its player's first turn
FINISHED = -2
# direction of a one-bit exit mask, 255 for any other mask
_BIT_DIR = bytes({1: 0, 2: 1, 4: 2, 8: 3}.get(m, _NONE) for m in range(16))
# slot k of a 3x3 wheel block is (k % 3 - 1, k // 3 - 1); where a quarter turn clockwise takes it
ROT_SLOT = bytes((k % 3) * 3 + 2 - k // 3 for k in range(9))
_TWO_DICE = tuple(((a, b), 1, 36) for a in range(1, 7) for b in range(1, 7))
_ONE_DIE = tuple(((a,), 1, 6) for a in range(1, 7))
PASS = ("w", -1, 0)

DEFAULTS = {
    "pieces": 2,  # per player; 4 is allowed in a 2-player game
    "first_player": 1,  # who goes first (the youngest), counting from 1
    "half_turns": False,  # a star also allows turning a wheel by 180 degrees
    "wheel_turn_optional": False,  # a star landing may be passed up
    "star_after_lost_popoff": False,  # the star's wheel turn stays earned after losing the pop-off
}


def _rotate_mask(mask, quarters):
    for _ in range(quarters & 3):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def _bits(mask):
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3)


def _exits(text, board, s):
    """The exits ``text`` of space ``s`` as a mask of directions."""
    mask = 0
    for ch in text:
        d = DIRS.find(ch)
        if d < 0 or mask & (1 << d):
            raise BoardError("space %r: exits %r must be distinct letters of NESW" % (board.ids[s], text))
        mask |= 1 << d
    return mask


class DetourBoard(Board):
    """A Detour board: its spaces plus the exit tables for every wheel position."""

    def __init__(self, data):
        Board.__init__(self, data, "detour", KINDS, dice=2)
        n = len(self.ids)
        at = self.at_cell
        nbr = bytearray([_NONE] * (4 * n))
        for s in range(n):
            for d in range(4):
                t = at.get(cell(self.xs[s] + _DX[d], self.ys[s] + _DY[d]))
                if t is not None:
                    nbr[4 * s + d] = t
        self.nbr = bytes(nbr)
        spaces = data["spaces"]
        fixed = bytearray(n)
        starts, arrows = [], []
        for s in range(n):
            exits = spaces[s].get("exits")
            if type(exits) is not str:  # (the message only then: made for every space, it slowed the load)
                field(spaces[s], "exits", str, "space %r" % self.ids[s], BoardError)
            fixed[s] = _exits(exits, self, s)
            if self.kinds[s] == "start":
                where = "space %r" % self.ids[s]
                arrow = DIRS.find(field(spaces[s], "arrow", str, where, BoardError))
                if len(spaces[s]["arrow"]) != 1 or arrow < 0 or not fixed[s] & (1 << arrow):
                    raise BoardError("%s: arrow must be one of its exits" % where)
                starts.append(s)
                arrows.append(arrow)
        if len(starts) != 2:
            raise BoardError("board: needs exactly 2 start spaces, found %d" % len(starts))
        self.starts = tuple(starts)
        self.arrows = tuple(arrows)
        self.finishes = tuple(s for s in range(n) if self.kinds[s] == "finish")
        if not self.finishes:
            raise BoardError("board: needs at least one finish space")
        centres = [s for s in range(n) if self.kinds[s] == "centre"]
        if len(centres) != 1 or fixed[centres[0]] != 15:
            raise BoardError("board: needs exactly one centre star with exits NESW")
        self.centre = centres[0]
        self.is_star = bytes(1 if k in STARS else 0 for k in self.kinds)
        self._load_wheels(field(data, "wheels", list, "board", BoardError), fixed, at)
        self.fixed = bytes(fixed)
        for p in range(4):
            self._check_links(bytes([p] * len(self.wheel_ids)))

    def _load_wheels(self, wheels, fixed, at):
        n = len(self.ids)
        self.wheel_of = bytearray([_NONE] * n)
        self.slot = bytearray(n)
        cells = bytearray()
        wmask = bytearray(36 * len(wheels))
        ids, start = [], bytearray()
        for w, wheel in enumerate(wheels):
            where = "wheel #%d" % (w + 1)
            ids.append(field(wheel, "id", str, where, BoardError))
            star = self.space(field(wheel, "star", str, where, BoardError), where)
            position = field(wheel, "start", int, where, BoardError)
            if not 0 <= position <= 3:
                raise BoardError("%s: start must be a position from 0 to 3" % where)
            start.append(position)
            if self.kinds[star] != "wheel_star":
                raise BoardError("%s: star %r is not a wheel_star space" % (where, self.ids[star]))
            block = bytearray(9)
            for k in range(9):
                s = at.get(cell(self.xs[star] + k % 3 - 1, self.ys[star] + k // 3 - 1))
                if s is None or self.kinds[s] != ("wheel_star" if k == 4 else "wheel"):
                    raise BoardError("%s: the 3x3 block around its star must be wheel spaces" % where)
                if self.wheel_of[s] != _NONE:
                    raise BoardError("space %r: belongs to two wheels" % self.ids[s])
                self.wheel_of[s] = w
                self.slot[s] = k
                block[k] = s
            cells += block
            for p in range(4):
                for k in range(9):
                    dest = k
                    for _ in range(p):
                        dest = ROT_SLOT[dest]
                    wmask[36 * w + 9 * p + dest] = _rotate_mask(fixed[block[k]], p)
        for s in range(n):
            if self.kinds[s] in ("wheel", "wheel_star") and self.wheel_of[s] == _NONE:
                raise BoardError("space %r: a wheel space outside every wheel" % self.ids[s])
        self.wheel_ids = tuple(ids)
        self.wheel_start = bytes(start)
        self.wheel_cells = bytes(cells)
        self.wmask = bytes(wmask)

    def mask(self, s, wheels):
        """Exits of space ``s`` with the wheels at ``wheels``."""
        w = self.wheel_of[s]
        if w == _NONE:
            return self.fixed[s]
        return self.wmask[36 * w + 9 * wheels[w] + self.slot[s]]

    def _check_links(self, wheels):
        """Every exit meets an exit back; no dead ends, no forks (any wheel position)."""
        for s in range(len(self.ids)):
            mask = self.mask(s, wheels)
            count = _bits(mask)
            if count == 0 and self.kinds[s] == "wheel":
                continue  # a wheel corner off the route in this position
            if count not in (2, 4):
                raise BoardError("space %r: has %d exits with the wheels at %d; a path space needs 2, a crossing 4"
                                 % (self.ids[s], count, wheels[0]))
            for d in range(4):
                if mask & (1 << d):
                    t = self.nbr[4 * s + d]
                    if t == _NONE or not self.mask(t, wheels) & (1 << ((d + 2) & 3)):
                        raise BoardError("space %r: exit %s has no matching exit back (wheels at %d)"
                                         % (self.ids[s], DIRS[d], wheels[0]))
                    w, v = self.wheel_of[s], self.wheel_of[t]
                    if w != v and w != _NONE and v != _NONE:
                        raise BoardError("space %r: two wheels may not touch" % self.ids[s])

    def walk(self, s, heading, count, wheels):
        """Spaces passed from (s, heading) over ``count`` steps, and the heading at the end."""
        nbr, wheel_of, fixed, wmask, slot = self.nbr, self.wheel_of, self.fixed, self.wmask, self.slot
        path = [s]
        for _ in range(count):
            s = nbr[4 * s + heading]
            w = wheel_of[s]  # mask(s, wheels), inline: every move walks
            mask = fixed[s] if w == _NONE else wmask[36 * w + 9 * wheels[w] + slot[s]]
            if mask != 15:
                heading = _BIT_DIR[mask & ~(1 << ((heading + 2) & 3))]
            path.append(s)
        return path, heading


class Detour(Game):
    """One game of Detour; see the module notes for the steps."""

    name = "detour"
    tactics = "rules.detour_tactics"
    space_events = ("sent_back", "collided", "popoff", "finished", "star")
    special_kinds = ("start", "finish", "star", "wheel_star", "centre")
    min_players = 2
    max_players = 4

    def __init__(self, board, players=2, options=None):
        if not isinstance(board, DetourBoard):
            board = DetourBoard(board)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise RulesError("Detour is for 2 to 4 players")
        opts = check_options(options, DEFAULTS)
        if opts["pieces"] not in (2, 4) or (opts["pieces"] == 4 and players != 2):
            raise RulesError("option 'pieces' is 2, or 4 in a 2-player game")
        if not 1 <= opts["first_player"] <= players:
            raise RulesError("option 'first_player' must be from 1 to %d" % players)
        super().__init__(board, players, opts)
        self.per = opts["pieces"]
        self.pos = [UNPLACED] * (players * self.per)
        self.head = [0] * (players * self.per)
        self.wheels = bytearray(board.wheel_start)
        self.turn = opts["first_player"] - 1
        self.actor = self.turn
        self.dice = []  # dice still to be moved this turn
        self.moved = -1  # the piece the first die moved
        self.duel = []  # [attacker, defender] pieces during a pop-off
        self.loser = -1  # the piece that lost the pop-off, until it is put on a START
        self.star = False  # a wheel turn is earned once the pop-off is settled

    # -- reading the state -------------------------------------------------

    def pieces_of(self, player):
        return range(player * self.per, (player + 1) * self.per)

    def in_play(self, player):
        """How many of the player's pieces have not finished."""
        return self.per - self.pos[player * self.per:(player + 1) * self.per].count(FINISHED)

    def occupant(self, space, besides=-1):
        """A piece on ``space`` other than ``besides``, or -1."""
        for p in range(len(self.pos)):
            if self.pos[p] == space and p != besides:
                return p
        return -1

    def occupancy(self):
        counts = bytearray(len(self.board.ids))
        for s in self.pos:
            if s >= 0:
                counts[s] += 1
        return counts

    def owners(self):
        owner = bytearray([EMPTY] * len(self.board.ids))
        for p in range(len(self.pos)):
            if self.pos[p] >= 0:
                owner[self.pos[p]] = p // self.per
        return owner

    def moves(self):
        out = []
        for d in self.legal():
            if d[0] == "m":
                p = self.turn * self.per + d[1]
                s = self.pos[p]
                path, _ = self.board.walk(s, d[3] if s == self.board.centre else self.head[p], d[2], self.wheels)
                out.append((d, s, path[-1]))
            elif d[0] == "s":
                out.append((d, self.pos[self.loser], self.board.starts[d[1]]))
        return tuple(out)

    def die_of(self, decision):
        return decision[2] if decision[0] == "m" else 0

    def wheel_of(self, decision):
        return decision[1] if decision[0] == "w" else -1

    def turning(self, wheel, quarters):
        if self.phase == WHEEL:
            for d in self._turns():
                if d[1] == wheel and d[2] & 3 == quarters:  # a quarter back is three on
                    return d
        return None

    def is_pass(self, decision):
        return decision == PASS

    # -- the protocol hooks ------------------------------------------------

    def _outcomes(self):
        if self.phase == POPOFF:
            return ((self.duel[0] // self.per, 1, 2), (self.duel[1] // self.per, 1, 2))
        return _TWO_DICE if self.in_play(self.turn) > 1 else _ONE_DIE

    def _decisions(self):
        if self.phase == WHEEL:
            return self._turns()
        if self.loser >= 0:
            return (("s", 0), ("s", 1))
        out = []
        values = self.dice
        if len(values) == 2 and values[0] >= values[1]:  # ascending and distinct, as sorted(set(dice))
            values = values[:1] if values[0] == values[1] else values[::-1]
        base, pos, moved, centre = self.turn * self.per, self.pos, self.moved, self.board.centre
        for p in range(base, base + self.per):
            s = pos[p]
            if s < 0 or p == moved:
                continue
            for v in values:
                if s == centre:
                    for h in range(4):
                        out.append(("m", p - base, v, h))
                else:
                    out.append(("m", p - base, v, -1))
        return tuple(out)

    def _turns(self):
        """The decisions of the wheel phase: a turn of any wheel, and the pass where it is allowed."""
        turns = (1, -1, 2) if self.options["half_turns"] else (1, -1)
        out = [("w", w, q) for w in range(len(self.wheels)) for q in turns]
        if self.options["wheel_turn_optional"]:
            out.append(PASS)
        return tuple(out)

    def _apply(self, step):
        if self.phase == ROLL:
            return self._roll(step)
        if self.phase == POPOFF:
            return self._popoff(step)
        if step[0] == "w":
            return self._turn_wheel(step[1], step[2])
        if step[0] == "s":
            return self._send_back(step[1])
        return self._move(self.turn * self.per + step[1], step[2], step[3])

    def _roll(self, dice):
        events = []
        if UNPLACED in self.pos:
            for i, p in enumerate(self.pieces_of(self.turn)):
                if self.pos[p] == UNPLACED:  # the first turn: one piece on each START
                    self._to_start(p, i & 1)
                    events.append(("placed", self.turn, i, self.pos[p]))
        self.dice = list(dice)
        self.phase = DECIDE
        events.append(("rolled", self.turn, dice))
        return events

    def _move(self, p, die, heading):
        board = self.board
        self.dice.remove(die)
        self.moved = p
        s = self.pos[p]
        path, heading = board.walk(s, heading if s == board.centre else self.head[p], die, self.wheels)
        end = path[-1]
        player, i = self.turn, p - self.turn * self.per
        events = [("moved", player, i, tuple(path))]
        kind = board.kinds[end]
        if kind == "finish":
            self.pos[p] = FINISHED
            events.append(("finished", player, i, end))
            if self.in_play(player) == 0:
                self.winner = player
                self.phase = OVER
                events.append(("won", player))
                return events
            return events + self._next()
        self.pos[p] = end
        self.head[p] = heading
        other = -1 if kind == "start" else self.occupant(end, p)
        if other >= 0 and other // self.per == player:
            # both pieces back to the two STARTs, and the turn is over
            first, second = (p, other) if p < other else (other, p)
            events.append(("collided", player, i, end))
            for p2, start in ((first, 0), (second, 1)):
                self._to_start(p2, start)
                events.append(("sent_back", player, p2 - player * self.per, end, self.pos[p2]))
            self.dice = []
            return events + self._next()
        self.star = board.is_star[end] == 1
        if self.star:
            events.append(("star", player, i, end))
        if other >= 0:
            self.duel = [p, other]
            self.phase = POPOFF
            self.actor = player
            events.append(("popoff", player, other // self.per, end))
            return events
        return events + self._next()

    def _popoff(self, winner):
        attacker, defender = self.duel
        self.duel = []
        self.loser = defender if winner == self.turn else attacker
        if self.loser == attacker and not self.options["star_after_lost_popoff"]:
            self.star = False
        self.phase = DECIDE
        self.actor = self.loser // self.per
        return [("popoff_won", winner, self.actor)]

    def _send_back(self, start):
        p, self.loser = self.loser, -1
        player = p // self.per
        was = self.pos[p]
        self._to_start(p, start)
        self.actor = self.turn
        return [("sent_back", player, p - player * self.per, was, self.pos[p])] + self._next()

    def _turn_wheel(self, w, quarters):
        self.star = False
        if w < 0:
            return [("wheel_passed", self.turn)] + self._next()
        self.wheels[w] = (self.wheels[w] + quarters) & 3
        events = [("wheel", w, quarters, self.wheels[w])]
        board = self.board
        for p in range(len(self.pos)):
            s = self.pos[p]
            if s >= 0 and board.wheel_of[s] == w:
                slot = board.slot[s]
                for _ in range(quarters & 3):
                    slot = ROT_SLOT[slot]
                self.pos[p] = board.wheel_cells[9 * w + slot]
                self.head[p] = (self.head[p] + quarters) & 3
                events.append(("turned", p // self.per, p % self.per, s, self.pos[p]))
        return events + self._next()

    def _next(self):
        """After a move is settled: the wheel turn, the other die, or the next player."""
        if self.star:
            self.phase = WHEEL
            self.actor = self.turn
            return []
        if self.dice:
            for p in self.pieces_of(self.turn):
                if self.pos[p] >= 0 and p != self.moved:  # a piece for the other die
                    self.phase = DECIDE
                    return []
        self.dice = []
        self.moved = -1
        self.turn = (self.turn + 1) % self.players
        self.actor = self.turn
        self.phase = ROLL
        return [("turn", self.turn)]

    def _to_start(self, p, start):
        self.pos[p] = self.board.starts[start]
        self.head[p] = self.board.arrows[start]

    # -- notation ----------------------------------------------------------

    def notation(self, step):
        if self.phase == ROLL:
            return ",".join(str(v) for v in step)
        if self.phase == POPOFF:
            return "P%d" % (step + 1)
        if step[0] == "w":
            if step[1] < 0:
                return "pass"
            turn = {1: "+", -1: "-", 2: "+2"}[step[2]]
            return "W%d%s" % (step[1] + 1, turn)
        if step[0] == "s":
            return "S%d" % (step[1] + 1)
        return "%s%d%s" % ("abcd"[step[1]], step[2], DIRS[step[3]] if step[3] >= 0 else "")

    def _parse(self, text):
        try:
            if self.phase == ROLL:
                return tuple(int(v) for v in text.split(","))
            if self.phase == POPOFF:
                return int(text[1:]) - 1 if text[:1] in "Pp" and text[1:] else None
            if self.phase == WHEEL:
                if text == "pass":
                    return PASS
                turns = {"+": 1, "-": -1, "+2": 2}
                if text[:1] in "Ww" and text[2:] in turns:
                    return ("w", int(text[1]) - 1, turns[text[2:]])
                return None
            if text[:1] in "Ss":
                return ("s", int(text[1:]) - 1)
            piece = "abcd".find(text[:1].lower())
            heading = DIRS.find(text[-1].upper()) if text[-1].isalpha() else -1
            die = int(text[1:-1] if heading >= 0 else text[1:])
            if piece >= 0:
                return ("m", piece, die, heading)
        except (ValueError, IndexError):
            pass
        return None

    # -- copy, save and load -----------------------------------------------

    def _copy_own(self, other):
        """``copy``: this game's own attributes; the lists a step changes are copied."""
        other.per = self.per
        other.moved = self.moved
        other.loser = self.loser
        other.star = self.star
        other.pos = self.pos[:]
        other.head = self.head[:]
        other.wheels = self.wheels[:]
        other.dice = self.dice[:]
        other.duel = self.duel[:]

    def _save_own(self):
        return {
            "actor": self.actor,
            "pos": self.pos[:], "head": self.head[:], "wheels": list(self.wheels),
            "dice": self.dice[:], "moved": self.moved, "duel": self.duel[:],
            "loser": self.loser, "star": self.star, "winner": self.winner,
        }

    @classmethod
    def load(cls, board, data):
        """The state saved by ``save()``; a SaveError names the first bad field."""
        game = cls._fresh(board, data)
        total, spaces = len(game.pos), len(game.board.ids)
        game.actor = save_int(data, "actor", 0, game.players - 1)
        game.pos = save_ints(data, "pos", total, FINISHED, spaces - 1)
        game.head = save_ints(data, "head", total, 0, 3)
        game.wheels = bytearray(save_ints(data, "wheels", len(game.wheels), 0, 3))
        game.dice = save_ints(data, "dice", None, 1, 6)
        game.moved = save_int(data, "moved", -1, total - 1)
        game.duel = save_ints(data, "duel", None, 0, total - 1)
        game.loser = save_int(data, "loser", -1, total - 1)
        game.star = field(data, "star", bool, "save")
        game._check()
        game._goes_on()
        return game

    def _check(self):
        """Reject a loaded state that no game could reach; the message names the field."""
        board, pos, per, players = self.board, self.pos, self.per, self.players
        phase, turn, moved = self.phase, self.turn, self.moved
        # one piece a space but on a START; only a pop-off puts the piece that moved beside another
        met, seen = -1, {}
        for p, s in enumerate(pos):
            if s >= 0 and board.kinds[s] != "start":
                if s in seen:
                    if met >= 0 or moved not in (p, seen[s]) or seen[s] // per == p // per:
                        raise SaveError("save: field 'pos': two pieces on space %r" % board.ids[s])
                    met = p + seen[s] - moved
                seen[s] = p
        for p, s in enumerate(pos):
            if s >= 0 and s != board.centre and not board.mask(s, self.wheels) & (1 << self.head[p]):
                raise SaveError("save: field 'head': piece %d on %r heads off the path" % (p, board.ids[s]))
        # players take their first turn in order from the first one; until then their pieces are off the board
        first = self.options["first_player"] - 1
        placed = 0
        while placed < players and pos[per * ((first + placed) % players)] != UNPLACED:
            placed += 1
        for p in range(len(pos)):
            if (pos[p] == UNPLACED) != ((p // per - first) % players >= placed):
                raise SaveError("save: field 'pos': piece %d is off the board out of turn" % p)
        if placed < players and (turn - first) % players != placed - (phase != ROLL):
            raise SaveError("save: field 'turn' is not the player whose pieces were placed last")
        if (met >= 0) != (phase == POPOFF or self.loser >= 0) or self.duel != ([moved, met] if phase == POPOFF else []):
            raise SaveError("save: field 'duel' is not the two pieces on one space")
        if self.loser >= 0 and (phase != DECIDE or self.loser not in (moved, met)):
            raise SaveError("save: field 'loser' is not a piece of the pop-off")
        if self.actor != (self.loser // per if self.loser >= 0 else turn):
            raise SaveError("save: field 'actor' is not the player to decide")
        # a piece has moved this turn in every phase after the first move: the wheel, the pop-off, the end
        if moved >= 0 and (moved // per != turn or len(self.dice) > 1) or moved < 0 and phase > DECIDE:
            raise SaveError("save: field 'moved' is not a piece of the player whose turn it is")
        if phase == ROLL and (self.dice or moved >= 0) or self.dice and moved < 0 and \
                len(self.dice) != (2 if self.in_play(turn) > 1 else 1):
            raise SaveError("save: field 'dice' does not fit the phase")
        if self.star != (phase == WHEEL) and not (self.star and (phase == POPOFF or self.loser >= 0)):
            raise SaveError("save: field 'star' does not fit the phase")
        done = [q for q in range(players) if not self.in_play(q)]
        if (phase == OVER) != (self.winner >= 0) or done != ([self.winner] if phase == OVER else []):
            raise SaveError("save: field 'winner' does not fit the pieces and the phase")
