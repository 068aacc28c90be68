"""Random play: a seeded generator that gives the same numbers on CPython and
MicroPython, exact sampling of chance outcomes, and whole random games."""

from rules.core import RulesError

_MASK = 0xFFFFFFFF


class Rng:
    """xorshift32: tiny, integer-only, identical on every interpreter."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & _MASK or 1

    def bits32(self):
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """A uniform integer in 0..n-1, by rejection (no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = self.bits32()
            if x < limit:
                return x % n

    def choice(self, items):
        return items[self.below(len(items))]


def sample(outcomes, rng):
    """One outcome of ``chance_outcomes()``, drawn with its exact probability."""
    den = 1
    for _, _, d in outcomes:
        den = den * d // _gcd(den, d)
    x = rng.below(den)
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


def random_game(game, rng, limit=100000):
    """Play ``game`` to its end with random steps; return the number of steps."""
    steps = 0
    while not game.over():
        if steps >= limit:
            raise RulesError("no end after %d steps" % limit)
        game.play(random_step(game, rng))
        steps += 1
    return steps
