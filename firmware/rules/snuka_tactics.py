"""How the computer players (``rules.players``) play Tiddlee Snuka
(``Snuka.tactics``): a player's standing is their score, and since a
computer cannot flick, its seat plays a model of a flick. It aims at a
counter that is on (or plays safe), and the result, a pot, a miss or a foul,
is drawn from ``POT_PERCENT`` and ``FOUL_PERCENT``. Every player plays
through that model; they differ in what they aim at.

The higher counters lie further up the cloth and are harder to pot, so
aiming high is a gamble; one flick in ten goes off the cloth, which is a
foul on the counter aimed at. Then the one choice that matters is the colour
after a red (a safety is a miss without the chance of a pot), and it matters
little: solved exactly, the best reply to the greedy player wins 52.7% of
two-player frames, the search 51.3%; a few hundred frames cannot tell either
from greedy."""

from rules.players import SCALE
from rules.snuka import MISS, SAFE

POT_PERCENT = (60, 60, 55, 50, 45, 40, 35)  # red, yellow, green, mauve, blue, pink, black
FOUL_PERCENT = 10


def rate(game, ahead):
    return [game.scores[p] * SCALE for p in range(game.players)]


def plans(game):
    legal = game.legal()
    if SAFE not in legal:
        # the board waits for a counter to be put back, or for the colour named after a red
        return tuple((d, ((d, 1, 1),)) for d in legal if d[0] != "also")
    out = []
    for c in game.on_now():
        if ("pot", c) in legal:
            pot = POT_PERCENT[c]
            out.append((("aim", c), ((("pot", c), pot, 100), (("foul", c, 0), FOUL_PERCENT, 100),
                                     (MISS, 100 - pot - FOUL_PERCENT, 100))))
    out.append((SAFE, ((SAFE, 1, 1),)))
    return tuple(out)
