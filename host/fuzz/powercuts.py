"""Power cuts at every write of the save and the record.

Random games of every board (the saves campaign's setups), kept in a folder
as the controller keeps them (``app.keeper`` on ``hal.storage``). At a
random moment of each, the next action (a step; now and then a new game
begun over the one in progress, or a game taken over from where earlier
firmware kept it) is cut after every step of its writes
(``host.rig.cut``: a byte written, a rename, a remove). Every different
set of files the start-up reads after such a cut is started up from, the
start-up (``Keeper.resume``) cut in its turn, then the board started once
more. Each cut is a case.

Figures: *halts* (the start-up raised), *lost* (no game resumed, or another
than the one before the action or after it), *records off* (the record does
not replay to the game resumed).
"""

import os
import random
import tempfile

from app.keeper import SAVES, Keeper
from hal import storage
from host.boardfile import read_board
from host.fuzz import report
from host.fuzz.saves import SETUPS
from host.rig import Power, cut, powered
from rules.games import find_game
from rules.playout import Rng, random_step
from rules.record import RecordError, line, replay

NAME = "powercuts"
CASES = 200000
WANDER = 30  # at most this many steps played on, uncut, between two actions cut
FIGURES = ("halts", "lost", "records off")
SHOWN = 5  # failing cases printed
# in memory where there is such a filesystem: a campaign writes millions of files
MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") else None


def files(folder):
    """{name: bytes} of every file in ``folder`` (a path ending in /) and in
    its boards' saves folder (named ``saves/...``)."""
    found = {}
    for sub in ("", SAVES):
        for name in os.listdir(folder + sub) if os.path.isdir(folder + sub) else ():
            if os.path.isfile(folder + sub + name):
                with open(folder + sub + name, "rb") as f:
                    found[sub + name] = f.read()
    return found


def restore(folder, saved):
    """Make ``folder`` hold the files ``saved`` (only those that differ are written)."""
    now = files(folder)
    for name in now:
        if name not in saved:
            os.remove(folder + name)
    for name, blob in saved.items():
        if now.get(name) != blob:
            with open(folder + name, "wb") as f:
                f.write(blob)


def play(keeper, game, steps, rng):
    """``steps`` random steps of ``game`` (fewer if it ends), each kept as the controller keeps it."""
    for _ in range(steps):
        if game.over():
            break
        step = random_step(game, rng)
        text = line(game, step)
        game.play(step)
        keeper.played(text, game)


def replayed(path, _seen={}):
    """The state the record at ``path`` replays to, None for a record that
    does not replay (one seen before is not replayed again)."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob not in _seen:
        if len(_seen) > 1000:
            _seen.clear()
        try:
            _seen[blob] = replay(blob.decode().splitlines(), read_board).save()
        except (RecordError, UnicodeDecodeError):
            _seen[blob] = None
    return _seen[blob]


def _seen_by_start_up(folder, board):
    """What the start-up works from: the saves' data and the records."""
    now = files(folder)
    return tuple((storage.load(k.save_path)[0], now.get(k.record_path[len(folder):]))
                 for k in (Keeper(folder, board), Keeper(folder)))


def every_cut(folder, board, fresh, action, results, start_up_cuts):
    """Cut ``action()`` after every step of its writes, from the files in
    ``folder`` now; from each different set of files the start-up reads
    then, cut the start-up after each of ``start_up_cuts(steps)`` steps of
    its ``steps`` and once not at all, then start up (onto ``fresh``) and
    check the game resumed is one of the states ``results``. Yields one
    outcome per cut: None, or (figure, where, what) of a failure."""
    start = files(folder)
    power = Power()
    powered(action, power)
    seen = set()
    for first in range(power.taken + 1):
        restore(folder, start)
        cut(action, first)
        left = files(folder)
        state = _seen_by_start_up(folder, board)
        if state in seen:
            yield None  # started up from before
            continue
        seen.add(state)
        start_up = Power()
        powered(lambda: Keeper(folder, board).resume(fresh), start_up)
        for second in list(start_up_cuts(start_up.taken)) + [start_up.taken]:
            restore(folder, left)
            where = "cut after %d steps of its writes, the start-up after %d" % (first, second)
            yield _started(folder, board, fresh, results, second, where)


