"""What the page needs to draw a board and to set up a game: read from the
board files and the rules modules, never worked out again in the browser."""

import inspect
import math
import re
import sys

from app import colours as C
from host.boardfile import read_board
from rules.core import LION
from rules.games import GAMES, find_game
from rules.players import PLAYERS

_DX = (0, 1, 0, -1)
_DY = (-1, 0, 1, 0)
# what is printed on a space of each kind, where the kind has a mark
_MARKS = {"start": "S", "finish": "F", "star": "\u2605", "wheel_star": "\u2605", "centre": "\u2605",
          "head": "\u25c9", "tail": "\u25cb", "trademark": "SNIGGLE"}
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
    """Every game, for the set-up form: title, player counts, rule options."""
    games = []
    for name in GAMES:
        cls = find_game(name)
        module = sys.modules[cls.__module__]
        data = read_board(name)
        notes = _option_notes(module)
        options = [{"name": key, "default": value, "note": notes.get(key, "")}
                   for key, value in module.DEFAULTS.items()]
        games.append({"name": name, "title": data.get("title", name),
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


def _detour_links(board):
    """Half-segments from each space towards each of its exits; the wheels'
    own routes (at position 0, relative to the star) apart, as the wheel
    turns them."""
    links = []
    wheels = [[] for _ in board.wheel_ids]
    for s in range(len(board.ids)):
        w = board.wheel_of[s]
        x, y = board.xs[s], board.ys[s]
        if w != 255:
            star = board.wheel_cells[9 * w + 4]
            x, y = x - board.xs[star], y - board.ys[star]
        for d in range(4):
            if board.fixed[s] & (1 << d):
                segment = [x, y, x + _DX[d] * 0.5, y + _DY[d] * 0.5]
                (wheels[w] if w != 255 else links).append(segment)
    discs = []
    for w in range(len(board.wheel_ids)):
        star = board.wheel_cells[9 * w + 4]
        discs.append({"id": board.wheel_ids[w], "x": board.xs[star], "y": board.ys[star], "route": wheels[w]})
    return links, discs


def _track_links(board, data):
    """Lines along the paths a piece follows: Mehen's spiral, Sniggle's Zone."""
    links = []
    paths = [p["spaces"] for p in data.get("paths", ())]
    if board.game == "mehen":
        paths.append(sorted(board.ids, key=int))
    for path in paths:
        for a, b in zip(path, path[1:]):
            s, t = board.space(a), board.space(b)
            links.append([board.xs[s], board.ys[s], board.xs[t], board.ys[t]])
    return links


def board_layout(game):
    """The board as the page draws it: spaces with their pixel, the lines of
    the path, the Detour wheels, the extra pixels, the board's own buttons
    (Tiddlee Snuka's, in the order the page sends them back), the players'
    colours."""
    board = game.board
    data = read_board(board.name)
    spaces = []
    for s, raw in enumerate(data["spaces"]):
        spaces.append({"id": board.ids[s], "kind": board.kinds[s], "x": board.xs[s], "y": board.ys[s],
                       "led": board.leds[s], "colour": raw.get("colour", ""), "mark": _MARKS.get(board.kinds[s], "")})
    wheels = []
    if game.name == "detour":
        links, wheels = _detour_links(board)
    else:
        links = _track_links(board, data)
    return {"game": game.name, "title": data.get("title", board.name), "width": board.width,
            "height": board.height, "unit": _unit(board), "spaces": spaces, "links": links, "wheels": wheels,
            "extras": board.extras, "buttons": [name for name, _ in board.buttons], "pixels": board.pixels,
            "players": game.players,
            "palette": [hex_colour(c) for c in C.PLAYERS], "lion": hex_colour(C.LION),
            "signals": {"white": hex_colour(C.WHITE), "amber": hex_colour(C.AMBER), "red": hex_colour(C.RED)}}


# -- the state of play, as the panel shows it ---------------------------------

def standings(game):
    """One line per player: how far they are."""
    if game.name == "detour":
        from rules.detour import FINISHED
        return ["%d of %d finished" % (sum(1 for p in game.pieces_of(n) if game.pos[p] == FINISHED), game.per)
                for n in range(game.players)]
    if game.name == "sniggle":
        return ["%d of 4 home" % (4 - len(game.in_play(n))) for n in range(game.players)]
    if game.name == "mehen":
        from rules.mehen import MARBLES
        return ["%d of %d home" % (game.home(n), MARBLES) for n in range(game.players)]
    return ["%d point%s" % (game.scores[n], "" if abs(game.scores[n]) == 1 else "s") for n in range(game.players)]


def pieces(game):
    """The pieces standing on each space as the game has them, each as
    [owner, what is written on it, heading 0..3 (N E S W) or -1]; None for a
    game whose board does not track pieces."""
    board = game.board
    where = [[] for _ in board.ids]
    if game.name == "detour":
        for p, s in enumerate(game.pos):
            if s >= 0:
                where[s].append([p // game.per, "abcd"[p % game.per], game.head[p]])
    elif game.name == "sniggle":
        for p, s in enumerate(game.pos):
            where[s].append([p // 4, str(p % 4 + 1), -1])
    elif game.name == "mehen":
        from rules.mehen import MARBLES
        for m, progress in enumerate(game.marbles):
            if progress < board.length:
                where[board.route[progress]].append([m // MARBLES, "", -1])
        for progress in game.lions:
            if progress < board.length:
                where[board.route[progress]].append([LION, "", -1])
    else:
        return None
    return where


def roll_text(roll):
    """The dice (a tuple) or Mehen's throw sticks (a mask) in words."""
    if isinstance(roll, tuple):
        return " and ".join(str(v) for v in roll)
    from rules.mehen import VALUE, sticks_text
    return "%s: %d" % (sticks_text(roll), VALUE[roll])
