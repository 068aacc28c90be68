"""Helpers for the tests that run on both CPython and MicroPython.

No pytest here: these files are also run by ``tests/shared/runner.py`` under
the MicroPython WebAssembly port, which has only the Python MicroPython has.
"""

import json
import os

from rules.core import IllegalMove
from rules.detour import DIRS, Detour, DetourBoard
from rules.playout import Rng, random_step

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_cache = {}
# what a test reports beyond pass/fail, compared between the two interpreters
REPORTS = {}


def data_file(folder, name):
    """The parsed JSON of ``<folder>/<name>.json`` in the repository (a fresh copy
    each time); under MicroPython the runner mounts the folder at ``/<folder>``."""
    for base in (_HERE + "/../..", ""):
        try:
            with open("%s/%s/%s.json" % (base, folder, name)) as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("%s/%s.json not found" % (folder, name))


def board_data(name):
    return data_file("boards", name)


def detour_board():
    if "detour" not in _cache:
        _cache["detour"] = DetourBoard(board_data("detour"))
    return _cache["detour"]


def detour(players=2, **options):
    return Detour(detour_board(), players, options)


def put(game, player, piece, space, heading):
    """Stand a piece on a space (by id) with a heading (a letter of NESW)."""
    p = player * game.per + piece
    game.pos[p] = game.board.space(space)
    game.head[p] = DIRS.find(heading)


def where(game, player, piece):
    """(space id, heading letter) of a piece, or the marker for off-board."""
    p = player * game.per + piece
    s = game.pos[p]
    return (game.board.ids[s], DIRS[game.head[p]]) if s >= 0 else s


def raises(kind, fn, *args, **kwargs):
    """Call ``fn``; return the exception of type ``kind`` it must raise."""
    try:
        fn(*args, **kwargs)
    except kind as err:
        return err
    raise AssertionError("%s was not raised" % kind.__name__)


def names(events):
    return [e[0] for e in events]


def texts(game, steps):
    return sorted(game.notation(s) for s in steps)


def check_decisions(game, candidates):
    """Every candidate that ``legal()`` lists is accepted (tried on a copy);
    every other one is refused and changes nothing."""
    legal = game.legal()
    before = game.save()
    for step in candidates:
        if step in legal:
            game.copy().play(step)
            continue
        try:
            game.play(step)
        except IllegalMove:
            continue
        raise AssertionError("illegal %r accepted" % (step,))
    assert game.save() == before


def play_to_the_end(game, seed, check, illegal, every):
    """Play ``game`` to its end with random steps, calling ``check(game)``
    before every step and after the last; at every ``every``-th step that is a
    decision, ``illegal`` must be refused with the state unchanged. Returns the
    number of steps."""
    rng = Rng(seed)
    steps = 0
    while not game.over():
        check(game)
        if not game.is_chance() and steps % every == 0:
            before = game.save()
            raises(IllegalMove, game.play, illegal)
            assert game.save() == before
        game.play(random_step(game, rng))
        steps += 1
        assert steps < 100000
    check(game)
    return steps


def fresh():
    """An empty folder for one test (a temporary one on CPython)."""
    try:
        import tempfile

        return tempfile.mkdtemp()
    except ImportError:
        folder = "/tmp_storage_test"
        try:
            os.mkdir(folder)
        except OSError:
            wipe(folder)
        return folder


def wipe(folder):
    """Empty ``folder``, its folders (a keeper's saves/) and all."""
    for name in os.listdir(folder):
        path = folder + "/" + name
        if os.stat(path)[0] & 0x4000:  # S_IFDIR
            done(path)
        else:
            os.remove(path)


def done(folder):
    wipe(folder)
    os.rmdir(folder)
