"""A full flash: writes that fail (OSError ENOSPC) whole or part way, in the
middle of random games of every board, kept as the controller keeps them
(``app.keeper`` on ``hal.storage``, the flash ``host.rig.Full``).

Each run plays a game on, then lets the flash fill up after a random number
of bytes (the write in progress is torn there, every write after it fails)
for a few steps, then either makes room again and plays one step more, or
cuts the power and starts up from what the flash holds.

Figures: *records off* (the record does not replay to the game: after room
was made, to the game in RAM; after a cut, to the game resumed), *silent* (a
write failed and the keeper did not say so once, or did not say when the
flash was in step again, or a torn record line was cut away on resume with
no note), *lost* (after room was made the save does not hold the game in
RAM; after a cut an older step resumed than the last one saved), *halts*
(an exception out of the keeper).
"""

import json

from app.keeper import Keeper
from hal import storage
from host.boardfile import read_board
from host.fuzz import games_in_folders
from host.fuzz.powercuts import play, replayed
from host.rig import Full, powered
from rules.games import find_game

NAME = "enospc"
CASES = 2000
FIGURES = ("records off", "silent", "lost", "halts")


def _saved(keeper):
    """(steps, state) the save on the flash holds."""
    saved = json.loads(storage.load(keeper.save_path)[0])
    return saved["steps"], saved["state"]


def _torn(path):
    """Whether the record at ``path`` ends part way through a line or holds a line that is not JSON."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n"):
        return True
    try:
        [json.loads(text) for text in data.splitlines()]
    except ValueError:
        return True
    return False


def one(folder, setup, case, rng, steps):
    """One run: the failure's figure and what happened, or None."""
    name, players, options = setup
    game = find_game(name)(read_board(name), players, options)
    logged = []
    keeper = Keeper(folder, name, log=logged.append)
    keeper.begin(game)
    play(keeper, game, rng.randrange(30), steps)
    before = _saved(keeper)
    flash = Full(rng.randrange(200))
    powered(lambda: play(keeper, game, 1 + rng.randrange(8), steps), flash)
    failed = flash.taken == flash.steps  # the flash filled up: some write failed
    if failed and (not keeper.failing or len(logged) != 1):
        return "silent", "a write failed; the keeper said %r" % logged
    if rng.random() < 0.5:
        flash.steps = -1  # room made: one step more brings the flash in step
        powered(lambda: play(keeper, game, 1, steps), flash)
        if game.over():
            return None
        if keeper.failing or failed and not logged[-1].startswith("the flash took the game again"):
            return "silent", "back in step, the keeper said %r" % logged
        if _saved(keeper) != (keeper.steps, game.save()):
            return "lost", "the save holds step %d, the game is at %d" % (_saved(keeper)[0], keeper.steps)
        if replayed(keeper.record_path) != game.save():
            return "records off", "the record does not replay to the game in RAM"
        return None
    torn = _torn(keeper.record_path)
    resumed = Keeper(folder, name, log=logged.append)
    again, note = resumed.resume(find_game(name)(read_board(name), players, options))
    if again is None or resumed.steps < before[0]:
        return "lost", "resumed %s after %d steps saved (%s)" % (again and resumed.steps, before[0], note)
    if torn and not note:
        return "silent", "a torn record line cut away without a note"
    if replayed(resumed.record_path) != again.save():
        return "records off", "the record does not replay to the game resumed (%s)" % note
    return None


def run(cases=CASES, seed=1):
    return games_in_folders(NAME, "runs", FIGURES, cases, seed, one)
