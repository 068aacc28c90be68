"""A game is a plug-in: what one game knows lives in its own files.

``rules.games`` finds a game's rules module by its name, and the game names
the rest: the tactics module that teaches the computer players
(``Game.tactics``) and, for a board that shows more than pieces, the look
that paints it (``Game.look``). The generic firmware (the controller, its
lights, the computer players, the USB link, the start-up) asks the game
through hooks whose defaults are in ``rules.core``: it names no game and
tests no decision's tag, so a new game is its own files and a line in
``rules.games`` (or, kept elsewhere, a call of ``rules.games.register``).
The simulators likewise name no game: the simulated board, the table and
the hands around it, the terminal and the browser ask the game's view
(``host.sim.views``) what they show of it. ``test_a_game_of_its_own.py``
plays such a game, kept under tests/, on all of them.
"""

import ast
import os

import pytest
from rules.games import GAMES, find_game, new_game
from rules.players import SearchPlayer, evaluate, plans
from rules.playout import Rng, random_step
from support import board_data
from test_imports import import_graph

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERIC = ("firmware/app/controller.py", "firmware/app/paint.py", "firmware/rules/players.py",
           "firmware/app/link.py", "firmware/app/startup.py", "firmware/app/device.py")
# the simulators' own files and the board they play on: what they show of a game, its view (host.sim.views) says
SIMULATORS = ("host/rig.py", "host/sim/hands.py", "host/sim/screen.py", "host/sim/table.py", "host/sim/waits.py",
              "host/sim/terminal.py", "host/sim/views/__init__.py", "host/sim/web/layout.py",
              "host/sim/web/server.py", "host/sim/web/session.py", "host/replay.py", "host/pico/live.py")
PAGE = "host/sim/web/static/app.js"
# the names the generic firmware gives a decision: it asks the game what one is, never reads one by index
DECISION_NAMES = ("d", "decision", "step", "candidate")
# options that let the random games below reach every kind of decision a game has
OPTIONS = {"detour": ({}, {"half_turns": True, "wheel_turn_optional": True}),
           "mehen": ({}, {"hunt": True}), "snuka": ({}, {"nominate": True})}


def code(path):
    """The syntax tree of ``path`` and the ids of its docstrings, which may
    name a game to explain a rule of thumb: only the code counts."""
    with open(os.path.join(ROOT, path)) as f:
        tree = ast.parse(f.read(), path)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return tree, docs


def names(node):
    """The identifiers ``node`` introduces or uses."""
    if isinstance(node, ast.Name):
        return (node.id,)
    if isinstance(node, ast.Attribute):
        return (node.attr,)
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, ast.arg):
        return (node.arg,)
    if isinstance(node, ast.alias):
        return (node.name, node.asname or "")
    if isinstance(node, ast.keyword):
        return (node.arg or "",)
    return ()


def step_tags():
    """The tags (a decision's first item) of every game's decisions and plans,
    from random games of each."""
    tags = set()
    for name in GAMES:
        board = find_game(name)(board_data(name), 2).board
        for options in OPTIONS.get(name, ({},)):
            for seed in range(3):
                game, rng = new_game(name, board, 2, options), Rng(seed)
                while not game.over():
                    if not game.is_chance():
                        choices = [d for d in game.legal()] + [choice for choice, _ in plans(game)]
                        tags.update(d[0] for d in choices if type(d) is tuple and type(d[0]) is str)
                    game.play(random_step(game, rng))
    return tags


def test_the_generic_firmware_names_no_game():
    found = []
    for path in GENERIC:
        tree, docs = code(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if node.value.lower() in GAMES:
                    found.append("%s:%d: %r" % (path, node.lineno, node.value))
            for word in names(node):
                if any(name in word.lower() for name in GAMES):
                    found.append("%s:%d: %s" % (path, getattr(node, "lineno", 0), word))
    assert not found, "the generic firmware names a game: " + "; ".join(found)


def test_the_simulators_name_no_game():
    found = []
    for path in SIMULATORS:
        tree, docs = code(path)
        for node in ast.walk(tree):
            words = names(node)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                words += (node.value,)
            if isinstance(node, ast.ImportFrom):
                words += (node.module or "",)
            for word in words:
                if any(name in word.lower() for name in GAMES):
                    found.append("%s:%d: %r" % (path, getattr(node, "lineno", 0), word))
    with open(os.path.join(ROOT, PAGE)) as f:
        for n, line in enumerate(f, 1):
            found += ["%s:%d: %s" % (PAGE, n, name) for name in GAMES if name in line.lower()]
    assert not found, "a simulator names a game: " + "; ".join(found)


def test_the_generic_firmware_reads_no_decision_and_tests_no_tag():
    tags = step_tags()
    assert {"m", "w", "pot", "also", "aim"} <= tags  # what the games' decisions and plans are tagged with
    found = []
    for path in GENERIC:
        tree, _ = code(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in DECISION_NAMES:
                found.append("%s:%d: %s" % (path, node.lineno, ast.unparse(node)))
            # a comparison with a tag, or a table keyed by tags
            inside = [node] if isinstance(node, ast.Compare) else node.keys if isinstance(node, ast.Dict) else []
            for part in inside:
                for leaf in ast.walk(part) if part is not None else ():
                    if isinstance(leaf, ast.Constant) and leaf.value in tags:
                        found.append("%s:%d: %r" % (path, leaf.lineno, leaf.value))
    assert not found, "the generic firmware reads a game's decisions: " + "; ".join(found)


@pytest.mark.parametrize("name", GAMES)
def test_the_modules_a_game_names_have_its_hooks(name):
    cls = find_game(name)
    assert cls.name == name
    if cls.tactics:
        tactics = __import__(cls.tactics, None, None, ("rate",))
        assert callable(tactics.rate)
        assert all(callable(getattr(tactics, hook, len)) for hook in ("plans", "fold"))
    if cls.look:
        look = __import__(cls.look, None, None, ("Look",)).Look()
        assert callable(look.update) and callable(look.paint)


def test_the_rules_import_nothing_of_the_app_or_the_hardware():
    graph = import_graph()
    found = ["%s imports %s" % (m, i) for m in sorted(graph) if m.startswith("rules.")
             for i in sorted(graph[m]) if i.split(".")[0] in ("app", "hal")]
    assert not found, "; ".join(found)  # a game names its look by a string, imported by app.paint


def test_a_game_that_names_no_tactics_is_judged_by_its_end_alone():
    class Plain(find_game("mehen")):
        tactics = ""

    game, rng = Plain(board_data("mehen"), 2), Rng(3)
    while game.is_chance() or len(game.legal()) < 2:
        game.play(random_step(game, rng))
    assert evaluate(game, 0) == evaluate(game, 1) == 0
    assert plans(game) == tuple((d, ((d, 1, 1),)) for d in game.legal())
    assert SearchPlayer(Rng(1), nodes=50).choose(game) in game.legal()
