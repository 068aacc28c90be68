"""Dash, a game kept in files of its own: its rules (``game``), its board
(``dash.json``) and its view in the simulators (``view``). ``register()``
makes it known to the registry, the board files and the views, as a game
of the firmware's is; ``register(False)`` forgets it again."""

import os

from host import boardfile
from host.sim import views
from rules import games

NAME = "dash"
BOARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dash.json")


def register(known=True):
    games.register(NAME, "plugin_dash.game" if known else None, "Dash")
    boardfile.register(NAME, BOARD if known else None)
    views.register(NAME, "plugin_dash.view" if known else None)
