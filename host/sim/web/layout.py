"""What the page needs to draw a board and to set up a game: read from the
board files, the rules modules and each game's view (``host.sim.views``),
never worked out again in the browser."""

import inspect
import math
import re
import sys

from app import colours as C
from host.boardfile import read_board
from host.sim import views
from rules import games as registry
from rules.games import find_game
from rules.players import PLAYERS

SEATS = ("human",) + tuple(sorted(PLAYERS))


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _option_notes(module):
    """The comment beside each option in the module's DEFAULTS table: what it means."""
    source = inspect.getsource(module)
    block = source[source.index("DEFAULTS = {"):]
    block = block[:block.index("\n}")]
    return dict(re.findall(r'"(\w+)":[^#\n]*#\s*(.*)', block))


def catalogue():
    """Every game, for the set-up form: its name as the page writes it, a
    line about it, the board's title, player counts, rule options."""
    games = []
    for name in registry.GAMES:
        cls = find_game(name)
        module = sys.modules[cls.__module__]
        data = read_board(name)
        notes = _option_notes(module)
        options = [{"name": key, "default": value, "note": notes.get(key, "")}
                   for key, value in module.DEFAULTS.items()]
        games.append({"name": name, "display": views.title(name), "blurb": views.find(name).BLURB,
                      "title": data.get("title", name),
                      "min_players": cls.min_players, "max_players": data.get("max_players", cls.max_players),
                      "options": options})
    return {"games": games, "seats": SEATS, "palette": [hex_colour(c) for c in C.PLAYERS]}


def _unit(board):
    """The distance between the two nearest spaces: the size of one space."""
    n = len(board.ids)
    best = None
    for a in range(n):
        for b in range(a + 1, n):
            d = math.hypot(board.xs[a] - board.xs[b], board.ys[a] - board.ys[b])
            if best is None or d < best:
                best = d
    return best or 1


def board_layout(game):
    """The board as the page draws it: spaces with their pixel and mark, the
    lines of the path, the wheels, the extra pixels, the board's own buttons
    (in the order the page sends them back), the players' colours, and how
    the game's view draws it all (``look``)."""
    board = game.board
    view = views.find(game.name)
    data = read_board(board.name)
    spaces = []
    for s, raw in enumerate(data["spaces"]):
        spaces.append({"id": board.ids[s], "kind": board.kinds[s], "x": board.xs[s], "y": board.ys[s],
                       "led": board.leds[s], "colour": raw.get("colour", ""), "mark": view.MARKS.get(board.kinds[s], "")})
    links, wheels = view.links(board, data)
    return {"game": game.name, "title": data.get("title", board.name), "look": view.LOOK, "width": board.width,
            "height": board.height, "unit": _unit(board), "spaces": spaces, "links": links, "wheels": wheels,
            "extras": board.extras, "buttons": [name for name, _ in board.buttons], "pixels": board.pixels,
            "players": game.players,
            "palette": [hex_colour(c) for c in C.PLAYERS], "lion": hex_colour(C.LION),
            "signals": {"white": hex_colour(C.WHITE), "amber": hex_colour(C.AMBER), "red": hex_colour(C.RED)}}


# -- the state of play, as the panel shows it ---------------------------------

def standings(game):
    """One line per player: how far they are."""
    return views.find(game.name).standings(game)


def pieces(game):
    """The pieces standing on each space as the game has them, each as
    [owner, what is written on it, heading 0..3 (N E S W) or -1]; None for a
    game whose board does not track pieces."""
    return views.find(game.name).pieces(game)


def roll_text(game, roll):
    """A throw of ``game`` in words, as its view gives it."""
    return views.roll_text(game.name, roll)
