"""Dash in the simulators: the line of spaces as text, each event as a
sentence, and how the page draws it."""

from host.sim import views
from plugin_dash.game import PIECES

TITLE = "Dash"
_WIDTH = 4  # characters per space


def spots(board):
    return [(0, _WIDTH * board.xs[s]) for s in range(len(board.ids))]


def marks(game):
    """Each space's name over the pieces on it, as player number and piece
    letter (1a; 1a+: more than fit)."""
    cells = [""] * len(game.board.ids)
    for p, at in enumerate(game.pos):
        cells[at] += "%d%s" % (p // PIECES + 1, "ab"[p % PIECES])
    out = []
    for s in range(len(cells)):
        text = cells[s] or "."
        if len(text) > _WIDTH:
            text = text[:_WIDTH - 1] + "+"
        out.append((game.board.ids[s].center(_WIDTH), text.center(_WIDTH)))
    return out


def legend(game):
    """Where every piece is."""
    ids = game.board.ids
    return ["player %d: %s" % (n + 1, ", ".join("%s on %s" % ("ab"[i], ids[game.pos[n * PIECES + i]])
                                                for i in range(PIECES))) for n in range(game.players)]


def rulers(board):
    return None


def say(game, event):
    """One event as a sentence."""
    ids, kind = game.board.ids, event[0]
    if kind == "rolled":
        return "player %d rolls %d" % (event[1] + 1, event[2][0])
    if kind == "moved":
        return "piece %d%s dashes %s -> %s" % (event[1] + 1, "ab"[event[2]], ids[event[3]], ids[event[4]])
    if kind == "sent_back":
        return "piece %d%s is sent back from %s to START" % (event[1] + 1, "ab"[event[2]], ids[event[3]])
    if kind == "no_move":
        return "player %d cannot use the roll" % (event[1] + 1)
    if kind == "turn":
        return "player %d's turn" % (event[1] + 1)
    if kind == "won":
        return "player %d has both pieces on FINISH and wins!" % (event[1] + 1)
    return repr(event)


# -- in the browser ------------------------------------------------------------

BLURB = "Two pieces each dash along a line; landing on another sends it back."
LOOK = {"surface": "#202a33", "frame": None, "tiles": "square", "room": 0, "pieces": True, "lions": False,
        "help": None}
MARKS = {"start": "S", "finish": "F"}


def links(board, data):
    """A line from START to FINISH."""
    return views.track_links(board, [list(board.ids)]), []


def standings(game):
    return ["%d of %d on FINISH" % (game.home(n), PIECES) for n in range(game.players)]


def pieces(game):
    """Each piece as [owner, its letter, no heading]."""
    where = [[] for _ in game.board.ids]
    for p, at in enumerate(game.pos):
        where[at].append([p // PIECES, "ab"[p % PIECES], -1])
    return where
