"""Fuzz campaigns: hostile files and requests thrown at the project's own code.

Each module of this package is one campaign with a ``NAME``, a default
count ``CASES`` and ``run(cases, seed)``, which returns its figure line,
e.g. ``boards: 10,000 mutated, 0 tracebacks, 0 accepted wrongly``. After
the count, every part that starts with a number counts failures and must
be 0. Cases are drawn
from ``random.Random(seed)``, so a failing case printed (shortened) can be
reproduced from the seed. ``python -m host.fuzz`` runs them all.
"""

import json
import os
import random
import re
import tempfile

SHOWN = 200  # how much of a failing case is printed


def quiet(text):
    """A Rig's log that drops every line: a campaign counts the controller's faults itself."""


def shorten(value):
    """``value``'s repr, cut to SHOWN characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "... (%d characters)" % len(text)


def report(name, failures):
    """Print one failing case, shortened."""
    print("%s: FAILED %s" % (name, shorten(failures)), flush=True)


def failures(line):
    """The parts of a figure line that must be 0 and are not: after the
    first part (the count of cases), every part that starts with a number
    counts failures. (Measures such as a time are written to start with a
    word: "p99 of /api/games 85 ms".)"""
    parts = re.split(r"[,;] ", line.split(": ", 1)[-1])
    return [part for part in parts[1:] if re.match(r"\d", part) and not re.match(r"0\b", part)]


# values a hostile or broken file puts where a field should be
HOSTILE = (0, 1, -1, 7, 255, 256, 65535, 1 << 40, -(1 << 40), 1.5, float("inf"), True, False, None,
           "", "x", "detour", "../../etc/passwd", "/etc/passwd.json", "\u00e9\u0000", "a" * 5000,
           [], [0], [1, 2], [[[[[[[[[[]]]]]]]]]], {}, {"x": 1}, list(range(300)))


def _copy(tree):
    return json.loads(json.dumps(tree))


def _places(tree, path=()):
    """Every (path, value) in a parsed JSON tree, the root first, down to 8 levels."""
    yield path, tree
    if len(path) >= 8:
        return
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _places(value, path + (key,))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from _places(value, path + (i,))


def mutate(tree, rng, times=1):
    """A copy of the parsed JSON ``tree`` with ``times`` random changes: a
    value replaced (by a hostile one or another part of the tree), a key or
    an entry removed, an entry doubled, a key added. Returns (copy, what changed)."""
    tree = _copy(tree)
    done = []
    for _ in range(times):
        places = list(_places(tree))
        named = [place for place in places if all(isinstance(k, str) for k in place[0])]  # fields, half the time
        path, value = rng.choice(named if rng.random() < 0.5 else places)
        if not path:
            continue
        parent = tree
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = rng.randrange(5)
        if how == 0:
            parent[key] = _copy(rng.choice(HOSTILE))
        elif how == 1:
            parent[key] = _copy(rng.choice(places)[1])
        elif how == 2:
            del parent[key]
        elif how == 3 and isinstance(parent, list):
            parent.insert(key, _copy(value))
        elif isinstance(parent, dict):
            parent[rng.choice(("x", "extra", key + "_"))] = _copy(rng.choice(HOSTILE))
        else:
            parent[key] = _copy(rng.choice(HOSTILE))
        done.append((how, path))
    return tree, done


MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") else None  # a campaign writes many files: in memory if it can


def games_in_folders(name, noun, figures, cases, seed, one):
    """A campaign of ``cases`` games, each in a fresh folder (in memory where
    there is such a filesystem) with a setup of ``host.fuzz.saves.SETUPS`` in
    turn: ``one(folder, setup, case, rng, steps)`` gives None or (figure,
    what). An exception is a case of the figure "halts". Returns the figure line."""
    from host.fuzz.saves import SETUPS
    from rules.playout import Rng

    rng = random.Random(seed)  # the campaign's choices
    steps = Rng(seed)  # the games' dice and decisions
    counts = dict.fromkeys(figures, 0)
    shown = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-%s-" % name, dir=MEMORY) as root:
        for case in range(cases):
            folder = "%s/%d/" % (root, case)
            os.mkdir(folder)
            setup = SETUPS[case % len(SETUPS)]
            try:
                failure = one(folder, setup, case, rng, steps)
            except Exception as err:
                failure = "halts", repr(err)
            if failure:
                counts[failure[0]] += 1
                shown += 1
                if shown <= 5:
                    report(name, (seed, case, setup[0]) + tuple(failure))
    return "%s: %s %s, %s" % (name, format(cases, ","), noun, ", ".join("%d %s" % (counts[k], k) for k in figures))
