"""Mehen in the terminal: the spiral as text, where every piece is, and each
event as a sentence."""

from host.sim import views
from rules.core import LION
from rules.mehen import MARBLES, VALUE, sticks_text

TITLE = "Mehen"

_WIDTH = 3  # characters per square


def where(game, progress):
    """A piece's place in words: tail, head, home, or a square and its way."""
    board = game.board
    if progress == 0:
        return "tail"
    if progress == board.head:
        return "head"
    if progress == board.length:
        return "home"
    return "%s %s" % (board.ids[board.route[progress]], "in" if progress < board.head else "out")


def square(game, s):
    board = game.board
    return "tail" if s == 0 else "head" if s == board.head else board.ids[s]


def _cells(game):
    """What stands on each square: player numbers, then an L per lion."""
    board = game.board
    cells = [""] * len(board)
    for m, p in enumerate(game.marbles):
        mark = str(m // MARBLES + 1)
        if p < board.length and mark not in cells[board.route[p]]:
            cells[board.route[p]] += mark
    for p in game.lions:
        if p < board.length:
            cells[board.route[p]] += "L"
    return cells


def spots(board):
    """The spiral scaled so that neighbouring squares never overlap (a terminal
    cell is about twice as tall as wide); each square takes two lines, and
    lines no square uses are left out."""
    n = len(board)
    step = min(abs(board.xs[s + 1] - board.xs[s]) + abs(board.ys[s + 1] - board.ys[s]) for s in range(n - 1))
    sx, sy = step / 6.0, step / 3.0
    at = [(int(board.ys[s] / sy), int(board.xs[s] / sx)) for s in range(n)]
    used = sorted({row + k for row, _ in at for k in (0, 1)})
    return [(used.index(row), col) for row, col in at]


def marks(game):
    """Each square's number (T the tail, H the head) over what stands on it."""
    board = game.board
    cells = _cells(game)
    out = []
    for s in range(len(board)):
        label = "T" if s == 0 else "H" if s == board.head else board.ids[s]
        text = cells[s] or "."
        if len(text) > _WIDTH:
            text = text[:_WIDTH - 1] + "+"
        out.append((label.center(_WIDTH), text.center(_WIDTH)))
    return out


def legend(game):
    """Where every piece is, in words."""
    lines = []
    for player in range(game.players):
        places = ("%s %s" % ("abc"[i], where(game, game.marbles[player * MARBLES + i])) for i in range(MARBLES))
        lines.append("player %d: %s" % (player + 1, ", ".join(places)))
    if game.lions:
        lines.append("lions: " + ", ".join("L%d %s" % (k + 1, where(game, p)) for k, p in enumerate(game.lions)))
    return lines


def rulers(board):
    return None


def draw(game):
    """The spiral, each square as its number over what stands on it, and a key."""
    return views.draw(game)


def say(game, event):
    """One event as a sentence."""
    kind = event[0]
    if kind == "threw":
        value = event[3]
        return "player %d throws %s: %d square%s" % (event[1] + 1, sticks_text(event[2]), value, "" if value == 1 else "s")
    if kind in ("moved", "lion"):
        path = event[3]
        piece = "marble %d%s" % (event[1] + 1, "abc"[event[2]]) if kind == "moved" else \
            "lion L%d (player %d)" % (event[2] + 1, event[1] + 1)
        return "%s moves %d: %s -> %s" % (piece, len(path) - 1, square(game, path[0]), square(game, path[-1]))
    if kind == "head":
        return "marble %d%s turns round at the head" % (event[1] + 1, "abc"[event[2]])
    if kind == "home":
        return "marble %d%s is home and leaves the board" % (event[1] + 1, "abc"[event[2]])
    if kind == "lion_head":
        return "lion L%d turns round at the head" % (event[1] + 1)
    if kind == "lion_home":
        then = "sets out again" if game.options["lions_return"] else "leaves the board"
        return "lion L%d is back at the tail and %s" % (event[1] + 1, then)
    if kind == "eaten":
        return "the lion eats marble %d%s on %s: back to the tail" % (event[1] + 1, "abc"[event[2]], square(game, event[3]))
    if kind == "no_move":
        return "player %d cannot use the throw" % (event[1] + 1)
    if kind == "extra_throw":
        return "player %d throws again" % (event[1] + 1)
    if kind == "turn":
        return "player %d's turn" % (event[1] + 1)
    if kind == "won":
        return "player %d has every marble home and wins!" % (event[1] + 1)
    return repr(event)


def roll_line(mask):
    return "sticks " + roll_text(mask)


# -- in the browser ------------------------------------------------------------

BLURB = "The ancient serpent race: out to the head and back, with throw sticks."
LOOK = {"surface": "#33291d", "frame": None, "tiles": "disc", "room": 0, "pieces": True, "lions": True,
        "help": None}
MARKS = {"head": "\u25c9", "tail": "\u25cb"}


def links(board, data):
    """Lines along the spiral, square by square."""
    return views.track_links(board, [sorted(board.ids, key=int)]), []


def standings(game):
    return ["%d of %d home" % (game.home(n), MARBLES) for n in range(game.players)]


def roll_text(mask):
    """The sticks as they lie and what they count: "FRR: 1"."""
    return "%s: %d" % (sticks_text(mask), VALUE[mask])


def pieces(game):
    """The marbles as [owner, no label, no heading], the lions as [LION, ...]."""
    board = game.board
    where = [[] for _ in board.ids]
    for m, progress in enumerate(game.marbles):
        if progress < board.length:
            where[board.route[progress]].append([m // MARBLES, "", -1])
    for progress in game.lions:
        if progress < board.length:
            where[board.route[progress]].append([LION, "", -1])
    return where
