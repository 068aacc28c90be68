"""Detour in the terminal: the board as text and each event as a sentence."""

from host.sim import views
from rules.detour import FINISHED, KINDS

TITLE = "Detour"

_ARROWS = "^>v<"
_CELL = {"path": " . ", "start": " S ", "finish": " F ", "star": " * ",
         "wheel": " . ", "wheel_star": " @ ", "centre": " C "}


def spots(board):
    return [(board.ys[s], 3 * board.xs[s]) for s in range(len(board.ids))]


def marks(game):
    """Each space's kind (a wheel cell off the wheel's route is blank), or the
    piece on it as player number + arrow; a START holding several shows a +."""
    board = game.board
    cells = []
    for s in range(len(board.ids)):
        on_route = board.mask(s, game.wheels) or board.kinds[s] != "wheel"
        cells.append(_CELL[board.kinds[s]] if on_route else "   ")
    for p, s in enumerate(game.pos):
        if s >= 0:
            cell = cells[s]
            mark = "%d%s" % (p // game.per + 1, _ARROWS[game.head[p]])
            cells[s] = mark + " " if cell[0] == " " else cell[:2] + "+"
    return [(cell,) for cell in cells]


def legend(game):
    """What a stack's mark means, when one shows: the drawing has room for one piece a space."""
    if any(cell.endswith("+") for (cell,) in marks(game)):
        return ["1^+: more than one piece stands there (the mark is the first one's)"]
    return []


def rulers(board):
    return views.grid_rulers(board, KINDS)


def draw(game):
    """The board as text: spaces, wheel routes, pieces as player number + arrow."""
    return views.draw(game)


def say(game, event):
    """One event as a sentence."""
    board, kind = game.board, event[0]
    name = board.ids
    if kind == "placed":
        return "player %d puts piece %s on START %s" % (event[1] + 1, "abcd"[event[2]], name[event[3]])
    if kind == "rolled":
        return "player %d rolls %s" % (event[1] + 1, ",".join(str(v) for v in event[2]))
    if kind == "moved":
        path = event[3]
        return "piece %d%s moves %d: %s -> %s" % (event[1] + 1, "abcd"[event[2]], len(path) - 1, name[path[0]], name[path[-1]])
    if kind == "finished":
        return "piece %d%s reaches FINISH %s" % (event[1] + 1, "abcd"[event[2]], name[event[3]])
    if kind == "won":
        return "player %d wins!" % (event[1] + 1)
    if kind == "collided":
        return "piece %d%s lands on its own piece on %s: both go back to START" % (event[1] + 1, "abcd"[event[2]], name[event[3]])
    if kind == "sent_back":
        return "piece %d%s goes back from %s to START %s" % (event[1] + 1, "abcd"[event[2]], name[event[3]], name[event[4]])
    if kind == "star":
        return "a star! player %d turns a wheel" % (event[1] + 1)
    if kind == "popoff":
        return "pop-off on %s: player %d against player %d" % (name[event[3]], event[1] + 1, event[2] + 1)
    if kind == "popoff_won":
        return "player %d pops a 6 first; player %d loses the pop-off" % (event[1] + 1, event[2] + 1)
    if kind == "wheel":
        return "wheel %s turns %s to position %d" % (board.wheel_ids[event[1]], {1: "90 right", -1: "90 left", 2: "180"}[event[2]], event[3])
    if kind == "wheel_passed":
        return "player %d leaves the wheels as they are" % (event[1] + 1)
    if kind == "turned":
        return "piece %d%s turns with the wheel: %s -> %s" % (event[1] + 1, "abcd"[event[2]], name[event[3]], name[event[4]])
    if kind == "turn":
        return "player %d's turn" % (event[1] + 1)
    return repr(event)


# -- in the browser ------------------------------------------------------------

BLURB = "Arrow pieces race to FINISH; stars turn the wheels that reroute the path."
LOOK = {"surface": "#1c2a36", "frame": None, "tiles": "square", "room": 0, "pieces": True, "lions": False,
        "help": None}
MARKS = {"start": "S", "finish": "F", "star": "\u2605", "wheel_star": "\u2605", "centre": "\u2605"}
_DX = (0, 1, 0, -1)
_DY = (-1, 0, 1, 0)


def links(board, data):
    """Half-segments from each space towards each of its exits; the wheels'
    own routes (at position 0, relative to the star) apart, as the wheel
    turns them."""
    fixed = []
    routes = [[] for _ in board.wheel_ids]
    for s in range(len(board.ids)):
        w = board.wheel_of[s]
        x, y = board.xs[s], board.ys[s]
        if w != 255:
            star = board.wheel_cells[9 * w + 4]
            x, y = x - board.xs[star], y - board.ys[star]
        for d in range(4):
            if board.fixed[s] & (1 << d):
                segment = [x, y, x + _DX[d] * 0.5, y + _DY[d] * 0.5]
                (routes[w] if w != 255 else fixed).append(segment)
    wheels = []
    for w in range(len(board.wheel_ids)):
        star = board.wheel_cells[9 * w + 4]
        wheels.append({"id": board.wheel_ids[w], "x": board.xs[star], "y": board.ys[star], "route": routes[w]})
    return fixed, wheels


def standings(game):
    return ["%d of %d finished" % (sum(1 for p in game.pieces_of(n) if game.pos[p] == FINISHED), game.per)
            for n in range(game.players)]


def pieces(game):
    """Each piece as [owner, letter, heading]."""
    where = [[] for _ in game.board.ids]
    for p, s in enumerate(game.pos):
        if s >= 0:
            where[s].append([p // game.per, "abcd"[p % game.per], game.head[p]])
    return where
