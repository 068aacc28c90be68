"""Computer players for every game: random, greedy and a chance-aware search.

A player is made with an ``Rng`` (``rules.playout``) and asked, in a decision
phase, ``choose(game)``: the step to play. The same seed gives the same
choices on CPython and MicroPython. ``pick(game)`` is the choice before it is
played, what the controller lights as a hint: a legal decision, or in
Tiddlee Snuka the counter to aim at.

What the actor can do is a list of *plans*: ``(choice, outcomes)``, the
outcomes as ``(step, numerator, denominator)`` like ``chance_outcomes()``. In
a board game every legal decision is a plan with one sure outcome. Tiddlee
Snuka is a flicking game: a computer cannot flick, so its seat plays a model
of a flick. It aims at a counter that is on (or plays safe), and the result,
a pot, a miss or a foul, is drawn from ``POT_PERCENT`` and ``FOUL_PERCENT``.
Every player plays through that model; they differ in what they aim at.

- ``RandomPlayer``: any plan, uniformly.
- ``GreedyPlayer``: the plan whose result ``evaluate`` rates best.
- ``SearchPlayer``: expectiminimax over plans and chance outcomes, deepened
  a throw at a time while a node budget (and an optional time limit) lasts;
  the deepest finished search decides. A hint on the Pico is
  ``SearchPlayer(rng, ms=..., clock=hal.ticks.now, diff=hal.ticks.diff).pick(game)``.

``evaluate(game, player)`` rates a state for a player: that player's
standing less the best opponent's, from one small function per game
(``RATINGS``, keyed by game name); a finished game is +-``WIN``. Where
the search stops it also counts what the next throw may cost each player
(``ahead``; in Sniggle, pieces sent back): the chance beyond its horizon.
"""

from rules.core import ROLL, RulesError
from rules.playout import sample

WIN = 1000000  # the value of a won game; every rating of a game in play stays far below it
_SCALE = 100  # standings are small ints; ratings are kept in hundredths so means stay exact enough in ints

# -- evaluations: a player's standing, one function per game --------------

_CAP = 24  # how far along a Detour path a finish is looked for
_FINISHED = 2 * _CAP + 12  # a Detour piece off the board beats one a step from FINISH
# the direction of a one-bit exit mask (N E S W = bits 0..3)
_DIR = {1: 0, 2: 1, 4: 2, 8: 3}
_tables = {}  # game name -> (board, what its standing precomputes): the last board only


def _table(name, board):
    entry = _tables.get(name)
    return entry[1] if entry is not None and entry[0] is board else None


def _detour_table(board):
    t = _table("detour", board)
    if t is None:
        finish = bytes(1 if k == "finish" else 0 for k in board.kinds)
        # Manhattan distance to the nearest FINISH: the standing of a piece whose path is closed
        near = bytes(min(abs(board.xs[s] - board.xs[f]) + abs(board.ys[s] - board.ys[f]) for f in board.finishes)
                     for s in range(len(board.ids)))
        t = (finish, near)
        _tables["detour"] = (board, t)
    return t


def _detour_distance(board, finish, s, h, wheels):
    """Steps from space ``s`` leaving by ``h`` to the first FINISH along the path as
    the wheels stand, or 0 beyond _CAP (the walk of ``DetourBoard.walk``)."""
    nbr = board.nbr
    for k in range(1, _CAP + 1):
        s = nbr[4 * s + h]
        mask = board.mask(s, wheels)
        if mask != 15:
            h = _DIR[mask & ~(1 << ((h + 2) & 3))]
        if finish[s]:
            return k
    return 0


def _detour(game, player):
    """Every piece: closer to FINISH along the path as the wheels stand is
    better; a piece whose path misses FINISH counts its distance as the crow flies."""
    board = game.board
    finish, near = _detour_table(board)
    total = 0
    base = player * game.per
    for p in range(base, base + game.per):
        s = game.pos[p]
        if s == -2:  # finished
            total += _FINISHED
            continue
        if s == -1:  # placed on its START at the player's first roll
            start = (p - base) & 1
            s, heads = board.starts[start], (board.arrows[start],)
        elif s == board.centre:
            heads = (0, 1, 2, 3)  # it picks its heading
        else:
            heads = (game.head[p],)
        best = 0
        for h in heads:
            d = _detour_distance(board, finish, s, h, game.wheels)
            if d and (not best or d < best):
                best = d
        total += 2 * _CAP - best if best else _CAP - near[s]
    return total


