"""Sniggle: race four numbered pieces from their starting squares at the
bottom, across a grid, over the SNIGGLE trademark and along one of the two
Zone paths into their matching squares at the top. Rules and every reading
of them: ``boards/sniggle.md``; the board: ``boards/sniggle.json``.

A move is a walk of exactly the die's count. In the main area a step goes
forward (towards the Zone) or sideways, never back, never diagonally and never
straight back to the space just left: what a walk can reach after each step
is kept as bit masks of columns per row, split by the last sideways step. A
starting square only leads forward. Stepping onto the trademark costs two
steps; it leads onto the first space of either path. On a path a piece keeps
the path's direction (its ``lane``) until the space beside its matching
square, where the next step must enter the square. Other pieces never block
a walk; they only matter where it ends.

Steps (tuples) and their notation (pieces count from 1 in the notation):
  roll   (3, 5) "3,5"                        chance: every throw, the opening ones too
  move   ("m", code) "2:5>e4"                piece 2 moves 5 and ends on e4

A move packs its piece, die and space into one small int (``move()``,
``piece_of()``, ``die_of()``, ``space_of()``): a pair is a single block of
MicroPython's heap, which its allocator hands out at once, where every larger
object is searched for from the first free block, and the Pico lists up to
144 moves after a roll.
"""

from array import array

from rules.board import Board, cell
from rules.core import (
    DECIDE, EMPTY, OVER, ROLL,
    BoardError, Game, RulesError, SaveError, check_options, field, save_int, save_ints,
)

KINDS = ("main", "start", "trademark", "zone", "home")
_MAIN, _START, _TRADEMARK, _ZONE, _HOME = 0, 1, 2, 3, 4
COLOURS = ("white", "red", "blue", "green", "yellow")
LETTERS = "RBGY"  # the player colours, as options and piece names use them
_NONE = 255
_TRADEMARK_STEPS = 2
_MAX_DIE = 6
_COLUMN = {1 << x: x for x in range(29)}  # a row's single bit -> its column
_DICE = tuple(((a, b), 1, 36) for a in range(1, 7) for b in range(1, 7))


def move(piece, die, space):
    """The step that moves the player's ``piece`` (0-3) ``die`` steps onto ``space``."""
    return ("m", (piece * 8 + die) << 8 | space)


def piece_of(step):
    return step[1] >> 11


def die_of(step):
    return step[1] >> 8 & 7


def space_of(step):
    return step[1] & 255

DEFAULTS = {
    "colours": "",  # each player's colour in seat order, letters of RBGY; "" gives R, B, G, Y in turn
    "larger_die": False,  # when only one die can be played, it must be the larger if that one can be
    "blocked_double_throws_again": False,  # a double that cannot be played at all still earns a throw
}


