"""Computer players for every game: random, greedy and a chance-aware search.

A player is made with an ``Rng`` (``rules.playout``) and asked, in a decision
phase, ``choose(game)``: the step to play. The same seed gives the same
choices on CPython and MicroPython. ``pick(game)`` is the choice before it is
played, what the controller lights as a hint: a legal decision, or what a
plan of the game's own aims at.

What the actor can do is a list of *plans*: ``(choice, outcomes)``, the
outcomes as ``(step, numerator, denominator)`` like ``chance_outcomes()``. In
a board game every legal decision is a plan with one sure outcome. A game
whose steps a computer cannot make as a person does has plans of its own: in
a flicking game (``rules.snuka_tactics``) a computer's seat plays a model of
a flick, what it aims at the choice and what the flick does the outcomes.

- ``RandomPlayer``: any plan, uniformly.
- ``GreedyPlayer``: the plan whose result ``evaluate`` rates best.
- ``SearchPlayer``: expectiminimax over plans and chance outcomes, deepened
  a throw at a time while a node budget (and an optional time limit) lasts;
  the deepest finished search decides. A hint on the Pico is
  ``SearchPlayer(rng, ms=..., clock=hal.ticks.now, diff=hal.ticks.diff).pick(game)``.

``evaluate(game, player)`` rates a state for a player: that player's
standing less the best opponent's; a finished game is +-``WIN``. Where
the search stops it also counts what the next throw may cost each player
(``ahead``; in Sniggle, pieces sent back): the chance beyond its horizon.

What the players know of a game comes from its tactics module, which the
game names (``Game.tactics``) and this module imports the first time a
player looks at that game (the rules never import it):

- ``rate(game, ahead)``: every player's standing, in hundredths (``SCALE``),
  and with ``ahead`` less what the next throw may cost it;
- ``plans(game)``, where the game has plans of its own;
- ``fold(outcome)``, where chance outcomes play alike: the key that merges
  them in ``chances`` (``unordered``: two dice in either order).

A game without a tactics module is rated by its end alone.
"""

from rules.core import ROLL, RulesError
from rules.playout import sample

WIN = 1000000  # the value of a won game; every rating of a game in play stays far below it
SCALE = 100  # standings are small ints; ratings are kept in hundredths so means stay exact enough in ints

# -- what each game teaches: its tactics module ---------------------------

_taught = {}  # a tactics module's name -> its (rate, plans, fold), None for what it leaves out


def _learn(game):
    """What the game's tactics module (``Game.tactics``) teaches, imported
    the first time a player looks at a game of that kind."""
    name = game.tactics
    module = __import__(name, None, None, ("rate",)) if name else None
    kit = (getattr(module, "rate", None), getattr(module, "plans", None), getattr(module, "fold", None))
    _taught[name] = kit
    return kit


def evaluate(game, player, ahead=False):
    """How good ``game`` is for ``player``: its rating less the best other
    player's; a finished game is WIN, -WIN, or 0 for a shared win. ``ahead``
    also counts what the next throw may cost each player."""
    if game.over():
        if game.winner >= 0:
            return WIN if game.winner == player else -WIN
        return 0 if player in getattr(game, "winners", ()) else -WIN
    rate = (_taught.get(game.tactics) or _learn(game))[0]
    if rate is None:
        return 0  # a game without a standing: only the end counts
    values = rate(game, ahead)
    best = None
    for p in range(game.players):
        if p != player and (best is None or values[p] > best):
            best = values[p]
    return values[player] - (best or 0)


# -- plans: what the actor can try ----------------------------------------


def plans(game):
    """Every plan of the actor now: ``(choice, ((step, num, den), ...))``."""
    special = (_taught.get(game.tactics) or _learn(game))[1]
    if special is not None:
        return special(game)
    return tuple((d, ((d, 1, 1),)) for d in game.legal())


# -- chance, folded: outcomes that lead to the same play counted once ------


def unordered(outcome):
    """A ``fold`` for two dice, which play alike in either order: the roll is a set."""
    if type(outcome) is tuple and len(outcome) == 2 and outcome[0] > outcome[1]:
        return (outcome[1], outcome[0])
    return outcome


_folded = {}  # outcomes -> folded outcomes, for the few tuples a game hands out


def chances(game):
    """``chance_outcomes()`` with the outcomes that play alike merged, for the search."""
    outcomes = game.chance_outcomes()
    key = (_taught.get(game.tactics) or _learn(game))[2]
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
        # + 1: the clock counts whole milliseconds, so a reading can be nearly one short
        return self.clock is not None and self.diff(self.clock(), self._start) + self._margin + 1 >= self.ms

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
        special = (_taught.get(game.tactics) or _learn(game))[1]

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