def _mehen(game, player):
    """Progress of the player's marbles along the route, tail to head to tail."""
    return sum(game.marbles[player * 3:player * 3 + 3])


def _snuka(game, player):
    return game.scores[player]


def _each(standing):
    """The ratings of a game whose standing is worked out one player at a time."""
    return lambda game, ahead: [standing(game, p) * _SCALE for p in range(game.players)]


# -- Sniggle: its standing and what the next throw may cost, rated in one pass ----

def _sniggle_table(board):
    """About how many steps a piece of squares ``k`` on space ``s`` still has to
    go to its matching square, at ``[s * 16 + k]``, for every space off the Zone
    paths: up the rows and across to the trademark (2 steps), then the nearer
    path to the space beside the matching square, and one step in."""
    t = _table("sniggle", board)
    if t is None:
        row = board.ys[board.trademark] + 1  # the row that steps forward onto the trademark
        columns = [x for x in range(board.width) if board.under[row] >> x & 1]
        t = bytearray(16 * len(board.ids))
        for k in range(16):
            ahead = min(board.entry[0][k], board.entry[1][k]) + 2
            for s in range(len(board.ids)):
                kind, extra, cell = board.kind[s], 0, s
                if kind == 1:  # a starting square
                    extra, cell = board.start_steps[k], board.start_cell[k]
                if kind == 2:
                    t[16 * s + k] = ahead
                elif kind < 2:
                    side = min(abs(board.xs[cell] - c) for c in columns)
                    t[16 * s + k] = min(255, extra + board.ys[cell] - row + side + 2 + ahead)
        _tables["sniggle"] = (board, t)
    return t


_reach = {}  # (space, lane, squares) of a piece -> by space: bit v - 1 set where a walk of v ends
_ONES = bytes(bin(m).count("1") for m in range(64))


def _sniggle_reach(board, s, lane, k):
    key = (s * 3 + lane + 1) * 16 + k
    reach = _reach.get(key)
    if reach is None:
        if len(_reach) >= 16:  # a byte per space each: the pieces of the last few positions
            _reach.clear()
        reach = bytearray(len(board.ids))
        ends = board.walks(s, lane, k, (1, 2, 3, 4, 5, 6))
        for v in range(6):
            for t in ends[v]:
                reach[t] |= 1 << v
        _reach[key] = reach
    return reach


def _sniggle(game, ahead):
    """Each player's steps still to go, fewer is better; a piece resting on
    its own colour is safe. With ``ahead``, less the steps its pieces are
    expected to lose to the next throw: a piece off its own colour that the
    next player to throw can land on goes back to its start when a die of
    the throw fits. Every player's figure in one pass (``sniggle_rate``):
    the search rates every state it makes."""
    board = game.board
    attacker = -1  # who throws next: this player again after a double, else the next one once this turn is played
    reaches = ()
    if ahead and not game.opening:
        attacker = game.turn if game.phase == ROLL or game.double else (game.turn + 1) % game.players
        reaches = _sniggle_reaches(game, attacker)
    out = []
    sniggle_rate(game.pos, game.lane, game.colour, board.kind, board.colour, _sniggle_table(board), board.place,
                 board.entry, board.start, reaches, attacker, out)
    return out


_attack = []  # the last attacker's (board, colour, spaces, lanes, reaches), once there is one


def _sniggle_reaches(game, attacker):
    """Where each of ``attacker``'s pieces not home lands, by the die
    (``_sniggle_reach``). Every plan of a turn's first look leaves them
    where they stand, so the last answer is kept for the next."""
    board, a, colour = game.board, 4 * attacker, game.colour[attacker]
    spaces, lanes = game.pos[a:a + 4], game.lane[a:a + 4]
    last = _attack[0] if _attack else None
    if last is not None and last[0] is board and last[1] == colour and last[2] == spaces and last[3] == lanes:
        return last[4]
    reaches = [_sniggle_reach(board, spaces[i], lanes[i], 4 * colour + i) for i in range(4)
               if board.kind[spaces[i]] != 4]  # not home
    _attack[:] = [(board, colour, spaces, lanes, reaches)]
    return reaches


