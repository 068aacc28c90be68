"""The worst position of each game, where ``make bench`` times a decision.

It is found on CPython before anything is measured (host/bench,
host/bench/pico.py): random games of the game's widest setups (most players,
most pieces, every option that adds decisions) are played with fixed seeds,
every roll of every position that waits for one is tried, and the roll that
leaves the most legal decisions wins (the first found, on a tie). A game
without rolls (Tiddlee Snuka) is judged at its decisions instead. The position
is handed to every interpreter as a save, so all time the same thing, and the
note under the table names the seed and step, so it can be found again.
"""

from host.boardfile import read_board
from rules.core import ROLL, RulesError
from rules.games import find_game
from rules.playout import Rng, random_step

SEEDS = 12  # random games per setup in the search for the worst position
# the setups searched for a game's worst position: (players, options)
WIDEST = {
    "detour": ((2, {"pieces": 4, "half_turns": True, "wheel_turn_optional": True}),
               (4, {"half_turns": True, "wheel_turn_optional": True})),
    "mehen": ((6, {"hunt": True, "lions": 6}), (2, {"hunt": True, "lions": 6})),
    "sniggle": ((4, {}), (2, {})),
    "snuka": ((6, {"nominate": True}), (2, {})),
}


def worst_position(name):
    """The position (and roll) with the most legal decisions found, as a dict."""
    cls = find_game(name)
    best = None
    for players, options in WIDEST.get(name, ((2, {}),)):
        try:
            start = cls(read_board(name), players, options)
        except RulesError:
            continue  # a setup this board does not allow
        for seed in range(SEEDS):
            game, rng, step = start.copy(), Rng(seed), 0
            while not game.over():
                if game.phase == ROLL:
                    for i, (outcome, _, _) in enumerate(game.chance_outcomes()):
                        after = game.copy()
                        after.play(outcome)
                        found = (1, len(after.legal()))
                        if best is None or found > best[0]:
                            best = (found, players, options, seed, step, i, game.save(), game.notation(outcome))
                elif not game.is_chance():
                    found = (0, len(game.legal()))  # counts only where a game never rolls
                    if best is None or found > best[0]:
                        best = (found, players, options, seed, step, -1, game.save(), "")
                game.play(random_step(game, rng))
                step += 1
    (rolled, decisions), players, options, seed, step, index, save, roll = best
    return {"players": players, "options": options, "seed": seed, "step": step, "outcome": index if rolled else -1,
            "roll": roll, "decisions": decisions, "save": save}
