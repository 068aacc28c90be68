"""How the computer players (``rules.players``) judge a Mehen game
(``Mehen.tactics``): the progress of a player's marbles along the route,
and the throws of the sticks that move as many squares play alike."""

from rules.mehen import MARBLES, VALUE
from rules.players import SCALE


def rate(game, ahead):
    return [sum(game.marbles[p * MARBLES:p * MARBLES + MARBLES]) * SCALE for p in range(game.players)]


def fold(mask):
    return VALUE[mask]