def sniggle_rate(pos, lanes, mine, kind, colour, left, place, entry, start, reaches, attacker, out):
    """Append to ``out`` the rating (``_sniggle``) of each player, whose
    colours are ``mine``, of the pieces on ``pos`` and Zone paths ``lanes``;
    ``left`` is ``_sniggle_table``, the rest the board's. A piece of any
    player but ``attacker`` off its own colour is at risk where one of
    ``reaches`` lands."""
    for player in range(len(mine)):
        c = mine[player]
        total = risk = 0
        for p in range(4 * player, 4 * player + 4):
            s, k = pos[p], 4 * c + p % 4  # its space and its squares
            if kind[s] == 3:  # on a Zone path
                lane = lanes[p]
                togo = entry[lane][k] - place[lane][s] + 1
            else:
                togo = left[16 * s + k]  # 0 on its matching square
            total -= togo
            if colour[s] == c + 1:
                total += 2  # safe
            elif player != attacker and kind[s] != 1 and kind[s] != 4:
                dice = 0  # the die values that land on it
                for reach in reaches:
                    dice |= reach[s]
                if dice:
                    n = _ONES[dice]
                    # 1 - ((6 - n) / 6) ** 2 (in 36ths): the chance that one die or both show one of n values
                    risk += (12 * n - n * n) * max(0, left[16 * start[k] + k] - togo)
        out.append(total * _SCALE - risk * _SCALE // 36)


try:
    from rules.viper import sniggle_rate  # noqa: F811  the same loop, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass


# each game's ratings: every player's standing in hundredths, and with ``ahead``
# (Sniggle) less what the next throw may cost it
RATINGS = {"detour": _each(_detour), "mehen": _each(_mehen), "sniggle": _sniggle, "snuka": _each(_snuka)}


def evaluate(game, player, ahead=False):
    """How good ``game`` is for ``player``: its rating less the best other
    player's; a finished game is WIN, -WIN, or 0 for a shared win. ``ahead``
    also counts what the next throw may cost each player."""
    if game.over():
        if game.winner >= 0:
            return WIN if game.winner == player else -WIN
        return 0 if player in getattr(game, "winners", ()) else -WIN
    rate = RATINGS.get(game.name)
    if rate is None:
        return 0  # a game without a standing: only the end counts
    values = rate(game, ahead)
    best = None
    for p in range(game.players):
        if p != player and (best is None or values[p] > best):
            best = values[p]
    return values[player] - (best or 0)


# -- plans: what the actor can try ----------------------------------------

# Tiddlee Snuka's model of a computer's flick, in percent. The higher counters
# lie further up the cloth and are harder to pot, so aiming high is a gamble;
# one flick in ten goes off the cloth, which is a foul on the counter aimed at.
# Then the one choice that matters is the colour after a red (a safety is a
# miss without the chance of a pot), and it matters little: solved exactly,
# the best reply to the greedy player wins 52.7% of two-player frames, the
# search 51.3%; a few hundred frames cannot tell either from greedy.
POT_PERCENT = (60, 60, 55, 50, 45, 40, 35)  # red, yellow, green, mauve, blue, pink, black
FOUL_PERCENT = 10
_MISS = ("miss",)
_SAFE = ("safe",)


def _snuka_plans(game):
    legal = game.legal()
    if _SAFE not in legal:
        # the board waits for a counter to be put back, or for the colour named after a red
        return tuple((d, ((d, 1, 1),)) for d in legal if d[0] != "also")
    out = []
    for c in game.on_now():
        if ("pot", c) in legal:
            pot = POT_PERCENT[c]
            out.append((("aim", c), ((("pot", c), pot, 100), (("foul", c, 0), FOUL_PERCENT, 100),
                                     (_MISS, 100 - pot - FOUL_PERCENT, 100))))
    out.append((_SAFE, ((_SAFE, 1, 1),)))
    return tuple(out)


PLANS = {"snuka": _snuka_plans}


def plans(game):
    """Every plan of the actor now: ``(choice, ((step, num, den), ...))``."""
    special = PLANS.get(game.name)
    if special is not None:
        return special(game)
    return tuple((d, ((d, 1, 1),)) for d in game.legal())


# -- chance, folded: outcomes that lead to the same play counted once ------


def _dice(outcome):
    """Two dice in either order play alike (Detour, Sniggle): the roll is a set."""
    if type(outcome) is tuple and len(outcome) == 2 and outcome[0] > outcome[1]:
        return (outcome[1], outcome[0])
    return outcome


def _sticks(mask):
    """Mehen moves by the throw's value: 1, 2 or 3 flat sides, or 6 for none."""
    flat = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1)
    return flat or 6


