"""A power cut at any flash write of a save leaves the Pico's code in sight.

The firmware's own saving (``app.keeper`` on ``hal.storage``) runs on the
Pico's filesystem as the PC models it (``host.pico.vpico.flash.PicoFiles``: the
littlefs the Pico's MicroPython builds in, with its geometry), on an image
holding the build as ``make flash`` leaves it. Each step of a seeded game
is cut just before each of its flash writes in turn, and again inside it
(the write torn, a seeded fraction of its bytes done); the next start must
find every file of the build (MicroPython imports main.py and the modules
before the game is resumed) and resume the game before or after the step.
"""

import os
import random
from contextlib import contextmanager

import pytest

from app import keeper as keeper_module
from app.keeper import Keeper
from hal import storage
from host.pico.vpico.flash import PicoFiles, image, read
from host.rig import Cut
from rules.playout import Rng, random_step
from rules.record import line
from test_vpico import build_dir, fresh_game  # noqa: F401  (build_dir is a fixture)

pytestmark = pytest.mark.pico

BOARD = "detour"
STEPS = 30  # steps of the game, each cut at every write
SEED = 1


@contextmanager
def on(files):
    """The firmware's files on ``files`` meanwhile."""
    storage.os = files
    storage.open = keeper_module.open = files.open
    try:
        yield files
    finally:
        storage.os = os
        del storage.open, keeper_module.open


def cut_at(flash, cut, torn, action):
    """(the flash ``action()`` leaves when the power goes just before its
    write number ``cut``, or inside it with ``torn``, whether it finished first)."""
    files = PicoFiles(flash, cut, torn)
    with on(files):
        try:
            action()
        except Cut:
            return files.image(), False
    return files.image(), True


def test_a_cut_at_any_write_of_a_step_leaves_every_file_of_the_build_and_the_game(build_dir):  # noqa: F811
    flash = image(build_dir)
    build = sorted(read(flash))
    game = fresh_game(BOARD)
    files = PicoFiles(flash)
    with on(files):
        Keeper("/", BOARD).begin(game)
    flash, steps, rng, cuts = files.image(), 0, Rng(SEED), 0
    tears = random.Random(SEED)  # the fraction of the cut write done, when torn
    for _ in range(STEPS):
        assert not game.over()
        step = random_step(game, rng)
        text, after = line(game, step), game.copy()
        after.play(step)

        def played(steps=steps, text=text, after=after):
            keeper = Keeper("/", BOARD)
            keeper.steps = steps
            keeper.played(text, after)

        started = []  # (flash, game, steps) after the start that follows each cut, and the step uncut
        finished, cut = False, 0
        while not finished:
            for torn in (None, tears.random()):
                left, finished = cut_at(flash, cut, torn, played)
                where = "cut %s write %d of step %d" % ("before" if torn is None else "inside (%.3f)" % torn,
                                                         cut, steps + 1)
                files = PicoFiles(left)  # mounted, nothing written yet: what MicroPython imports from
                with on(files):
                    unseen = [path for path in build if not storage.exists("/" + path)]
                    assert unseen == [], "%s: %s unseen at the next start" % (where, unseen)
                    keeper = Keeper("/", BOARD)
                    resumed, note = keeper.resume(fresh_game(BOARD))
                assert resumed is not None and resumed.save() in (game.save(), after.save()), (where, note)
                started.append((files.image(), resumed, keeper.steps))
                if finished:
                    break  # no write left to tear
            cut += 1
        cuts += cut - 1
        # the game goes on from one of the starts, what the cut left beside the save and all
        flash, game, steps = rng.choice(started)
    assert cuts > STEPS * 3