class SniggleBoard(Board):
    """A Sniggle board: its spaces, colours and squares, and the tables a
    walk needs. The main area is walked a whole row at a time, as bit masks
    of its columns (bit x is column x): few steps, and no allocation there."""

    def __init__(self, data):
        super().__init__(data, "sniggle", KINDS, dice=2)
        if self.width > 29:  # a row is the bits of a small int, even shifted by one
            raise BoardError("board: field 'size' allows at most 29 columns")
        n = len(self.ids)
        spaces = data["spaces"]
        colour = bytearray(n)
        squares = bytearray([_NONE] * 32)  # the 16 starting squares, then the 16 matching squares
        marks = []
        for s in range(n):
            name = spaces[s].get("colour")
            if name not in COLOURS:  # (the message only then: made for every space, it slowed the load)
                where = "space %r" % self.ids[s]
                name = field(spaces[s], "colour", str, where, BoardError)
                raise BoardError("%s: colour %r is not one of %s" % (where, name, ", ".join(COLOURS)))
            colour[s] = COLOURS.index(name)
            kind = self.kinds[s]
            if kind == "start" or kind == "home":
                where = "space %r" % self.ids[s]
                number = field(spaces[s], "number", int, where, BoardError)
                if not colour[s] or not 1 <= number <= 4:
                    raise BoardError("%s: a %s square needs a player's colour and a number from 1 to 4" % (where, kind))
                k = (16 if kind == "home" else 0) + 4 * (colour[s] - 1) + number - 1
                if squares[k] != _NONE:
                    raise BoardError("%s: it is %s square %s%d, like space %r"
                                     % (where, kind, LETTERS[colour[s] - 1], number, self.ids[squares[k]]))
                squares[k] = s
            elif colour[s] and kind != "main":
                raise BoardError("space %r: a %s space is white" % (self.ids[s], kind))
            if kind == "trademark":
                marks.append(s)
        for k in range(32):
            if squares[k] == _NONE:
                raise BoardError("board: %s square %s%d is missing"
                                 % ("home" if k >= 16 else "start", LETTERS[k % 16 // 4], k % 4 + 1))
        if len(marks) != 1:
            raise BoardError("board: needs exactly one trademark space, found %d" % len(marks))
        self.colour = bytes(colour)
        self.start = bytes(squares[:16])
        self.home = bytes(squares[16:])
        self.kind = bytes(KINDS.index(k) for k in self.kinds)
        self.trademark = marks[0]
        at = self.at_cell
        covered = self._load_main(spaces[marks[0]], at)
        self._load_starts(at)
        self._load_paths(field(data, "paths", list, "board", BoardError), covered, at)
        self._rooms = array("I", [0] * (3 * self.height))  # scratch for walk_main
        self.ends = bytearray(4 * n)  # scratch for reach(): a byte per space for each of 4 pieces
        self.found = bytearray(n)  # scratch for collect()
        self.none = bytes(n)  # no space blocked; and what reach() clears with

    def _load_main(self, mark, at):
        """The main area as rows of column bits, and the cells under the
        trademark (which is ``width`` cells wide); returns the cells it covers."""
        tm = self.trademark
        where = "space %r" % self.ids[tm]
        width = field(mark, "width", int, where, BoardError)
        tx, ty = self.xs[tm], self.ys[tm]
        if not 1 <= width <= self.width - tx:
            raise BoardError("%s: width %d does not fit the grid" % (where, width))
        covered = [cell(tx + dx, ty) for dx in range(width)]
        for dx in range(1, width):
            if cell(tx + dx, ty) in at:
                raise BoardError("%s: covers (%d, %d), where space %r is"
                                 % (where, tx + dx, ty, self.ids[at[cell(tx + dx, ty)]]))
        rows = [0] * self.height
        under = [0] * self.height
        cells = bytearray([_NONE] * (self.width * self.height))
        for s in range(len(self.ids)):
            if self.kind[s] == _MAIN:
                x, y = self.xs[s], self.ys[s]
                rows[y] |= 1 << x
                cells[y * self.width + x] = s
                if cell(x, y - 1) in covered:
                    under[y] |= 1 << x
        if not any(under):
            raise BoardError("%s: no main-area space leads forward onto it" % where)
        self.rows = array("I", rows)
        self.under = array("I", under)
        self.cells = bytes(cells)
        return covered

    def _load_starts(self, at):
        """Where each starting square leads into the main area, and in how many steps."""
        steps = bytearray(16)
        cells = bytearray(16)
        for k in range(16):
            s = self.start[k]
            t = s
            while t is not None and self.kind[t] == _START and steps[k] < 16:
                steps[k] += 1
                t = at.get(cell(self.xs[s], self.ys[s] - steps[k]))
            if t is None or self.kind[t] != _MAIN:
                raise BoardError("space %r: a starting square must lead forward into the main area" % self.ids[s])
            cells[k] = t
        self.start_steps = bytes(steps)
        self.start_cell = bytes(cells)

    def _load_paths(self, paths, covered, at):
        """The two Zone paths: their spaces in order, how far along each
        space lies, and where each passes beside every matching square."""
        if len(paths) != 2:
            raise BoardError("board: needs exactly 2 paths into the Zone, found %d" % len(paths))
        n = len(self.ids)
        routes, places, entries = [], [], []
        for number, path in enumerate(paths):
            where = "path #%d" % (number + 1)
            cells = []
            for sid in field(path, "spaces", list, where, BoardError):
                s = self.space(sid, where) if isinstance(sid, str) else None
                if s is None or self.kind[s] != _ZONE or s in cells:
                    raise BoardError("%s: %r is not a Zone space new to the path" % (where, sid))
                if cells and abs(self.xs[s] - self.xs[cells[-1]]) + abs(self.ys[s] - self.ys[cells[-1]]) != 1:
                    raise BoardError("%s: %r does not adjoin the space before it" % (where, sid))
                cells.append(s)
            if not cells or cell(self.xs[cells[0]], self.ys[cells[0]] + 1) not in covered:
                raise BoardError("%s: must start just above the trademark" % where)
            place = bytearray([_NONE] * n)
            for i in range(len(cells)):
                place[cells[i]] = min(i, 254)
            entry = bytearray(16)
            for k in range(16):
                h = self.home[k]
                x, y = self.xs[h], self.ys[h]
                # how far along the path its spaces on the four cells around the square lie
                beside = [place[at[c]] for c in (cell(x - 1, y), cell(x + 1, y), cell(x, y - 1), cell(x, y + 1))
                          if c in at and place[at[c]] != _NONE]
                if len(beside) != 1:
                    raise BoardError("space %r: %s must pass beside it exactly once, not %d times"
                                     % (self.ids[h], where, len(beside)))
                entry[k] = beside[0]
            routes.append(bytes(cells))
            places.append(bytes(place))
            entries.append(bytes(entry))
        for s in range(n):
            if self.kind[s] == _ZONE and places[0][s] == _NONE and places[1][s] == _NONE:
                raise BoardError("space %r: a Zone space on neither path" % self.ids[s])
            # a move's destination must name its path: the paths part within one die's reach
            if places[0][s] < _MAX_DIE and places[1][s] < _MAX_DIE:
                raise BoardError("space %r: both paths reach it within one die from the trademark" % self.ids[s])
        self.path = tuple(routes)
        self.place = tuple(places)
        self.entry = tuple(entries)

    def walks(self, s, lane, k, values):
        """For each die value in ``values`` (ascending, distinct): the sorted
        spaces where a walk of exactly that many steps can end, from space
        ``s`` on path ``lane`` (-1: none), for the piece whose squares are
        number ``k`` (colour * 4 + number - 1). Other pieces play no part:
        they are passed over."""
        n = len(self.kind)
        self.reach(s, lane, k, values, 0)
        found = self.found
        out = []
        for v in range(len(values)):
            out.append(list(found[:collect(self.ends, 0, n, 1 << v, self.none, found)]))
        return out

    def reach(self, s, lane, k, values, at):
        """``walks`` as marks, for the ``at``-th piece: in ``ends[at * n:]``
        (n spaces), bit v of a space's byte is set when a walk of
        ``values[v]`` steps can end there."""
        n = len(self.kind)
        off = at * n
        ends = self.ends
        ends[off:off + n] = self.none
        kind = self.kind[s]
        if kind == _ZONE:
            for v in range(len(values)):
                self._along(lane, self.place[lane][s] + values[v], k, off, 1 << v)
            return
        marks = 1 if kind == _TRADEMARK else 0  # bit t: on the trademark after t steps
        if kind == _START or kind == _MAIN:
            first, t0 = (self.start_cell[k], self.start_steps[k]) if kind == _START else (s, 0)
            marks = walk_main(self.rows, self.under, self.cells, self.width, self._rooms,
                              self.xs[first], self.ys[first], t0, values, ends, off) << _TRADEMARK_STEPS
        t = 0
        while marks >> t:
            if marks >> t & 1:
                for v in range(len(values)):
                    rest = values[v] - t
                    if rest == 0:
                        ends[off + self.trademark] |= 1 << v
                    elif rest > 0:
                        self._along(0, rest - 1, k, off, 1 << v)
                        self._along(1, rest - 1, k, off, 1 << v)
            t += 1

    def _along(self, lane, i, k, off, bit):
        """Mark where a piece of squares ``k`` ends at index ``i`` of a path:
        there, or its matching square one step past the space beside it."""
        entry = self.entry[lane][k]
        if i <= entry:
            self.ends[off + self.path[lane][i]] |= bit
        elif i == entry + 1:
            self.ends[off + self.home[k]] |= bit


def walk_main(rows, under, cells, width, rooms, x, y, t0, values, ends, off):
    """The main area's part of a walk, from column ``x`` of row ``y`` reached
    after ``t0`` steps: set bit v of ``ends[off + space]`` for the spaces
    where a walk of ``values[v]`` steps ends there; return the step counts
    (as bits) after which it stands under the trademark. ``rooms`` is
    scratch: the columns of each row reached, by the last sideways step
    (none, left, right)."""
    bottom = top = y
    rooms[3 * y], rooms[3 * y + 1], rooms[3 * y + 2] = 1 << x, 0, 0
    marks = 0
    depth = values[-1]
    for t in range(t0, depth + 1):
        if t in values:
            bit = 1 << values.index(t)
            for y in range(top, bottom + 1):
                m = rooms[3 * y] | rooms[3 * y + 1] | rooms[3 * y + 2]
                while m:
                    low = m & -m
                    ends[off + cells[y * width + _COLUMN[low]]] |= bit
                    m ^= low
        if t == depth:
            break
        if top > 0:
            top -= 1
            rooms[3 * top] = rooms[3 * top + 1] = rooms[3 * top + 2] = 0
        below = 0  # the row under this one, before this step
        for y in range(bottom, top - 1, -1):
            f, lf, rt = rooms[3 * y], rooms[3 * y + 1], rooms[3 * y + 2]
            here = f | lf | rt
            if here & under[y]:
                marks |= 1 << t
            row = rows[y]
            rooms[3 * y] = below & row  # forward from the row under it
            rooms[3 * y + 1] = ((f | lf) >> 1) & row  # sideways, but never straight back
            rooms[3 * y + 2] = ((f | rt) << 1) & row
            below = here
    return marks


def collect(ends, off, n, bit, blocked, out):
    """Write to ``out``, in order, every space s (of ``n``) whose byte
    ``ends[off + s]`` has ``bit`` and that ``blocked`` does not mark;
    return how many."""
    k = 0
    for s in range(n):
        if ends[off + s] & bit and not blocked[s]:
            out[k] = s
            k += 1
    return k


def fill_moves(lands, keys, moves):
    """Fill ``moves`` with the move onto every space of ``lands[g]`` (bytes)
    whose code but for the space is ``keys[g]``, in order."""
    j = 0
    for g in range(len(lands)):
        key = keys[g]
        for s in lands[g]:
            moves[j] = ("m", key | s)
            j += 1


try:
    from rules.viper import collect, fill_moves, walk_main  # noqa: F811  the same, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass


class Sniggle(Game):
    """One game of Sniggle; see the module notes for the steps."""

    name = "sniggle"
    tactics = "rules.sniggle_tactics"
    space_events = ("sent_back", "home")
    dice_events = ("again",)
    special_kinds = ("start", "trademark", "home")
    min_players = 2
    max_players = 4

    def __init__(self, board, players=2, options=None):
        if not isinstance(board, SniggleBoard):
            board = SniggleBoard(board)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise RulesError("Sniggle is for 2 to 4 players")
        opts = check_options(options, DEFAULTS)
        letters = opts["colours"] or LETTERS[:players]
        if len(letters) != players or any(LETTERS.find(ch) < 0 or letters.count(ch) > 1 for ch in letters):
            raise RulesError("option 'colours' must give each of the %d players a different colour of %s"
                             % (players, LETTERS))
        super().__init__(board, players, opts)
        self.colour = tuple(LETTERS.find(ch) for ch in letters)  # 0..3: red, blue, green, yellow
        self.pos = [board.start[4 * c + i] for c in self.colour for i in range(4)]
        self.lane = [-1] * (4 * players)  # the path a piece in the Zone follows
        self.opening = list(range(players))  # who throws for the first turn, in this order
        self.throws = []  # their totals so far
        self.dice = []  # the dice still to be moved this turn
        self.double = False  # this turn's roll was a double
        self.moved = -1  # the piece the first die moved
        self._moves = ()  # the legal moves, worked out once per decision (None: not yet)
        self._second = False  # after any of the moves of the first die, the other die can be played

    # -- reading the state -------------------------------------------------

    def square(self, p):
        """Number of piece ``p``'s squares: colour * 4 + its number - 1."""
        return 4 * self.colour[p // 4] + p % 4

    def home_of(self, p):
        return self.board.home[self.square(p)]

    def start_of(self, p):
        return self.board.start[self.square(p)]

    def in_play(self, player):
        """The player's pieces not yet on their matching squares."""
        pos, home, k = self.pos, self.board.home, 4 * self.colour[player] - 4 * player  # square(p) is k + p
        return [p for p in range(4 * player, 4 * player + 4) if pos[p] != home[k + p]]

    def occupant(self, space):
        """The piece resting on ``space``, or -1."""
        for p in range(len(self.pos)):
            if self.pos[p] == space:
                return p
        return -1

    def piece_name(self, p):
        return "%s%d" % (LETTERS[self.colour[p // 4]], p % 4 + 1)

    def occupancy(self):
        counts = bytearray(len(self.board.ids))
        for s in self.pos:
            counts[s] += 1
        return counts

    def owners(self):
        owner = bytearray([EMPTY] * len(self.board.ids))
        for p in range(len(self.pos)):
            owner[self.pos[p]] = p // 4
        return owner

    def moves(self):
        return tuple((d, self.pos[4 * self.turn + piece_of(d)], space_of(d)) for d in self.legal())

    def die_of(self, step):
        return die_of(step) if self.phase == DECIDE else 0

    # -- the protocol hooks ------------------------------------------------

    def _outcomes(self):
        return _DICE

    def _decisions(self):
        if self._moves is None:  # the second die's moves, listed only when asked for
            self._moves = self._find_moves()
        return self._moves

    def _apply(self, step):
        if self.phase == ROLL:
            return self._throw(step) if self.opening else self._roll(step)
        return self._move(piece_of(step), die_of(step), space_of(step))

    def _throw(self, dice):
        """One throw for the first turn: the highest total goes first."""
        events = [("threw", self.actor, dice)]
        self.throws.append(dice[0] + dice[1])
        if len(self.throws) < len(self.opening):
            self.turn = self.actor = self.opening[len(self.throws)]
            return events
        best = max(self.throws)
        top = [self.opening[i] for i in range(len(self.throws)) if self.throws[i] == best]
        self.throws = []
        self.turn = self.actor = top[0]
        if len(top) > 1:
            self.opening = top  # only the tied players throw again
            events.append(("tie", tuple(top)))
            return events
        self.opening = []
        events.append(("first", top[0]))
        events.append(("turn", top[0]))
        return events

    def _roll(self, dice):
        self.dice = list(dice)
        self.double = dice[0] == dice[1]
        events = [("rolled", self.turn, dice)]
        self._moves = self._find_moves()
        if self._moves:
            self.phase = DECIDE
            return events
        events.append(("lost_turn", self.turn))
        return events + self._end_turn(True)

    def _find_moves(self):
        """Every legal move now; with two dice to play, only those after
        which the other die can still move another piece, if any are
        (``_second`` says whether they are)."""
        board, turn, pos = self.board, self.turn, self.pos
        colour, mine = board.colour, self.colour
        base = 4 * turn
        pieces = [p for p in self.in_play(turn) if p != self.moved]
        values = sorted(set(self.dice))
        count = len(values)
        n = len(board.kind)
        blocked = bytearray(n)  # never onto an own piece, nor onto an opponent resting on its own colour
        for p in range(len(pos)):
            if p // 4 == turn or colour[pos[p]] == mine[p // 4] + 1:
                blocked[pos[p]] = 1
        found = board.found
        lands = []  # [a * count + v]: the spaces pieces[a] may land on with values[v], as bytes
        keys = []  # [a * count + v]: the code of those moves, but for the space
        for a in range(len(pieces)):
            p = pieces[a]
            board.reach(pos[p], self.lane[p], self.square(p), values, a)
            for v in range(count):
                lands.append(found[:collect(board.ends, a * n, n, 1 << v, blocked, found)])
                keys.append(((p - base) * 8 + values[v]) << 8)
        keep = lands
        if self.moved < 0 and len(self.dice) == 2 and len(pieces) >= 2:
            keep = [self._keep_both(g // count, count - 1 - g % count, pieces, lands) if lands[g] else lands[g]
                    for g in range(len(lands))]
            self._second = any(keep)
            if not self._second:
                keep = lands
                if self.options["larger_die"] and any(lands[count - 1::count]):
                    keep, keys = lands[count - 1::count], keys[count - 1::count]
        total = 0
        for land in keep:
            total += len(land)
        moves = [("m", 0)] * total  # filled in place: growing a list would search the heap again and again
        fill_moves(keep, keys, moves)
        return tuple(moves)

    def _keep_both(self, a, other, pieces, lands):
        """Those of the landings of ``pieces[a]`` (in ``lands``) after which
        another piece can still move the die ``values[other]``: once a piece
        has moved, the space it left is free and the one it reached taken."""
        count = len(lands) // len(pieces)
        land = lands[a * count + count - 1 - other]
        leaving = self.pos[pieces[a]]
        n = len(self.board.kind)
        ends = self.board.ends  # as reach() marked them for every piece
        single = -1  # the one landing every other piece that can move has, if they share it
        for b in range(len(pieces)):
            if b != a:
                theirs = lands[b * count + other]
                if len(theirs) > 1 or ends[b * n + leaving] >> other & 1:
                    return land
                if theirs:
                    if single >= 0 and single != theirs[0]:
                        return land
                    single = theirs[0]
        return bytes([s for s in land if s != single]) if single >= 0 else b""

    def _move(self, i, die, dest):
        board = self.board
        player = self.turn
        p = 4 * player + i
        second_follows = self.moved < 0 and len(self.dice) == 2 and len(self.in_play(player)) >= 2
        events = [("moved", player, i, self.pos[p], dest, die)]
        other = self.occupant(dest)
        if other >= 0:
            self.pos[other] = self.start_of(other)
            self.lane[other] = -1
            events.append(("sent_back", other // 4, other % 4, dest, self.pos[other]))
        if board.kind[dest] != _ZONE:
            self.lane[p] = -1
        elif self.lane[p] < 0:  # onto a path from the trademark: the nearer way
            self.lane[p] = 0 if board.place[0][dest] < board.place[1][dest] else 1
        self.pos[p] = dest
        self.dice.remove(die)
        if dest == self.home_of(p):
            events.append(("home", player, i, dest))
            if not self.in_play(player):
                self._clear_dice()
                self.winner = player
                self.phase = OVER
                events.append(("won", player))
                return events
        if second_follows:
            self.moved = p
            if self._second:  # (_keep_both: exactly then another piece can move the other die)
                self._moves = None
                return events
            events.append(("unused", player, self.dice[0]))
        return events + self._end_turn(False)

    def _end_turn(self, lost):
        """A double earns another throw; otherwise play passes to the left."""
        again = self.double and (not lost or self.options["blocked_double_throws_again"])
        self._clear_dice()
        self.phase = ROLL
        if again:
            return [("again", self.turn)]
        self.turn = (self.turn + 1) % self.players
        self.actor = self.turn
        return [("turn", self.turn)]

    def _clear_dice(self):
        self.dice = []
        self.moved = -1
        self.double = False
        self._moves = ()

    # -- notation ----------------------------------------------------------

    def notation(self, step):
        if self.phase == ROLL:
            return "%d,%d" % step
        return "%d:%d>%s" % (piece_of(step) + 1, die_of(step), self.board.ids[space_of(step)])

    def _parse(self, text):
        try:
            if self.phase == ROLL:
                a, b = text.split(",")
                return (int(a), int(b))
            head, space = text.split(">")
            piece, die = head.split(":")
            piece, die = int(piece), int(die)
            if 1 <= piece <= 4 and 1 <= die <= _MAX_DIE and space in self.board.ids:
                return move(piece - 1, die, self.board.ids.index(space))
        except ValueError:
            pass
        return None

    # -- copy, save and load -----------------------------------------------

    def _copy_own(self, other):
        """``copy``: this game's own attributes; the lists a step changes are copied."""
        other.colour = self.colour
        other.double = self.double
        other.moved = self.moved
        other._moves = self._moves
        other._second = self._second
        other.pos = self.pos[:]
        other.lane = self.lane[:]
        other.opening = self.opening[:]
        other.throws = self.throws[:]
        other.dice = self.dice[:]

    def _save_own(self):
        return {
            "actor": self.actor,
            "pos": self.pos[:], "lane": self.lane[:], "opening": self.opening[:], "throws": self.throws[:],
            "dice": self.dice[:], "double": self.double, "moved": self.moved, "winner": self.winner,
        }

    @classmethod
    def load(cls, board, data):
        """The state saved by ``save()``; a SaveError names the first bad field."""
        game = cls._fresh(board, data)
        total, players = len(game.pos), game.players
        if game.phase != ROLL and game.phase != DECIDE and game.phase != OVER:
            raise SaveError("save: field 'phase' is %d, not a phase of Sniggle" % game.phase)
        game.actor = save_int(data, "actor", 0, players - 1)
        game.pos = save_ints(data, "pos", total, 0, len(game.board.ids) - 1)
        game.lane = save_ints(data, "lane", total, -1, 1)
        game.opening = save_ints(data, "opening", None, 0, players - 1)
        game.throws = save_ints(data, "throws", None, 2, 12)
        game.dice = save_ints(data, "dice", None, 1, 6)
        game.double = field(data, "double", bool, "save")
        game.moved = save_int(data, "moved", -1, total - 1)
        game._check()
        if game.phase == DECIDE:
            game._moves = game._find_moves()
        game._goes_on()
        return game

    def _check(self):
        """Reject a loaded state that no game could reach."""
        board = self.board
        seen = {}
        for p, s in enumerate(self.pos):
            if s in seen:
                raise SaveError("save: field 'pos': pieces %s and %s both on space %r"
                                % (self.piece_name(seen[s]), self.piece_name(p), board.ids[s]))
            seen[s] = p
        for p, s in enumerate(self.pos):
            kind, lane, k = board.kind[s], self.lane[p], self.square(p)
            if (kind == _START and s != board.start[k]) or (kind == _HOME and s != board.home[k]):
                raise SaveError("save: field 'pos': piece %s on another piece's square %r"
                                % (self.piece_name(p), board.ids[s]))
            # on a path exactly in the Zone, and never past the space beside its matching square
            if (kind == _ZONE) != (lane >= 0) or (lane >= 0 and board.place[lane][s] > board.entry[lane][k]):
                raise SaveError("save: field 'lane': piece %s on %r cannot be on path %d"
                                % (self.piece_name(p), board.ids[s], lane))
        if self.phase == DECIDE:
            fits = (not self.opening and 1 <= len(self.dice) <= 2 and self.actor == self.turn
                    and (self.moved < 0) == (len(self.dice) == 2)
                    and (self.moved < 0 or self.moved // 4 == self.turn)
                    and (len(self.dice) == 1 or self.double == (self.dice[0] == self.dice[1])))
        else:
            fits = not self.dice and self.moved < 0 and not self.double and self.actor == self.turn
        if self.opening and (self.phase != ROLL or len(self.throws) >= len(self.opening)
                             or self.actor != self.opening[len(self.throws)] or self.turn != self.actor):
            fits = False
        if not fits or (self.throws and not self.opening):
            raise SaveError("save: the dice, throws or moved piece do not fit the phase")
        # before the first turn every piece is on its starting square, and the throwers go in seat order
        if self.opening and (sorted(set(self.opening)) != self.opening
                             or any(self.pos[p] != self.start_of(p) for p in range(len(self.pos)))):
            raise SaveError("save: field 'opening': the throws for the first turn come before any move")
        done = [player for player in range(self.players) if not self.in_play(player)]
        if (self.phase == OVER) != (self.winner >= 0) or done != ([self.winner] if self.winner >= 0 else []):
            raise SaveError("save: the winner does not fit the pieces and the phase")