FOLDS = {"detour": _dice, "sniggle": _dice, "mehen": _sticks}
_folded = {}  # outcomes -> folded outcomes, for the few tuples a game hands out


def chances(game):
    """``chance_outcomes()`` with the outcomes that play alike merged, for the search."""
    outcomes = game.chance_outcomes()
    key = FOLDS.get(game.name)
    if key is None or len(outcomes) < 3:
        return outcomes
    folded = _folded.get(outcomes)
    if folded is None:
        merged = {}
        order = []
        for outcome, num, den in outcomes:
            k = key(outcome)
            if k in merged:
                merged[k][1] += num
            else:
                merged[k] = [outcome, num, den]
                order.append(k)
        folded = tuple((merged[k][0], merged[k][1], merged[k][2]) for k in order)
        if len(_folded) > 8:
            _folded.clear()
        _folded[outcomes] = folded
    return folded


# -- the players ----------------------------------------------------------


class Player:
    """What every player shares: ``pick`` a plan, ``choose`` plays it out."""

    name = ""

    def __init__(self, rng):
        self.rng = rng

    def _best(self, game, options):
        """The index of the plan to take among ``options`` (more than one)."""
        raise NotImplementedError

    def _plan(self, game):
        options = plans(game)
        if not options:
            raise RulesError("no decision to take: the game waits for chance or is over")
        return options[0] if len(options) == 1 else options[self._best(game, options)]

    def pick(self, game):
        """The choice this player makes now: a legal decision (or a Snuka aim)."""
        return self._plan(game)[0]

    def choose(self, game):
        """The step to play now: the picked plan, its outcome drawn if it has several."""
        outcomes = self._plan(game)[1]
        return outcomes[0][0] if len(outcomes) == 1 else sample(outcomes, self.rng)

    def _tie(self, values, best):
        """Among the plans worth ``best``, one at random (the seed decides)."""
        top = [i for i in range(len(values)) if values[i] == best]
        return top[0] if len(top) == 1 else self.rng.choice(top)


class RandomPlayer(Player):
    name = "random"

    def _best(self, game, options):
        return self.rng.below(len(options))


