"""Board files: each game's file, mutated, loaded and, where accepted, played.

A mutated board must be refused with a BoardError whose message names the
field ("where: what"), or load into a board the controller can run: a few
steps played on the simulated board, a frame painted at each.
"""

import json
import os
import random

from host import BOARDS
from host.fuzz import mutate, quiet, report, shorten
from host.rig import Rig
from rules.core import BoardError, RulesError
from rules.games import GAMES, find_game

NAME = "boards"
CASES = 10000
STEPS = 4  # steps played on an accepted board


def _play(game, rng):
    """Run the controller on ``game``'s board for a few steps; False if a step
    done on the board was not taken."""
    rig = Rig(game, lambda n: bytes(rng.randrange(256) for _ in range(n)), log=quiet)
    for _ in range(STEPS):
        if rig.game.over():
            break
        before = rig.game.save()
        steps = [o for o, _, _ in rig.game.chance_outcomes()] if rig.game.is_chance() else rig.game.legal()
        rig.act(rng.choice(steps))
        rig.run(100)
        if rig.game.save() == before:
            return False
    return True


def run(cases, seed):
    rng = random.Random(seed)
    files = {}
    for name in GAMES:
        with open(os.path.join(BOARDS, name + ".json")) as f:
            files[name] = json.load(f)
    tracebacks = unnamed = broken = stuck = accepted = 0
    for case in range(cases):
        name = GAMES[case % len(GAMES)]
        data, changes = mutate(files[name], rng, rng.choice((1, 1, 2, 3)))
        cls = find_game(name)
        try:
            game = cls(data, 2)
        except BoardError as err:
            if ": " not in str(err):
                unnamed += 1
                report(NAME, (seed, case, changes, str(err)))
            continue
        except RulesError:  # a sound board for fewer players
            continue
        except Exception as err:
            tracebacks += 1
            report(NAME, (seed, case, changes, "%s: %s" % (type(err).__name__, shorten(str(err)))))
            continue
        accepted += 1
        try:
            if not _play(game, rng):
                stuck += 1
                report(NAME, (seed, case, changes, "a step done on the board was not taken"))
        except Exception as err:
            broken += 1
            report(NAME, (seed, case, changes, "after loading: %s: %s" % (type(err).__name__, shorten(str(err)))))
    return ("%s: %s mutated, %d tracebacks, %d without the field named, %d loaded but failing, %d stuck; "
            "accepted and played %s" % (NAME, format(cases, ","), tracebacks, unnamed, broken, stuck, format(accepted, ",")))