def _started(folder, board, fresh, results, second, where):
    """The start-up cut after ``second`` steps, then one not cut: None or a failure."""
    try:
        cut(lambda: Keeper(folder, board).resume(fresh), second)
        keeper = Keeper(folder, board)
        game, note = keeper.resume(fresh)
    except Exception as err:
        return "halts", where, repr(err)
    if game is None or game.save() not in results:
        return "lost", where, note or "resumed %r" % (game and game.save())
    try:
        if replayed(keeper.record_path) == game.save():
            return None
        return "records off", where, "the record replays to another state"
    except Exception as err:
        return "records off", where, repr(err)


class Table:
    """One setup's game, kept in its own folder."""

    def __init__(self, root, k, setup):
        name, players, options = setup
        self.folder = "%s/%d/" % (root, k)
        os.mkdir(self.folder)
        self.board = name
        self.made = find_game(name)(read_board(name), players, options)
        self.keeper = Keeper(self.folder, name)
        self.game = self.new()
        self.keeper.begin(self.game)

    def new(self):
        return type(self.made)(self.made.board, self.made.players, self.made.options)

    def action(self, pick, steps):
        """The next action to cut: (what, action, the states it may leave)."""
        game, how = self.game, pick.randrange(20)
        if how == 0 or game.over():
            return "a new game", lambda: Keeper(self.folder, self.board).begin(self.new()), (
                game.save(), self.new().save())
        if how == 1:
            restore(self.folder, {})
            old, game = Keeper(self.folder), self.new()
            old.begin(game)
            play(old, game, pick.randrange(WANDER), steps)
            return "a game taken over", lambda: Keeper(self.folder, self.board).resume(self.new()), (game.save(),)
        step = random_step(game, steps)
        text = line(game, step)
        after = game.copy()
        after.play(step)

        def played():
            keeper = Keeper(self.folder, self.board)
            keeper.steps = self.keeper.steps
            keeper.played(text, after)

        return "a step", played, (game.save(), after.save())

    def go_on(self, action, results):
        """Do ``action`` uncut and start up from it, as the next action's start."""
        action()
        self.keeper = Keeper(self.folder, self.board)
        self.game = self.keeper.resume(self.new())[0]
        return self.game is not None and self.game.save() == results[-1]


def run(cases=CASES, seed=1):
    pick = random.Random(seed)  # the moments, actions and start-up cuts
    steps = Rng(seed)  # the games' dice and decisions
    counts = dict.fromkeys(FIGURES, 0)
    done = 0
    # one game of each board in turn, so a few cases see every board
    order = sorted(range(len(SETUPS)), key=lambda k: (sum(s[0] == SETUPS[k][0] for s in SETUPS[:k]), k))
    with tempfile.TemporaryDirectory(prefix="fuzz-powercuts-", dir=MEMORY) as root:
        tables = [Table(root, k, SETUPS[k]) for k in order]
        while done < cases:
            for table in tables:
                play(table.keeper, table.game, pick.randrange(WANDER), steps)
                what, action, results = table.action(pick, steps)
                outcomes = every_cut(table.folder, table.board, table.new(), action, results,
                                     lambda n: [pick.randrange(n)] if n else [])
                for outcome in outcomes:
                    done += 1
                    if outcome:
                        counts[outcome[0]] += 1
                        if sum(counts.values()) <= SHOWN:
                            report(NAME, (seed, table.board, what) + outcome)
                if not table.go_on(action, results):
                    counts["lost"] += 1
                    report(NAME, (seed, table.board, what, "not resumed after it, uncut"))
                if done >= cases:
                    break
    return "%s: %s cuts, %s" % (NAME, format(done, ","), ", ".join("%d %s" % (counts[k], k) for k in FIGURES))
