"""Random play: a seeded generator that gives the same numbers on CPython and
MicroPython, exact sampling of chance outcomes, and whole random games."""

from rules.core import OVER, POPOFF, ROLL, RulesError
from rules.record import dumps, header, line

_MASK = 0xFFFFFFFF


class Rng:
    """xorshift32: tiny, integer-only, identical on every interpreter."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & _MASK or 1

    def below(self, n):
        """A uniform integer in 0..n-1, by rejection (no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        x = self.state
        while True:  # one xorshift32 step, inline: random games draw at every step
            x ^= (x << 13) & _MASK
            x ^= x >> 17
            x ^= (x << 5) & _MASK
            if x < limit:
                self.state = x
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]


def _measure(outcomes):
    """A chance table's common denominator, and whether every outcome is as likely."""
    den = 1
    for _, _, d in outcomes:
        if den % d:
            den = den * d // _gcd(den, d)
    n = len(outcomes)
    for _, num, d in outcomes:
        if num != 1 or d != n:
            return den, False
    return den, n > 0


# chance tables by id: (table, denominator, uniform); games hand out the same few tuples again and again
_measured = {}


def sample(outcomes, rng):
    """One outcome of ``chance_outcomes()``, drawn with its exact probability."""
    known = _measured.get(id(outcomes))
    if known is None or known[0] is not outcomes:
        known = (outcomes,) + _measure(outcomes)
        if type(outcomes) is tuple:  # a list could change under its id
            if len(_measured) >= 8:
                _measured.clear()
            _measured[id(outcomes)] = known
    den = known[1]
    x = rng.below(den)
    if known[2]:
        return outcomes[x][0]  # what the walk below finds when each outcome counts 1
    for outcome, num, d in outcomes:
        x -= num * (den // d)
        if x < 0:
            return outcome
    raise RulesError("chance outcomes do not add up to 1")


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def random_step(game, rng):
    """A random legal step: a chance outcome or a decision."""
    if game.is_chance():
        return sample(game.chance_outcomes(), rng)
    return rng.choice(game.legal())


def random_record(game, rng, steps):
    """Play up to ``steps`` random steps of ``game`` (fewer if it ends);
    return the lines of its record, header first."""
    lines = [dumps(header(game))]
    for _ in range(steps):
        if game.over():
            break
        step = random_step(game, rng)
        lines.append(dumps(line(game, step)))
        game.play(step)
    return lines


def random_game(game, rng, limit=100000):
    """Play ``game`` to its end with random steps; return the number of steps.

    The steps of ``game.play(random_step(game, rng))``, applied by the game's
    own hooks: a step drawn from its own lists needs no legality check."""
    outcomes, decisions, apply, below = game._outcomes, game._decisions, game._apply, rng.below  # looked up once
    steps = 0
    while game.phase != OVER:  # over() and is_chance(), inline
        if steps >= limit:
            raise RulesError("no end after %d steps" % limit)
        if game.phase == ROLL or game.phase == POPOFF:
            apply(sample(outcomes(), rng))
        else:
            legal = decisions()
            apply(legal[below(len(legal))])
        steps += 1
    return steps
