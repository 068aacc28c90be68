"""The registry: every game by name. A game's module is imported only when
asked for, so the Pico keeps just the game being played in RAM."""

from rules.core import RulesError

# name, module, state class: one line per game, in the order a chooser offers them
_GAMES = [
    ("detour", "rules.detour", "Detour"),
    ("sniggle", "rules.sniggle", "Sniggle"),
    ("mehen", "rules.mehen", "Mehen"),
    ("snuka", "rules.snuka", "Snuka"),
]
GAMES = tuple(sorted(line[0] for line in _GAMES))
OFFERED = tuple(line[0] for line in _GAMES)


def find_game(name):
    """The state class of the game called ``name``."""
    for line in _GAMES:
        if line[0] == name:
            return getattr(__import__(line[1], None, None, (line[2],)), line[2])
    raise RulesError("unknown game %r (known: %s)" % (name, ", ".join(GAMES)))


def new_game(name, board, players, options=None):
    """A fresh game on ``board`` (a board dict or an already loaded board)."""
    return find_game(name)(board, players, options)


def register(name, module=None, cls=None):
    """Add the game ``name``, whose state class ``cls`` lives in ``module``
    outside this table (a game kept in files of its own); without a module,
    take it out again. ``GAMES`` and ``OFFERED`` are made anew: read them
    from this module to see it."""
    global _GAMES, GAMES, OFFERED
    _GAMES = [line for line in _GAMES if line[0] != name] + ([(name, module, cls)] if module else [])
    GAMES = tuple(sorted(line[0] for line in _GAMES))
    OFFERED = tuple(line[0] for line in _GAMES)
