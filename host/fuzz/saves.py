"""Mutated saves of every game, loaded as the board loads them at start-up.

Each case starts from a state a seeded random game reached and changes it:
fields taken from other states of the same game (every value one the rules
produce, the combination perhaps not), a phase set to another, an entry of a
list changed, a field dropped or given a wrong type. ``load`` must refuse the
save with the game's own SaveError (a RulesError) or give a state the game can
go on from: played on at random, with every state saved and loaded again.

Figures: *tracebacks* (an exception while playing on from a loaded save),
*halts* (an exception out of ``load`` other than a RulesError), *stuck* (a
loaded state, not over, with nothing to play), *lost* (a state played on to
whose save ``load`` refuses, or loads as another state).
"""

import json
import random

from host.boardfile import read_board
from rules.core import RulesError
from rules.games import find_game
from rules.playout import Rng, random_step

NAME = "saves"
CASES = 20000
PLAY_ON = 40  # random steps played from every loaded save
SHOWN = 5  # failing cases printed

SETUPS = (
    ("detour", 2, {}), ("detour", 2, {"pieces": 4}), ("detour", 3, {"half_turns": True}),
    ("detour", 4, {"wheel_turn_optional": True, "star_after_lost_popoff": True}),
    ("sniggle", 2, {}), ("sniggle", 3, {"larger_die": True}),
    ("sniggle", 4, {"blocked_double_throws_again": True}),
    ("mehen", 2, {}), ("mehen", 3, {"hunt": True}),
    ("mehen", 2, {"hunt": True, "lions_return": True, "extra_throw": 2}),
    ("mehen", 4, {"exact_head": True, "exact_home": True, "hunt": True, "lion_start": "head"}),
    ("snuka", 1, {}), ("snuka", 2, {"nominate": True}), ("snuka", 3, {"colour_after_last_red": False}),
    ("snuka", 2, {"confirm_respot": False, "wrong_pot_penalty": True}),
)
# values of a wrong type or out of range
ODD = (-2, -1, 0, 1, 2, 3, 4, 6, 7, 12, 126, 255, 1 << 31, -(1 << 40), 1.5, True, False, None,
       "", "x", [], [0], [1, 2], {})


class Setup:
    """One game on its board with its players and options, and states its random games reached."""

    def __init__(self, name, players, options, steps):
        self.cls = find_game(name)
        self.game = self.cls(read_board(name), players, options)
        self.states = []
        for _ in range(3):
            game = self.game.copy()
            while not game.over() and len(self.states) < 3000:
                self.states.append(game.save())
                game.play(random_step(game, steps))
            self.states.append(game.save())

    def load(self, data):
        return self.cls.load(self.game.board, data)


def mutate(setup, rng):
    """A save of ``setup`` changed in one of the ways the module notes list."""
    data = json.loads(json.dumps(rng.choice(setup.states)))
    names = sorted(data)
    how = rng.randrange(6)
    if how <= 1:  # fields of other reached states: each value possible, the combination perhaps not
        for _ in range(1 + rng.randrange(3)):
            name = rng.choice(names)
            data[name] = json.loads(json.dumps(rng.choice(setup.states)[name]))
        if how == 1:
            data["phase"] = rng.randrange(5)
    elif how == 2:  # one entry of a list: another value, one added or one taken away
        lists = [n for n in names if isinstance(data[n], list)]
        name = rng.choice(lists)
        values = data[name]
        k = rng.randrange(3)
        if k == 0 and values:
            values[rng.randrange(len(values))] = rng.choice(values + [rng.randrange(-3, 40)])
        elif k == 1:
            values.insert(rng.randrange(len(values) + 1), rng.choice(values or [0]))
        elif values:
            del values[rng.randrange(len(values))]
    elif how == 3:  # an int one off or a flag flipped
        name = rng.choice([n for n in names if isinstance(data[n], (int, bool))])
        data[name] = (not data[name]) if isinstance(data[name], bool) else data[name] + rng.choice((-1, 1))
    elif how == 4:  # a wrong type or an out-of-range value
        data[rng.choice(names)] = rng.choice(ODD)
    else:
        del data[rng.choice(names)]
    return data


def check(setup, data, steps):
    """What became of one mutated save: None, or the failure's figure and a note."""
    try:
        game = setup.load(data)
    except RulesError:
        return None
    except Exception as err:
        return "halts", "load: %r" % err
    try:
        for _ in range(PLAY_ON):
            if game.over():
                return None
            if not game.is_chance() and not game.legal():
                return "stuck", "nothing to play in phase %d" % game.phase
            game.occupancy(), game.owners(), game.moves(), game.describe()
            game.play(random_step(game, steps))
            saved = json.loads(json.dumps(game.save()))
            try:
                again = setup.load(saved)
            except RulesError as err:
                return "lost", "%s; refused: %s" % (json.dumps(saved), err)
            if again.save() != saved:
                return "lost", "%s loads as another state" % json.dumps(saved)
            game = again
    except Exception as err:
        return "tracebacks", "playing on: %r" % err
    return None


def run(cases=CASES, seed=1, log=print):
    rng = random.Random(seed)  # the mutations
    steps = Rng(seed)  # the games' dice and decisions
    setups = [Setup(name, players, options, steps) for name, players, options in SETUPS]
    counts = {"tracebacks": 0, "halts": 0, "stuck": 0, "lost": 0}
    for case in range(cases):
        setup = setups[case % len(setups)]
        data = mutate(setup, rng)
        failure = check(setup, data, steps)
        if failure:
            counts[failure[0]] += 1
            if sum(counts.values()) <= SHOWN:
                log("saves: case %d (seed %d) %s: %s\n  save: %s"
                    % (case, seed, failure[0], failure[1][:300], json.dumps(data)[:600]))
    return "%s: %s mutated, %s" % (NAME, "{:,}".format(cases), ", ".join("%d %s" % (counts[k], k) for k in counts))
