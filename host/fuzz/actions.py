"""Random physical action sequences on the simulated board, for every game.

A case is a controller on a simulated board (``host.rig.Rig``) taken
through a seeded random sequence of what hands do: pieces lifted and put down
anywhere, several sensors changing at once, die buttons pressed and held,
wheels turned, counters dropped through pockets, moves the rules allow, time
passing. Then the pieces are put where the game has them and the wheels
turned to its positions, as a player does once the board shows red, and the
game must go on: the board agrees with it, and a legal step done on the board
is taken.

Figures: *faults* (an exception in the controller's loop, caught or not),
*stuck* (with the pieces where the game has them, the board still disagrees,
or a legal step done on the board is not taken).
"""

import random

from host.boardfile import read_board
from host.fuzz import quiet
from host.rig import Bytes, Rig
from rules.games import new_game
from rules.playout import Rng, random_step

NAME = "actions"
CASES = 10000
ACTIONS = 12  # random actions between two checks
ROUNDS = 3  # checks in a case
SHOWN = 5  # failing cases printed

# (game, players, options, piece sensors: False is a board played with the button)
SETUPS = (
    ("detour", 2, {}, True), ("detour", 3, {"half_turns": True, "wheel_turn_optional": True}, True),
    ("detour", 2, {"pieces": 4}, True), ("sniggle", 2, {}, True), ("sniggle", 4, {}, True),
    ("mehen", 2, {"hunt": True}, True), ("mehen", 3, {"hunt": True, "lions_return": True, "lion_start": "head"}, True),
    ("mehen", 2, {}, True), ("snuka", 2, {}, True), ("snuka", 3, {"nominate": True, "confirm_respot": False}, True),
    ("detour", 2, {"pieces": 4}, False), ("mehen", 2, {"hunt": True}, False),
)


class Case:
    """One rig, its random source, and what was done to it (to print a failing case)."""

    def __init__(self, setup, seed, boards):
        name, players, options, sensors = setup
        if name not in boards:
            boards[name] = read_board(name)
        game = new_game(name, boards[name], players, options)
        self.rng = random.Random(seed)
        self.steps = Rng(seed)
        for _ in range(self.rng.randrange(60)):  # somewhere into the game
            if game.over():
                break
            game.play(random_step(game, self.steps))
        # a hint asked for in passing: no real time spent searching
        self.rig = Rig(game, Bytes(self.rng.randbytes(64)), sensors=sensors, log=quiet, hint_ms=1)
        self.done = []

    def act(self):
        """One random action of a person at the board."""
        rig, rng, sim = self.rig, self.rng, self.rig.sim
        spaces = len(rig.game.board.ids)
        how = rng.randrange(10)
        if how == 0 and rig.snap.moves:  # a legal move, perhaps onto a piece (a capture)
            _, f, t = rng.choice(rig.snap.moves)
            self.done.append(("move", f, t))
            if rig.snap.expected[t] and rng.randrange(2):
                sim.lift(t)
            sim.lift(f)
            rig.run(rng.choice((5, 100)))
            sim.put(t)
        elif how <= 1 and not rig.game.over():  # what a player who knows the rules does
            step = random_step(rig.game, self.steps)
            self.done.append(("act", rig.game.notation(step)))
            rig.act(step)
        elif how <= 3 and sim.has_sensors:  # a sensor or several at once
            changed = [rng.randrange(spaces) for _ in range(1 + rng.randrange(3))]
            self.done.append(("flip", changed))
            for s in changed:
                if sim.occupied(s):
                    sim.lift(s)
                else:
                    sim.put(s)
        elif how <= 5:
            button = rng.randrange(len(sim.levels))
            ms = rng.choice((60, 60, 800))
            self.done.append(("press", button, ms))
            rig.press(button, ms)
        elif how == 6 and sim.wheel_count:
            w, q = rng.randrange(sim.wheel_count), rng.choice((1, 2, 3))
            self.done.append(("turn", w, q))
            sim.turn(w, q)
        elif how == 7 and sim.beam_pins:
            pocket = rng.choice(rig.game.board.pockets)
            self.done.append(("beam", pocket))
            sim.beam(pocket)
        else:
            self.done.append(("wait",))  # only the pause below
        rig.run(rng.choice((5, 50, 400, 900)))

    def fix(self):
        """Put every piece and wheel where the game has them; close an offer of a new game."""
        rig = self.rig
        rig.match(rig.game)
        for w in range(rig.sim.wheel_count):
            rig.sim.set_wheel(w, rig.game.wheels[w])
        rig.run(1000)
        if rig.snap.prompt:
            rig.press(0)  # a click keeps the game

    def goes_on(self):
        """None if the game can go on from the board as it is, else why not."""
        rig = self.rig
        snap = rig.snap
        if snap.disagrees:
            extra, missing, wheels = snap.extra, snap.missing, snap.wrong_wheels
            return "the board disagrees (wrong %s, missing %s, wheels %s)" % (extra, missing, wheels)
        if rig.game.over():
            return None
        before = rig.game.save()
        step = random_step(rig.game, self.steps)
        text = rig.game.notation(step)
        rig.act(step)
        if rig.game.save() == before:
            return "%s in phase %d was not taken" % (text, before["phase"])
        return None


def run(cases=CASES, seed=1, log=print):
    counts = {"faults": 0, "stuck": 0}
    boards = {}
    for n in range(cases):
        setup = SETUPS[n % len(SETUPS)]
        case_seed = seed * 1000003 + n
        failure, case = None, None
        try:
            case = Case(setup, case_seed, boards)
            for _ in range(ROUNDS):
                for _ in range(ACTIONS):
                    case.act()
                case.fix()
                why = case.goes_on()
                faults = case.rig.snap.faults
                if why or faults:
                    failure = ("faults", "%d faults" % faults) if faults else ("stuck", why)
                    break
        except Exception as err:
            failure = ("faults", repr(err))
        if failure:
            counts[failure[0]] += 1
            if sum(counts.values()) <= SHOWN:
                log("actions: case %d (seed %d, %s) %s: %s\n  after: %s"
                    % (n, case_seed, setup, failure[0], failure[1], str(case and case.done[-ACTIONS:])[:500]))
    return "%s: %s sequences, %d faults, %d stuck" % (NAME, "{:,}".format(cases), counts["faults"], counts["stuck"])
