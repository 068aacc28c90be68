"""Sniggle in the terminal: the board as text and each event as a sentence."""

from host.sim import views

TITLE = "Sniggle"

_COLOUR = ".rbgy"  # a white space, then the safe spaces of each colour
_NAMES = ("red", "blue", "green", "yellow")


def spots(board):
    return [(board.ys[s], 3 * board.xs[s]) for s in range(len(board.ids))]


def marks(game):
    """Pieces as colour letter + number (R2), safe spaces as a small colour
    letter, empty squares by their small name (r1), the Zone as :, its two
    entries as < and >, the trademark as SNIGGLE ([R1] with a piece on it)."""
    board = game.board
    cells = []
    for s in range(len(board.ids)):
        kind = board.kinds[s]
        if kind == "start" or kind == "home":  # an empty square: its name, small (r1)
            cells.append(board.ids[s][1:].lower() + " ")
        else:
            cells.append(" : " if kind == "zone" else " %s " % _COLOUR[board.colour[s]])
    for path, arrow in ((0, "<"), (1, ">")):
        cells[board.path[path][0]] = " %s " % arrow
    cells[board.trademark] = "SNIGGLE"  # drawn over the two cells it covers
    for p, s in enumerate(game.pos):
        name = game.piece_name(p)
        cells[s] = " [%s] " % name if s == board.trademark else name + " "
    return [(cell,) for cell in cells]


def legend(game):
    return []


def rulers(board):
    return views.grid_rulers(board, ("main",))


def draw(game):
    """The board as text (see ``marks``), the main area's columns and rows named."""
    return views.draw(game)


def _piece(game, player, i):
    return game.piece_name(4 * player + i)


def say(game, event):
    """One event as a sentence."""
    name, kind = game.board.ids, event[0]
    if kind == "threw":
        dice = event[2]
        return "player %d (%s) throws %d,%d = %d for the first turn" % (
            event[1] + 1, _NAMES[game.colour[event[1]]], dice[0], dice[1], dice[0] + dice[1])
    if kind == "tie":
        return "players %s tie and throw again" % ", ".join(str(p + 1) for p in event[1])
    if kind == "first":
        return "player %d goes first" % (event[1] + 1)
    if kind == "rolled":
        return "player %d rolls %d,%d" % (event[1] + 1, event[2][0], event[2][1])
    if kind == "moved":
        return "%s moves %d: %s -> %s" % (_piece(game, event[1], event[2]), event[5], name[event[3]], name[event[4]])
    if kind == "sent_back":
        return "%s is sent back from %s to %s" % (_piece(game, event[1], event[2]), name[event[3]], name[event[4]])
    if kind == "home":
        return "%s reaches its matching square %s" % (_piece(game, event[1], event[2]), name[event[3]])
    if kind == "lost_turn":
        return "player %d cannot move: the turn is lost" % (event[1] + 1)
    if kind == "unused":
        return "player %d cannot move another piece %d" % (event[1] + 1, event[2])
    if kind == "again":
        return "a double: player %d throws again" % (event[1] + 1)
    if kind == "turn":
        return "player %d's turn (%s)" % (event[1] + 1, _NAMES[game.colour[event[1]]])
    if kind == "won":
        return "player %d (%s) wins!" % (event[1] + 1, _NAMES[game.colour[event[1]]])
    return repr(event)


# -- in the browser ------------------------------------------------------------

BLURB = "Four numbered pieces each race across the grid into the SNIGGLE Zone."
LOOK = {"surface": "#1d2a23", "frame": None, "tiles": "square", "room": 1, "pieces": True, "lions": False,
        "help": None}
MARKS = {"start": "S", "trademark": "SNIGGLE"}


def links(board, data):
    """Lines along the Zone's paths."""
    return views.track_links(board, [p["spaces"] for p in data.get("paths", ())]), []


def standings(game):
    return ["%d of 4 home" % (4 - len(game.in_play(n))) for n in range(game.players)]


def pieces(game):
    """Each piece as [owner, its number, no heading]."""
    where = [[] for _ in game.board.ids]
    for p, s in enumerate(game.pos):
        where[s].append([p // 4, str(p % 4 + 1), -1])
    return where
