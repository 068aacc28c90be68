"""The registry: every game by name. A game's module is imported only when
asked for, so the Pico keeps just the game being played in RAM."""

from rules.core import RulesError

# name -> (module, state class); one line per game
_GAMES = {
    "detour": ("rules.detour", "Detour"),
    "sniggle": ("rules.sniggle", "Sniggle"),
    "snuka": ("rules.snuka", "Snuka"),
    "mehen": ("rules.mehen", "Mehen"),
}
GAMES = tuple(sorted(_GAMES))


def find_game(name):
    """The state class of the game called ``name``."""
    if name not in _GAMES:
        raise RulesError("unknown game %r (known: %s)" % (name, ", ".join(GAMES)))
    module, cls = _GAMES[name]
    return getattr(__import__(module, None, None, (cls,)), cls)


def new_game(name, board, players, options=None):
    """A fresh game on ``board`` (a board dict or an already loaded board)."""
    return find_game(name)(board, players, options)
