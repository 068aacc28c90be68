"""The registry: every game by name. Modules load only when asked for, so the
Pico keeps just the game being played in RAM."""

from rules.core import RulesError

GAMES = ("detour",)


def find_game(name):
    """The state class of the game called ``name``."""
    if name == "detour":
        from rules.detour import Detour
        return Detour
    raise RulesError("unknown game %r (known: %s)" % (name, ", ".join(GAMES)))


def new_game(name, board, players, options=None):
    """A fresh game on ``board`` (a board dict or an already loaded board)."""
    return find_game(name)(board, players, options)