def _expected(game, outcomes, value):
    """The mean of ``value(state)`` over the states the outcomes lead to, in
    integers (rounded down), so both interpreters agree to the last digit.
    The steps come from the game's own lists (``plans``, ``chances``), so
    they are applied without ``play``'s check that they are legal."""
    den = 1
    for _, _, d in outcomes:
        den = den * d // _gcd(den, d)
    total = 0
    for step, num, d in outcomes:
        child = game.copy()
        child._apply(step)
        total += num * (den // d) * value(child)
    return total // den


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class GreedyPlayer(Player):
    """Looks one step ahead: the plan whose result ``evaluate`` rates best."""

    name = "greedy"

    def _best(self, game, options):
        me = game.actor
        values = [_expected(game, outcomes, lambda g: evaluate(g, me)) for _, outcomes in options]
        return self._tie(values, max(values))


class _Spent(Exception):
    """The search budget is used up."""


def _minus(a, b):
    return a - b


class SearchPlayer(Player):
    """Expectiminimax, a throw deeper at each pass.

    Pass 0 looks one decision ahead, as the greedy player does. Pass ``n``
    plays out the decisions of ``n`` throws: the rest of this one, then the
    next roll of the dice (or, in a game without dice, the next turn) and
    what follows it, ``n - 1`` times. The actor takes its best plan, every
    other player the plan worst for the actor (a careful assumption); chance
    outcomes are averaged with their probabilities (``chances``); where the
    ``n`` throws end, ``evaluate`` rates the position, and what the next
    throw may cost (``ahead``; pass 0 rates so too): the other player's
    whole reply to a Sniggle turn takes tens of times the node budget, the
    chance that it sends pieces back only a sum. A line is cut after
    ``plies`` decisions (a long break in Tiddlee Snuka). Pass 1 looks at the
    ``2 * beam`` plans the pass before rated best, every later pass at the
    best ``beam``. The whole choice may make at most ``nodes`` states (one
    copy and one step each) and, with a ``clock`` (ms ticks, compared with
    ``diff``), take at most ``ms`` from the question (``since``, or the
    call), less the longest a plan took to rate: a pass that runs out is
    dropped and the deepest finished one decides (pass 0 that runs out: the
    best of the plans it rated). ``throws`` caps the passes."""

    name = "search"

    def __init__(self, rng, nodes=300, throws=2, plies=3, beam=3, ms=0, clock=None, diff=_minus, since=None):
        super().__init__(rng)
        self.since = since  # when the first choice was asked for, if before the player was made
        self.beam = beam
        self.nodes = nodes
        self.throws = throws
        self.plies = plies
        self.ms = ms
        self.clock = clock
        self.diff = diff
        self.reached = 0  # the deepest finished pass of the last choice, for reports
        self.rated = 0  # how many plans its pass 0 rated (all of them, unless the time ran out)
        self._left = 0
        self._start = 0
        self._margin = 0  # the longest a plan took to rate: no more work begins that late

    def _plan(self, game):
        if self.clock is not None:
            # the time counts from the question: listing the plans is part of it
            self._start = self.clock() if self.since is None else self.since
            self.since = None
            self._margin = 0
        return Player._plan(self, game)

    def _late(self):
        return self.clock is not None and self.diff(self.clock(), self._start) + self._margin >= self.ms

    def _best(self, game, options):
        me = game.actor
        # the tables a rating needs are made now, the first time: counted as
        # the time a plan takes, they would cut every pass short
        evaluate(game, me, True)
        values = []
        for _, outcomes in options:  # pass 0; when the time runs out, the plans rated so far compete
            began = self.clock() if self.clock is not None else 0
            values.append(_expected(game, outcomes, lambda g: evaluate(g, me, True)))
            if self.clock is not None:
                self._margin = max(self._margin, self.diff(self.clock(), began))
            if self._late():
                break
        self.rated = len(values)
        self.reached = 0
        self._left = self.nodes
        chosen = list(range(len(values)))  # the plans still in the running
        width = 2 * self.beam  # how many go on to each next pass: wide at first, then the beam
        for throws in range(1, self.throws + 1):
            if len(chosen) > width:  # look deeper at the best few only
                # best first, the earlier plan first on a tie (MicroPython's sort is not stable)
                order = sorted(range(len(chosen)), key=lambda k: (-values[k], k))[:width]
                order.sort()
                chosen = [chosen[k] for k in order]
                values = [values[k] for k in order]
            width = self.beam
            try:
                deeper = [_expected(game, options[i][1], lambda g: self._visit(g, me, throws, self.plies - 1, game.turn))
                          for i in chosen]
            except _Spent:
                break
            values = deeper
            self.reached = throws
        return chosen[self._tie(values, max(values))]

    def _visit(self, game, me, throws, plies, turn):
        """The worth of ``game`` for ``me`` within ``throws`` throws and
        ``plies`` decisions; ``turn`` is whose turn it was a step before.
        Every state the search makes comes here and is counted."""
        self._left -= 1
        if self._left < 0:
            raise _Spent()
        if self._late():
            raise _Spent()
        if game.phase == ROLL or game.turn != turn:
            throws -= 1  # a new throw begins
        if game.over() or throws == 0 or plies == 0:
            return evaluate(game, me, True)
        turn = game.turn
        if game.is_chance():
            return _expected(game, chances(game), lambda g: self._visit(g, me, throws, plies, turn))
        best = None
        mine = game.actor == me
        special = PLANS.get(game.name)

        def value(g):
            return self._visit(g, me, throws, plies - 1, turn)

        for option in special(game) if special else game.legal():
            if special:
                v = _expected(game, option[1], value)
            else:
                # a decision is its own plan, with one sure outcome: played on a copy as it is, with
                # no plan made up to hold it (a Sniggle roll has 144, and a plan costs 64 bytes of heap
                # that the deeper levels of the search would see taken)
                child = game.copy()
                child._apply(option)
                v = value(child)
            if best is None or (v > best if mine else v < best):
                best = v
        return best


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer, "search": SearchPlayer}


def play_out(game, seats, rng, limit=100000):
    """Play ``game`` to its end: ``seats[p]`` decides for player ``p``, chance
    is drawn with ``rng``. Returns the number of steps."""
    steps = 0
    while not game.over():
        if steps >= limit:
            raise RulesError("no end after %d steps" % limit)
        if game.is_chance():
            game.play(sample(game.chance_outcomes(), rng))
        else:
            game.play(seats[game.actor].choose(game))
        steps += 1
    return steps
